//! Recorded games replayed: the one reader of match-runner records of
//! backgammon games that the lab's commands share (`errors --records`,
//! `cube-errors --records`, `rollout-data generate --records`,
//! `benchmark-build --records`).

use backgammon_rules::{Board, Dice, Game};
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

/// Every turn of the games recorded in `path` where the mover had a
/// choice: the board seen by the mover and the dice, in the order played;
/// and the file's text.
pub fn choices(path: &Path) -> Result<(String, Vec<(Board, Dice)>), RecordsError> {
    let mut all = Vec::new();
    let text = replay(path, |game, turn| {
        let board = *game.board();
        if let Some(roll) = &turn.roll {
            if board.legal_moves(roll.dice).len() >= 2 {
                all.push((board, roll.dice));
            }
        }
    })?;
    Ok((text, all))
}

/// `n` of `all` spread evenly over it, in order (all of them when they
/// are no more than `n`), so that a sample reaches every part of the
/// records rather than their first games.
pub fn spread<T: Copy>(all: &[T], n: usize) -> Vec<T> {
    let n = n.min(all.len());
    let step = all.len() as f64 / n.max(1) as f64;
    (0..n).map(|k| all[(k as f64 * step) as usize]).collect()
}
