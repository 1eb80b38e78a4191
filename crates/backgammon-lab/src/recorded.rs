//! Recorded games replayed: the one reader of match-runner records of
//! backgammon games that the lab's commands share (`errors --records`,
//! `cube-errors --records`, `rollout-data generate --records`).

use backgammon_rules::Game;
use match_backgammon::{Backgammon, Table, Turn};
use match_runner::parse_records;
use match_runner::records::RecordError;
use std::path::{Path, PathBuf};

/// Why a records file could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// The records file cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The records file is not records of backgammon games.
    #[error("{}: {fault}", path.display())]
    Records { path: PathBuf, fault: RecordError },
}

/// Replays every game of the records in `path`, showing `visit` the game
/// before each recorded turn and the turn; a game stops at its first turn
/// the rules refuse. Returns the file's text (a caller may want its
/// digest).
pub fn replay(path: &Path, mut visit: impl FnMut(&Game, &Turn)) -> Result<String, RecordsError> {
    let text = std::fs::read_to_string(path).map_err(|source| RecordsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let parsed = parse_records::<Backgammon>(&text).map_err(|fault| RecordsError::Records {
        path: path.to_path_buf(),
        fault,
    })?;
    for record in &parsed.games {
        let mut table = Table::new(record.opening);
        for turn in &record.moves {
            visit(table.game(), turn);
            if table.apply(turn).is_err() {
                break;
            }
        }
    }
    Ok(text)
}
