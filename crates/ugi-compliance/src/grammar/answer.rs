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
