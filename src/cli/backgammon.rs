//! `backgammon moves` and `backgammon show`: the backgammon rules for
//! scripts and checks. Bad input is an error naming the option, exit code 2.

use super::bgerror::BackgammonError;
use std::io::Write;

/// `backgammon`: the rules of classic backgammon from the command line.
#[derive(clap::Subcommand, Debug)]
pub enum BackgammonCommand {
    /// Every legal move in GNU Backgammon's notation, one a line, then
    /// `moves <count>` (`pass` when nothing is legal).
    Moves {
        /// GNU Backgammon's PositionID[:MatchID], or an XGID.
        #[arg(long)]
        position: String,
        /// The dice, e.g. 52 or "5 2" (default: the dice rolled in the position's Match ID or XGID).
        #[arg(long, default_value = "")]
        dice: String,
    },
    /// Draw the board (as GNU Backgammon's `show board`) and decode the IDs.
    Show {
        /// GNU Backgammon's PositionID[:MatchID], or an XGID.
        #[arg(long)]
        position: String,
    },
    /// Train the nets by TD(λ) self-play (checkpointed: rerun to resume),
    /// drawing a learning curve against pubeval in DIR/curve.csv.
    Train(super::bgnet::TrainArgs),
    /// Play an in-process cubeless money match in mirrored pairs of games.
    Duel(super::bgnet::DuelArgs),
    /// Evaluations per second on one thread and positions searched per
    /// second at 2-ply (optionally beside GNU Backgammon's evaluation).
    Bench(super::bgnet::BenchArgs),
    /// Refine trained nets on their own 2-ply values (fitted value
    /// iteration on self-play positions; checkpointed: rerun to resume).
    Refine(super::bgnet::RefineArgs),
    /// Move error rate of our checker play judged by GNU Backgammon 2-ply,
    /// beside GNU Backgammon 0-ply's on the same positions.
    Errors(super::bgerrors::ErrorsArgs),
    /// Roll out a position, or each move of a roll: cubeless and cubeful
    /// equities with standard errors (progress on stderr; resumable).
    Rollout(super::bgrollout::RolloutArgs),
    /// Our rollouts beside GNU Backgammon's on self-play positions of each
    /// class: mean absolute difference, bias, disagreements, speed.
    RolloutCheck(super::bgrollout::CheckArgs),
    /// Cube decision error rate (double and take, by position class)
    /// judged by GNU Backgammon 2-ply, beside GNU Backgammon 0-ply's.
    CubeErrors(super::bgcube::CubeErrorsArgs),
    /// Our checker-play error per class (contact, crashed, race) on our own
    /// benchmark of rolled-out positions, at each ply, beside gnubg 0-ply's.
    Benchmark(super::bgbenchmark::BenchmarkArgs),
    /// Build or extend that benchmark: plan positions, roll out their
    /// candidates shard by shard (resumable: rerun to go on).
    BenchmarkBuild(super::bgbenchmark::BuildArgs),
    /// Training data from our own rollouts: generate a shard (resumable),
    /// merge the shards, check the classes against GNU Backgammon's, fit.
    #[command(subcommand)]
    RolloutData(super::bgdata::DataCommand),
}

/// Runs a `backgammon` subcommand; `Err` carries the message for stderr.
pub fn run(
    command: BackgammonCommand,
    out: &mut impl Write,
) -> std::io::Result<Result<(), BackgammonError>> {
    let report = match command {
        BackgammonCommand::Train(a) => return Ok(super::bgnet::train(a, out)),
        BackgammonCommand::Duel(a) => return Ok(super::bgnet::run_duel(a, out)),
        BackgammonCommand::Bench(a) => return Ok(super::bgnet::bench(a, out)),
        BackgammonCommand::Refine(a) => return Ok(super::bgnet::refine(a, out)),
        BackgammonCommand::Errors(a) => return Ok(super::bgerrors::run(a, out)),
        BackgammonCommand::Rollout(a) => return Ok(super::bgrollout::run(a, out)),
        BackgammonCommand::RolloutCheck(a) => return Ok(super::bgrollout::check(a, out)),
        BackgammonCommand::CubeErrors(a) => return Ok(super::bgcube::run(a, out)),
        BackgammonCommand::Benchmark(a) => return Ok(super::bgbenchmark::score(a, out)),
        BackgammonCommand::BenchmarkBuild(a) => return Ok(super::bgbenchmark::build(a, out)),
        BackgammonCommand::RolloutData(c) => return Ok(super::bgdata::run(c, out)),
        BackgammonCommand::Moves { position, dice } => {
            backgammon_lab::report::moves_report(&position, &dice)
        }
        BackgammonCommand::Show { position } => backgammon_lab::report::show_report(&position),
    };
    match report {
        Ok(lines) => {
            for l in lines {
                writeln!(out, "{l}")?;
            }
            Ok(Ok(()))
        }
        Err(e) => Ok(Err(e.into())),
    }
}
