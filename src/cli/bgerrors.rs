//! `backgammon errors`: its arguments, read into the backgammon lab's
//! settings and judged there (`backgammon_lab::errors`).

use backgammon_lab::class::NetClass;
use backgammon_lab::errors::{self, ErrorsSettings};
use std::io::Write;
use std::path::PathBuf;

/// `backgammon errors`.
#[derive(clap::Args, Debug)]
pub struct ErrorsArgs {
    /// Positions with a choice (at least two legal moves) to judge.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Seed of the self-play games the positions come from and of their rolls.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Take the positions from these match records (`match --game
    /// backgammon --pgn`) instead of self-play: the positions where a
    /// player moved with a choice, spread evenly over the file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Our plies to judge, comma-separated (1 = every move by the net).
    #[arg(long, default_value = "1,2", value_delimiter = ',')]
    pub plies: Vec<u8>,
    /// GNU Backgammon's binary.
    #[arg(long, default_value = "/usr/games/gnubg")]
    pub gnubg: PathBuf,
    /// The judge's plies in GNU Backgammon's counting (2 = its 2-ply).
    #[arg(long, default_value_t = 2)]
    pub judge_plies: u8,
    /// Only positions of this class: contact, crashed or race.
    #[arg(long)]
    pub class: Option<NetClass>,
    /// List this many of the first player's worst moves: position, dice,
    /// our move and the judge's best with their equities, gnubg 0-ply's.
    #[arg(long, default_value_t = 0)]
    pub worst: usize,
}

/// Runs `backgammon errors`.
pub fn run(a: ErrorsArgs, out: &mut impl Write) -> Result<(), super::bgerror::BackgammonError> {
    let settings = ErrorsSettings {
        positions: a.positions,
        seed: a.seed,
        records: a.records,
        plies: a.plies,
        gnubg: a.gnubg,
        judge_plies: a.judge_plies,
        class: a.class,
        worst: a.worst,
    };
    Ok(errors::run(&settings, out)?)
}
