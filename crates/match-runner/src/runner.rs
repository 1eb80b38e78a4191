//! Running a match: the schedule of game pairs, worker threads that each own
//! their engine processes (so a process plays one game at a time), the
//! records file, resuming, shards, the SPRT stop, and merging shards. All of
//! it generic over the [`Game`]. Nothing here writes to the terminal: a match
//! returns its [`MatchOutcome`] (the report included) and hands its progress
//! lines to the caller's [`ProgressSink`].

use super::game::GameRecord;
use super::game::{tc_label, Game, GameSettings, Scoring};
use super::outcome::{Played, Side, Termination};
use super::records::{parse_record_bytes, today};
use super::records_file::RecordsFile;
use super::spec::{EngineSpec, Shard, TimeControl};
use super::stats::{Sprt, SprtDecision};
use super::summary::Tally;
use super::{MatchError, MatchSettings, MergeSettings};
use engine_client::{Engine, EngineFailure};
use std::collections::{BTreeMap, HashSet, VecDeque};
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
    /// The game of the pair (1 or 2) already in a resumed records file,
    /// which is kept and not played again.
    pub recorded: Option<u8>,
}

impl PairJob {
    /// The engines of game 1 or 2 of the pair: (White, Black).
    fn seats(&self, game: u8) -> (usize, usize) {
        match game {
            1 => (self.first, self.second),
            _ => (self.second, self.first),
        }
    }
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
                    recorded: None,
                })
        })
        .collect()
}

/// What every worker shares.
struct Shared<G: Game> {
    game: G,
    specs: Vec<EngineSpec>,
    settings: GameSettings,
    queue: Mutex<VecDeque<PairJob>>,
    stop: AtomicBool,
    event: String,
    date: String,
    /// The match's time control, for engines without their own.
    tc: TimeControl,
}

impl<G: Game> Shared<G> {
    /// The time controls of White's and Black's engines.
    fn tcs(&self, white: usize, black: usize) -> [TimeControl; 2] {
        [white, black].map(|i| self.specs[i].tc.unwrap_or(self.tc))
    }
}

enum Msg<G: Game> {
    Game(GameRecord<G>),
    Fatal(MatchError),
}

/// Checks the settings that no single part checks: at least two engines,
/// distinct names, protocols the game speaks, the SPRT only between two
/// and where it fits, some concurrency.
fn validate<G: Game>(settings: &MatchSettings, scoring: Scoring) -> Result<(), MatchError> {
    let usage = |m: String| Err(MatchError::Usage(m));
    let specs = &settings.engines;
    if specs.len() < 2 {
        return usage(format!(
            "a match needs two or more --engine cmd=PATH [name=NAME] ..., got {}",
            specs.len()
        ));
    }
    let mut names = HashSet::new();
    if let Some(s) = specs.iter().find(|s| !names.insert(&s.name)) {
        return usage(format!(
            "two engines are named \"{}\": give each a different name=",
            s.name
        ));
    }
    if let Some(s) = specs.iter().find(|s| !G::PROTOCOLS.contains(&s.proto)) {
        let names: Vec<&str> = G::PROTOCOLS.iter().map(|p| p.name()).collect();
        return usage(format!(
            "engine \"{}\" speaks proto={}, but this game's referee speaks {}",
            s.name,
            s.proto.name(),
            names.join(" or ")
        ));
    }
    if settings.sprt.is_some() && specs.len() != 2 {
        return usage("--sprt compares exactly two engines".to_string());
    }
    if settings.sprt.is_some() && scoring == Scoring::Points {
        return usage(no_points_sprt());
    }
    if settings.transcripts.is_some() && G::TRANSCRIPT.is_none() {
        return usage("this game has no transcript format (--mat is for backgammon)".to_string());
    }
    if settings.concurrency == 0 {
        return usage("--concurrency must be at least 1".to_string());
    }
    Ok(())
}

/// Where a match sends its progress line (the tally so far, one update per
/// game); the binary writes it to stderr, a test may keep or drop it.
pub trait ProgressSink {
    /// The progress line after the games so far.
    fn show(&mut self, line: &str);
    /// The match has ended (played out, decided, or stopped by an error).
    fn finish(&mut self) {}
}

/// Drops every progress line.
pub struct NoProgress;

impl ProgressSink for NoProgress {
    fn show(&mut self, _line: &str) {}
}

/// What a finished match (or merge) reports: the tally, the report text the
/// binary prints, and the SPRT's decision when one was asked for.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub tally: Tally,
    /// The human-readable report (what `grasshopper match` prints on stdout).
    pub report: String,
    pub sprt: Option<SprtDecision>,
}

