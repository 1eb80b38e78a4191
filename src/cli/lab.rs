//! `tune` and `selfplay`: the lab tools' command lines.

use super::{parse_checkers, CliError};
use grasshopper_engine::eval::{WeightSet, MID_LEFT, N_FEATURES};
use grasshopper_engine::midnet::{net_for, NetRole};
use grasshopper_engine::Player;
use grasshopper_lab::selfplay::{read_weights, Side, WeightsFileError};
use grasshopper_lab::truth::{Judge, Truth};
use grasshopper_lab::tune::LabelledSet;
use grasshopper_rules::Position;
use grasshopper_solver::retro::RetroTables;
use std::io::Write;
use std::path::PathBuf;

/// `tune`: fit the evaluation weights to self-play results (Texel tuning);
/// writes the fitted weights as a Rust array to --out.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("net_out").args(["mid_net_out", "late_net_out"])))]
#[command(group(
    // The options of a net's fit mean nothing to a fit of the weights:
    // given without a net to write, they are refused, not ignored.
    clap::ArgGroup::new("net_only")
        .args(["hidden", "alpha", "alpha_end", "linear_rate", "holdout", "loss", "average_with"])
        .multiple(true)
        .requires("net_out")
))]
pub struct TuneArgs {
    /// Self-play games to generate.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Search nodes per self-play move (the random openings use --seed, default 1).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Gradient descent epochs.
    #[arg(long, default_value_t = 400)]
    epochs: u32,
    /// File for the fitted weights.
    #[arg(long, required_unless_present_any = ["mid_net_out", "late_net_out"])]
    out: Option<PathBuf>,
    /// Fit to the exact values of the retrograde tables of DIR instead of
    /// self-play results (repeatable, one --checkers each): positions of
    /// engine games of that size that the tables cover.
    #[arg(long, value_name = "DIR", requires = "checkers")]
    retro: Vec<PathBuf>,
    /// Fit to the exact values of the positions of truth files instead
    /// (`retro-quality --export-truth`; repeatable, one --checkers each):
    /// no tables needed.
    #[arg(long, value_name = "FILE", requires = "checkers", conflicts_with_all = ["retro", "positions_from"])]
    truth: Vec<PathBuf>,
    /// Checkers per player of each --retro's (or --truth's) games.
    #[arg(long, value_parser = parse_checkers)]
    checkers: Vec<u8>,
    /// Positions to label from each --retro (one value, or one per --retro).
    #[arg(long, value_delimiter = ',', default_value = "20000")]
    positions: Vec<usize>,
    /// Nodes a move of the engine games that supply the positions of each
    /// --retro (one value, or one per --retro).
    #[arg(long, value_delimiter = ',', default_value = "3000")]
    game_nodes: Vec<u64>,
    /// Leave out the positions of these retro-quality record files (a
    /// measurement's positions); repeatable.
    #[arg(long, value_name = "FILE")]
    exclude: Vec<PathBuf>,
    /// Fit the positions of these record files (`retro-quality --record`),
    /// one per --retro, instead of playing new engine games: the same set
    /// fitted again without its games' cost.
    #[arg(long, value_name = "FILE", requires = "retro")]
    positions_from: Vec<PathBuf>,
    /// Fit only these weight sets (by array name: WEIGHTS_MID, WEIGHTS_FEW,
    /// WEIGHTS_LATE_US, WEIGHTS_LATE_THEM); repeatable; default all. The
    /// positions of the others are left out.
    #[arg(long, value_name = "SET")]
    fit: Vec<String>,
    /// Fit the middle game's net instead of weights (to --truth files or
    /// --positions-from records with their --retro): the middle-game
    /// positions and the positions after their moves; written to FILE
    /// (load it with `grasshopper --mid-net FILE ...`).
    #[arg(long, value_name = "FILE", conflicts_with = "late_net_out")]
    mid_net_out: Option<PathBuf>,
    /// Fit the late phases' net instead (few checkers left each, somebody
    /// has scored), as --mid-net-out does the middle game's (load it with
    /// `grasshopper --late-net FILE ...`).
    #[arg(long, value_name = "FILE")]
    late_net_out: Option<PathBuf>,
    /// Write the average of the fitted net and FILE's (both of the role
    /// of --mid-net-out or --late-net-out): their hidden units side by
    /// side, an ensemble of two fits evaluated as one net of their summed
    /// width (at most 256 units).
    #[arg(long, value_name = "FILE")]
    average_with: Option<PathBuf>,
    #[command(flatten)]
    net: NetFitArgs,
}

