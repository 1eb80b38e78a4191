//! The backgammon dialect of the engine protocol: UBGI v0.2 (Universal
//! Backgammon Interface), the v0.1 spellings still in use, and documented
//! extensions (the take decision, match context in the position, queries,
//! `d`), on the daemon core ([`engine_daemon`]). protocol.md is the
//! reference.

pub mod command;
pub mod keys;
pub mod parse;
pub mod session;

pub use command::{Command, Decision, PositionText, Query};
pub use keys::Settings;
pub use parse::{parse_command, CommandError, ErrorCode};
pub use session::Ubgi;

use std::io::{self, BufRead, Write};

/// Runs the backgammon daemon until `quit` or the end of input.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
) -> io::Result<()> {
    engine_daemon::run(input, output, Ubgi::new(settings))
}
