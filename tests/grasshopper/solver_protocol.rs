//! The engine with endgame tables (`setoption name TablePath`): in the
//! tables' phase `go` plays an optimal move and reports the proved result.

use grasshopper_rules::Position;
use grasshopper_solver::{Solver, Tables, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs the daemon on `commands`, then reads until `bestmove` (or the end of
/// output) and returns every line.
fn session(commands: &[String]) -> Vec<String> {
    let mut child = Command::new(crate::BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove") || line.starts_with("readyok");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").ok();
    drop(stdin);
    child.wait().unwrap();
    lines
}

#[test]
fn in_the_tables_phase_go_reports_the_proved_result_and_plays_optimally() {
    // Given tables for at most 4 checkers on the board, in a file
    let tables = Tables::generate(4).unwrap();
    let path = std::env::temp_dir().join(format!("solver_protocol_{}.tbl", std::process::id()));
    tables.save(&path).unwrap();
    // and positions of the phase with moves: a win, a loss and a draw
    let mut solver = Solver::new(16);
    let mut found = Vec::new();
    for i in (0..tables.len()).step_by(101) {
        let Some(p) = tables.position_at(i) else {
            continue;
        };
        if p.legal_moves().is_empty() {
            continue;
        }
        let s = solver.solve(&p);
        if !found.iter().any(|(_, v): &(Position, Value)| *v == s.value) {
            found.push((p, s.value));
        }
        if found.len() == 3 {
            break;
        }
    }
    assert_eq!(found.len(), 3, "a win, a loss and a draw");
    for (pos, _) in found {
        let solution = solver.solve(&pos);
        let best = solver.best_moves(&pos, &solution);
        // When the engine, with the tables, is asked to move there
        let lines = session(&[
            "ugi".to_string(),
            format!("setoption name TablePath value {}", path.display()),
            format!("position fen {pos}"),
            "go depth 3".to_string(),
        ]);
        let text = lines.join("\n");
        // Then it reports the proved result
        let score = match solution.mate_moves() {
            Some(n) => format!(" score mate {n} "),
            None => " score cp 0 ".to_string(),
        };
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info") && l.contains(&score)),
            "{pos}: want{score}in\n{text}"
        );
        if solution.value == Value::Draw {
            assert!(
                text.contains("info string") && text.contains("proved draw"),
                "{text}"
            );
        }
        // and plays one of the optimal moves.
        let played = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        assert!(
            best.iter().any(|m| m.to_string() == played),
            "{pos}: played {played}, optimal {best:?}"
        );
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_table_path_that_is_not_a_table_is_refused_and_the_option_lists() {
    let lines = session(&[
        "ugi".to_string(),
        "setoption name TablePath value /nonexistent/endgame.tbl".to_string(),
        "isready".to_string(),
    ]);
    let text = lines.join("\n");
    assert!(
        text.contains("option name TablePath type string default <empty>"),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error bad_option") && l.contains("/nonexistent/endgame.tbl")),
        "{text}"
    );
}
