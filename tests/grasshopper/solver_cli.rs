//! The `solve` and `tablegen` commands, run as the real binary.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(crate::BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {key} line in:\n{out}"))
}

#[test]
fn solve_reports_value_distance_best_moves_and_costs() {
    // Given a 4-checker position where White, having scored once, has a wall
    // in D and can bear it off for the win
    let fen = "....../....../....../W..... w 0 4 1-0 w1";
    // When it is solved
    let (ok, out, err) = run(&["solve", "--fen", fen, "--hash-mb", "4"]);
    // Then the report says: win in one ply, by bearing off
    assert!(ok, "{err}");
    assert_eq!(field(&out, "position"), fen);
    assert_eq!(field(&out, "value"), "win");
    assert_eq!(field(&out, "plies"), "1");
    assert_eq!(field(&out, "mate"), "1");
    assert_eq!(field(&out, "bestmoves"), "19/off");
    for key in ["visited", "stored", "time", "peak_rss_mib"] {
        assert!(!field(&out, key).is_empty());
    }
}

#[test]
fn the_two_checker_game_is_a_draw_and_every_entry_keeps_it() {
    // Each player can score only once, so nobody can score twice in a row.
    let (ok, out, err) = run(&["solve", "--checkers", "2", "--hash-mb", "4"]);
    assert!(ok, "{err}");
    assert_eq!(field(&out, "value"), "draw");
    assert_eq!(field(&out, "plies"), "-");
    assert_eq!(
        field(&out, "bestmoves"),
        "bar/1 bar/2 bar/3 bar/4 bar/5 bar/6"
    );
}

#[test]
fn tablegen_writes_a_table_that_solve_can_use() {
    let dir = std::env::temp_dir().join(format!("solver_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t4.tbl");
    let p = path.to_str().unwrap();
    // Given tables generated for at most 4 checkers on the board
    let (ok, out, err) = run(&["tablegen", "--out", p, "--max-checkers", "4"]);
    assert!(ok, "{err}");
    assert_eq!(field(&out, "bound"), "4");
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert_eq!(field(&out, "bytes"), bytes.to_string());
    // When a position of the phase is solved with them
    let fen = "....../....../....../wbwb.. b 0 0 1-1 w1";
    let (ok, out, err) = run(&["solve", "--fen", fen, "--tables", p, "--hash-mb", "4"]);
    // Then the table answers it: lone checkers in D never move, a draw.
    assert!(ok, "{err}");
    assert_eq!(field(&out, "value"), "draw");
    assert_eq!(field(&out, "table_hits"), "1");
    // And a file that is not a table is refused with a reason.
    let junk = dir.join("junk.tbl");
    std::fs::write(&junk, b"hello").unwrap();
    let (ok, _, err) = run(&["solve", "--tables", junk.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("not an endgame table"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_retro_solves_phases_in_pieces_and_reports_what_is_known() {
    let dir = std::env::temp_dir().join(format!("solver_cli_retro_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    // Given the 4-checker game solved by retrograde analysis up to level 4
    let (ok, out, err) = run(&[
        "solve",
        "--checkers",
        "4",
        "--retro",
        d,
        "--max-level",
        "4",
        "--threads",
        "2",
    ]);
    assert!(ok, "{err}");
    // Then the start's value is not known yet, one unit of 39 is done
    assert_eq!(field(&out, "value"), "unknown");
    assert_eq!(field(&out, "method"), "retrograde");
    assert_eq!(field(&out, "units"), "1/39");
    assert_eq!(field(&out, "computed"), "143130");
    assert!(err.contains("retro: N=4 units 39"), "{err}");
    for key in ["time", "cpu", "peak_rss_mib", "disk_bytes"] {
        assert!(!field(&out, key).is_empty());
    }
    // and a position of that phase is answered from the table.
    let fen = "....../....../.w.b../.w.b.. w 0 0 1-1 w1";
    let (ok, out, err) = run(&["solve", "--fen", fen, "--retro", d, "--max-level", "4"]);
    assert!(ok, "{err}");
    assert_eq!(field(&out, "computed"), "0");
    assert_eq!(field(&out, "value"), "win");
    std::fs::remove_dir_all(&dir).unwrap();
}
