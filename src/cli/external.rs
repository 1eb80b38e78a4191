//! `external`: play GNU Backgammon's external player on a TCP port (see
//! docs/gnubg-external.md); gnubg connects with `set player N external
//! HOST:PORT`.

use backgammon_engine::search::{DEFAULT_PLY, MAX_PLY};
use std::net::{IpAddr, Ipv4Addr, TcpListener};

/// `external`.
#[derive(clap::Args, Debug)]
pub struct ExternalArgs {
    /// TCP port to listen on (0: any free port, printed on stdout).
    #[arg(long)]
    port: u16,
    /// Address to listen on: this machine only unless told otherwise.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Plies of the engine's search, counting the root (1 = GNU
    /// Backgammon's 0-ply), as UBGI's engine.ply.
    #[arg(long, default_value_t = DEFAULT_PLY, value_parser = clap::value_parser!(u8).range(1..=MAX_PLY as i64))]
    ply: u8,
    /// Money play without the Jacoby rule (GNU Backgammon's `set jacoby off`).
    #[arg(long)]
    no_jacoby: bool,
}

/// Listens and serves gnubg until killed; `player` and `seed` are the
/// global options.
pub fn run(
    a: ExternalArgs,
    player: super::daemon::PlayerChoice,
    seed: Option<u64>,
) -> std::io::Result<()> {
    let listener = TcpListener::bind((a.host, a.port))?;
    let addr = listener.local_addr()?;
    // The address first, flushed: a script that asked for port 0 reads it.
    println!("listening on {addr}");
    backgammon_engine::player::prepare();
    let settings = gnubg_external::Settings {
        player: player.backgammon(),
        ply: a.ply,
        seed,
        jacoby: !a.no_jacoby,
    };
    gnubg_external::serve(&listener, settings)
}