/// Plays a match of `game` as `settings` say, showing its progress on
/// `progress`, and returns the outcome (the JSON summary is written here).
pub fn run_match<G: Game>(
    game: G,
    settings: MatchSettings,
    progress: &mut dyn ProgressSink,
) -> Result<MatchOutcome, MatchError> {
    let scoring = G::scoring(&game.opening(0));
    validate::<G>(&settings, scoring)?;
    let shard = settings.shard.unwrap_or(Shard::ALL);
    let mut jobs: Vec<PairJob> = schedule(
        &settings.schedule.pairings(settings.engines.len()),
        settings.rounds,
    )
    .into_iter()
    .filter(|j| shard.contains(j.pair))
    .collect();
    let total_games = 2 * jobs.len();
    let mut file = RecordsFile::lock(&settings.pgn)?;
    let kept = resume::<G>(&settings, &game, &mut jobs, &file.read()?)?;
    let mut out = rewrite_records(file, &kept)?;
    let transcripts = settings.transcripts.as_deref();
    let mut tally = Tally::new(scoring);
    for g in &kept {
        tally.add(&g.scored());
        write_transcript(transcripts, g)?;
    }
    let sprt = settings.sprt;
    if sprt.is_some_and(|s| tally.sprt_decision(&s) != SprtDecision::Continue) {
        jobs.clear();
    }
    progress.show(&tally.progress(total_games, sprt.as_ref()));
    let shared = Arc::new(Shared {
        game,
        specs: settings.engines.clone(),
        settings: GameSettings {
            tc: [settings.tc; 2],
            protos: [settings.engines[0].proto; 2],
            margin: settings.margin,
            timeout: settings.timeout,
            move_timeout: settings.move_timeout,
        },
        queue: Mutex::new(jobs.into_iter().collect()),
        stop: AtomicBool::new(false),
        event: settings.event.clone(),
        date: today(),
        tc: settings.tc,
    });
    let (tx, rx) = mpsc::channel();
    let handles: Vec<_> = (0..settings.concurrency)
        .map(|_| {
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            thread::spawn(move || worker(&shared, &tx))
        })
        .collect();
    drop(tx);
    let mut fatal = None;
    for msg in rx {
        let written = match msg {
            Msg::Game(g) => {
                tally.add(&g.scored());
                progress.show(&tally.progress(total_games, sprt.as_ref()));
                let decided =
                    sprt.is_some_and(|s| tally.sprt_decision(&s) != SprtDecision::Continue);
                out.append(&g.to_string())
                    .and_then(|_| write_transcript(transcripts, &g))
                    .map(|_| decided)
            }
            Msg::Fatal(e) => Err(e),
        };
        match written {
            Ok(false) => {}
            Ok(true) => shared.stop.store(true, Ordering::SeqCst),
            Err(e) => {
                shared.stop.store(true, Ordering::SeqCst);
                fatal.get_or_insert(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    progress.finish();
    match fatal {
        Some(e) => Err(e),
        None => finish(tally, sprt.as_ref(), settings.json.as_deref()),
    }
}

/// With `--resume`, the games of the records file (`bytes`): checked
/// against this match and kept; their pairs are taken out of `jobs`, or
/// marked half recorded. Without it, a non-empty records file is refused
/// rather than overwritten.
fn resume<G: Game>(
    settings: &MatchSettings,
    game: &G,
    jobs: &mut Vec<PairJob>,
    bytes: &[u8],
) -> Result<Vec<GameRecord<G>>, MatchError> {
    let path = &settings.pgn;
    if !settings.resume {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Vec::new());
        }
        return Err(MatchError::Usage(format!(
            "records file {} exists: pass --resume to continue that match, or choose another --pgn",
            path.display()
        )));
    }
    let records = |m: String| MatchError::Records(path.clone(), m);
    let parsed = parse_record_bytes::<G>(bytes).map_err(|e| records(e.to_string()))?;
    let mut by_pair: BTreeMap<usize, Vec<GameRecord<G>>> = BTreeMap::new();
    for g in parsed.games {
        by_pair.entry(g.pair).or_default().push(g);
    }
    let mut kept = Vec::new();
    let mut done = HashSet::new();
    for (pair, mut games) in by_pair {
        let Some(job) = jobs.iter_mut().find(|j| j.pair == pair) else {
            return Err(records(format!(
                "pair {} is not part of this match (or shard)",
                pair + 1
            )));
        };
        for g in &games {
            check_belongs(g, job, settings, game).map_err(records)?;
        }
        // One record per game: a second copy of a game is not kept.
        let (mut seen, copies) = (HashSet::new(), games.len());
        games.retain(|g| seen.insert(g.game));
        if games.len() < copies {
            log::warn!(
                "{}: a game of pair {} is recorded twice; the first copy is kept",
                path.display(),
                pair + 1
            );
        }
        // A half-played pair keeps its game; the other is played.
        match games.as_slice() {
            [one] => job.recorded = Some(one.game),
            _ => {
                done.insert(pair);
            }
        }
        kept.extend(games);
    }
    jobs.retain(|j| !done.contains(&j.pair));
    Ok(kept)
}

/// Rewrites the records file with the kept games only (a kill may have left
/// a cut-off record), replacing it whole so that a kill meanwhile leaves the
/// old file or the new; the match then appends to it game by game.
fn rewrite_records<G: Game>(
    file: RecordsFile,
    kept: &[GameRecord<G>],
) -> Result<RecordsFile, MatchError> {
    let text: String = kept.iter().map(|g| g.to_string()).collect();
    file.replace(&text)
}

/// Why `--sprt` is refused for games scored in points.
fn no_points_sprt() -> String {
    "--sprt tests wins (of games, or of matches with --length); money play is measured by \
     its points per game and their interval instead"
        .to_string()
}

/// The transcript file of a game: `pair-00012-1.mat` for game 1 of pair 12.
pub fn transcript_path<G: Game>(dir: &Path, g: &GameRecord<G>) -> PathBuf {
    let ext = G::TRANSCRIPT.unwrap_or("txt");
    dir.join(format!("pair-{:05}-{}.{ext}", g.pair + 1, g.game))
}

/// Writes `g`'s transcript into `dir` (creating it), when there is a `dir`.
fn write_transcript<G: Game>(dir: Option<&Path>, g: &GameRecord<G>) -> Result<(), MatchError> {
    let (Some(dir), Some(text)) = (dir, G::transcript(g)) else {
        return Ok(());
    };
    let path = transcript_path(dir, g);
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&path, text))
        .map_err(|e| MatchError::Io(path, e))
}