/// How a net is fitted (`tune --mid-net-out`, `--late-net-out`, `distill fit`).
#[derive(clap::Args, Debug)]
pub struct NetFitArgs {
    /// The net's hidden units.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=256))]
    hidden: u16,
    /// The net's learning rate in the first epoch.
    #[arg(long, default_value_t = 0.02)]
    alpha: f32,
    /// The net's learning rate in the last epoch (falling geometrically).
    #[arg(long, default_value_t = 0.002)]
    alpha_end: f32,
    /// The net's linear term's learning rate, relative to --alpha.
    #[arg(long, default_value_t = 0.01)]
    linear_rate: f32,
    /// Net samples held out of the fit and reported on.
    #[arg(long, default_value_t = 20_000)]
    holdout: usize,
    /// What the fit minimises between a position's result (1 win, 0.5
    /// draw, 0 loss) and the net's expectation.
    #[arg(long, value_enum, default_value_t = FitLoss::Squared)]
    loss: FitLoss,
}

/// `--loss`: the fit's loss.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum FitLoss {
    /// The squared error.
    Squared,
    /// The cross-entropy (logistic regression on the result).
    CrossEntropy,
}

impl From<FitLoss> for grasshopper_engine::midnet::Loss {
    fn from(l: FitLoss) -> Self {
        match l {
            FitLoss::Squared => Self::Squared,
            FitLoss::CrossEntropy => Self::CrossEntropy,
        }
    }
}

impl NetFitArgs {
    /// The fit of `role`'s net for `epochs` epochs from `seed`.
    fn fit(&self, role: NetRole, epochs: u32, seed: u64) -> grasshopper_lab::midfit::MidFit {
        grasshopper_lab::midfit::MidFit {
            role,
            hidden: self.hidden as usize,
            epochs,
            alpha: self.alpha,
            alpha_end: self.alpha_end,
            linear_rate: self.linear_rate,
            holdout: self.holdout,
            seed,
            loss: self.loss.into(),
        }
    }
}

/// `selfplay`: an in-process match, player A against player B, in game
/// pairs with colours swapped.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Game pairs to play.
    #[arg(long, default_value_t = 10)]
    pairs: u32,
    /// Player A: engine, random or greedy.
    #[arg(long, default_value = "engine")]
    a: Player,
    /// Player B: engine, random or greedy.
    #[arg(long, default_value = "random")]
    b: Player,
    /// A's time per move in milliseconds.
    #[arg(long, default_value_t = 50)]
    a_ms: u64,
    /// B's time per move in milliseconds.
    #[arg(long, default_value_t = 50)]
    b_ms: u64,
    /// A's nodes per move (instead of time).
    #[arg(long)]
    a_nodes: Option<u64>,
    /// B's nodes per move (instead of time).
    #[arg(long)]
    b_nodes: Option<u64>,
    /// A's threads.
    #[arg(long, default_value_t = 1)]
    a_threads: usize,
    /// B's threads.
    #[arg(long, default_value_t = 1)]
    b_threads: usize,
    /// Checkers per player.
    #[arg(long, default_value_t = 14, value_parser = parse_checkers)]
    checkers: u8,
    /// A's evaluation weights, a file written by `tune` (default: built
    /// in); they serve where no net does (the 14-checker game with
    /// `grasshopper --main-net none`).
    #[arg(long)]
    a_weights: Option<PathBuf>,
    /// B's evaluation weights, as --a-weights.
    #[arg(long)]
    b_weights: Option<PathBuf>,
}

/// The fitted weight set named `name` (its array's name).
fn fitted_set(name: &str) -> Result<WeightSet, CliError> {
    WeightSet::FITTED
        .iter()
        .find(|(_, n)| *n == name)
        .map(|&(set, _)| set)
        .ok_or_else(|| {
            let names: Vec<&str> = WeightSet::FITTED.iter().map(|&(_, n)| n).collect();
            CliError::Usage(format!(
                "--fit {name}: expected one of {}",
                names.join(", ")
            ))
        })
}

impl TuneArgs {
    /// The net to fit and its file (`--mid-net-out` or `--late-net-out`),
    /// if one is asked for instead of weights.
    fn net_out(&self) -> Option<(NetRole, &std::path::Path)> {
        let mid = self.mid_net_out.as_deref().map(|p| (NetRole::Mid, p));
        mid.or_else(|| self.late_net_out.as_deref().map(|p| (NetRole::Late, p)))
    }
}

