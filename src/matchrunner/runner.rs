//! Running a match: the schedule of game pairs, worker threads that each own
//! their engine processes (so a process plays one game at a time), the
//! records file, resuming, shards, the SPRT stop, and merging shards.

use super::engine::{Engine, EngineFailure};
use super::game::tc_label;
use super::game::{play_game, GameSettings, Played};
use super::openings::{parse_openings, Openings};
use super::records::{parse_records, today, GameRecord};
use super::spec::{EngineSpec, Shard, TimeControl};
use super::stats::{Sprt, SprtDecision};
use super::summary::Tally;
use super::{MatchError, MergeArgs, RunArgs};
use crate::rules::{Color, Position};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// One game pair: opening round `round`, engines `first` (White in game 1)
/// and `second`. `pair` numbers pairs across the whole match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PairJob {
    pub pair: usize,
    pub round: usize,
    pub first: usize,
    pub second: usize,
}

/// Every pair of the match, in order: round by round, each pairing once.
pub fn schedule(pairings: &[(usize, usize)], rounds: usize) -> Vec<PairJob> {
    (0..rounds)
        .flat_map(|round| {
            pairings
                .iter()
                .enumerate()
                .map(move |(i, &(first, second))| PairJob {
                    pair: round * pairings.len() + i,
                    round,
                    first,
                    second,
                })
        })
        .collect()
}

fn parse_sprt(tokens: &Option<Vec<String>>) -> Result<Option<Sprt>, MatchError> {
    tokens
        .as_ref()
        .map(|t| {
            t.join(" ")
                .parse::<Sprt>()
                .map_err(|e| MatchError::Usage(e.to_string()))
        })
        .transpose()
}

struct Shared {
    specs: Vec<EngineSpec>,
    settings: GameSettings,
    openings: Openings,
    queue: Mutex<VecDeque<PairJob>>,
    stop: AtomicBool,
    event: String,
    date: String,
    /// The match's time control, for engines without their own.
    tc: TimeControl,
}

enum Msg {
    Game(GameRecord),
    Fatal(MatchError),
}

