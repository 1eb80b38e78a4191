//! `grasshopper compliance -- CMD [ARGS...]`: the protocol-compliance
//! checker of the ugi-compliance crate, run against any engine program.

use engine_client::Program;
use std::io::Write;
use std::time::Duration;

/// `grasshopper compliance`.
#[derive(clap::Args, Debug)]
pub struct ComplianceArgs {
    /// Milliseconds to wait for any answer that no time limit bounds (the
    /// handshake, isready, queries, depth and nodes searches, bestmove after stop).
    #[arg(long, default_value_t = 5000)]
    pub timeout: u64,
    /// Milliseconds a bestmove may come past its movetime or clock.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// The engine program and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Runs every check, printing one line per check; the number of failed checks.
pub fn run(args: ComplianceArgs, out: &mut impl Write) -> std::io::Result<usize> {
    let (cmd, rest) = args.command.split_first().expect("clap requires a command");
    let mut settings = ugi_compliance::Settings::new(Program {
        cmd: cmd.clone(),
        args: rest.to_vec(),
        name: cmd.clone(),
    });
    settings.timeout = Duration::from_millis(args.timeout);
    settings.margin = Duration::from_millis(args.margin);
    let mut written = Ok(());
    let results = ugi_compliance::run(&settings, |r| {
        if written.is_ok() {
            written = writeln!(out, "{r}").and_then(|_| out.flush());
        }
    });
    written?;
    Ok(results.iter().filter(|r| !r.passed()).count())
}