/// Runs `tune`.
pub fn tune(args: TuneArgs, seed: u64) -> Result<(), CliError> {
    let judged = args.retro.len() + args.truth.len();
    if judged != args.checkers.len() {
        return Err(CliError::Usage(format!(
            "{judged} --retro or --truth and {} --checkers: give one --checkers for each",
            args.checkers.len()
        )));
    }
    let mut out = std::io::stdout().lock();
    let weights_file = || match &args.out {
        Some(path) => Ok(std::fs::File::create(path)?),
        None => Err(CliError::Usage("give --out FILE for the weights".into())),
    };
    if judged == 0 {
        let mut file = weights_file()?;
        let (games, nodes, epochs) = (args.games, args.nodes, args.epochs);
        grasshopper_lab::tune::run(&mut out, &mut file, games, seed, nodes, epochs)?;
        return Ok(());
    }
    let tables = args
        .retro
        .iter()
        .map(|d| grasshopper_solver::retro::RetroTables::open(d, None))
        .collect::<Result<Vec<_>, _>>()?;
    let truths = args
        .truth
        .iter()
        .map(|f| Truth::open(f))
        .collect::<Result<Vec<_>, _>>()?;
    let sources = labelled_sources(&args, &tables, &truths)?;
    let mut exclude = Vec::new();
    for f in &args.exclude {
        exclude.extend(grasshopper_lab::quality::record_positions(f)?);
    }
    if let Some((role, path)) = args.net_out() {
        return fit_net(role, &args, sources, &exclude, seed, path, &mut out);
    }
    let sets: Vec<LabelledSet<'_>> = sources
        .into_iter()
        .zip(&args.checkers)
        .enumerate()
        .map(|(i, ((judge, from_record), &checkers))| LabelledSet {
            judge,
            checkers,
            positions: args.positions[i.min(args.positions.len() - 1)],
            game_nodes: args.game_nodes[i.min(args.game_nodes.len() - 1)],
            from_record,
        })
        .collect();
    let mut file = weights_file()?;
    let only = args
        .fit
        .iter()
        .map(|name| fitted_set(name))
        .collect::<Result<Vec<_>, _>>()?;
    grasshopper_lab::tune::run_labelled(
        &mut out,
        &mut file,
        &sets,
        &exclude,
        &only,
        seed,
        args.epochs,
    )?;
    Ok(())
}

/// `tune --mid-net-out FILE` or `--late-net-out FILE`: fits `role`'s net
/// to the sources' fixed positions and writes it.
fn fit_net(
    role: NetRole,
    args: &TuneArgs,
    sources: Vec<Source<'_>>,
    exclude: &[Position],
    seed: u64,
    path: &std::path::Path,
    out: &mut impl std::io::Write,
) -> Result<(), CliError> {
    let mut sets = Vec::new();
    for (judge, positions) in sources {
        let why = format!(
            "--{}-net-out fits fixed positions: give --truth files or --positions-from",
            role.name()
        );
        sets.push((judge, positions.ok_or(CliError::Usage(why))?));
    }
    // The partner is read first: a bad file fails before the fit's minutes.
    let partner = match args.average_with.as_deref() {
        Some(file) => Some((file, super::read_mid_net("--average-with", file)?)),
        None => None,
    };
    let a = args.net.fit(role, args.epochs, seed);
    let mut net = grasshopper_lab::midfit::fit(&sets, exclude, &a, out)?;
    if let Some((file, other)) = partner {
        net = net.average(&other).ok_or_else(|| {
            let (h, o) = (net.hidden(), other.hidden());
            let max = grasshopper_engine::midnet::MAX_HIDDEN;
            let why = format!(
                "--average-with {}: {h} + {o} hidden units pass {max}",
                file.display()
            );
            CliError::Usage(why)
        })?;
        let file = file.display();
        writeln!(out, "averaged with {file}: {} hidden units", net.hidden())?;
    }
    std::fs::write(path, net.to_string())?;
    writeln!(out, "{} net written to {}", role.name(), path.display())?;
    Ok(())
}

/// Each labelled set's judge and fixed positions: a truth file's own
/// positions, or the tables with the positions of a record file
/// (`--positions-from`) or of new engine games (none).
type Source<'a> = (&'a dyn Judge, Option<Vec<Position>>);

fn labelled_sources<'a>(
    args: &TuneArgs,
    tables: &'a [RetroTables],
    truths: &'a [Truth],
) -> Result<Vec<Source<'a>>, CliError> {
    if !args.positions_from.is_empty() && args.positions_from.len() != tables.len() {
        return Err(CliError::Usage(format!(
            "{} --positions-from and {} --retro: give one record file for each --retro",
            args.positions_from.len(),
            tables.len()
        )));
    }
    let mut records = Vec::new();
    for f in &args.positions_from {
        records.push(Some(grasshopper_lab::quality::record_positions(f)?));
    }
    records.resize(tables.len(), None);
    let from_tables = tables
        .iter()
        .zip(records)
        .map(|(t, r)| (t as &dyn Judge, r));
    let from_truths = truths
        .iter()
        .map(|t| (t as &dyn Judge, Some(t.positions().to_vec())));
    Ok(from_tables.chain(from_truths).collect())
}

