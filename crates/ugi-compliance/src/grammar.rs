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

use engine_client::RawLine;
use grasshopper_rules::{Move, Position};
pub use protocol_vocab::quote;
pub use protocol_vocab::ugi::ErrorCode;
use protocol_vocab::MAX_LINE;
use std::fmt;

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

/// The `info` fields that UCI has but this protocol does not.
const UCI_ONLY_INFO: [&str; 8] = [
    "currmove",
    "currmovenumber",
    "tbhits",
    "sbhits",
    "cpuload",
    "refutation",
    "currline",
    "ebf",
];

/// Words that cannot be part of an option's name.
const OPTION_KEYWORDS: [&str; 7] = ["name", "type", "default", "min", "max", "var", "value"];

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
fn check_characters(text: &str) -> Result<(), Refusal> {
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

/// The words of a line, read from the left.
struct Words<'a> {
    /// The kind of line, for messages.
    line: &'static str,
    text: &'a str,
    at: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Words<'a> {
        Words {
            line: "line",
            text,
            at: 0,
        }
    }

    /// The next word without taking it.
    fn peek(&self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            return None;
        }
        Some(rest.split(' ').next().unwrap_or(rest))
    }

    /// Takes the next word. A word is never empty (an empty one would mean
    /// two spaces in a row, refused here).
    fn word(&mut self) -> Option<&'a str> {
        let word = self.peek()?;
        self.at += word.len();
        if self.at < self.text.len() {
            self.at += 1; // the space
        }
        Some(word)
    }

    /// The next word, which must be there and be a word.
    fn need(&mut self, what: &'static str) -> Result<&'a str, Refusal> {
        self.space_check()?;
        self.word().ok_or(Refusal::Missing {
            line: self.line,
            what,
        })
    }

    fn space_check(&self) -> Result<(), Refusal> {
        if self.text[self.at..].starts_with(' ') {
            return Err(Refusal::DoubleSpace(self.at));
        }
        Ok(())
    }

    /// The rest of the line as free text, if any.
    fn rest(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        self.at = self.text.len();
        (!rest.is_empty()).then_some(rest)
    }

    /// The rest of the line as free text, which must be there.
    fn text(&mut self, what: &'static str) -> Result<&'a str, Refusal> {
        self.space_check()?;
        let line = self.line;
        self.rest().ok_or(Refusal::Missing { line, what })
    }

    /// Nothing may follow.
    fn end(&mut self) -> Result<(), Refusal> {
        self.space_check()?;
        match self.word() {
            None => Ok(()),
            Some(token) => Err(Refusal::Extra {
                line: self.line,
                token: quote(token),
            }),
        }
    }

    fn expected(&self, expected: &'static str, found: &str) -> Refusal {
        Refusal::Expected {
            line: self.line,
            expected,
            found: quote(found),
        }
    }

    /// The next word must be `keyword`.
    fn keyword(&mut self, keyword: &'static str) -> Result<(), Refusal> {
        match self.need(keyword)? {
            w if w == keyword => Ok(()),
            w => Err(self.expected(keyword, w)),
        }
    }
}

/// A non-negative canonical decimal integer: `0` or digits not starting with 0.
fn unsigned(w: &Words<'_>, field: &'static str, token: Option<&str>) -> Result<u64, Refusal> {
    let token = token.ok_or(Refusal::Missing {
        line: w.line,
        what: field,
    })?;
    let canonical = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    if !canonical {
        return Err(Refusal::NotInteger {
            line: w.line,
            field,
            found: quote(token),
        });
    }
    token.parse().map_err(|_| Refusal::OutOfRange {
        line: w.line,
        field,
        value: quote(token),
        range: "more than 64 bits",
    })
}

/// A canonical decimal integer, maybe negative (no `+`, no `-0`).
fn signed(w: &Words<'_>, field: &'static str, token: Option<&str>) -> Result<i64, Refusal> {
    let token = token.ok_or(Refusal::Missing {
        line: w.line,
        what: field,
    })?;
    let digits = token.strip_prefix('-').unwrap_or(token);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && token != "-0";
    if !canonical {
        return Err(Refusal::NotInteger {
            line: w.line,
            field,
            found: quote(token),
        });
    }
    token.parse().map_err(|_| Refusal::OutOfRange {
        line: w.line,
        field,
        value: quote(token),
        range: "more than 64 bits",
    })
}

fn in_range(
    w: &Words<'_>,
    field: &'static str,
    value: u64,
    lo: u64,
    hi: u64,
    range: &'static str,
) -> Result<u64, Refusal> {
    if value < lo || value > hi {
        return Err(Refusal::OutOfRange {
            line: w.line,
            field,
            value: value.to_string(),
            range,
        });
    }
    Ok(value)
}

/// A move in move notation, spelt canonically.
fn read_move(w: &Words<'_>, token: &str) -> Result<Move, Refusal> {
    let bad = |why: String| Refusal::BadMove {
        line: w.line,
        token: quote(token),
        why,
    };
    let m: Move = token.parse().map_err(|e| bad(format!("{e}")))?;
    if m.to_string() != token {
        return Err(bad(format!("the notation is {m}")));
    }
    Ok(m)
}

fn option(mut w: Words<'_>) -> Result<OptionLine, Refusal> {
    w.line = "option";
    w.keyword("name")?;
    let mut name: Vec<&str> = Vec::new();
    loop {
        let word = w.need("type")?;
        if word == "type" {
            break;
        }
        if OPTION_KEYWORDS.contains(&word) {
            return Err(Refusal::KeywordInName(quote(word)));
        }
        name.push(word);
    }
    if name.is_empty() {
        return Err(Refusal::Missing {
            line: "option",
            what: "a name",
        });
    }
    let kind = w.need("a type")?;
    let kind = match kind {
        "spin" => {
            w.keyword("default")?;
            let default = signed(&w, "default", w.peek())?;
            w.word();
            w.keyword("min")?;
            let min = signed(&w, "min", w.peek())?;
            w.word();
            w.keyword("max")?;
            let max = signed(&w, "max", w.peek())?;
            w.word();
            w.end()?;
            if !(min <= default && default <= max) {
                return Err(Refusal::DefaultOutOfRange { default, min, max });
            }
            OptionKind::Spin { default, min, max }
        }
        "check" => {
            w.keyword("default")?;
            let default = match w.need("true or false")? {
                "true" => true,
                "false" => false,
                other => return Err(w.expected("true or false", other)),
            };
            w.end()?;
            OptionKind::Check { default }
        }
        "string" => {
            w.keyword("default")?;
            let default = w.text("a default (<empty> for none)")?;
            OptionKind::String {
                default: default.to_string(),
            }
        }
        "combo" | "button" => return Err(Refusal::UnsupportedOptionType(kind.to_string())),
        other => return Err(w.expected("spin, check or string", other)),
    };
    Ok(OptionLine {
        name: name.join(" "),
        kind,
    })
}

fn info(mut w: Words<'_>) -> Result<Info, Refusal> {
    w.line = "info";
    let mut info = Info::default();
    let mut any = false;
    loop {
        w.space_check()?;
        let Some(field) = w.word() else { break };
        any = true;
        match field {
            "string" => {
                if info != Info::default() {
                    return Err(Refusal::StringNotAlone);
                }
                info.string = Some(w.text("a text")?.to_string());
                return Ok(info);
            }
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time" => {
                let name: &'static str = match field {
                    "depth" => "depth",
                    "seldepth" => "seldepth",
                    "multipv" => "multipv",
                    "nodes" => "nodes",
                    "nps" => "nps",
                    "hashfull" => "hashfull",
                    _ => "time",
                };
                w.space_check()?;
                let n = unsigned(&w, name, w.peek())?;
                w.word();
                let n = match name {
                    "depth" | "seldepth" => in_range(&w, name, n, 1, u64::MAX, "at least 1")?,
                    "multipv" => in_range(&w, name, n, 1, 96, "1 to 96")?,
                    "hashfull" => in_range(&w, name, n, 0, 1000, "0 to 1000 per mille")?,
                    _ => n,
                };
                let slot = match name {
                    "depth" => &mut info.depth,
                    "seldepth" => &mut info.seldepth,
                    "multipv" => &mut info.multipv,
                    "nodes" => &mut info.nodes,
                    "nps" => &mut info.nps,
                    "hashfull" => &mut info.hashfull,
                    _ => &mut info.time,
                };
                if slot.replace(n).is_some() {
                    return Err(Refusal::RepeatedInfoField(name));
                }
            }
            "score" => {
                if info.score.is_some() {
                    return Err(Refusal::RepeatedInfoField("score"));
                }
                let score = match w.need("cp or mate")? {
                    "cp" => {
                        w.space_check()?;
                        let x = signed(&w, "score cp", w.peek())?;
                        w.word();
                        Score::Cp(x)
                    }
                    "mate" => {
                        w.space_check()?;
                        let n = signed(&w, "score mate", w.peek())?;
                        w.word();
                        if n == 0 {
                            return Err(Refusal::OutOfRange {
                                line: "info",
                                field: "score mate",
                                value: "0".into(),
                                range: "not 0: moves to a proved win, negative for a loss",
                            });
                        }
                        Score::Mate(n)
                    }
                    other => return Err(w.expected("cp or mate", other)),
                };
                if let Some(bound @ ("lowerbound" | "upperbound")) = w.peek() {
                    return Err(Refusal::UnsupportedInfoField(quote(bound)));
                }
                info.score = Some(score);
            }
            "pv" => {
                // The last field: moves to the end of the line.
                loop {
                    w.space_check()?;
                    let Some(token) = w.word() else { break };
                    info.pv.push(read_move(&w, token)?);
                }
                if info.pv.is_empty() {
                    return Err(Refusal::Missing {
                        line: "info",
                        what: "a move after pv",
                    });
                }
                return Ok(info);
            }
            f if UCI_ONLY_INFO.contains(&f) => return Err(Refusal::UnsupportedInfoField(quote(f))),
            other => return Err(Refusal::UnknownInfoField(quote(other))),
        }
    }
    if !any {
        return Err(Refusal::EmptyInfo);
    }
    Ok(info)
}

