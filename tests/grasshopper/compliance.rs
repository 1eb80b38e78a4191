//! `grasshopper compliance -- CMD ARGS...` against our engine, its
//! baseline players and the fake engine (all PASS, exit 0), and against
//! each of the fake engine's faults (each reported as a FAIL of the check
//! it breaks, exit non-zero). The fake's `--fail slow` (500 ms at every go)
//! is played by `--delay 200` against a 50 ms margin here, to keep the run
//! short; match_faults.rs plays `--fail slow` itself.

use std::process::Command;
use std::thread;

/// Runs the checker on `engine`; its exit status and stdout. The margin
/// past movetime and clocks is generous: the tests share two cores.
pub fn compliance(engine: &[&str]) -> (bool, String) {
    check_with(&["--timeout", "5000", "--margin", "500"], engine)
}

pub fn check_with(settings: &[&str], engine: &[&str]) -> (bool, String) {
    let out = Command::new(crate::BIN)
        .arg("compliance")
        .args(settings)
        .arg("--")
        .args(engine)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn fake() -> String {
    testkit::fake_engine().display().to_string()
}

/// Every line is `PASS <check>`, extensions included, but the `skipped`
/// ones, the summary says so, and the exit status is 0.
fn all_pass(engine: &[&str], skipped: &[&str]) {
    let (ok, out) = compliance(engine);
    let mut lines: Vec<&str> = out.lines().collect();
    let summary = lines.pop().unwrap_or_default();
    assert_eq!(lines.len(), 41, "{engine:?}:\n{out}");
    for line in &lines {
        let skip = skipped
            .iter()
            .any(|s| *line == format!("SKIP {s}: not offered"));
        assert!(
            line.starts_with("PASS ") || skip,
            "{engine:?}: {line}\n{out}"
        );
    }
    let extensions = match skipped.is_empty() {
        true => "offers all of the extensions",
        false => "does not offer all of the extensions",
    };
    let want = format!(
        "summary: {} passed, 0 failed, {} skipped; compliant with the UGI core; {extensions}",
        lines.len() - skipped.len(),
        skipped.len()
    );
    assert_eq!(summary, want, "{engine:?}:\n{out}");
    assert!(ok, "{engine:?}:\n{out}");
}

#[test]
fn our_engine_passes_every_check() {
    all_pass(&[crate::BIN], &[]);
}

#[test]
fn the_baseline_players_and_the_fake_engine_pass_every_check_they_offer() {
    let fake = fake();
    // The fake engine has no perft.
    let engines: [(&[&str], &[&str]); 3] = [
        (&[crate::BIN, "--player", "random", "--seed", "1"], &[]),
        (&[crate::BIN, "--player", "greedy"], &[]),
        (&[&fake, "--mode", "random", "--seed", "4"], &["perft"]),
    ];
    thread::scope(|s| {
        for (engine, skipped) in engines {
            s.spawn(move || all_pass(engine, skipped));
        }
    });
}

#[test]
fn each_fault_of_the_fake_engine_fails_the_check_it_breaks() {
    let fake = fake();
    // The fault, and a FAIL line that must be printed (its start, then a
    // part of the reason).
    let cases: [(&[&str], &str, &str); 10] = [
        (
            &["--fail", "illegal"],
            "FAIL go depth: ",
            "\"bestmove bar/7\": illegal",
        ),
        (
            &["--fail", "crash"],
            "FAIL go depth: ",
            "exited (exit status: 3)",
        ),
        (
            &["--fail", "silent"],
            "FAIL handshake: ",
            "no ugiok after ugi within 1000 ms",
        ),
        (
            &["--fail", "garbage"],
            "FAIL handshake: ",
            "bad line \"zzz \u{fffd}\u{fffd} noise 1\": not UTF-8",
        ),
        (
            &["--fail", "garbage", "--fail-after", "0"],
            "FAIL go depth: ",
            "bad line \"info score banana\"",
        ),
        (&["--delay", "200"], "FAIL go movetime: ", "150 allowed"),
        (
            &["--fail", "flood"],
            "FAIL go depth: ",
            "longer than 65536 bytes",
        ),
        (
            &["--fail", "stale"],
            "FAIL go depth: ",
            "unexpected line \"bestmove",
        ),
        (
            &["--fail", "ponder"],
            "FAIL go depth: ",
            "a ponder move while the Ponder option is false",
        ),
        (
            &["--fail", "crlf"],
            "FAIL handshake: ",
            "bad line \"id name fake-engine first\\r\": CR at byte 25",
        ),
    ];
    let runs: Vec<_> = thread::scope(|s| {
        let handles: Vec<_> = cases
            .iter()
            .map(|(args, _, _)| {
                let fake = &fake;
                s.spawn(move || {
                    let mut engine = vec![fake.as_str()];
                    engine.extend_from_slice(args);
                    // Short patience: the fake answers at once when it answers.
                    check_with(&["--timeout", "1000", "--margin", "50"], &engine)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((args, check, why), (ok, out)) in cases.iter().zip(runs) {
        assert!(!ok, "{args:?} passed:\n{out}");
        let line = out
            .lines()
            .find(|l| l.starts_with(check))
            .unwrap_or_else(|| panic!("{args:?}: no \"{check}\" line in\n{out}"));
        assert!(
            line.contains(why),
            "{args:?}: wanted {why:?} in {line:?}\n{out}"
        );
        // Every line a verdict, then the summary.
        let (summary, verdicts) = out
            .lines()
            .collect::<Vec<_>>()
            .split_last()
            .map(|(s, v)| (*s, v.to_vec()))
            .unwrap();
        assert!(verdicts
            .iter()
            .all(|l| l.starts_with("PASS ") || l.starts_with("FAIL ") || l.starts_with("SKIP ")));
        assert!(
            summary.contains("not compliant with the UGI core"),
            "{summary}"
        );
    }
}

#[test]
fn the_command_needs_an_engine_and_reports_a_missing_one() {
    let out = Command::new(crate::BIN).arg("compliance").output().unwrap();
    assert!(!out.status.success());
    let (ok, out) = compliance(&["/nonexistent/engine"]);
    assert!(!ok);
    assert!(
        out.starts_with("FAIL handshake: the engine cannot be started"),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().collect();
    let (summary, rest) = lines[1..].split_last().unwrap();
    assert!(rest.iter().all(|l| l.contains("not checked")), "{out}");
    assert!(
        summary.starts_with("summary: 0 passed, 41 failed, 0 skipped"),
        "{out}"
    );
}
