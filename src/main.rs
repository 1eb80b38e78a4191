//! The `grasshopper` binary: parse the command line, run, map errors to an exit code.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = grasshopper::cli::Cli::parse();
    match grasshopper::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grasshopper: {e}");
            ExitCode::FAILURE
        }
    }
}