/// Plays a match as `args` says.
pub fn run_match(args: RunArgs, seed: u64) -> Result<(), MatchError> {
    let usage = |m: String| Err(MatchError::Usage(m));
    let mut specs = Vec::new();
    for tokens in &args.engines.0 {
        specs.push(EngineSpec::from_tokens(tokens).map_err(|e| MatchError::Usage(e.0))?);
    }
    if specs.len() < 2 {
        return usage(format!(
            "a match needs two or more --engine cmd=PATH [name=NAME] ..., got {}",
            specs.len()
        ));
    }
    let mut names = HashSet::new();
    for s in &specs {
        if !names.insert(s.name.clone()) {
            return usage(format!(
                "two engines are named \"{}\": give each a different name=",
                s.name
            ));
        }
    }
    let sprt = parse_sprt(&args.sprt)?;
    if sprt.is_some() && specs.len() != 2 {
        return usage("--sprt compares exactly two engines".to_string());
    }
    if args.concurrency == 0 {
        return usage("--concurrency must be at least 1".to_string());
    }
    if Position::start(args.checkers).is_none() {
        return usage(format!(
            "--checkers {}: expected an even number from 2 to 14",
            args.checkers
        ));
    }
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| MatchError::Io(path.clone(), e))?;
            Openings::List(parse_openings(&text).map_err(|e| MatchError::Records(path.clone(), e))?)
        }
        None => Openings::Random {
            checkers: args.checkers,
            plies: args.random_plies,
            seed,
        },
    };
    let rounds = args.pairs.unwrap_or(match &openings {
        Openings::List(l) => l.len(),
        Openings::Random { .. } => 10,
    });
    let pairings = args.schedule.pairings(specs.len());
    let shard = args.shard.unwrap_or(Shard::ALL);
    let mut jobs: Vec<PairJob> = schedule(&pairings, rounds)
        .into_iter()
        .filter(|j| shard.contains(j.pair))
        .collect();
    let total_games = 2 * jobs.len();
    let settings = GameSettings {
        tc: [args.tc; 2],
        margin: Duration::from_millis(args.margin),
        timeout: Duration::from_millis(args.timeout),
        move_timeout: Duration::from_millis(args.move_timeout),
    };
    let tc = args.tc;

    // The records so far: refuse to clobber them, or resume from them.
    let mut tally = Tally::default();
    let existing = match std::fs::read_to_string(&args.pgn) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(MatchError::Io(args.pgn.clone(), e)),
    };
    let mut kept: Vec<GameRecord> = Vec::new();
    match existing {
        Some(text) if !args.resume && !text.trim().is_empty() => {
            return usage(format!(
                "records file {} exists: pass --resume to continue that match, or choose another --pgn",
                args.pgn.display()
            ));
        }
        Some(text) if args.resume => {
            let parsed = parse_records(&text)
                .map_err(|e| MatchError::Records(args.pgn.clone(), e.to_string()))?;
            let mut by_pair: BTreeMap<usize, Vec<GameRecord>> = BTreeMap::new();
            for g in parsed.games {
                by_pair.entry(g.pair).or_default().push(g);
            }
            let mut done = HashSet::new();
            for (pair, games) in by_pair {
                let Some(job) = jobs.iter().find(|j| j.pair == pair) else {
                    return Err(MatchError::Records(
                        args.pgn.clone(),
                        format!("pair {} is not part of this match (or shard)", pair + 1),
                    ));
                };
                for g in &games {
                    check_belongs(g, job, &specs, &openings, tc)
                        .map_err(|m| MatchError::Records(args.pgn.clone(), m))?;
                }
                // Half-played pairs are played again in full.
                if games.len() == 2 && games[0].game != games[1].game {
                    done.insert(pair);
                    kept.extend(games);
                }
            }
            jobs.retain(|j| !done.contains(&j.pair));
        }
        _ => {}
    }
    // Rewrite the records with the complete pairs only (a crash may have left
    // a half pair or a cut-off record), then append game by game.
    let mut out = File::create(&args.pgn).map_err(|e| MatchError::Io(args.pgn.clone(), e))?;
    for g in &kept {
        tally.add(g);
        write!(out, "{g}").map_err(|e| MatchError::Io(args.pgn.clone(), e))?;
    }
    out.flush()
        .map_err(|e| MatchError::Io(args.pgn.clone(), e))?;
    if let Some(s) = &sprt {
        if tally.sprt_decision(s) != SprtDecision::Continue {
            jobs.clear();
        }
    }

    let progress = Progress::new(args.quiet);
    progress.show(&tally.progress(total_games, sprt.as_ref()));
    let workers = args.concurrency.min(jobs.len());
    let shared = Arc::new(Shared {
        specs,
        settings,
        openings,
        queue: Mutex::new(jobs.into_iter().collect()),
        stop: AtomicBool::new(false),
        event: args.event.clone(),
        date: today(),
        tc,
    });
    let (tx, rx) = mpsc::channel();
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let shared = Arc::clone(&shared);
            let tx = tx.clone();
            thread::spawn(move || worker(&shared, &tx))
        })
        .collect();
    drop(tx);
    let mut fatal = None;
    for msg in rx {
        match msg {
            Msg::Game(g) => {
                let written = write!(out, "{g}").and_then(|_| out.flush());
                if let Err(e) = written {
                    shared.stop.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(MatchError::Io(args.pgn.clone(), e));
                }
                tally.add(&g);
                progress.show(&tally.progress(total_games, sprt.as_ref()));
                if let Some(s) = &sprt {
                    if tally.sprt_decision(s) != SprtDecision::Continue {
                        shared.stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            Msg::Fatal(e) => {
                shared.stop.store(true, Ordering::SeqCst);
                fatal.get_or_insert(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    progress.finish();
    if let Some(e) = fatal {
        return Err(e);
    }
    finish(&tally, sprt.as_ref(), args.json.as_deref())
}

/// Prints the report and writes the JSON summary.
fn finish(tally: &Tally, sprt: Option<&Sprt>, json: Option<&Path>) -> Result<(), MatchError> {
    print!("{}", tally.report(sprt));
    if let Some(path) = json {
        std::fs::write(path, tally.to_json(sprt))
            .map_err(|e| MatchError::Io(path.to_path_buf(), e))?;
    }
    Ok(())
}

/// Checks that a record read back for `--resume` is the game this match
/// would play as pair `job`.
fn check_belongs(
    g: &GameRecord,
    job: &PairJob,
    specs: &[EngineSpec],
    openings: &Openings,
    tc: TimeControl,
) -> Result<(), String> {
    let (w, b) = if g.game == 1 {
        (job.first, job.second)
    } else {
        (job.second, job.first)
    };
    let round = format!("{}.{}", g.pair + 1, g.game);
    if g.white != specs[w].name || g.black != specs[b].name {
        return Err(format!(
            "game {round} is {} vs {}, but this match has {} vs {} there",
            g.white, g.black, specs[w].name, specs[b].name
        ));
    }
    let opening = openings.get(job.round);
    if g.opening != opening {
        return Err(format!(
            "game {round} starts from \"{}\", but this match's opening there is \"{opening}\"",
            g.opening
        ));
    }
    let tc = tc_label(specs[w].tc.unwrap_or(tc), specs[b].tc.unwrap_or(tc));
    if g.tc != tc {
        return Err(format!(
            "game {round} was played at {}, but this match is at {tc}",
            g.tc
        ));
    }
    g.replay().map_err(|e| format!("game {round}: {e}"))?;
    Ok(())
}

fn worker(shared: &Shared, tx: &mpsc::Sender<Msg>) {
    let mut procs: Vec<Option<Engine>> = shared.specs.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::SeqCst) {
        let Some(job) = shared.queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let opening = shared.openings.get(job.round);
        for game in 1..=2u8 {
            let (w, b) = if game == 1 {
                (job.first, job.second)
            } else {
                (job.second, job.first)
            };
            let tcs = [
                shared.specs[w].tc.unwrap_or(shared.tc),
                shared.specs[b].tc.unwrap_or(shared.tc),
            ];
            let played = match play_one(shared, &mut procs, w, b, opening, tcs) {
                Ok(p) => p,
                Err(e) => {
                    let _ = tx.send(Msg::Fatal(e));
                    return;
                }
            };
            let record = GameRecord {
                event: shared.event.clone(),
                date: shared.date.clone(),
                pair: job.pair,
                game,
                white: shared.specs[w].name.clone(),
                black: shared.specs[b].name.clone(),
                opening,
                tc: tc_label(tcs[0], tcs[1]),
                result: played.result,
                termination: played.termination,
                detail: played.detail,
                moves: played.moves,
                notes: played.notes,
            };
            if tx.send(Msg::Game(record)).is_err() {
                return;
            }
        }
    }
    for e in procs.into_iter().flatten() {
        e.quit(Duration::from_millis(500));
    }
}

/// Plays one game, starting (or restarting) the engines it needs.
fn play_one(
    shared: &Shared,
    procs: &mut [Option<Engine>],
    w: usize,
    b: usize,
    opening: Position,
    tc: [TimeControl; 2],
) -> Result<Played, MatchError> {
    for (idx, color) in [(w, Color::White), (b, Color::Black)] {
        if procs[idx].is_none() {
            let spec = &shared.specs[idx];
            match Engine::start(spec, shared.settings.timeout) {
                Ok(e) => procs[idx] = Some(e),
                Err(EngineFailure::Spawn(e)) => return Err(MatchError::Spawn(spec.cmd.clone(), e)),
                Err(f) => {
                    log::info!("{} failed to start: {f}", spec.name);
                    return Ok(Played::failure(color, &f, Vec::new()));
                }
            }
        }
    }
    let (we, be) = two_mut(procs, w, b);
    let played = play_game(
        [we.as_mut().expect("started"), be.as_mut().expect("started")],
        opening,
        &GameSettings {
            tc,
            ..shared.settings
        },
    );
    if let Some(c) = played.offender {
        // A misbehaving engine gets a fresh process for its next game.
        let idx = if c == Color::White { w } else { b };
        if let Some(e) = procs[idx].take() {
            e.kill();
        }
    }
    Ok(played)
}

fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    assert_ne!(i, j);
    if i < j {
        let (a, b) = v.split_at_mut(j);
        (&mut a[i], &mut b[0])
    } else {
        let (a, b) = v.split_at_mut(i);
        (&mut b[0], &mut a[j])
    }
}

/// The live progress line on stderr: rewritten in place on a terminal, one
/// line per update otherwise (logs stay readable).
struct Progress {
    quiet: bool,
    tty: bool,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            quiet,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, line: &str) {
        if self.quiet {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r{line}\x1b[K")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    fn finish(&self) {
        if !self.quiet && self.tty {
            eprintln!();
        }
    }
}

/// `match merge`: reads records files, checks that no pair appears twice,
/// writes the combined records (sorted by pair) and reports.
pub fn merge(args: MergeArgs) -> Result<(), MatchError> {
    let sprt = parse_sprt(&args.sprt)?;
    let mut all: Vec<(GameRecord, PathBuf)> = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| MatchError::Io(path.clone(), e))?;
        let parsed =
            parse_records(&text).map_err(|e| MatchError::Records(path.clone(), e.to_string()))?;
        if parsed.truncated {
            log::warn!(
                "{}: the last record is cut off and left out",
                path.display()
            );
        }
        for g in parsed.games {
            g.replay().map_err(|e| {
                MatchError::Records(path.clone(), format!("game {}.{}: {e}", g.pair + 1, g.game))
            })?;
            all.push((g, path.clone()));
        }
    }
    all.sort_by_key(|(g, _)| (g.pair, g.game));
    for w in all.windows(2) {
        if (w[0].0.pair, w[0].0.game) == (w[1].0.pair, w[1].0.game) {
            return Err(MatchError::Records(
                w[1].1.clone(),
                format!(
                    "game {}.{} is also in {}: were the same shard's records given twice?",
                    w[1].0.pair + 1,
                    w[1].0.game,
                    w[0].1.display()
                ),
            ));
        }
    }
    let mut tally = Tally::default();
    let mut text = String::new();
    for (g, _) in &all {
        tally.add(g);
        text.push_str(&g.to_string());
    }
    if let Some(path) = &args.pgn {
        std::fs::write(path, text).map_err(|e| MatchError::Io(path.clone(), e))?;
    }
    finish(&tally, sprt.as_ref(), args.json.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_numbers_pairs_round_by_round() {
        let jobs = schedule(&[(0, 1), (0, 2), (1, 2)], 2);
        assert_eq!(jobs.len(), 6);
        assert_eq!(
            jobs[4],
            PairJob {
                pair: 4,
                round: 1,
                first: 0,
                second: 2
            }
        );
        assert!(jobs.iter().enumerate().all(|(i, j)| j.pair == i));
    }

    #[test]
    fn two_mut_gives_both_elements() {
        let mut v = [1, 2, 3];
        let (a, b) = two_mut(&mut v, 2, 0);
        std::mem::swap(a, b);
        assert_eq!(v, [3, 2, 1]);
    }
}
