//! `backgammon rollout-data`: generate (a shard of) rolled-out training
//! positions, merge the shards, compare our position classes with GNU
//! Backgammon's, and fit nets to the data; run in the backgammon lab.

use super::bgerror::BackgammonError;
use backgammon_engine::features::{CONTACT_INPUTS, CONTACT_WIDTHS};
use backgammon_engine::net::{check_hidden, Backprop, Net, NetError};
use backgammon_engine::player;
use backgammon_engine::prune::Pruner;
use backgammon_lab::class::NetClass;
use backgammon_lab::regret::RegretSettings;
use backgammon_lab::relevel;
use backgammon_lab::rollout_data::{self, DataSettings, FitSettings, Shard, Source};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `backgammon rollout-data <step>`.
#[derive(clap::Subcommand, Debug)]
pub enum DataCommand {
    /// Roll out shard K of N of a run's positions into DIR/shard-K-of-N.txt
    /// (one line a position, flushed as it ends; rerun to resume).
    Generate(GenerateArgs),
    /// Join the N shards of DIR into one file (the unsharded run's, byte
    /// for byte).
    Merge {
        /// Directory of the shards.
        #[arg(long)]
        dir: PathBuf,
        /// Shards of the run.
        #[arg(long)]
        of: u32,
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Our contact / crashed / race classes beside GNU Backgammon's on a
    /// run's sample of positions.
    Classes {
        #[arg(long, default_value_t = 2000)]
        positions: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "/usr/games/gnubg")]
        gnubg: PathBuf,
    },
    /// Fit nets (the process's, or --from's) to data files' rolled-out
    /// chances and save them in --out (contact.net, crashed.net, race.net).
    Fit(FitArgs),
    /// How well nets choose at 1-ply by the teacher their labels come from
    /// (the process's nets looking ahead): the loss of each net's pick
    /// against the best labelled move, on seeded self-play decisions.
    Regret(RegretArgs),
    /// One file's labels at another's level: each family of siblings keeps
    /// --labels' differences and is shifted to --rollouts' level on the
    /// members rolled out (matched by position; families with none are
    /// left out). Give the labels' run's --siblings, --seed, --class and
    /// --records, as to `generate`.
    Relevel(RelevelArgs),
}

/// `backgammon rollout-data relevel`.
#[derive(clap::Args, Debug)]
pub struct RelevelArgs {
    /// The ranking's file (look-ahead labels: `generate --look 2
    /// --siblings K`).
    #[arg(long)]
    pub labels: PathBuf,
    /// The level's file: rollouts of some or all of the labels' positions
    /// (`generate --siblings 1` of the same seed and nets rolls out each
    /// family's best sibling).
    #[arg(long)]
    pub rollouts: PathBuf,
    /// The labels' run's siblings a position (its families).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=32))]
    pub siblings: u8,
    /// The labels' run's seed.
    #[arg(long)]
    pub seed: u64,
    /// The labels' run's class.
    #[arg(long)]
    pub class: Option<NetClass>,
    /// The labels' run's records (self-play without).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// The file written.
    #[arg(long)]
    pub out: PathBuf,
}

/// `backgammon rollout-data regret`.
#[derive(clap::Args, Debug)]
pub struct RegretArgs {
    /// Decisions (positions with at least two legal moves) to label.
    #[arg(long, default_value_t = 2000)]
    pub decisions: usize,
    /// Seed of the self-play positions and of their rolls (use one no
    /// training run used).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only positions of this class: contact, crashed or race.
    #[arg(long)]
    pub class: Option<NetClass>,
    /// The teacher's look, rolls ahead (2 = the 3-ply labels of
    /// `generate --look 2`).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub look: u8,
    /// The teacher nets' best this many moves are labelled in each
    /// decision (besides each net's pick).
    #[arg(long, default_value_t = 5)]
    pub candidates: usize,
    /// Nets to measure besides the teacher's own (directories with
    /// contact.net, crashed.net and race.net); repeat for more.
    #[arg(long)]
    pub compare: Vec<PathBuf>,
}

