//! Whole sessions with the real binary, kept as transcripts under
//! fixtures/sessions/ (format: tests/protocol_support/mod.rs), and the
//! example sessions and Python driver of protocol.md.

use std::path::PathBuf;
use testkit::transcript::{fenced_block, play, session_blocks};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every transcript, each played by a test below.
const FIXTURES: &[&str] = &[
    "bench",
    "display",
    "errors",
    "game_over",
    "go_limits",
    "handshake",
    "perft",
    "ponder",
    "positions",
    "queries",
    "stop_infinite",
    "ubgi_decisions",
    "ubgi_errors",
    "ubgi_handshake",
    "ubgi_match_state",
];

fn fixture(name: &str) {
    let path = root().join("fixtures/sessions").join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    play(crate::BIN, name, &text);
}

#[test]
fn every_transcript_under_fixtures_is_played() {
    let mut found: Vec<String> = std::fs::read_dir(root().join("fixtures/sessions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let expected: Vec<String> = FIXTURES.iter().map(|n| format!("{n}.txt")).collect();
    assert_eq!(found, expected);
}

#[test]
fn handshake() {
    fixture("handshake");
}

#[test]
fn positions_with_moves() {
    fixture("positions");
}

#[test]
fn legality_and_state_queries() {
    fixture("queries");
}

#[test]
fn go_with_each_limit() {
    fixture("go_limits");
}

#[test]
fn stop_during_go_infinite() {
    fixture("stop_infinite");
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    fixture("ponder");
}

#[test]
fn go_on_a_finished_game() {
    fixture("game_over");
}

#[test]
fn errors_then_recovery() {
    fixture("errors");
}

#[test]
fn perft_divide_and_total() {
    fixture("perft");
}

#[test]
fn bench_runs_the_search_benchmark() {
    fixture("bench");
}

#[test]
fn display_draws_the_board() {
    fixture("display");
}

#[test]
fn ubgi_handshake_and_keys() {
    fixture("ubgi_handshake");
}

#[test]
fn ubgi_decisions() {
    fixture("ubgi_decisions");
}

#[test]
fn ubgi_errors() {
    fixture("ubgi_errors");
}

#[test]
fn ubgi_impossible_match_states_are_refused() {
    fixture("ubgi_match_state");
}

fn protocol_md() -> String {
    std::fs::read_to_string(root().join("protocol.md")).unwrap()
}

#[test]
fn protocol_md_example_sessions_hold() {
    let blocks = session_blocks(&protocol_md());
    assert!(
        blocks.len() >= 2,
        "protocol.md should hold example sessions in ```session blocks"
    );
    for (i, b) in blocks.iter().enumerate() {
        play(crate::BIN, &format!("protocol.md session {}", i + 1), b);
    }
}

/// Runs the ```python<suffix> block of protocol.md against the real binary
/// and checks that it prints what the ```text <name> block after it shows.
/// python3 is on every machine this project supports (README).
fn python_driver(info: &str, output_info: &str) {
    let md = protocol_md();
    let script =
        fenced_block(&md, info).unwrap_or_else(|| panic!("protocol.md has a ```{info} block"));
    let expected = fenced_block(&md, output_info).unwrap_or_else(|| {
        panic!("protocol.md shows the driver's output in a ```{output_info} block")
    });
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(&script)
        .env("GRASSHOPPER", crate::BIN)
        .output()
        .expect("python3 runs (README: the machine has CPython 3)");
    assert!(
        out.status.success(),
        "driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = got.lines().collect();
    let want: Vec<&str> = expected.lines().collect();
    assert_eq!(got.len(), want.len(), "driver printed {got:?}");
    for (g, w) in got.iter().zip(&want) {
        assert!(
            testkit::transcript::glob(w, g),
            "driver printed {g:?}, protocol.md says {w:?}"
        );
    }
}

#[test]
fn protocol_md_python_driver_works() {
    python_driver("python", "text python-output");
}

#[test]
fn protocol_md_ubgi_python_driver_works() {
    python_driver("python ubgi", "text ubgi-python-output");
}

/// Every example error line in protocol.md's table of error codes is one
/// that a transcript sees the engine write (up to a trailing `...`).
#[test]
fn protocol_md_error_examples_are_real() {
    let md = protocol_md();
    let mut seen = Vec::new();
    for name in FIXTURES {
        let text =
            std::fs::read_to_string(root().join(format!("fixtures/sessions/{name}.txt"))).unwrap();
        seen.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("< "))
                .map(String::from),
        );
    }
    let examples: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            // The example is the row's last code span.
            l.split('`')
                .skip(1)
                .step_by(2)
                .filter(|e| e.starts_with("error ") && !e.contains('<'))
                .last()
        })
        .collect();
    assert_eq!(examples.len(), 6, "one example per code: {examples:?}");
    for e in examples {
        let prefix = e.trim_end_matches("...");
        assert!(
            seen.iter()
                .any(|s| s.starts_with(prefix) || testkit::transcript::glob(s, e)),
            "no transcript shows {e:?}"
        );
    }
}
