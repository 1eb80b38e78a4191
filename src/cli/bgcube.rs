//! `backgammon cube-errors`: its arguments, read into the backgammon lab's
//! settings and judged there (`backgammon_lab::cube_errors`).

use backgammon_lab::cube_errors::{self, CubeErrorsSettings};
use std::io::Write;
use std::path::PathBuf;

/// `backgammon cube-errors`.
#[derive(clap::Args, Debug)]
pub struct CubeErrorsArgs {
    /// Cube decisions to judge (each a double and a take decision).
    #[arg(long, default_value_t = 400)]
    pub decisions: usize,
    /// Seed of the self-play games the positions come from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Take the positions from these money match records (`match --game
    /// backgammon --pgn`) instead of self-play: every turn where the
    /// player on roll could double, with the cube as it was (6 a decision
    /// wanted at most, spread evenly over the file).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Our plies to judge, comma-separated.
    #[arg(long, default_value = "1,2", value_delimiter = ',')]
    pub plies: Vec<u8>,
    /// GNU Backgammon's binary.
    #[arg(long, default_value = "/usr/games/gnubg")]
    pub gnubg: PathBuf,
    /// The judge's plies in GNU Backgammon's counting (2 = its 2-ply).
    #[arg(long, default_value_t = 2)]
    pub judge_plies: u8,
    /// The Jacoby rule (on or off).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub jacoby: String,
    /// List this many of the worst decisions of the deepest of --plies
    /// (gnubg position ID, cube, the judge's and our equities).
    #[arg(long, default_value_t = 0)]
    pub worst: usize,
}

/// Runs `backgammon cube-errors`.
pub fn run(a: CubeErrorsArgs, out: &mut impl Write) -> Result<(), super::bgerror::BackgammonError> {
    let settings = CubeErrorsSettings {
        decisions: a.decisions,
        seed: a.seed,
        records: a.records,
        plies: a.plies,
        gnubg: a.gnubg,
        judge_plies: a.judge_plies,
        jacoby: a.jacoby == "on",
        worst: a.worst,
    };
    Ok(cube_errors::run(&settings, out)?)
}
