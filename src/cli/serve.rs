//! `grasshopper serve`: the board in the browser (crates/board-server).

use super::daemon::PlayerChoice;
use super::matches::EngineArgs;
use super::CliError;
use match_runner::EngineSpec;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// `serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Only loopback addresses are safe: the server has
    /// no accounts, and any page that reaches it can start engine processes.
    /// Whatever the address, requests must name localhost, a loopback
    /// address, this address or an --allow-host name in their Host header.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Another name (or address) of this machine the server answers to, e.g.
    /// its name on the local network with --host 0.0.0.0 (repeatable).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    #[command(flatten)]
    engines: EngineArgs,
    /// Games open at once (each runs at most one engine process).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    max_games: u16,
    /// Seconds without a request from its page after which a game is closed
    /// and its engine process ends (a closed tab, even mid-search).
    #[arg(long, default_value_t = 300.0)]
    idle_timeout: f64,
    /// Seconds a depth-limited search may take before the engine counts as hung.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Games one browser may have open at once (at most --max-games minus one).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    games_per_browser: u16,
    /// Engine searches one browser may have running at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    searches_per_browser: u16,
    /// Where games are kept, so that they survive idling and a restart of
    /// the server and reopen from their link (default: grasshopper/board in
    /// $XDG_STATE_HOME, else ~/.local/state; "none": in memory only).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<std::path::PathBuf>,
    /// The dice seed of every backgammon game (for demos and tests; by
    /// default each game's dice come from the operating system's randomness).
    #[arg(long)]
    seed: Option<u64>,
    /// Answer GET /api/panic by panicking (for the tests only).
    #[arg(long, hide = true)]
    test_panic_route: bool,
}

/// One `--engine` occurrence: `cmd=PATH name=... arg=...` as for `match`, or
/// a plain `PATH [ARG]...`.
fn engine_spec(tokens: &[String]) -> Result<EngineSpec, CliError> {
    let spec = if tokens.iter().any(|t| t.contains('=')) {
        EngineSpec::from_tokens(tokens)
    } else {
        let mut words = vec![format!("cmd={}", tokens[0])];
        words.extend(tokens[1..].iter().map(|a| format!("arg={a}")));
        EngineSpec::from_tokens(&words)
    };
    spec.map_err(|e| CliError::Usage(format!("--engine: {e}")))
}

/// `$XDG_STATE_HOME/grasshopper/board`, else `~/.local/state/grasshopper/board`.
fn default_data_dir() -> Option<std::path::PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state"))
        })?;
    Some(state.join("grasshopper").join("board"))
}

fn seconds(value: f64, what: &str) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--{what} {value}: expected a positive number of seconds"
            ))
        })
}

/// Serves the board until the process is ended. `--player` chooses the
/// default engine's player (this binary run with that `--player`).
pub fn run(args: ServeArgs, player: PlayerChoice) -> Result<(), CliError> {
    let baseline = (player != PlayerChoice::Engine).then(|| {
        clap::ValueEnum::to_possible_value(&player)
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    });
    let mut engines = args
        .engines
        .0
        .iter()
        .map(|tokens| engine_spec(tokens))
        .collect::<Result<Vec<_>, _>>()?;
    if let (Some(p), false) = (&baseline, engines.is_empty()) {
        return Err(CliError::Usage(format!(
            "--player {p} chooses the default engine's player: with --engine, \
             give the player to that engine instead"
        )));
    }
    if engines.is_empty() {
        // This same binary, whose default mode is the protocol engine.
        let exe = std::env::current_exe()?;
        let mut tokens = vec![format!("cmd={}", exe.display())];
        match &baseline {
            None => tokens.push("name=grasshopper".to_string()),
            Some(p) => tokens.extend([
                format!("name=grasshopper-{p}"),
                "arg=--player".to_string(),
                format!("arg={p}"),
            ]),
        }
        // The same binary again for backgammon: its first line `ubgi`
        // switches it to UBGI.
        let mut ubgi = tokens.clone();
        ubgi[1] = ubgi[1].replacen("name=grasshopper", "name=grasshopper-backgammon", 1);
        ubgi.push("proto=ubgi".to_string());
        engines.push(EngineSpec::from_tokens(&tokens).map_err(|e| CliError::Usage(e.to_string()))?);
        engines.push(EngineSpec::from_tokens(&ubgi).map_err(|e| CliError::Usage(e.to_string()))?);
    }
    let mut config = board_server::Config::new(engines);
    config.addr = SocketAddr::new(args.host, args.port);
    config.max_games = usize::from(args.max_games);
    config.idle_timeout = seconds(args.idle_timeout, "idle-timeout")?;
    config.move_timeout = seconds(args.move_timeout, "move-timeout")?;
    config.games_per_owner = usize::from(args.games_per_browser);
    config.searches_per_owner = usize::from(args.searches_per_browser);
    config.allowed_hosts = args.allow_host;
    config.panic_route = args.test_panic_route;
    config.seed = args.seed;
    config.data_dir = match args.data_dir {
        Some(dir) if dir.as_os_str() == "none" => None,
        Some(dir) => Some(dir),
        None => default_data_dir(),
    };
    let addr = config.addr;
    let server = board_server::Server::bind(config)
        .map_err(|e| CliError::Usage(format!("cannot listen on {addr}: {e}")))?;
    println!("grasshopper board: open {}", server.url());
    use std::io::Write;
    std::io::stdout().flush()?;
    Ok(server.run()?)
}
