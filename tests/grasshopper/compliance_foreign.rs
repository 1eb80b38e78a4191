//! `grasshopper compliance` against a UGI engine that is not ours:
//! testkit's ugi-random, which implements only the UGI core and passes over
//! our extensions in silence. Compliant with the core (exit 0), every
//! extension skipped, never failed; an illegal move or a hang is a FAIL
//! naming the line.

use crate::compliance::check_with;

/// Our extensions' checks: each skipped as not offered.
const EXTENSIONS: [&str; 15] = [
    "handshake uci",
    "query legal",
    "query moves",
    "query fen",
    "go ponder + ponderhit",
    "go ponder + stop",
    "Ponder true: bestmove ponder",
    "MultiPV",
    "perft",
    "error unknown_command",
    "error syntax",
    "error bad_position",
    "error illegal_move",
    "error bad_option",
    "error busy",
];

fn ugi_random(args: &[&str]) -> (bool, String) {
    let engine = testkit::ugi_random().display().to_string();
    let mut command = vec![engine.as_str()];
    command.extend_from_slice(args);
    check_with(&["--timeout", "1000", "--margin", "500"], &command)
}

#[test]
fn a_core_only_ugi_engine_is_compliant_with_the_core_and_its_extensions_skipped() {
    let (ok, out) = ugi_random(&[]);
    assert!(ok, "{out}");
    let skipped: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("SKIP "))
        .map(|l| l.strip_suffix(": not offered").unwrap_or(l))
        .collect();
    assert_eq!(skipped, EXTENSIONS, "{out}");
    assert!(!out.contains("FAIL "), "{out}");
    let summary = out.lines().last().unwrap();
    assert_eq!(
        summary,
        "summary: 26 passed, 0 failed, 15 skipped; compliant with the UGI core; \
         does not offer all of the extensions"
    );
}

#[test]
fn an_illegal_move_or_a_hang_of_the_foreign_engine_fails_naming_the_line() {
    let (ok, out) = ugi_random(&["--fail", "illegal"]);
    assert!(!ok, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("FAIL go depth: "))
        .unwrap();
    assert!(
        line.contains("\"bestmove ") && line.contains("\": illegal in "),
        "{line}"
    );
    let (ok, out) = ugi_random(&["--fail", "hang"]);
    assert!(!ok, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("FAIL go depth: "))
        .unwrap();
    assert_eq!(
        line,
        "FAIL go depth: no bestmove after go depth 2 within 1000 ms"
    );
    assert!(
        out.ends_with("not compliant with the UGI core; does not offer all of the extensions\n"),
        "{out}"
    );
}