/// Writes the JSON summary and returns the outcome with its report.
fn finish(
    tally: Tally,
    sprt: Option<&Sprt>,
    json: Option<&Path>,
) -> Result<MatchOutcome, MatchError> {
    if let Some(path) = json {
        std::fs::write(path, tally.to_json(sprt))
            .map_err(|e| MatchError::Io(path.to_path_buf(), e))?;
    }
    Ok(MatchOutcome {
        report: tally.report(sprt),
        sprt: sprt.map(|s| tally.sprt_decision(s)),
        tally,
    })
}

/// Checks that a record read back for `--resume` is the game this match
/// would play as pair `job`.
fn check_belongs<G: Game>(
    g: &GameRecord<G>,
    job: &PairJob,
    settings: &MatchSettings,
    game: &G,
) -> Result<(), String> {
    let specs = &settings.engines;
    let (w, b) = job.seats(g.game);
    let round = format!("{}.{}", g.pair + 1, g.game);
    if g.white != specs[w].name || g.black != specs[b].name {
        return Err(format!(
            "game {round} is {} vs {}, but this match has {} vs {} there",
            g.white, g.black, specs[w].name, specs[b].name
        ));
    }
    let opening = game.opening(job.round);
    if g.opening != opening {
        return Err(format!(
            "game {round} starts from \"{}\", but this match's opening there is \"{opening}\"",
            g.opening
        ));
    }
    let tc = settings.tc;
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

/// A worker: takes pairs from the queue and plays both games of each with
/// its own engine processes, until the queue is empty or the match stops.
fn worker<G: Game>(shared: &Shared<G>, tx: &mpsc::Sender<Msg<G>>) {
    let mut procs: Vec<Option<Engine>> = shared.specs.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::SeqCst) {
        let Some(job) = shared.queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        for game in (1..=2u8).filter(|&g| job.recorded != Some(g)) {
            let msg = match play_one(shared, &mut procs, &job, game) {
                Ok(record) => Msg::Game(record),
                Err(e) => Msg::Fatal(e),
            };
            let fatal = matches!(msg, Msg::Fatal(_));
            if tx.send(msg).is_err() || fatal {
                return;
            }
        }
    }
    for e in procs.into_iter().flatten() {
        e.quit(Duration::from_millis(500));
    }
}

/// How long a crash waits before it is recorded (see [`play_one`]).
const CRASH_GRACE: Duration = Duration::from_millis(500);