/// `backgammon rollout-data generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// This shard (from 1).
    #[arg(long, default_value_t = 1)]
    pub shard: u32,
    /// Shards of the run.
    #[arg(long, default_value_t = 1)]
    pub of: u32,
    /// Positions of the whole run (all shards).
    #[arg(long)]
    pub positions: usize,
    /// Trials per position.
    #[arg(long, default_value_t = 144)]
    pub trials: u32,
    /// Checker play in the trials, root-inclusive plies (1 = the net).
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// Stop each trial after this many rolls and take the net's evaluation.
    #[arg(long)]
    pub truncate: Option<u32>,
    /// Seed of the positions and of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only positions of this class (contact, crashed or race): a run of
    /// its own.
    #[arg(long)]
    pub class: Option<NetClass>,
    /// Sample and roll out with these nets (a directory with contact.net,
    /// race.net and crashed.net) instead of the process's (`grasshopper --nets DIR`, else the shipped ones).
    #[arg(long)]
    pub nets: Option<PathBuf>,
    /// Threads per rollout (the results do not depend on them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// No rollouts: label each position with the nets' look this many
    /// rolls ahead (1 = 2-ply, 2 = 3-ply), the search's value to distil
    /// into the net (the trial settings are then unused).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub look: Option<u8>,
    /// Label, instead of each sampled position, the positions after its
    /// best K moves (by the nets at 1-ply) for a seeded roll: the
    /// candidates a move choice compares, which the nets must rank. With
    /// --class, the sampled positions are of the class (their siblings
    /// may not be); --positions counts siblings (records: all of theirs).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=32))]
    pub siblings: Option<u8>,
    /// With --siblings: roll the siblings of one position out on the same
    /// dice (as a rollout of a roll's candidates does), so that their
    /// labels' differences, the ranking a fit learns, carry less of the
    /// dice's luck. The header says so.
    #[arg(long, requires = "siblings", conflicts_with = "look")]
    pub common_dice: bool,
    /// With --look: each roll's moves are ranked first by a small net and
    /// only its best K judged by the full nets (at K = 4 about 2.5 times
    /// the labels a second, labels within 0.001 of the whole look's on
    /// average; docs/backgammon-training.md). The header names K and the
    /// ranking net.
    #[arg(long, requires = "look", value_parser = clap::value_parser!(u8).range(1..=16))]
    pub prune: Option<u8>,
    /// The ranking net for --prune (a contact net's file, as `fit
    /// --contact-fresh` writes one) instead of the shipped one.
    #[arg(long, requires = "prune")]
    pub prune_net: Option<PathBuf>,
    /// Take the positions from these match records (games against GNU
    /// Backgammon, say: `grasshopper match ... --pgn FILE`) instead of
    /// self-play: the distinct positions before each roll, in the order
    /// met (--seed then seeds the dice alone).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Directory of the shard files.
    #[arg(long)]
    pub out: PathBuf,
}

