//! The match runner: plays engines that speak a UCI-style protocol against
//! each other, refereed by a game's rules, and reports statistics.
//!
//! Game-agnostic parts: [`spec`] (engine specifications, time controls,
//! shards, schedules), [`clock`] (clocks charged move by move), [`turn`]
//! (asking an engine for its move), [`outcome`] (results and terminations),
//! [`records`] (PGN-style game records, written game by game and read back
//! for `--resume` and `match merge`), [`records_file`] (the records file
//! locked by one runner, rewritten atomically, appended game by game), [`stats`] (Elo, LOS, SPRT),
//! [`summary`] (the tally, progress line and JSON) and [`runner`]
//! (scheduling, concurrency, resume, shards, merge). A game plugs in through
//! the [`Game`] trait, in a crate of its own: `match-grasshopper` is the
//! first, `match-backgammon` the second; this crate knows neither game.
//!
//! The statistics stand alone; e.g. 60 wins, 20 draws and 20 losses:
//!
//! ```
//! use match_runner::Trinomial;
//!
//! let games = Trinomial { wins: 60, draws: 20, losses: 20 };
//! let elo = games.elo().expect("some games");
//! assert_eq!(elo.score, 0.7);
//! assert!((elo.elo - 147.2).abs() < 0.1); // -400 log10(1/0.7 - 1)
//! assert!(elo.lower < elo.elo && elo.elo < elo.upper);
//! assert!(elo.los > 0.99);
//! ```
//!
//! A match is [`run_match`] with [`MatchSettings`], a [`Game`] and a
//! [`ProgressSink`]; it returns a [`MatchOutcome`] holding the report. The
//! binary's `grasshopper match` builds the inputs from its command line and
//! prints the report and progress: this crate writes nothing to the terminal.

pub mod clock;
pub mod game;
pub mod outcome;
pub mod records;
pub mod records_file;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod turn;

pub use game::{Game, GameRecord, GameSettings, Replayed, Scoring};
pub use outcome::{GameResult, Played, Side, Termination};
pub use records::{parse_record_bytes, parse_records};
pub use runner::{merge, run_match, MatchOutcome, NoProgress, ProgressSink};
pub use spec::{EngineSpec, Proto, Schedule, Shard, SpecError, TimeControl};
pub use stats::{EloEstimate, Pentanomial, PointsEstimate, PointsTally, Sprt, Trinomial};
pub use summary::{Scored, Tally};

use std::path::PathBuf;
use std::time::Duration;

/// Everything a match needs to know except the game.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The engines, two or more.
    pub engines: Vec<EngineSpec>,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    /// How far past its clock or move time an engine may go.
    pub margin: Duration,
    /// Patience for the handshake and for `readyok`.
    pub timeout: Duration,
    /// How long a move may take under a depth or node limit.
    pub move_timeout: Duration,
    /// Game pairs per pairing of engines.
    pub rounds: usize,
    /// Who plays whom.
    pub schedule: Schedule,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop once the SPRT decides (two engines only).
    pub sprt: Option<Sprt>,
    /// The records file, written game by game.
    pub pgn: PathBuf,
    /// Continue the match recorded in `pgn`.
    pub resume: bool,
    /// Where to write the JSON summary.
    pub json: Option<PathBuf>,
    /// Play only this shard of the pairs.
    pub shard: Option<Shard>,
    /// The records' Event tag.
    pub event: String,
    /// A directory for each game's record in the game's own transcript
    /// format too (backgammon: `.mat` files GNU Backgammon imports).
    pub transcripts: Option<PathBuf>,
}

/// What `match merge` combines and where the result goes.
#[derive(Clone, Debug)]
pub struct MergeSettings {
    pub files: Vec<PathBuf>,
    pub pgn: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    /// Write each game's transcript here (see [`MatchSettings::transcripts`]).
    pub transcripts: Option<PathBuf>,
}

/// Why a match could not be played (game events such as crashes are not errors).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Bad or inconsistent settings.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {error}", path = .0.display(), error = .1)]
    Io(PathBuf, std::io::Error),
    /// A records file is damaged or belongs to another match.
    #[error("{path}: {message}", path = .0.display(), message = .1)]
    Records(PathBuf, String),
    /// Another runner holds the records file.
    #[error(
        "{path}: another match runner is writing these records (it holds the file's lock): \
         wait for it to end, or choose another --pgn",
        path = .0.display()
    )]
    Locked(PathBuf),
    /// An engine program could not be started at all.
    #[error("cannot start engine \"{0}\": {1}")]
    Spawn(String, std::io::Error),
}