/// Runs `selfplay`.
pub fn selfplay(args: SelfplayArgs, seed: u64) -> Result<(), CliError> {
    if args.a_weights.is_some() || args.b_weights.is_some() {
        warn_if_weights_unused(args.checkers);
    }
    let a = Side::new(
        args.a,
        args.a_threads,
        seed,
        weights(args.a_weights)?,
        args.a_ms,
        args.a_nodes,
    );
    let b = Side::new(
        args.b,
        args.b_threads,
        seed ^ 0x5555,
        weights(args.b_weights)?,
        args.b_ms,
        args.b_nodes,
    );
    let mut out = std::io::stdout().lock();
    grasshopper_lab::selfplay::run(&mut out, &a, &b, args.pairs, seed, args.checkers)?;
    Ok(())
}

/// Says on stderr when `--a-weights` / `--b-weights` cannot change a game
/// of `checkers`: the weights serve only positions with more than
/// [`MID_LEFT`] checkers left a side, and there only when no 14-checker
/// net does.
fn warn_if_weights_unused(checkers: u8) {
    if u32::from(checkers) <= MID_LEFT {
        eprintln!(
            "grasshopper selfplay: --a-weights/--b-weights have no effect with {checkers} checkers \
             (the weights serve only positions with more than {MID_LEFT} checkers left)"
        );
    } else if net_for(WeightSet::Main).is_some() {
        eprintln!(
            "grasshopper selfplay: --a-weights/--b-weights have no effect while the 14-checker net serves \
             (run `grasshopper --main-net none selfplay ...`)"
        );
    }
}

/// A side's weights (`read_weights`), its errors as the command line's.
fn weights(path: Option<PathBuf>) -> Result<[i32; N_FEATURES], CliError> {
    read_weights(path.as_deref()).map_err(|e| match e {
        WeightsFileError::Read { source, .. } => CliError::Io(source),
        WeightsFileError::Parse { path, error } => CliError::Weights {
            path: path.display().to_string(),
            error,
        },
    })
}

/// `distill`: labels for the 14-checker game's net from self-play, and
/// the net's fit.
#[derive(clap::Subcommand, Debug)]
pub enum DistillCommand {
    /// Play self-play games from the 14-checker start and append each
    /// position with its search's score and the game's result to --out
    /// (a killed run resumes; the games come from --seed, default 1).
    Generate {
        /// Games in the file when done.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Search nodes a move (the search that chooses the move labels
        /// the position).
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Checkers per player.
        #[arg(long, default_value_t = 14, value_parser = parse_checkers)]
        checkers: u8,
        /// The labels file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the 14-checker game's net (more than six checkers left) to
    /// labels files (load it with `grasshopper --main-net FILE ...`).
    Fit {
        /// Labels files (`distill generate`); repeatable.
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// The weight of the game's result in each target (the rest: the
        /// logistic of the search's score).
        #[arg(long, default_value_t = 0.5)]
        lambda: f32,
        /// Epochs.
        #[arg(long, default_value_t = 20)]
        epochs: u32,
        /// The net's file.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        net: NetFitArgs,
    },
}

/// Runs `distill`.
pub fn distill(command: DistillCommand, seed: u64) -> Result<(), CliError> {
    use grasshopper_lab::distill;
    let mut out = std::io::stdout().lock();
    let bad = |e: distill::DistillError| CliError::Usage(e.to_string());
    match command {
        DistillCommand::Generate {
            games,
            nodes,
            checkers,
            out: path,
        } => {
            let g = distill::Generate {
                games,
                nodes,
                seed,
                checkers,
            };
            let n = distill::generate(&g, &path, &mut std::io::stderr()).map_err(bad)?;
            writeln!(out, "{n} positions written to {}", path.display())?;
        }
        DistillCommand::Fit {
            data,
            lambda,
            epochs,
            out: path,
            net,
        } => {
            let mut labels = Vec::new();
            for f in &data {
                labels.extend(distill::read(f).map_err(bad)?);
            }
            let a = net.fit(NetRole::Main, epochs, seed);
            let fitted = distill::fit(&labels, lambda, &a, &mut out)?;
            std::fs::write(&path, fitted.to_string())?;
            writeln!(out, "main net written to {}", path.display())?;
        }
    }
    Ok(())
}
