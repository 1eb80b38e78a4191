//! Why a line is refused: one variant per rule of the grammar, each message
//! quoting the offending token.

use protocol_vocab::MAX_LINE;

/// Why a line is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("not UTF-8")]
    NotUtf8,
    #[error("longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("not ended by LF (the output ended in the middle of the line)")]
    Unterminated,
    #[error("empty line")]
    Empty,
    #[error("CR at byte {0} (lines end with LF alone)")]
    Cr(usize),
    #[error("tab at byte {0} (words are separated by single spaces)")]
    Tab(usize),
    #[error("control character {0:?} at byte {1}")]
    Control(char, usize),
    #[error("leading space")]
    LeadingSpace,
    #[error("trailing space")]
    TrailingSpace,
    #[error("two spaces in a row at byte {0} (words are separated by single spaces)")]
    DoubleSpace(usize),
    #[error("{0} is not a line an engine writes (unknown first word)")]
    UnknownLine(String),
    #[error("{line}: missing {what}")]
    Missing {
        line: &'static str,
        what: &'static str,
    },
    #[error("{line}: extra token {token}")]
    Extra { line: &'static str, token: String },
    #[error("{line}: expected {expected}, found {found}")]
    Expected {
        line: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("info: unknown field {0}")]
    UnknownInfoField(String),
    #[error("info: field {0} is UCI's but not part of this protocol")]
    UnsupportedInfoField(String),
    #[error("info: field {0} given twice")]
    RepeatedInfoField(&'static str),
    #[error("info: no field")]
    EmptyInfo,
    #[error("info: string must be the only field (info string <text>)")]
    StringNotAlone,
    #[error("{line}: {field} must be a decimal integer, found {found}")]
    NotInteger {
        line: &'static str,
        field: &'static str,
        found: String,
    },
    #[error("{line}: {field} {value} is out of range ({range})")]
    OutOfRange {
        line: &'static str,
        field: &'static str,
        value: String,
        range: &'static str,
    },
    #[error("{line}: {token} is not a move: {why}")]
    BadMove {
        line: &'static str,
        token: String,
        why: String,
    },
    #[error("error: unknown error code {0}")]
    UnknownErrorCode(String),
    #[error("option: {0} is a keyword, not part of a name")]
    KeywordInName(String),
    #[error("option: type {0} is not part of this protocol (spin, check, string)")]
    UnsupportedOptionType(String),
    #[error("option: default {default} is not within min {min} and max {max}")]
    DefaultOutOfRange { default: i64, min: i64, max: i64 },
    #[error("response: {0}")]
    BadResponse(String),
}