fn bestmove(mut w: Words<'_>) -> Result<Line, Refusal> {
    w.line = "bestmove";
    let first = w.need("a move or (none)")?;
    if first == "(none)" {
        w.end()?;
        return Ok(Line::BestMove {
            mv: None,
            ponder: None,
        });
    }
    let mv = read_move(&w, first)?;
    w.space_check()?;
    let ponder = match w.word() {
        None => None,
        Some("ponder") => {
            let p = w.need("the ponder move")?;
            Some(read_move(&w, p)?)
        }
        Some(other) => {
            return Err(Refusal::Extra {
                line: "bestmove",
                token: quote(other),
            })
        }
    };
    w.end()?;
    Ok(Line::BestMove {
        mv: Some(mv),
        ponder,
    })
}

/// The questions of `query`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Question {
    GameOver,
    P1Turn,
    Result,
    Legal,
    Moves,
    Fen,
}

/// `query result`'s answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    P1Win,
    P2Win,
    Draw,
    None,
}

/// The engine's reason in `response false <reason>`, as it wrote it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct IllegalReason(pub String);

/// A `response` line read as the answer to a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `response true` / `response false` (gameover, p1turn).
    Bool(bool),
    /// `response p1win|p2win|draw|none`.
    Result(GameResult),
    /// `response true`, or `response false <reason>` (legal).
    Legal(Result<(), IllegalReason>),
    /// `response <move>...` (moves; `response` alone when there is none).
    Moves(Vec<Move>),
    /// `response <position string>`.
    Fen(Position),
}

