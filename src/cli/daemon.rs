//! The engine daemon the binary runs with no subcommand: the client's first
//! word picks the game. `ubgi` starts a backgammon session (UBGI); anything
//! else (`ugi`, `uci`, or a command straight away) a Grasshopper one.

use engine_daemon::MAX_LINE;
use std::io::{self, BufRead, BufReader, Cursor, Read};

/// Who chooses the moves, for either game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayerChoice {
    /// The engine's search (backgammon: the neural net with its search and cube).
    Engine,
    /// A uniformly random legal move.
    Random,
    /// Grasshopper: the best move one ply deep by the evaluation (a win in
    /// one first); backgammon: pubeval.
    Greedy,
    /// Backgammon: Tesauro's pubeval; Grasshopper: the greedy player.
    Pubeval,
}

impl PlayerChoice {
    /// The Grasshopper player.
    pub fn grasshopper(self) -> grasshopper_engine::Player {
        match self {
            PlayerChoice::Engine => grasshopper_engine::Player::Engine,
            PlayerChoice::Random => grasshopper_engine::Player::Random,
            PlayerChoice::Greedy | PlayerChoice::Pubeval => grasshopper_engine::Player::Greedy,
        }
    }

    /// The backgammon player.
    pub fn backgammon(self) -> backgammon_engine::Kind {
        match self {
            PlayerChoice::Engine => backgammon_engine::Kind::Net,
            PlayerChoice::Random => backgammon_engine::Kind::Random,
            PlayerChoice::Greedy | PlayerChoice::Pubeval => backgammon_engine::Kind::Pubeval,
        }
    }
}

/// Runs the daemon on stdin/stdout with `player` and `seed`.
pub fn run(player: PlayerChoice, seed: Option<u64>) -> io::Result<()> {
    let mut stdin = BufReader::new(io::stdin());
    let first = first_line(&mut stdin)?;
    let input = BufReader::new(Cursor::new(first.clone()).chain(stdin));
    if first.trim_ascii() == b"ubgi" {
        let settings = backgammon_ubgi::Settings {
            player: player.backgammon(),
            seed: seed.unwrap_or(0),
            ..Default::default()
        };
        backgammon_ubgi::run(input, io::stdout(), settings)
    } else {
        let options = grasshopper_engine::SearchOptions {
            player: player.grasshopper(),
            seed,
            ..Default::default()
        };
        grasshopper_ugi::run(input, io::stdout(), options)
    }
}

/// The first line that is not blank (with its line break), read at most
/// one byte past the longest line a command may have: a longer line goes
/// on, unread, to the daemon, which refuses it.
fn first_line(input: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 || !line.trim_ascii().is_empty() {
            return Ok(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_that_is_not_blank_is_read_and_nothing_more() {
        let mut input = Cursor::new(b"\n  \r\nubgi\nisready\n".to_vec());
        assert_eq!(first_line(&mut input).unwrap(), b"ubgi\n");
        let mut rest = String::new();
        input.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "isready\n");
        let mut long = Cursor::new(vec![b'x'; MAX_LINE + 10]);
        assert_eq!(first_line(&mut long).unwrap().len(), MAX_LINE + 1);
        assert!(first_line(&mut Cursor::new(Vec::new())).unwrap().is_empty());
    }
}
