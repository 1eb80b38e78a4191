//! `grasshopper compliance --ubgi -- CMD ARGS...` against backgammon
//! engines: ours (every check passes), GNU Backgammon through
//! tools/gnubg-ubgi (every check it offers passes), testkit's ubgi-random
//! (a foreign checker-play-only engine: level 0 met, the cube skipped), and
//! each fault of ubgi-random and of the ubgi-fault relay, each a FAIL of
//! the check it breaks.

use crate::compliance::check_with;
use std::path::PathBuf;
use std::thread;

/// The checker with 2 s of patience, as the fault cases want.
fn ubgi(engine: &[&str]) -> (bool, String) {
    check_with(&["--ubgi", "--timeout", "2000"], engine)
}

fn skipped(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("SKIP "))
        .map(|l| l.split(": ").next().unwrap())
        .collect()
}

const ALL_LEVELS: &str = "compliant with UBGI level 0 (playable core); compliant with UBGI \
                          level 1 (dueller-ready); compliant with UBGI level 2 (analysis-friendly)";

#[test]
fn our_engine_passes_every_ubgi_check() {
    let players: [&[&str]; 2] = [&[crate::BIN], &[crate::BIN, "--player", "random"]];
    thread::scope(|s| {
        for engine in players {
            s.spawn(move || {
                // The net player's first isready builds its nets: more
                // patience on two shared cores.
                let (ok, out) = check_with(&["--ubgi", "--timeout", "20000"], engine);
                assert!(ok, "{engine:?}:\n{out}");
                let summary = out.lines().last().unwrap();
                assert_eq!(
                    summary,
                    format!("summary: 24 passed, 0 failed, 0 skipped; {ALL_LEVELS}")
                );
            });
        }
    });
}

#[test]
fn gnu_backgammon_passes_every_ubgi_check_it_offers() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let gnubg = root.join("tools/gnubg-ubgi").display().to_string();
    let (ok, out) = ubgi(&[&gnubg]);
    assert!(ok, "{out}");
    assert_eq!(skipped(&out), ["position xgid"], "{out}");
    let summary = out.lines().last().unwrap();
    assert_eq!(
        summary,
        format!("summary: 23 passed, 0 failed, 1 skipped; {ALL_LEVELS}")
    );
}

#[test]
fn a_foreign_checker_play_only_engine_meets_the_playable_core_with_the_cube_skipped() {
    let engine = testkit::ubgi_random().display().to_string();
    let (ok, out) = ubgi(&[&engine]);
    assert!(ok, "{out}");
    let want = [
        "setoption (v0.1 spelling)",
        "go role chequer (v0.1)",
        "position xgid",
        "go cube",
        "go turn",
        "go take",
    ];
    assert_eq!(skipped(&out), want, "{out}");
    assert!(out.contains("SKIP go cube: not offered (error unsupported go cube)\n"));
    let summary = out.lines().last().unwrap();
    assert_eq!(
        summary,
        "summary: 18 passed, 0 failed, 6 skipped; compliant with UBGI level 0 (playable core); \
         not compliant with UBGI level 1 (dueller-ready); not compliant with UBGI level 2 \
         (analysis-friendly)"
    );
}

/// The engine command, the check that must fail, and a part of its reason.
type Fault<'a> = (Vec<String>, &'a str, &'a str);

#[test]
fn each_fault_fails_the_check_it_breaks() {
    let random = testkit::ubgi_random().display().to_string();
    let relay = testkit::ubgi_fault().display().to_string();
    let ours = crate::BIN.to_string();
    let to = |args: &[&str], engine: &[&str]| -> Vec<String> {
        let mut command = vec![relay.clone()];
        command.extend(args.iter().map(|a| a.to_string()));
        command.push("--".into());
        command.extend(engine.iter().map(|a| a.to_string()));
        command
    };
    let chequer = "FAIL dice + go chequer: ";
    let cases: Vec<Fault> = vec![
        (
            vec![random.clone(), "--fail".into(), "illegal".into()],
            chequer,
            "\"bestmove 24/1\": illegal for 31",
        ),
        (
            vec![random.clone(), "--fail".into(), "hang".into()],
            chequer,
            "no answer to go chequer within 2000 ms",
        ),
        (
            to(&["--fail", "illegal", "--fail-at", "1"], &[&random]),
            chequer,
            "\"bestmove 24/1\": illegal",
        ),
        (
            to(&["--fail", "garbage", "--fail-at", "1"], &[&random]),
            chequer,
            "\"bestmove ??\": illegal",
        ),
        (
            to(&["--fail", "crash", "--fail-at", "1"], &[&random]),
            chequer,
            "exit",
        ),
        (
            to(&["--fail", "silent", "--fail-at", "1"], &[&random]),
            chequer,
            "no answer to go chequer",
        ),
        (
            to(&["--fail", "error", "--fail-at", "1"], &[&random]),
            chequer,
            "unexpected line \"error bad_state I will not\"",
        ),
        (
            to(&["--mute"], &[&random]),
            "FAIL handshake: ",
            "no ubgiok after ubgi within 2000 ms",
        ),
        (
            to(
                &["--fail", "illegal", "--fail-on", "cube"],
                &[&ours, "--player", "random"],
            ),
            "FAIL go cube: ",
            "bad line \"bestcube maybe\": expected double or nodouble",
        ),
    ];
    let runs: Vec<(bool, String)> = thread::scope(|s| {
        let handles: Vec<_> = cases
            .iter()
            .map(|(engine, _, _)| {
                s.spawn(move || {
                    let engine: Vec<&str> = engine.iter().map(String::as_str).collect();
                    ubgi(&engine)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((engine, check, why), (ok, out)) in cases.iter().zip(runs) {
        assert!(!ok, "{engine:?} passed:\n{out}");
        let line = out
            .lines()
            .find(|l| l.starts_with(check))
            .unwrap_or_else(|| panic!("{engine:?}: no \"{check}\" line in\n{out}"));
        assert!(
            line.contains(why),
            "{engine:?}: wanted {why:?} in {line:?}\n{out}"
        );
    }
}
