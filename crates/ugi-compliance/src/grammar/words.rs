//! The words of a line read from the left, and the canonical numbers and
//! moves the fields are made of.

use super::{quote, Refusal};
use grasshopper_rules::Move;

/// The words of a line, read from the left.
pub(super) struct Words<'a> {
    /// The kind of line, for messages.
    pub(super) line: &'static str,
    pub(super) text: &'a str,
    pub(super) at: usize,
}

impl<'a> Words<'a> {
    pub(super) fn new(text: &'a str) -> Words<'a> {
        Words {
            line: "line",
            text,
            at: 0,
        }
    }

    /// The next word without taking it.
    pub(super) fn peek(&self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            return None;
        }
        Some(rest.split(' ').next().unwrap_or(rest))
    }

    /// Takes the next word. A word is never empty (an empty one would mean
    /// two spaces in a row, refused here).
    pub(super) fn word(&mut self) -> Option<&'a str> {
        let word = self.peek()?;
        self.at += word.len();
        if self.at < self.text.len() {
            self.at += 1; // the space
        }
        Some(word)
    }

    /// The next word, which must be there and be a word.
    pub(super) fn need(&mut self, what: &'static str) -> Result<&'a str, Refusal> {
        self.space_check()?;
        self.word().ok_or(Refusal::Missing {
            line: self.line,
            what,
        })
    }

    pub(super) fn space_check(&self) -> Result<(), Refusal> {
        if self.text[self.at..].starts_with(' ') {
            return Err(Refusal::DoubleSpace(self.at));
        }
        Ok(())
    }

    /// The rest of the line as free text, if any.
    pub(super) fn rest(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        self.at = self.text.len();
        (!rest.is_empty()).then_some(rest)
    }

    /// The rest of the line as free text, which must be there.
    pub(super) fn text(&mut self, what: &'static str) -> Result<&'a str, Refusal> {
        self.space_check()?;
        let line = self.line;
        self.rest().ok_or(Refusal::Missing { line, what })
    }

    /// Nothing may follow.
    pub(super) fn end(&mut self) -> Result<(), Refusal> {
        self.space_check()?;
        match self.word() {
            None => Ok(()),
            Some(token) => Err(Refusal::Extra {
                line: self.line,
                token: quote(token),
            }),
        }
    }

    pub(super) fn expected(&self, expected: &'static str, found: &str) -> Refusal {
        Refusal::Expected {
            line: self.line,
            expected,
            found: quote(found),
        }
    }

    /// The next word must be `keyword`.
    pub(super) fn keyword(&mut self, keyword: &'static str) -> Result<(), Refusal> {
        match self.need(keyword)? {
            w if w == keyword => Ok(()),
            w => Err(self.expected(keyword, w)),
        }
    }
}

/// A non-negative canonical decimal integer: `0` or digits not starting with 0.
pub(super) fn unsigned(
    w: &Words<'_>,
    field: &'static str,
    token: Option<&str>,
) -> Result<u64, Refusal> {
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
pub(super) fn signed(
    w: &Words<'_>,
    field: &'static str,
    token: Option<&str>,
) -> Result<i64, Refusal> {
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

pub(super) fn in_range(
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
pub(super) fn read_move(w: &Words<'_>, token: &str) -> Result<Move, Refusal> {
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
