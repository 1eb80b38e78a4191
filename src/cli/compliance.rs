//! `grasshopper compliance [--ubgi] -- CMD [ARGS...]`: the protocol-compliance
//! checkers of the ugi-compliance crate (docs/compliance.md), run against any
//! engine program.

use engine_client::Program;
use std::io::Write;
use std::time::Duration;
use ugi_compliance::{CheckResult, Settings, Summary};

/// `grasshopper compliance`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each check prints PASS <check>, FAIL <check>: <why> or SKIP <check>: not offered; \
the last line sums them up and says whether the engine is compliant with the UGI \
core (or which UBGI conformance levels it meets). Exit status 0 when no check \
failed. What each check means: docs/compliance.md.")]
pub struct ComplianceArgs {
    /// Check a backgammon engine speaking UBGI (the bgci draft), by its
    /// conformance levels, instead of a UGI engine.
    #[arg(long)]
    pub ubgi: bool,
    /// Milliseconds to wait for any answer that no time limit bounds (the
    /// handshake, isready, queries, depth and nodes searches, bestmove after
    /// stop, every UBGI decision).
    #[arg(long, default_value_t = 5000)]
    pub timeout: u64,
    /// Milliseconds a bestmove may come past its movetime or clock.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// The engine program and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Runs every check, printing one line per check and the summary; the
/// number of failed checks.
pub fn run(args: ComplianceArgs, out: &mut impl Write) -> std::io::Result<usize> {
    let (cmd, rest) = args.command.split_first().expect("clap requires a command");
    let mut settings = Settings::new(Program {
        cmd: cmd.clone(),
        args: rest.to_vec(),
        name: cmd.clone(),
    });
    settings.timeout = Duration::from_millis(args.timeout);
    settings.margin = Duration::from_millis(args.margin);
    let mut written = Ok(());
    let mut print = |r: &CheckResult| {
        if written.is_ok() {
            written = writeln!(out, "{r}").and_then(|_| out.flush());
        }
    };
    let results = match args.ubgi {
        true => ugi_compliance::ubgi::run(&settings, &mut print),
        false => ugi_compliance::ugi::run(&settings, &mut print),
    };
    written?;
    let summary = Summary::of(&results);
    writeln!(out, "{summary}")?;
    Ok(summary.failed)
}