/// `backgammon rollout-data fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Data files (merged or one shard's); repeat the option for more.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Start from these nets (a directory with contact.net, race.net and
    /// maybe crashed.net; default the process's: `grasshopper --nets DIR` or the shipped ones).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Directory of the fitted nets.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Learning rate of the first epoch (geometric down to --alpha-end).
    #[arg(long, default_value_t = 0.02)]
    pub alpha: f32,
    /// Learning rate of the last epoch.
    #[arg(long, default_value_t = 0.002)]
    pub alpha_end: f32,
    /// Records at the end of each file kept out of the fit (the RMSE
    /// sample).
    #[arg(long, default_value_t = 500)]
    pub holdout: usize,
    /// Widen the race net to this many hidden units first (the new units
    /// start silent: the net answers as before until the fit moves them).
    #[arg(long)]
    pub race_hidden: Option<usize>,
    /// Widen the crashed net to this many hidden units first.
    #[arg(long)]
    pub crashed_hidden: Option<usize>,
    /// Widen the contact net to this many hidden units first.
    #[arg(long)]
    pub contact_hidden: Option<usize>,
    /// Start the race net afresh, from small random weights, with this
    /// many hidden units, instead of from --from's net.
    #[arg(long)]
    pub race_fresh: Option<usize>,
    /// Start the crashed net afresh with this many hidden units.
    #[arg(long)]
    pub crashed_fresh: Option<usize>,
    /// Start the contact net afresh with this many hidden units (and the
    /// extra inputs with --contact-extra).
    #[arg(long)]
    pub contact_fresh: Option<usize>,
    /// Give the race net a second hidden layer of this many units first
    /// (read from the first layer, feeding the outputs beside it; the new
    /// units start silent).
    #[arg(long)]
    pub race_second: Option<usize>,
    /// Give the crashed net a second hidden layer of this many units first.
    #[arg(long)]
    pub crashed_second: Option<usize>,
    /// Give the contact net a second hidden layer of this many units first.
    #[arg(long)]
    pub contact_second: Option<usize>,
    /// Give the contact net the extra inputs first (home points,
    /// containment, anchor, contact pips; they start with no weight).
    #[arg(long)]
    pub contact_extra: bool,
    /// Give the crashed net the same extra inputs first (they matter most
    /// where a side is closed out or bearing in against an anchor).
    #[arg(long)]
    pub crashed_extra: bool,
    /// Fit with Adam in batches of this many samples instead of
    /// per-sample gradient descent (--alpha and --alpha-end are then
    /// Adam's step sizes: 0.001 to 0.00001, say).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub adam: Option<u32>,
    /// Train as generation 5 was: a second layer's error does not reach
    /// the first layer (by default it does: the full gradient).
    #[arg(long)]
    pub second_detached: bool,
    /// Fit only the net of this class (contact, crashed or race): the
    /// positions of the others are left out, training and held out, and
    /// their nets are saved as they came.
    #[arg(long)]
    pub class: Option<NetClass>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads each Adam batch's gradient is made on (with --adam): more
    /// than one sums a batch in four fixed parts, so every number of
    /// threads above one fits the same nets (one thread, the default,
    /// adds sample after sample: the fits of the committed nets).
    #[arg(long, default_value_t = 1, requires = "adam", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: u32,
}

/// Runs a `rollout-data` step: results on `out`, progress on stderr.
pub fn run(c: DataCommand, out: &mut impl Write) -> Result<(), BackgammonError> {
    match c {
        DataCommand::Generate(a) => generate(a, out),
        DataCommand::Merge { dir, of, out: file } => {
            let n = rollout_data::merge(&dir, of, &file)?;
            let _ = writeln!(
                out,
                "merged {of} shards: {n} positions in {}",
                file.display()
            );
            Ok(())
        }
        DataCommand::Classes {
            positions,
            seed,
            gnubg,
        } => classes(positions, seed, &gnubg, out),
        DataCommand::Fit(a) => fit(a, out),
        DataCommand::Regret(a) => regret(a, out),
        DataCommand::Relevel(a) => relevel(a, out),
    }
}

fn generate(a: GenerateArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let s = DataSettings {
        positions: a.positions,
        trials: a.trials,
        ply: a.ply,
        truncate: a.truncate,
        seed: a.seed,
        class: a.class,
        look: a.look,
        siblings: a.siblings,
        common_dice: a.common_dice,
    };
    let shard = Shard::new(a.shard, a.of)?;
    let eval = player::nets_or_dir(a.nets.as_deref())?;
    let pruner = pruner(a.prune, a.prune_net.as_deref())?;
    let labeller = rollout_data::Labeller {
        eval: &eval,
        pruner: pruner.as_ref(),
    };
    let source = source(a.records.as_deref())?;
    let path = rollout_data::generate(
        labeller,
        &s,
        &source,
        shard,
        &a.out,
        a.threads.max(1),
        |r, n, all| {
            eprintln!(
                "rollout-data {}/{}: {n}/{all} {} {} {:+.4} ± {:.4}",
                shard.k,
                shard.of,
                r.board.position_id(),
                r.class,
                r.equity,
                r.error
            )
        },
    )?;
    let _ = writeln!(
        out,
        "shard {}/{} done: {}",
        shard.k,
        shard.of,
        path.display()
    );
    Ok(())
}

/// Where a run's positions come from: `--records FILE`'s games, else
/// self-play.
fn source(records: Option<&Path>) -> Result<Source, BackgammonError> {
    Ok(match records {
        Some(path) => Source::records(path).map_err(rollout_data::DataError::from)?,
        None => Source::SelfPlay,
    })
}

