//! The error codes of UGI's `error <code> <message>` lines, as protocol.md
//! lists them: what the Grasshopper dialect writes and the checker accepts.

use crate::text::quote;
use std::fmt;
use std::str::FromStr;

/// The error codes of `error <code> <message>` lines, as protocol.md lists them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The first word is not a command.
    UnknownCommand,
    /// A known command with malformed arguments (also: a line that is too
    /// long or not UTF-8).
    Syntax,
    /// A position string the rules refuse.
    BadPosition,
    /// A move that cannot be read or is not legal where it is played.
    IllegalMove,
    /// An unknown option name or a bad option value.
    BadOption,
    /// A command that needs an idle engine, sent while a search, perft or bench runs.
    Busy,
}

impl ErrorCode {
    /// Every code, in the order protocol.md lists them.
    pub const ALL: [ErrorCode; 6] = [
        ErrorCode::UnknownCommand,
        ErrorCode::Syntax,
        ErrorCode::BadPosition,
        ErrorCode::IllegalMove,
        ErrorCode::BadOption,
        ErrorCode::Busy,
    ];

    /// The code as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::Syntax => "syntax",
            ErrorCode::BadPosition => "bad_position",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::BadOption => "bad_option",
            ErrorCode::Busy => "busy",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that is none of the [`ErrorCode`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownErrorCode(pub String);

impl fmt::Display for UnknownErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expected: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        write!(
            f,
            "unknown error code {}; expected one of {}",
            quote(&self.0),
            expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownErrorCode {}

impl FromStr for ErrorCode {
    type Err = UnknownErrorCode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownErrorCode(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_round_trip() {
        for c in ErrorCode::ALL {
            assert_eq!(c.to_string().parse::<ErrorCode>(), Ok(c));
        }
    }

    #[test]
    fn an_unknown_code_is_refused_quoted_with_the_codes_expected() {
        let e = "Syntax".parse::<ErrorCode>().unwrap_err();
        assert_eq!(e, UnknownErrorCode("Syntax".to_string()));
        assert_eq!(
            e.to_string(),
            "unknown error code \"Syntax\"; expected one of unknown_command, syntax, \
             bad_position, illegal_move, bad_option, busy"
        );
    }
}
