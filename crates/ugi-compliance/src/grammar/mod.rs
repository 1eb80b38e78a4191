//! The strict grammar of every line an engine speaking protocol.md may
//! write, one line at a time: [`classify`] gives the line's typed form or
//! refuses it with the exact reason. It is as strict as protocol.md's
//! "Line grammar" section says, token by token: words are separated by
//! single spaces, a line has no leading or trailing space, no CR, no tab and
//! no other control character, numbers are canonical decimal integers, moves
//! are in move notation, and every form has its exact number of tokens.
//! Free text (the rest of an `id`, `info string`, `error` or `response
//! false` line, a string option's default) is any non-empty run of
//! printable characters.
//!
//! Whether a line is the right answer *at this moment* (a `readyok` after
//! `isready`, a legal `bestmove` in the position) is for the caller to
//! judge; [`answer`] reads a `response` line as the answer to one question.

mod answer;
mod display;
mod fields;
mod refusal;
#[cfg(test)]
mod tests;
mod words;

pub use answer::{answer, Answer, GameResult, IllegalReason, Question};
pub use refusal::Refusal;

use engine_client::RawLine;
use fields::{bestmove, info, option};
use grasshopper_rules::Move;
pub use protocol_vocab::quote;
pub use protocol_vocab::ugi::ErrorCode;
use protocol_vocab::MAX_LINE;
use words::{read_move, unsigned, Words};

/// A line the grammar accepts, in its typed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// `id name <text>`.
    IdName(String),
    /// `id author <text>`.
    IdAuthor(String),
    /// `option name <name> type <kind> default ...`.
    Option(OptionLine),
    /// `ugiok`.
    UgiOk,
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info <field>...` or `info string <text>`.
    Info(Info),
    /// `bestmove <move>`, `bestmove <move> ponder <move>`, or `bestmove
    /// (none)` (`mv` is `None`; then `ponder` is too).
    BestMove {
        mv: Option<Move>,
        ponder: Option<Move>,
    },
    /// `response` with the rest of the line, if any (read it with [`answer`]).
    Response(Option<String>),
    /// `error <code> <message>`.
    Error { code: ErrorCode, message: String },
    /// `<move>: <count>`, a line of a `perft` answer.
    PerftMove { mv: Move, count: u64 },
    /// `nodes <count>`, the last line of a `perft` answer.
    Nodes(u64),
}

/// `option name <name> type <kind> default ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    /// The name: one or more words, none of them a keyword of the line.
    pub name: String,
    pub kind: OptionKind,
}

/// An option's type with its default (and range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin default <n> min <n> max <n>`, min <= default <= max.
    Spin { default: i64, min: i64, max: i64 },
    /// `type check default true|false`.
    Check { default: bool },
    /// `type string default <text>` (`<empty>` for the empty string).
    String { default: String },
}

/// The fields of an `info` line (each at most once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u64>,
    pub seldepth: Option<u64>,
    pub multipv: Option<u64>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u64>,
    pub time: Option<u64>,
    /// `pv <move>...`: at least one move, and the last field.
    pub pv: Vec<Move>,
    /// `info string <text>`: the only field of its line.
    pub string: Option<String>,
}

/// `score cp <x>` or `score mate <n>` (n not 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

/// Classifies a line as the engine wrote it: also refused when it was not
/// UTF-8, longer than [`MAX_LINE`] bytes, or not ended by LF.
pub fn classify_raw(raw: &RawLine) -> Result<Line, Refusal> {
    if !raw.ended {
        return Err(if raw.text.len() >= MAX_LINE {
            Refusal::TooLong
        } else {
            Refusal::Unterminated
        });
    }
    if !raw.utf8 {
        return Err(Refusal::NotUtf8);
    }
    classify(&raw.text)
}

/// Classifies one line (without its LF).
pub fn classify(text: &str) -> Result<Line, Refusal> {
    check_characters(text)?;
    let mut w = Words::new(text);
    let first = w.word().expect("checked: not empty");
    match first {
        "id" => {
            w.line = "id";
            let which = w.need("name or author")?;
            let rest = w.text("a text")?;
            match which {
                "name" => Ok(Line::IdName(rest.to_string())),
                "author" => Ok(Line::IdAuthor(rest.to_string())),
                other => Err(w.expected("name or author", other)),
            }
        }
        "option" => option(w).map(Line::Option),
        "ugiok" | "uciok" | "readyok" => {
            w.line = match first {
                "ugiok" => "ugiok",
                "uciok" => "uciok",
                _ => "readyok",
            };
            w.end()?;
            Ok(match first {
                "ugiok" => Line::UgiOk,
                "uciok" => Line::UciOk,
                _ => Line::ReadyOk,
            })
        }
        "info" => info(w).map(Line::Info),
        "bestmove" => bestmove(w),
        "response" => {
            w.line = "response";
            w.space_check()?;
            Ok(Line::Response(w.rest().map(str::to_string)))
        }
        "error" => {
            w.line = "error";
            let code = w.need("an error code")?;
            let code = ErrorCode::ALL
                .into_iter()
                .find(|c| c.as_str() == code)
                .ok_or_else(|| Refusal::UnknownErrorCode(quote(code)))?;
            let message = w.text("a message")?.to_string();
            Ok(Line::Error { code, message })
        }
        "nodes" => {
            w.line = "nodes";
            w.space_check()?;
            let n = unsigned(&w, "the count", w.peek())?;
            w.word();
            w.end()?;
            Ok(Line::Nodes(n))
        }
        word if word.ends_with(':') => {
            w.line = "perft";
            let mv = read_move(&w, &word[..word.len() - 1])?;
            let count = w.need("a count")?;
            let count = unsigned(&w, "the count", Some(count))?;
            w.end()?;
            Ok(Line::PerftMove { mv, count })
        }
        other => Err(Refusal::UnknownLine(quote(other))),
    }
}

/// The characters of a line: printable, single spaces between words.
pub(crate) fn check_characters(text: &str) -> Result<(), Refusal> {
    if text.is_empty() {
        return Err(Refusal::Empty);
    }
    for (i, c) in text.char_indices() {
        match c {
            '\r' => return Err(Refusal::Cr(i)),
            '\t' => return Err(Refusal::Tab(i)),
            c if c.is_control() => return Err(Refusal::Control(c, i)),
            _ => {}
        }
    }
    if text.starts_with(' ') {
        return Err(Refusal::LeadingSpace);
    }
    if text.ends_with(' ') {
        return Err(Refusal::TrailingSpace);
    }
    Ok(())
}