/// Plays game `game` of pair `job`, starting (or restarting) the engines it
/// needs, and returns its record.
fn play_one<G: Game>(
    shared: &Shared<G>,
    procs: &mut [Option<Engine>],
    job: &PairJob,
    game: u8,
) -> Result<GameRecord<G>, MatchError> {
    let (w, b) = job.seats(game);
    let tcs = shared.tcs(w, b);
    let opening = shared.game.opening(job.round);
    let start = start_engines::<G>(&shared.specs, shared.settings.timeout, procs, w, b)?;
    let played = match start.map(|f| scored_forfeit::<G>(f, &opening)) {
        Some(forfeit) => forfeit,
        None => {
            let (we, be) = two_mut(procs, w, b);
            let settings = GameSettings {
                tc: tcs,
                protos: [shared.specs[w].proto, shared.specs[b].proto],
                ..shared.settings
            };
            let engines = [we.as_mut().expect("started"), be.as_mut().expect("started")];
            shared.game.play(engines, &opening, &settings)
        }
    };
    if played.termination == Termination::Crash {
        // An engine that died with the runner (a cancelled job, Ctrl-C: the
        // signal reaches every process at once) did not lose: give the
        // runner's own signal time to end it before the game is recorded.
        std::thread::sleep(CRASH_GRACE);
    }
    if let Some(side) = played.offender {
        // A misbehaving engine gets a fresh process for its next game.
        let idx = if side == Side::White { w } else { b };
        if let Some(e) = procs[idx].take() {
            e.kill();
        }
    }
    Ok(GameRecord {
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
    })
}
/// A forfeit before the first move, at the game's value of a forfeit (a
/// match forfeit is worth the match, not one point).
fn scored_forfeit<G: Game>(played: Played<G::Move>, opening: &G::Opening) -> Played<G::Move> {
    let loser = played.offender.expect("a forfeit has an offender");
    Played {
        result: G::forfeit_result(opening, &[], loser),
        ..played
    }
}

/// Starts the engines of White (`w`) and Black (`b`) that have no process.
/// A program that cannot be started at all ends the match; one that fails
/// its handshake loses the game (the forfeit is returned).
fn start_engines<G: Game>(
    specs: &[EngineSpec],
    timeout: Duration,
    procs: &mut [Option<Engine>],
    w: usize,
    b: usize,
) -> Result<Option<Played<G::Move>>, MatchError> {
    for (idx, side) in [(w, Side::White), (b, Side::Black)] {
        if procs[idx].is_some() {
            continue;
        }
        let spec = &specs[idx];
        match Engine::start(
            &spec.program(),
            spec.proto.handshake(),
            &spec.options,
            timeout,
        ) {
            Ok((e, _)) => procs[idx] = Some(e),
            Err(EngineFailure::Spawn(e)) => return Err(MatchError::Spawn(spec.cmd.clone(), e)),
            Err(f) => {
                log::info!("{} failed to start: {f}", spec.name);
                return Ok(Some(Played::failure(side, &f, Vec::new())));
            }
        }
    }
    Ok(None)
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

/// `match merge`: reads records files, checks that no game appears twice,
/// writes the combined records (sorted by pair) and reports.
pub fn merge<G: Game>(settings: MergeSettings) -> Result<MatchOutcome, MatchError> {
    let mut all: Vec<(GameRecord<G>, PathBuf)> = Vec::new();
    for path in &settings.files {
        all.extend(
            read_checked::<G>(path)?
                .into_iter()
                .map(|g| (g, path.clone())),
        );
    }
    all.sort_by_key(|(g, _)| (g.pair, g.game));
    if let Some(w) = all
        .windows(2)
        .find(|w| (w[0].0.pair, w[0].0.game) == (w[1].0.pair, w[1].0.game))
    {
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
    let scoring = all
        .first()
        .map_or(Scoring::Wins, |(g, _)| G::scoring(&g.opening));
    if settings.sprt.is_some() && scoring == Scoring::Points {
        return Err(MatchError::Usage(no_points_sprt()));
    }
    if settings.transcripts.is_some() && G::TRANSCRIPT.is_none() {
        return Err(MatchError::Usage(
            "this game has no transcript format (--mat is for backgammon)".to_string(),
        ));
    }
    let mut tally = Tally::new(scoring);
    let mut text = String::new();
    for (g, _) in &all {
        tally.add(&g.scored());
        text.push_str(&g.to_string());
        write_transcript(settings.transcripts.as_deref(), g)?;
    }
    if let Some(path) = &settings.pgn {
        std::fs::write(path, text).map_err(|e| MatchError::Io(path.clone(), e))?;
    }
    finish(tally, settings.sprt.as_ref(), settings.json.as_deref())
}

/// The records of one file, each replayed and checked.
fn read_checked<G: Game>(path: &Path) -> Result<Vec<GameRecord<G>>, MatchError> {
    let records = |m: String| MatchError::Records(path.to_path_buf(), m);
    let bytes = std::fs::read(path).map_err(|e| MatchError::Io(path.to_path_buf(), e))?;
    let parsed = parse_record_bytes::<G>(&bytes).map_err(|e| records(e.to_string()))?;
    if parsed.truncated {
        log::warn!(
            "{}: the last record is cut off and left out",
            path.display()
        );
    }
    for g in &parsed.games {
        g.replay()
            .map_err(|e| records(format!("game {}.{}: {e}", g.pair + 1, g.game)))?;
    }
    Ok(parsed.games)
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
                second: 2,
                recorded: None,
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