/// Reads the rest of a `response` line (after `response `, `None` for a
/// bare `response`) as the answer to `question`.
pub fn answer(question: Question, rest: Option<&str>) -> Result<Answer, Refusal> {
    let bad = |why: String| Refusal::BadResponse(why);
    let one_word = |expected: &'static str| -> Result<&str, Refusal> {
        let rest = rest.ok_or_else(|| bad(format!("missing {expected}")))?;
        if rest.contains(' ') {
            return Err(bad(format!(
                "expected {expected} alone, found {}",
                quote(rest)
            )));
        }
        Ok(rest)
    };
    match question {
        Question::GameOver | Question::P1Turn => match one_word("true or false")? {
            "true" => Ok(Answer::Bool(true)),
            "false" => Ok(Answer::Bool(false)),
            other => Err(bad(format!(
                "expected true or false, found {}",
                quote(other)
            ))),
        },
        Question::Result => Ok(Answer::Result(
            match one_word("p1win, p2win, draw or none")? {
                "p1win" => GameResult::P1Win,
                "p2win" => GameResult::P2Win,
                "draw" => GameResult::Draw,
                "none" => GameResult::None,
                other => {
                    return Err(bad(format!(
                        "expected p1win, p2win, draw or none, found {}",
                        quote(other)
                    )))
                }
            },
        )),
        Question::Legal => match rest {
            Some("true") => Ok(Answer::Legal(Ok(()))),
            Some(r) if r.starts_with("false ") && r.len() > "false ".len() => {
                let reason = &r["false ".len()..];
                if reason.starts_with(' ') {
                    return Err(Refusal::DoubleSpace("response false ".len()));
                }
                Ok(Answer::Legal(Err(IllegalReason(reason.to_string()))))
            }
            Some("false") => Err(bad("false needs a reason: false <reason>".into())),
            Some(other) => Err(bad(format!(
                "expected true or false <reason>, found {}",
                quote(other)
            ))),
            None => Err(bad("missing true or false <reason>".into())),
        },
        Question::Moves => {
            let mut moves = Vec::new();
            let w = Words {
                line: "response",
                text: rest.unwrap_or(""),
                at: 0,
            };
            if let Some(rest) = rest {
                for (i, token) in rest.split(' ').enumerate() {
                    if token.is_empty() {
                        return Err(bad(format!("two spaces in a row after move {i}")));
                    }
                    let m = read_move(&w, token)?;
                    if moves.contains(&m) {
                        return Err(bad(format!("{m} listed twice")));
                    }
                    moves.push(m);
                }
            }
            Ok(Answer::Moves(moves))
        }
        Question::Fen => {
            let rest = rest.ok_or_else(|| bad("missing the position string".into()))?;
            let pos: Position = rest
                .parse()
                .map_err(|e| bad(format!("{} is not a position string: {e}", quote(rest))))?;
            if pos.to_string() != rest {
                return Err(bad(format!(
                    "{} is not written as the position string {pos}",
                    quote(rest)
                )));
            }
            Ok(Answer::Fen(pos))
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(x) => write!(f, "cp {x}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Writes the line back in the grammar's one spelling (for an accepted
/// line, the text it was read from; `info` fields in protocol.md's order).
impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::IdName(s) => write!(f, "id name {s}"),
            Line::IdAuthor(s) => write!(f, "id author {s}"),
            Line::Option(o) => {
                write!(f, "option name {} type ", o.name)?;
                match &o.kind {
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin default {default} min {min} max {max}")
                    }
                    OptionKind::Check { default } => write!(f, "check default {default}"),
                    OptionKind::String { default } => write!(f, "string default {default}"),
                }
            }
            Line::UgiOk => f.write_str("ugiok"),
            Line::UciOk => f.write_str("uciok"),
            Line::ReadyOk => f.write_str("readyok"),
            Line::Info(i) => {
                f.write_str("info")?;
                if let Some(s) = &i.string {
                    return write!(f, " string {s}");
                }
                let fields = [
                    ("depth", i.depth),
                    ("seldepth", i.seldepth),
                    ("multipv", i.multipv),
                ];
                for (name, v) in fields {
                    if let Some(v) = v {
                        write!(f, " {name} {v}")?;
                    }
                }
                if let Some(s) = i.score {
                    write!(f, " score {s}")?;
                }
                let fields = [
                    ("nodes", i.nodes),
                    ("nps", i.nps),
                    ("hashfull", i.hashfull),
                    ("time", i.time),
                ];
                for (name, v) in fields {
                    if let Some(v) = v {
                        write!(f, " {name} {v}")?;
                    }
                }
                if !i.pv.is_empty() {
                    f.write_str(" pv")?;
                    for m in &i.pv {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Line::BestMove { mv: None, .. } => f.write_str("bestmove (none)"),
            Line::BestMove {
                mv: Some(m),
                ponder: None,
            } => write!(f, "bestmove {m}"),
            Line::BestMove {
                mv: Some(m),
                ponder: Some(p),
            } => write!(f, "bestmove {m} ponder {p}"),
            Line::Response(None) => f.write_str("response"),
            Line::Response(Some(r)) => write!(f, "response {r}"),
            Line::Error { code, message } => write!(f, "error {code} {message}"),
            Line::PerftMove { mv, count } => write!(f, "{mv}: {count}"),
            Line::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Line {
        let line = classify(text).unwrap_or_else(|e| panic!("{text:?} refused: {e}"));
        line
    }

    fn refused(text: &str) -> String {
        match classify(text) {
            Ok(l) => panic!("{text:?} accepted as {l:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn what_our_engine_writes_is_accepted_and_written_back_the_same() {
        for text in [
            "id name grasshopper 0.1.0",
            "id author the grasshopper developers",
            "option name Hash type spin default 16 min 1 max 4096",
            "option name Ponder type check default false",
            "option name TablePath type string default <empty>",
            "option name Move Overhead type spin default -5 min -10 max 10",
            "ugiok",
            "uciok",
            "readyok",
            "info depth 3 seldepth 5 multipv 1 score cp -35 nodes 1234 nps 5678 hashfull 12 \
             time 217 pv bar/1 bar/2",
            "info depth 1 score mate -4 nodes 0",
            "info string game over: white has won; no move to search",
            "info string score cp 0 is a proved draw",
            "bestmove bar/3",
            "bestmove 20/off ponder pass",
            "bestmove (none)",
            "response",
            "response true",
            "response false point 2 is occupied",
            "error unknown_command \"isreadyy\" is not a command; expected one of uci",
            "error busy position: a search is running;  two spaces in free text",
            "bar/1: 480",
            "nodes 2880",
        ] {
            assert_eq!(ok(text).to_string(), text);
        }
    }

    #[test]
    fn typed_forms() {
        assert_eq!(
            ok("bestmove 3/9 ponder bar/1"),
            Line::BestMove {
                mv: Some("3/9".parse().unwrap()),
                ponder: Some("bar/1".parse().unwrap())
            }
        );
        let Line::Info(i) = ok("info depth 2 score cp 7 pv 1/7") else {
            panic!()
        };
        assert_eq!(i.depth, Some(2));
        assert_eq!(i.score, Some(Score::Cp(7)));
        assert_eq!(i.pv.len(), 1);
        assert_eq!(
            ok("error bad_option setoption: no"),
            Line::Error {
                code: ErrorCode::BadOption,
                message: "setoption: no".into()
            }
        );
        assert_eq!(
            ok("option name Checkers type spin default 14 min 2 max 14"),
            Line::Option(OptionLine {
                name: "Checkers".into(),
                kind: OptionKind::Spin {
                    default: 14,
                    min: 2,
                    max: 14
                }
            })
        );
    }

    #[test]
    fn every_refusal_says_why() {
        for (text, why) in [
            ("", "empty line"),
            ("readyok\r", "CR at byte 7"),
            ("bestmove\tbar/1", "tab at byte 8"),
            ("info string a\u{7}b", "control character"),
            (" readyok", "leading space"),
            ("readyok ", "trailing space"),
            ("bestmove  bar/1", "two spaces in a row at byte 9"),
            ("info depth 3  nodes 5", "two spaces in a row"),
            ("readyok now", "readyok: extra token \"now\""),
            ("ugiokay?", "\"ugiokay?\" is not a line"),
            ("UGIOK", "not a line"),
            ("bestmove", "bestmove: missing a move or (none)"),
            ("bestmove bar/1 bar/2", "bestmove: extra token \"bar/2\""),
            ("bestmove bar/1 ponder", "missing the ponder move"),
            ("bestmove bar/1 ponder bar/2 x", "extra token \"x\""),
            ("bestmove (none) ponder bar/1", "extra token \"ponder\""),
            ("bestmove bar/25", "\"bar/25\" is not a move"),
            ("bestmove Bar/1", "is not a move"),
            ("bestmove !!@@##", "is not a move"),
            ("bestmove 99/off", "is not a move"),
            ("info", "info: no field"),
            (
                "info depth banana",
                "depth must be a decimal integer, found \"banana\"",
            ),
            ("info depth 3.5", "must be a decimal integer"),
            ("info depth +3", "must be a decimal integer"),
            ("info depth 03", "must be a decimal integer"),
            ("info depth 0", "depth 0 is out of range"),
            ("info nodes 99999999999999999999999", "out of range"),
            ("info score cp -0", "must be a decimal integer"),
            ("info score mate 0", "out of range"),
            ("info score banana", "expected cp or mate"),
            ("info score cp 5 lowerbound", "not part of this protocol"),
            ("info depth 1 depth 2", "field depth given twice"),
            ("info currmove bar/1", "UCI's but not part of this protocol"),
            ("info wdl 1 2 3", "unknown field \"wdl\""),
            ("info pv", "missing a move after pv"),
            ("info pv bar/1 depth 3", "\"depth\" is not a move"),
            ("info depth 3 string x", "string must be the only field"),
            ("info string", "missing a text"),
            ("info hashfull 1001", "out of range"),
            ("info multipv 0", "out of range"),
            ("response  true", "two spaces in a row at byte 9"),
            ("id", "missing name or author"),
            ("id name", "missing a text"),
            ("id version 3", "expected name or author"),
            ("error", "missing an error code"),
            ("error oops something", "unknown error code \"oops\""),
            ("error syntax", "missing a message"),
            ("option name Hash type spin default 16 min 1", "missing max"),
            (
                "option name Hash type spin default 16 min 1 max 4 x",
                "extra token",
            ),
            (
                "option name Hash type spin default 16 min 1 max 4",
                "not within",
            ),
            ("option name type check default true", "missing a name"),
            (
                "option name A type check default yes",
                "expected true or false",
            ),
            (
                "option name A type combo default x var x",
                "type combo is not part",
            ),
            (
                "option name A value type check default true",
                "\"value\" is a keyword",
            ),
            ("option name A type string default", "missing a default"),
            ("nodes", "missing the count"),
            ("nodes 5 6", "extra token"),
            ("bar/1: x", "must be a decimal integer"),
            ("bar/1:", "missing a count"),
        ] {
            let got = refused(text);
            assert!(got.contains(why), "{text:?}: wanted {why:?} in {got:?}");
        }
    }

    /// The lines of protocol.md's ```text <tag> block.
    fn protocol_md_block(tag: &str) -> Vec<String> {
        let md = include_str!("../../../protocol.md");
        let start = md
            .find(&format!("```text {tag}\n"))
            .unwrap_or_else(|| panic!("protocol.md has a ```text {tag} block"));
        let body = &md[start..];
        let body = &body[body.find('\n').unwrap() + 1..];
        let end = body.find("```").unwrap();
        body[..end].lines().map(str::to_string).collect()
    }

    #[test]
    fn protocol_md_examples_are_what_the_grammar_says() {
        let accepted = protocol_md_block("accepted-lines");
        assert!(accepted.len() >= 5);
        for line in accepted {
            assert_eq!(ok(&line).to_string(), line);
        }
        let refusals = protocol_md_block("refused-lines");
        assert!(refusals.len() >= 5);
        for entry in refusals {
            let (line, why) = entry.split_once(" | ").expect("<line> | <reason>");
            assert_eq!(refused(line), why, "{line:?}");
        }
    }

    #[test]
    fn raw_lines_are_judged_by_their_bytes() {
        let raw = |text: &str, utf8, ended| RawLine {
            text: text.into(),
            utf8,
            ended,
        };
        assert_eq!(classify_raw(&raw("readyok", true, true)), Ok(Line::ReadyOk));
        assert_eq!(
            classify_raw(&raw("readyok", false, true)),
            Err(Refusal::NotUtf8)
        );
        assert_eq!(
            classify_raw(&raw("readyok", true, false)),
            Err(Refusal::Unterminated)
        );
        assert_eq!(
            classify_raw(&raw(&"x".repeat(MAX_LINE), true, false)),
            Err(Refusal::TooLong)
        );
    }

    #[test]
    fn responses_are_read_as_answers_to_their_question() {
        use Question::*;
        assert_eq!(answer(GameOver, Some("true")), Ok(Answer::Bool(true)));
        assert!(answer(GameOver, Some("true x")).is_err());
        assert!(answer(P1Turn, None).is_err());
        assert_eq!(
            answer(Result, Some("p2win")),
            Ok(Answer::Result(GameResult::P2Win))
        );
        assert!(answer(Result, Some("white")).is_err());
        assert_eq!(answer(Legal, Some("true")), Ok(Answer::Legal(Ok(()))));
        assert_eq!(
            answer(Legal, Some("false point 2 is occupied")),
            Ok(Answer::Legal(Err(IllegalReason(
                "point 2 is occupied".into()
            ))))
        );
        assert!(answer(Legal, Some("false")).is_err());
        assert!(answer(Legal, Some("true because")).is_err());
        assert_eq!(answer(Moves, None), Ok(Answer::Moves(vec![])));
        assert_eq!(
            answer(Moves, Some("bar/1 bar/2")).unwrap(),
            Answer::Moves(vec!["bar/1".parse().unwrap(), "bar/2".parse().unwrap()])
        );
        assert!(answer(Moves, Some("bar/1 bar/1")).is_err());
        assert!(answer(Moves, Some("bar/1 x")).is_err());
        let start = "....../....../....../...... w 14 14 0-0 -";
        assert_eq!(
            answer(Fen, Some(start)),
            Ok(Answer::Fen(start.parse().unwrap()))
        );
        assert!(answer(Fen, Some("....../....../....../...... x 14 14 0-0 -")).is_err());
        assert!(answer(Fen, None).is_err());
    }
}
