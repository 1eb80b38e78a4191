//! The nom building blocks every dialect's parser is made of: whole
//! keywords, words, the end of a line, commands without arguments, and the
//! first word of a text for messages, and the error type the parsers share.
//! Generic over what a dialect can say went wrong.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{cut, eof, peek, value};
use nom::error::{context, ContextError, ErrorKind, ParseError};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
use protocol_vocab::quote;

/// What a dialect's parser can report beyond "did not match".
pub trait Problem: Clone {
    /// A nom parser did not match.
    const UNMATCHED: Self;

    /// Whether this is [`Problem::UNMATCHED`].
    fn is_unmatched(&self) -> bool;
}

/// A parser's error: where it happened, what was expected there (the
/// innermost `context` wins), and the dialect's problem.
#[derive(Clone, Debug, PartialEq)]
pub struct PError<'a, P> {
    pub at: &'a str,
    pub expected: Option<&'static str>,
    pub problem: P,
}

impl<'a, P> PError<'a, P> {
    /// `problem` at `at`, with nothing expected yet.
    pub fn new(at: &'a str, problem: P) -> Self {
        PError {
            at,
            expected: None,
            problem,
        }
    }
}

impl<'a, P: Problem> ParseError<&'a str> for PError<'a, P> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        PError::new(input, P::UNMATCHED)
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a, P: Problem> ContextError<&'a str> for PError<'a, P> {
    /// The innermost context names what was expected; for a plain mismatch
    /// the place becomes the context's start, so the message quotes the
    /// word that should have been the expected thing. A specific problem
    /// keeps its own place.
    fn add_context(input: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.expected.is_none() {
            other.expected = Some(ctx);
            if other.problem.is_unmatched() {
                other.at = input;
            }
        }
        other
    }
}

/// `word`, as a whole word (followed by whitespace or the end of the line).
pub fn keyword<'a, E: ParseError<&'a str>>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = E> {
    terminated(tag(word), peek(alt((space1, eof))))
}

/// One word: a run of characters other than space and tab.
pub fn word<'a, E: ParseError<&'a str>>(input: &'a str) -> IResult<&'a str, &'a str, E> {
    take_till1(|c| c == ' ' || c == '\t').parse(input)
}

/// The end of the line; `what` says what else could have come.
pub fn end<'a, E: ParseError<&'a str> + ContextError<&'a str>>(
    what: &'static str,
) -> impl Parser<&'a str, Output = (), Error = E> {
    context(what, value((), (space0, eof)))
}

/// A command without arguments: the keyword, then the end of the line.
pub fn bare<'a, C: Clone, E: ParseError<&'a str> + ContextError<&'a str>>(
    word: &'static str,
    command: C,
) -> impl Parser<&'a str, Output = C, Error = E> {
    preceded(keyword(word), cut(end("end of line"))).map(move |_| command.clone())
}

/// The first word of `text` quoted, or `end of line`.
pub fn found(text: &str) -> String {
    match text.split([' ', '\t']).find(|w| !w.is_empty()) {
        Some(w) => quote(w),
        None => "end of line".to_string(),
    }
}

/// The first word of a line (the command word), or "".
pub fn first_word(line: &str) -> &str {
    line.split([' ', '\t'])
        .find(|w| !w.is_empty())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    type E<'a> = nom::error::Error<&'a str>;

    #[test]
    fn keywords_are_whole_words() {
        assert!(keyword::<E>("go").parse("go depth 1").is_ok());
        assert!(keyword::<E>("go").parse("go").is_ok());
        assert!(keyword::<E>("go").parse("gone").is_err());
        assert_eq!(word::<E>("a/b c"), Ok((" c", "a/b")));
        assert_eq!(found("  x y"), "\"x\"");
        assert_eq!(found(" "), "end of line");
        assert_eq!(first_word("\tgo depth"), "go");
    }
}