/// The pruning of `--prune K [--prune-net FILE]`.
fn pruner(keep: Option<u8>, net: Option<&Path>) -> Result<Option<Pruner>, BackgammonError> {
    let Some(keep) = keep else {
        return Ok(None);
    };
    let pruner = match net {
        None => Pruner::shipped(keep as usize)?,
        Some(path) => {
            let bad = |why: String| BackgammonError::PruneNet {
                path: path.to_path_buf(),
                why,
            };
            let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
            let net = Net::from_bytes(&bytes, &CONTACT_WIDTHS).map_err(|e| bad(e.to_string()))?;
            Pruner::new(net, keep as usize)?
        }
    };
    Ok(Some(pruner))
}

fn classes(
    positions: usize,
    seed: u64,
    gnubg: &std::path::Path,
    out: &mut impl Write,
) -> Result<(), BackgammonError> {
    let boards = rollout_data::sample(player::nets(), positions, seed, None);
    let a = rollout_data::compare_classes(gnubg, &boards)?;
    let _ = writeln!(out, "ours \\ gnubg   contact crashed    race   other");
    for (c, n) in &a.rows {
        let _ = writeln!(
            out,
            "{:<12} {:>9} {:>7} {:>7} {:>7}",
            c.to_string(),
            n[0],
            n[1],
            n[2],
            n[3]
        );
    }
    let (same, all) = a.agreed();
    let _ = writeln!(
        out,
        "agreement: {same} of {all} positions ({:.2}%)",
        100.0 * same as f64 / all.max(1) as f64
    );
    Ok(())
}

/// How `fit` changes one net's shape before fitting it.
struct Reshape {
    /// Start afresh with this many hidden units.
    fresh: Option<usize>,
    /// Widen to this many hidden units.
    wider: Option<usize>,
    /// Add a second hidden layer of this many units.
    second: Option<usize>,
}

impl Reshape {
    fn new(fresh: Option<usize>, wider: Option<usize>, second: Option<usize>) -> Reshape {
        Reshape {
            fresh,
            wider,
            second,
        }
    }

    /// `net` reshaped: a fresh net from `fresh_seed`, the new units of a
    /// wider or deeper one from `salt`.
    fn apply(&self, net: &Net, fresh_seed: u64, salt: u64) -> Result<Net, NetError> {
        let mut net = match self.fresh {
            Some(h) => {
                check_hidden(h)?;
                Net::random(net.inputs(), h, fresh_seed)
            }
            None => net.clone(),
        };
        if let Some(h) = self.wider {
            net = net.widened(h, salt)?;
        }
        if let Some(units) = self.second {
            net = net.deepened(units, salt ^ 0x5EC0)?;
        }
        Ok(net)
    }
}

