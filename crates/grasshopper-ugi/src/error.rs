//! Why a line is not a command the engine can run, and which of the error
//! codes protocol.md lists (the protocol's vocabulary) reports it.

use engine_daemon::LineError;
use grasshopper_rules::{ParseMoveError, ParsePositionError};
use protocol_vocab::quote;
pub use protocol_vocab::ugi::ErrorCode;

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
