//! The `solve`, `tablegen` and lab (`tune`, `selfplay`) commands, run as the real binary.

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

/// The number in `positions N of M covered ...`: (N, M).
fn covered(out: &str) -> (usize, usize) {
    let rest = field(out, "positions");
    let w: Vec<&str> = rest.split_whitespace().collect();
    (w[0].parse().unwrap(), w[2].parse().unwrap())
}

#[test]
fn retro_quality_records_the_engines_moves_and_replays_them_against_the_tables() {
    let dir = std::env::temp_dir().join(format!("solver_cli_quality_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.join("tables");
    let d = d.to_str().unwrap();
    let f = dir.join("moves.txt");
    let f = f.to_str().unwrap();
    // Given the 4-checker game solved up to level 6 (the late phases)
    let args = ["solve", "--checkers", "4", "--retro", d, "--max-level", "6"];
    let (ok, _, err) = run(&args);
    assert!(ok, "{err}");
    // When the engine's moves in covered positions are measured and recorded
    let measure = [
        "retro-quality",
        "--checkers",
        "4",
        "--positions",
        "40",
        "--max-games",
        "300",
        "--game-nodes",
        "200",
        "--movetimes",
        "1",
        "--nodes",
        "300",
        "--seed",
        "7",
    ];
    let (ok, direct, err) = run(&[&measure[..], &["--retro", d, "--record", f]].concat());
    assert!(ok, "{err}");
    let (n, of) = covered(&direct);
    assert!(n > 0 && n == of, "{direct}");
    // Then the file holds a line per position and setting
    let text = std::fs::read_to_string(f).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2 * n, "{text}");
    assert!(lines.iter().all(|l| l.split('\t').count() == 4), "{text}");
    // And replayed against the tables it scores exactly as measured
    let (ok, replay, err) = run(&["retro-quality", "--retro", d, "--replay", f]);
    assert!(ok, "{err}");
    for setting in ["movetime 1 ms:", "nodes 300:"] {
        let line = |out: &str| {
            let l = out.lines().find(|l| l.starts_with(setting));
            l.unwrap_or_else(|| panic!("no {setting} in {out}"))
                .to_string()
        };
        assert_eq!(line(&replay), line(&direct));
    }
    assert_eq!(covered(&replay), (n, n));
    // And a truth file exported from the tables scores it the same without
    // them
    let t = dir.join("truth.txt");
    let t = t.to_str().unwrap();
    let export = [
        "retro-quality",
        "--retro",
        d,
        "--replay",
        f,
        "--export-truth",
        t,
    ];
    let (ok, out, err) = run(&export);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("truth of {n} positions in ")),
        "{out}"
    );
    let (ok, by_truth, err) = run(&["retro-quality", "--truth", t, "--replay", f]);
    assert!(ok, "{err}");
    assert_eq!(covered(&by_truth), (n, n));
    for setting in ["movetime 1 ms:", "nodes 300:"] {
        let line = |out: &str| {
            out.lines()
                .find(|l| l.starts_with(setting))
                .map(str::to_string)
        };
        assert_eq!(line(&by_truth), line(&replay), "{by_truth}");
    }
    // but not the positions of new games, nor a record without a judge
    let (ok, _, err) = run(&[&measure[..], &["--truth", t]].concat());
    assert!(
        !ok && err.contains("--truth scores the positions of a record file"),
        "{err}"
    );
    let (ok, _, err) = run(&["retro-quality", "--replay", f]);
    assert!(!ok && err.contains("--truth"), "{err}");
    // And the same positions searched again (--positions-from) give the
    // same moves at a node budget
    let again = dir.join("again.txt");
    let again = again.to_str().unwrap();
    let search_again = |extra: &[&str]| {
        let args = ["retro-quality", "--retro", d, "--positions-from", f];
        let budget = ["--movetimes", "none", "--nodes", "300"];
        run(&[&args[..], &budget, extra].concat())
    };
    let (ok, out, err) = search_again(&["--record", again]);
    assert!(ok, "{err}");
    assert_eq!(covered(&out), (n, n));
    assert!(!out.contains("movetime"), "--movetimes none: {out}");
    let (ok, _, err) = run(&["retro-quality", "--retro", d, "--movetimes", "none"]);
    assert!(!ok && err.contains("nothing to measure"), "{err}");
    let node_lines = |path: &str| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| l.contains("\tnodes:300\t"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(node_lines(again), node_lines(f));
    // And each position may be searched on two threads (Lazy SMP, not
    // repeatable move for move): every position is still measured
    let (ok, out, err) = search_again(&["--threads", "2"]);
    assert!(ok, "{err}");
    assert_eq!(covered(&out), (n, n));
    assert!(out.contains("search threads 2 a position"), "{out}");
    // or only the file's first positions
    let (ok, out, err) = search_again(&["--positions", "3"]);
    assert!(ok, "{err}");
    assert_eq!(covered(&out), (3, 3));
    let (ok, _, err) = run(&["retro-quality", "--retro", d, "--threads", "0"]);
    assert!(!ok && err.contains("--threads"), "{err}");
    // And every move that loses value (a one-node search errs) is explained:
    // one line each, naming moves that keep the value, none of them the
    // engine's
    let e = dir.join("errors.txt");
    let e = e.to_str().unwrap();
    let mut weak = measure.to_vec();
    let at = weak.len() - 3;
    weak[at] = "1";
    let (ok, out, err) = run(&[&weak[..], &["--retro", d, "--errors", e]].concat());
    assert!(ok, "{err}");
    let lost: usize = out
        .lines()
        .filter(|l| l.contains(": lost value "))
        .map(|l| {
            let rest = l.split(": lost value ").nth(1).unwrap();
            rest.split_whitespace()
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    let explained = std::fs::read_to_string(e).unwrap();
    let rows: Vec<Vec<&str>> = explained
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(lost > 0, "{out}");
    assert_eq!(rows.len(), lost, "{out}\n{explained}");
    assert!(out.contains(&format!("explained {lost} errors")), "{out}");
    for r in &rows {
        assert_eq!(r.len(), 13, "{r:?}");
        let right: Vec<&str> = r[9].split(' ').collect();
        assert!(!right.is_empty() && !right.contains(&r[5]), "{r:?}");
        assert!(
            ["win->draw", "win->loss", "draw->loss"].contains(&r[4]),
            "{r:?}"
        );
    }
    // And without tables it records positions of every phase, scores nothing
    let g = dir.join("untabled.txt");
    let g = g.to_str().unwrap();
    let (ok, out, err) = run(&[&measure[..], &["--record", g]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("nothing scored"), "{out}");
    let (ok, out, err) = run(&["retro-quality", "--retro", d, "--replay", g]);
    assert!(ok, "{err}");
    let (n, of) = covered(&out);
    assert!(n < of && of == 40, "{out}");
    // And a damaged file is refused with its line
    let bad = text.replacen("\tnodes:300\t", "\tdepth:3\t", 1);
    std::fs::write(f, bad).unwrap();
    let (ok, _, err) = run(&["retro-quality", "--retro", d, "--replay", f]);
    assert!(!ok);
    assert!(err.contains("bad setting \"depth:3\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_fits_each_weight_set_to_the_tables_on_a_recorded_set() {
    let dir = std::env::temp_dir().join(format!("solver_cli_tune_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (d, f) = (path("tables"), path("moves.txt"));
    // Given the 4-checker game's late phases solved and a recorded set of
    // covered positions of engine games
    let (ok, _, err) = run(&[
        "solve",
        "--checkers",
        "4",
        "--retro",
        &d,
        "--max-level",
        "6",
    ]);
    assert!(ok, "{err}");
    let record = [
        "retro-quality",
        "--checkers",
        "4",
        "--positions",
        "60",
        "--max-games",
        "400",
        "--game-nodes",
        "200",
        "--movetimes",
        "0",
        "--seed",
        "5",
        "--retro",
        &d,
        "--record",
        &f,
    ];
    let (ok, out, err) = run(&record);
    assert!(ok, "{err}");
    let (n, _) = covered(&out);
    // When the weights are fitted to that set twice
    let tune = |extra: &[&str], out_file: &str| {
        let mut args = vec!["tune", "--retro", &d, "--checkers", "4"];
        args.extend(["--positions-from", &f, "--epochs", "50"]);
        args.extend(extra);
        args.extend(["--out", out_file]);
        run(&args)
    };
    let fit = |out_file: &str| {
        let (ok, out, err) = tune(&[], out_file);
        assert!(ok, "{err}");
        (out, std::fs::read_to_string(out_file).unwrap())
    };
    let (report, weights) = fit(&path("w1.txt"));
    // Then every position of the record is labelled, each in the set that
    // evaluates it (every late phase has a score made: no WEIGHTS_FEW)
    assert!(
        report.contains(&format!("data: 4 checkers, {n} positions")),
        "{report}"
    );
    let count = |name: &str| -> usize {
        let line = report.lines().find(|l| l.starts_with(&format!("{name}: ")));
        let line = line.unwrap_or_else(|| panic!("no {name} in {report}"));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let (us, them) = (count("WEIGHTS_LATE_US"), count("WEIGHTS_LATE_THEM"));
    assert_eq!(count("WEIGHTS_FEW"), 0, "{report}");
    assert_eq!(us + them, n, "{report}");
    assert!(us > 0 && them > 0, "{report}");
    // And each fitted set is written as its array, and the fit repeats
    assert!(
        weights.contains("pub const WEIGHTS_LATE_US: [i32; N_FEATURES] = ["),
        "{weights}"
    );
    assert!(
        weights.contains("pub const WEIGHTS_LATE_THEM: [i32; N_FEATURES] = ["),
        "{weights}"
    );
    assert!(!weights.contains("WEIGHTS_FEW"), "{weights}");
    assert_eq!(fit(&path("w2.txt")).1, weights);
    // And a truth file of the record fits the same weights without the tables
    let t = path("truth.txt");
    let export = [
        "retro-quality",
        "--retro",
        &d,
        "--replay",
        &f,
        "--export-truth",
        &t,
    ];
    let (ok, _, err) = run(&export);
    assert!(ok, "{err}");
    let w6 = path("w6.txt");
    let args = [
        "tune",
        "--truth",
        &t,
        "--checkers",
        "4",
        "--epochs",
        "50",
        "--out",
        &w6,
    ];
    let (ok, by_truth, err) = run(&args);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&w6).unwrap(), weights);
    assert!(
        by_truth.contains(&format!("data: 4 checkers, {n} positions")),
        "{by_truth}"
    );
    // And --fit fits the named set alone, the others' positions left out
    let only = |set: &str, out_file: &str| tune(&["--fit", set], out_file);
    let (ok, report, err) = only("WEIGHTS_LATE_US", &path("w4.txt"));
    assert!(ok, "{err}");
    let written = std::fs::read_to_string(path("w4.txt")).unwrap();
    assert!(written.contains("WEIGHTS_LATE_US") && !written.contains("WEIGHTS_LATE_THEM"));
    assert!(
        report.contains(&format!(
            "{them} positions evaluated with weights not fitted here"
        )),
        "{report}"
    );
    let (ok, _, err) = only("WEIGHTS_NONE", &path("w5.txt"));
    assert!(
        !ok && err.contains("WEIGHTS_NONE") && err.contains("WEIGHTS_MID"),
        "{err}"
    );
    // And a record file for a missing --retro is refused
    let args = ["tune", "--positions-from", &f, "--out", &path("w3.txt")];
    let (ok, _, err) = run(&args);
    assert!(!ok && err.contains("--positions-from"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mid_net_is_fitted_to_a_truth_file_and_the_engine_plays_with_it() {
    a_net_is_fitted_to_a_truth_file_and_the_engine_plays_with_it("mid");
}

#[test]
fn a_late_net_is_fitted_to_a_truth_file_and_the_engine_plays_with_it() {
    a_net_is_fitted_to_a_truth_file_and_the_engine_plays_with_it("late");
}

/// `tune --ROLE-net-out` and `--ROLE-net`, for the middle game's net
/// (`mid`) and the late phases' (`late`).
fn a_net_is_fitted_to_a_truth_file_and_the_engine_plays_with_it(role: &str) {
    let dir = std::env::temp_dir().join(format!("solver_cli_{role}net_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let fixture = |name: &str| format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    // Given 304 positions of whole 6-checker engine games with the exact
    // values of every move in them, and the engine's record of them
    let (truth, record) = (
        fixture("n6-middle-game.truth"),
        fixture("n6-middle-game.moves"),
    );
    // When a small net is fitted to them twice
    let fit = |out_file: &str, extra: &[&str]| {
        let args = [
            "tune",
            "--truth",
            &truth,
            "--checkers",
            "6",
            &format!("--{role}-net-out"),
            out_file,
            "--hidden",
            "4",
            "--epochs",
            "3",
            "--holdout",
            "100",
        ];
        let (ok, out, err) = run(&[&args[..], extra].concat());
        assert!(ok, "{err}");
        (out, std::fs::read_to_string(out_file).unwrap())
    };
    let (report, net) = fit(&path("a.net"), &[]);
    // Then the report counts the samples (the role's positions and the
    // positions after their moves) and the held-out error of each epoch
    let samples = report.lines().next().unwrap();
    assert!(samples.starts_with(&format!("{role} net: ")), "{report}");
    assert!(samples.contains("100 held out; 4 hidden units"), "{report}");
    assert!(report.contains("held out: linear weights "), "{report}");
    assert!(report.contains("\nepoch 3: alpha 0.00200 "), "{report}");
    // And the net is written in its text form, the same net each time
    assert!(net.starts_with("# grasshopper mid net"), "{net}");
    assert_eq!(fit(&path("b.net"), &[]).1, net);
    // And fitted with --average-with that net, the two side by side
    let (report, both) = fit(&path("avg.net"), &["--average-with", &path("a.net")]);
    assert!(
        report.contains("averaged with ") && report.contains(": 8 hidden units"),
        "{report}"
    );
    assert_eq!(both.lines().nth(1), Some("inputs 135 hidden 8"), "{both}");
    let refused = [
        &format!("--{role}-net-out"),
        &path("c.net"),
        "--average-with",
        &truth,
    ];
    let (ok, _, err) = run(&[
        &["tune", "--truth", &truth, "--checkers", "6"][..],
        &refused,
    ]
    .concat());
    assert!(
        !ok && err.contains("--average-with") && err.contains("expected the first line"),
        "{err}"
    );
    // And a net's options without a net to write are refused, not ignored
    for net_only in [
        &["--average-with", &path("a.net")][..],
        &["--loss", "cross-entropy"],
    ] {
        let (ok, _, err) = run(&[
            &["tune", "--truth", &truth, "--checkers", "6"][..],
            net_only,
        ]
        .concat());
        assert!(
            !ok && err.contains("--mid-net-out <FILE>|--late-net-out <FILE>"),
            "{err}"
        );
    }
    // And the engine loaded with it searches the positions again, scored by
    // the truth file, and chooses other moves than without it
    let option = format!("--{role}-net");
    let play = |net: &str, out_file: &str| {
        let args = [
            &option,
            net,
            "retro-quality",
            "--truth",
            &truth,
            "--positions-from",
            &record,
            "--nodes",
            "1500",
            "--movetimes",
            "0",
            "--record",
            out_file,
        ];
        let (ok, out, err) = run(&args);
        assert!(ok, "{err}");
        assert_eq!(covered(&out), (304, 304), "{out}");
        std::fs::read_to_string(out_file).unwrap()
    };
    assert_ne!(
        play(&path("a.net"), &path("a.moves")),
        play("none", &path("none.moves"))
    );
    // And a file that is not a net is refused, named, with what was expected
    let replay = ["retro-quality", "--truth", &truth, "--replay", &record];
    let (ok, _, err) = run(&[&[option.as_str(), &truth][..], &replay].concat());
    assert!(!ok, "{err}");
    assert!(
        err.contains(&format!("{option} ")) && err.contains("n6-middle-game.truth"),
        "{err}"
    );
    assert!(err.contains("expected the first line"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The last line of `bench`: `<nodes> nodes <nps> nps`; the nodes.
fn bench_nodes(main_net: &str) -> u64 {
    let (ok, out, err) = run(&["--main-net", main_net, "bench", "--depth", "3"]);
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap_or_default();
    last.split(' ').next().unwrap().parse().expect(last)
}

#[test]
fn distill_labels_self_play_resumes_and_fits_a_net_the_14_checker_engine_plays_with() {
    let dir = std::env::temp_dir().join(format!("solver_cli_distill_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let labels = path("labels.txt");
    let generate = |games: &str| {
        let args = ["--main-net", "none", "distill", "generate"];
        let more = ["--games", games, "--nodes", "300", "--out", &labels];
        let (ok, out, err) = run(&[&args[..], &more].concat());
        assert!(ok, "{err}");
        out
    };
    // Given four self-play games labelled by their 300-node searches
    let out = generate("4");
    assert!(
        out.ends_with(&format!("positions written to {labels}\n")),
        "{out}"
    );
    let four = std::fs::read_to_string(&labels).unwrap();
    let header = four.lines().next().unwrap();
    assert_eq!(
        header,
        "# grasshopper distill: checkers 14 nodes 300 seed 1 main-net none"
    );
    assert_eq!(four.matches("\n# game ").count(), 4);
    // When the run is asked for six, it keeps the four and adds two
    generate("6");
    let six = std::fs::read_to_string(&labels).unwrap();
    assert!(
        six.starts_with(&four) && six.ends_with("# game 5\n"),
        "{six}"
    );
    // And a net is fitted to the searches' scores, twice the same
    let fit = |out_file: &str| {
        let args = ["distill", "fit", "--data", &labels, "--lambda", "0"];
        let more = ["--hidden", "4", "--epochs", "3", "--holdout", "50"];
        let (ok, out, err) = run(&[&args[..], &more, &["--out", out_file]].concat());
        assert!(ok, "{err}");
        assert!(
            out.contains("main net: ") && out.contains("\nepoch 3: "),
            "{out}"
        );
        std::fs::read_to_string(out_file).unwrap()
    };
    let net = fit(&path("a.net"));
    assert_eq!(fit(&path("b.net")), net);
    // Then the engine with it searches the 14-checker bench otherwise
    assert_ne!(bench_nodes(&path("a.net")), bench_nodes("none"));
    // And a file that is not a net is refused, named
    let (ok, _, err) = run(&["--main-net", &labels, "bench", "--depth", "1"]);
    assert!(
        !ok && err.contains("--main-net ") && err.contains("labels.txt"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_says_when_the_weights_it_is_given_cannot_serve() {
    // Given a weights file (the built-in 14-checker weights' length)
    let file = crate::support::scratch("solver_cli_selfplay", "w.txt");
    let list = vec!["10"; grasshopper_engine::eval::N_FEATURES].join(", ");
    std::fs::write(&file, format!("[{list}]")).unwrap();
    let w = file.to_str().unwrap();
    let selfplay = |global: &[&str], checkers: &str| {
        let mut args = global.to_vec();
        args.extend(["selfplay", "--a-weights", w, "--pairs", "1"]);
        args.extend(["--checkers", checkers, "--a-nodes", "30", "--b-nodes", "30"]);
        let (ok, _, err) = run(&args);
        assert!(ok, "{err}");
        err
    };
    // When the game is too small for them, or the 14-checker net serves
    // Then the command plays and says why the weights change nothing
    let err = selfplay(&[], "4");
    assert!(err.contains("no effect with 4 checkers"), "{err}");
    let err = selfplay(&[], "14");
    assert!(
        err.contains("no effect while the 14-checker net serves"),
        "{err}"
    );
    // And where they do serve it says nothing
    let err = selfplay(&["--main-net", "none"], "14");
    assert!(!err.contains("no effect"), "{err}");
}
