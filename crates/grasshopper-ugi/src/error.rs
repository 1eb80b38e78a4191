//! Why a line is not a command the engine can run, and the error codes of
//! the `error <code> <message>` lines protocol.md lists.

use engine_daemon::{quote, LineError};
use grasshopper_rules::{ParseMoveError, ParsePositionError};
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

impl FromStr for ErrorCode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("unknown error code \"{s}\""))
    }
}

/// Why a line is not a command the engine can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("{} is not a command; expected one of {COMMAND_WORDS}", quote(.word))]
    Unknown { word: String },
    /// A known command whose arguments do not read.
    #[error("{command}: expected {expected}, found {found}")]
    Syntax {
        command: String,
        expected: &'static str,
        found: String,
    },
    /// A number with too many digits for its field.
    #[error("{command}: {found} is too large; expected {expected}")]
    TooLarge {
        command: String,
        expected: &'static str,
        found: String,
    },
    /// `position fen` with a string the rules refuse.
    #[error("position: {0}")]
    BadPosition(ParsePositionError),
    /// A move (1-based `index` in its list) that does not read as a move.
    #[error("{command}: {list} {index}: {error}")]
    BadMove {
        command: String,
        list: &'static str,
        index: usize,
        error: ParseMoveError,
    },
    /// A line that is not text or too long.
    #[error("{0}")]
    Line(LineError),
}

impl CommandError {
    /// The code of the `error` line that reports this.
    pub fn code(&self) -> ErrorCode {
        match self {
            CommandError::Unknown { .. } => ErrorCode::UnknownCommand,
            CommandError::Syntax { .. } | CommandError::TooLarge { .. } | CommandError::Line(_) => {
                ErrorCode::Syntax
            }
            CommandError::BadPosition(_) => ErrorCode::BadPosition,
            CommandError::BadMove { .. } => ErrorCode::IllegalMove,
        }
    }
}

/// Every command word, for the unknown-command message.
pub const COMMAND_WORDS: &str = "uci, ugi, isready, setoption, uginewgame, ucinewgame, position, \
     go, stop, ponderhit, query, d, perft, bench, quit";