fn fit(a: FitArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let mut eval = player::nets_or_dir(a.from.as_deref())?;
    // The fresh nets' seeds: --seed and one constant a net.
    let fresh = |k: u64| a.seed ^ (0xF4E5 + k);
    let race = Reshape::new(a.race_fresh, a.race_hidden, a.race_second);
    eval.race = race.apply(&eval.race, fresh(2), 0x0ACE)?;
    let crashed = Reshape::new(a.crashed_fresh, a.crashed_hidden, a.crashed_second);
    eval.crashed = crashed.apply(&eval.crashed, fresh(1), 0xC4A5)?;
    let contact = Reshape::new(a.contact_fresh, a.contact_hidden, a.contact_second);
    eval.contact = contact.apply(&eval.contact, fresh(0), 0xC0A7)?;
    if a.contact_extra {
        eval.contact = eval.contact.with_inputs(CONTACT_INPUTS)?;
    }
    if a.crashed_extra {
        eval.crashed = eval.crashed.with_inputs(CONTACT_INPUTS)?;
    }
    if a.second_detached {
        for net in [&mut eval.contact, &mut eval.crashed, &mut eval.race] {
            net.set_backprop(Backprop::Detached);
        }
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for path in &a.data {
        let (_, mut records) = rollout_data::read_file(path)?;
        if let Some(class) = a.class {
            records.retain(|r| r.class == class);
        }
        let cut = records.len().saturating_sub(a.holdout);
        test.extend(records.split_off(cut));
        train.extend(records);
    }
    let alpha = (a.alpha, a.alpha_end);
    rollout_data::fit(
        &mut eval,
        &train,
        &test,
        &FitSettings {
            epochs: a.epochs,
            alpha,
            adam: a.adam.map(|b| b as usize),
            seed: a.seed,
            threads: a.threads as usize,
        },
        |epoch, rows| {
            let figures: Vec<String> = rows
                .iter()
                .map(|(class, n, rmse)| format!("{class} {rmse:.4} ({n})"))
                .collect();
            eprintln!(
                "fit: epoch {epoch}: held-out equity rmse {}",
                figures.join(", ")
            );
        },
    );
    rollout_data::save_nets(&a.out, &eval)?;
    let _ = writeln!(
        out,
        "nets fitted to {} positions ({} held out): {}",
        train.len(),
        test.len(),
        a.out.display()
    );
    Ok(())
}

fn relevel(a: RelevelArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let (labels_head, labels) = rollout_data::read_file(&a.labels)?;
    let (rollouts_head, rollouts) = rollout_data::read_file(&a.rollouts)?;
    // The run as far as the labels go: self-play counts siblings, records
    // count parents (all of them: the families do not depend on how many).
    let positions = match a.records {
        Some(_) => usize::MAX,
        None => labels.last().map_or(0, |r| r.index + 1),
    };
    let s = DataSettings {
        positions,
        trials: 0,
        ply: 1,
        truncate: None,
        seed: a.seed,
        class: a.class,
        look: None,
        siblings: Some(a.siblings),
        common_dice: false,
    };
    let source = source(a.records.as_deref())?;
    let eval = player::nets();
    // The families are the labels' run's: only its nets rank the siblings
    // as they did.
    let nets = format!(" nets fnv1a:{:016x} ", eval.digest());
    if labels_head.contains(" nets fnv1a:") && !labels_head.contains(&nets) {
        return Err(rollout_data::DataError::File {
            path: a.labels.clone(),
            why: format!(
                "its header \"{labels_head}\" names other nets than these (fnv1a:{:016x}): give the run's with grasshopper --nets DIR",
                eval.digest()
            ),
        }
        .into());
    }
    let run = source.run(eval, &s);
    let records = relevel::relevel(&labels, &rollouts, &run)?;
    let mut text = format!(
        "# grasshopper rollout-data relevel: the ranking of [{}] at the level of [{}]\n",
        labels_head.trim_start_matches("# grasshopper rollout-data "),
        rollouts_head.trim_start_matches("# grasshopper rollout-data ")
    );
    for r in &records {
        text.push_str(&format!("{r}\n"));
    }
    backgammon_engine::files::write_atomic(&a.out, text.as_bytes()).map_err(|e| {
        rollout_data::DataError::Io {
            path: a.out.clone(),
            source: e,
        }
    })?;
    let _ = writeln!(
        out,
        "{} positions relevelled into {}",
        records.len(),
        a.out.display()
    );
    Ok(())
}

fn regret(a: RegretArgs, out: &mut impl Write) -> Result<(), BackgammonError> {
    let s = RegretSettings {
        decisions: a.decisions,
        seed: a.seed,
        class: a.class,
        look: a.look,
        candidates: a.candidates,
    };
    let teacher = player::nets_or_dir(None)?;
    let nets = a
        .compare
        .iter()
        .map(|d| player::nets_or_dir(Some(d)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut all = vec![&teacher];
    all.extend(nets.iter());
    let figures = backgammon_lab::regret::regret(&teacher, &all, &s);
    let _ = writeln!(
        out,
        "{} decisions of self-play (seed {}{}), labelled by the teacher's look {} ({}-ply): its best {} moves and each net's pick",
        s.decisions,
        s.seed,
        s.class.map_or(String::new(), |c| format!(", class {c}")),
        s.look,
        s.look + 1,
        s.candidates
    );
    let names = std::iter::once("teacher's nets".to_string())
        .chain(a.compare.iter().map(|d| d.display().to_string()));
    for (k, (name, r)) in names.zip(&figures).enumerate() {
        let paired = match k {
            0 => String::new(),
            _ => format!(
                "; against the teacher's nets {:+.2} ± {:.2} (paired)",
                1000.0 * r.versus_first.0,
                1000.0 * r.versus_first.1
            ),
        };
        let _ = writeln!(
            out,
            "{name} at 1-ply: {:.2} ± {:.2} millipoints a decision; not the best labelled in {} of {}{paired}",
            1000.0 * r.mean,
            1000.0 * r.half,
            r.missed,
            s.decisions
        );
    }
    Ok(())
}
