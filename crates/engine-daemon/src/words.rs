//! The nom building blocks every dialect's parser is made of: whole
//! keywords, words, the end of a line, commands without arguments, and the
//! first word of a text for messages. Generic over the dialect's error type.

use crate::transport::quote;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{cut, eof, peek, value};
use nom::error::{context, ContextError, ParseError};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

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
