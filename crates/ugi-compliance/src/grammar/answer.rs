//! `response` lines read as the answer to one `query` question.

use super::words::{read_move, Words};
use super::{quote, Refusal};
use grasshopper_rules::{Move, Position};

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
    match question {
        Question::GameOver | Question::P1Turn => {
            let word = one_of(rest, &["true", "false"], "true or false")?;
            Ok(Answer::Bool(word == "true"))
        }
        Question::Result => {
            let words = ["p1win", "p2win", "draw", "none"];
            let results = [
                GameResult::P1Win,
                GameResult::P2Win,
                GameResult::Draw,
                GameResult::None,
            ];
            let word = one_of(rest, &words, "p1win, p2win, draw or none")?;
            let at = words.iter().position(|w| *w == word).expect("one of them");
            Ok(Answer::Result(results[at]))
        }
        Question::Legal => legal(rest),
        Question::Moves => moves(rest).map(Answer::Moves),
        Question::Fen => fen(rest).map(Answer::Fen),
    }
}

fn bad(why: String) -> Refusal {
    Refusal::BadResponse(why)
}

/// The answer's one word, one of `words` (`expected` says them for messages).
fn one_of<'a>(rest: Option<&'a str>, words: &[&str], expected: &str) -> Result<&'a str, Refusal> {
    let rest = rest.ok_or_else(|| bad(format!("missing {expected}")))?;
    if rest.contains(' ') {
        return Err(bad(format!(
            "expected {expected} alone, found {}",
            quote(rest)
        )));
    }
    if !words.contains(&rest) {
        return Err(bad(format!("expected {expected}, found {}", quote(rest))));
    }
    Ok(rest)
}

/// `true`, or `false <reason>`.
fn legal(rest: Option<&str>) -> Result<Answer, Refusal> {
    match rest {
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
    }
}

/// Moves in move notation, each once (none for a bare `response`).
fn moves(rest: Option<&str>) -> Result<Vec<Move>, Refusal> {
    let Some(rest) = rest else {
        return Ok(Vec::new());
    };
    let w = Words {
        line: "response",
        text: rest,
        at: 0,
    };
    let mut moves = Vec::new();
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
    Ok(moves)
}

/// A position string in its one spelling.
fn fen(rest: Option<&str>) -> Result<Position, Refusal> {
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
    Ok(pos)
}
