//! The error of the `backgammon` subcommands, apart from their dispatcher so
//! that each subcommand's file and the dispatcher both depend on it and not
//! on each other.

/// Why a `backgammon` subcommand failed: the lab's error of each command,
/// its message unchanged.
#[derive(Debug, thiserror::Error)]
pub enum BackgammonError {
    #[error(transparent)]
    Report(#[from] backgammon_lab::report::ReportError),
    #[error(transparent)]
    Nets(#[from] backgammon_engine::eval::NetsError),
    #[error(transparent)]
    Train(#[from] backgammon_lab::train::TrainError),
    #[error(transparent)]
    Duel(#[from] backgammon_lab::players::PlayerError),
    #[error(transparent)]
    Bench(#[from] backgammon_lab::bench::BenchError),
    #[error(transparent)]
    Refine(#[from] backgammon_lab::refine::RefineError),
    #[error(transparent)]
    Errors(#[from] backgammon_lab::errors::ErrorsError),
    #[error(transparent)]
    Rollout(#[from] backgammon_lab::rollout::RolloutReportError),
    #[error(transparent)]
    RolloutCheck(#[from] backgammon_lab::rollout_check::CheckError),
    #[error(transparent)]
    CubeErrors(#[from] backgammon_lab::cube_errors::CubeErrorsError),
    #[error(transparent)]
    Benchmark(#[from] backgammon_lab::benchmark::BenchmarkError),
    #[error(transparent)]
    RolloutData(#[from] backgammon_lab::rollout_data::DataError),
    #[error("--prune: {0}")]
    Prune(#[from] backgammon_engine::prune::PrunerError),
    #[error("--prune-net {}: {why}", path.display())]
    PruneNet {
        path: std::path::PathBuf,
        why: String,
    },
    #[error("--race-hidden/--crashed-hidden: {0}")]
    Hidden(#[from] backgammon_engine::net::NetError),
}
