//! protocol.md against the code: the line limit it states, the error codes
//! of its table (in order), and its example lines, accepted and refused, as
//! the strict grammar judges them. These tests live here, at the top of the
//! workspace that owns protocol.md, so no crate reads a file outside itself.

use protocol_vocab::{ugi::ErrorCode, MAX_LINE};
use ugi_compliance::classify;

const PROTOCOL_MD: &str = include_str!("../../protocol.md");

#[test]
fn protocol_md_states_the_line_limit() {
    let sentence = format!("A line longer than {MAX_LINE} bytes");
    assert!(
        PROTOCOL_MD.contains(&sentence),
        "protocol.md lacks {sentence:?}"
    );
}

/// The codes of protocol.md's "Error codes" table, in its order.
fn codes_in_protocol_md() -> Vec<&'static str> {
    let table = PROTOCOL_MD
        .split("\n## Error codes\n")
        .nth(1)
        .expect("the section");
    let table = table.split("\n## ").next().unwrap_or_default();
    table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect()
}

#[test]
fn the_error_codes_are_those_protocol_md_lists_in_its_order() {
    let ours: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ours, codes_in_protocol_md());
}

/// The lines of protocol.md's ```text <tag> block.
fn protocol_md_block(tag: &str) -> Vec<&'static str> {
    let start = PROTOCOL_MD
        .find(&format!("```text {tag}\n"))
        .unwrap_or_else(|| panic!("protocol.md has a ```text {tag} block"));
    let body = &PROTOCOL_MD[start..];
    let body = &body[body.find('\n').expect("a fence line") + 1..];
    let end = body.find("```").expect("a closing fence");
    body[..end].lines().collect()
}

#[test]
fn protocol_md_example_lines_are_what_the_grammar_says() {
    let accepted = protocol_md_block("accepted-lines");
    assert!(accepted.len() >= 5);
    for line in accepted {
        let typed = classify(line).unwrap_or_else(|e| panic!("{line:?} refused: {e}"));
        assert_eq!(typed.to_string(), line);
    }
    let refusals = protocol_md_block("refused-lines");
    assert!(refusals.len() >= 5);
    for entry in refusals {
        let (line, why) = entry.split_once(" | ").expect("<line> | <reason>");
        let got = classify(line).map(|l| format!("accepted as {l:?}"));
        assert_eq!(got.unwrap_err().to_string(), why, "{line:?}");
    }
}
