//! Retro-quality (`grasshopper retro-quality`): how often the engine's move
//! gives away value, measured with the retrograde tables on positions from
//! engine games.
//!
//! The engine's choices do not need the tables, only their scoring does, so
//! the two halves can run apart: `--record FILE` keeps the positions and the
//! engine's move in each at every setting (a text file, one line a move),
//! `--replay FILE` scores such a file against the tables later, on another
//! machine or once the solve is complete. A truth file
//! ([`crate::truth`], `--export-truth` with the tables) keeps the exact
//! values of a record's positions and moves, and scores its records later
//! without the tables (`--truth`).
//!
//! The games' random first plies are drawn from SplitMix64 (the workspace's
//! `splitmix` crate; before it, rand_xoshiro's, the same stream), the stream
//! the measurement has always used, so a seed keeps its positions.

use crate::datalines::data_lines;
use crate::errors;
use crate::truth::{Judge, Truth, TruthError};
use grasshopper_engine::{Limits, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::{IllegalMove, Move, ParseMoveError, ParsePositionError, Position};
use grasshopper_solver::retro::{is_stored, RetroError, RetroTables};
use splitmix::SplitMix64;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What a retro-quality run measures.
#[derive(Clone, Debug)]
pub struct QualitySettings {
    /// Directory of the phase tables (from `solve --retro`); only complete
    /// phases are used. Without it, positions are those the complete tables
    /// of the game would hold and nothing is scored.
    pub retro: Option<PathBuf>,
    /// Write the positions and the engine's moves to this file.
    pub record: Option<PathBuf>,
    /// Score the moves of a record file instead of searching.
    pub replay: Option<PathBuf>,
    /// Score with this truth file instead of the tables (the positions it
    /// covers: those of `replay` or `positions_from`).
    pub truth: Option<PathBuf>,
    /// Write the truth of the measured positions to this file (needs the
    /// tables).
    pub export_truth: Option<PathBuf>,
    /// Search the positions of a record file (its moves ignored) instead of
    /// those of new engine games: a changed engine measured on the same
    /// positions.
    pub positions_from: Option<PathBuf>,
    /// Explain every value-losing move into this file (needs the tables;
    /// see [`crate::errors`]).
    pub errors: Option<PathBuf>,
    /// Checkers per player of the games.
    pub checkers: u8,
    /// Distinct positions to measure (covered by the tables, at least two
    /// legal moves); with `positions_from`, the file's first this many.
    pub positions: usize,
    /// Move times to measure, in milliseconds.
    pub movetimes: Vec<u64>,
    /// Node limits to measure as well.
    pub nodes: Vec<u64>,
    /// Nodes per move of the engine in the games that supply the positions.
    pub game_nodes: u64,
    /// Random first plies of each game: 2 to this many.
    pub random_plies: u64,
    /// Stop collecting after this many games, with fewer positions if so.
    pub max_games: Option<u64>,
    /// Positions measured at once.
    pub workers: usize,
    /// Search threads of each position's search (Lazy SMP: the engine's
    /// `Threads` option); workers times threads should not pass the cores.
    pub threads: usize,
}

/// Why a retro-quality run stopped.
#[derive(Debug, thiserror::Error)]
pub enum QualityError {
    /// The phase tables cannot be opened.
    #[error(transparent)]
    Retro(#[from] RetroError),
    /// A record file that cannot be read or written.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A truth file that cannot be read.
    #[error(transparent)]
    Truth(#[from] TruthError),
    /// A truth file covers a fixed set of positions, not those of new games.
    #[error("--truth scores the positions of a record file: give --replay or --positions-from")]
    TruthWithoutRecord,
    /// No start position with this many checkers per player.
    #[error("{0} checkers: expected an even number from 2 to 14")]
    Checkers(u8),
    /// Writing the report failed.
    #[error("output error: {0}")]
    Output(#[from] std::io::Error),
}

/// One engine setting: a move time or a node budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    Movetime(u64),
    Nodes(u64),
}

impl Setting {
    fn limits(self) -> Limits {
        match self {
            Setting::Movetime(ms) => Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Default::default()
            },
            Setting::Nodes(n) => Limits {
                nodes: Some(n),
                ..Default::default()
            },
        }
    }

    /// The name in the report.
    fn label(self) -> String {
        match self {
            Setting::Movetime(ms) => format!("movetime {ms} ms"),
            Setting::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// `movetime:10`, `nodes:14400`: the form in a record file.
impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Movetime(ms) => write!(f, "movetime:{ms}"),
            Setting::Nodes(n) => write!(f, "nodes:{n}"),
        }
    }
}

/// A setting's text that is not `movetime:MS` or `nodes:N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad setting {text:?}: expected movetime:MS or nodes:N")]
pub struct ParseSettingError {
    pub text: String,
}

impl FromStr for Setting {
    type Err = ParseSettingError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseSettingError {
            text: s.to_string(),
        };
        let (kind, n) = s.split_once(':').ok_or_else(bad)?;
        let n: u64 = n.parse().map_err(|_| bad())?;
        match kind {
            "movetime" => Ok(Setting::Movetime(n)),
            "nodes" => Ok(Setting::Nodes(n)),
            _ => Err(bad()),
        }
    }
}

/// The engine's choice in one position at one setting.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Choice {
    mv: Move,
    nodes: u64,
}

/// Positions and, per setting, the engine's choice in each of them.
#[derive(Debug, Default, PartialEq)]
struct Record {
    positions: Vec<Position>,
    settings: Vec<(Setting, Vec<Choice>)>,
}

/// A record file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{path}:{line}: {why} in {text:?}")]
    Line {
        path: PathBuf,
        line: usize,
        text: String,
        why: LineFault,
    },
    #[error("{0}: setting {1} has no move for some positions")]
    Incomplete(PathBuf, Setting),
}

/// What is wrong with one line of a record file.
#[derive(Debug, thiserror::Error)]
pub enum LineFault {
    #[error("{0} fields, expected 4")]
    Fields(usize),
    #[error("position: {0}")]
    Position(ParsePositionError),
    #[error(transparent)]
    Setting(#[from] ParseSettingError),
    #[error("move: {0}")]
    Move(ParseMoveError),
    #[error("move {text}: {why}")]
    Illegal { text: String, why: IllegalMove },
    #[error("nodes {0:?}: expected a count")]
    Nodes(String),
}

const RECORD_HEADER: &str = "# grasshopper retro-quality record: position\tsetting\tmove\tnodes";

impl Record {
    fn write(&self, w: &mut impl Write) -> std::io::Result<()> {
        writeln!(w, "{RECORD_HEADER}")?;
        for (setting, choices) in &self.settings {
            for (p, c) in self.positions.iter().zip(choices) {
                writeln!(w, "{p}\t{setting}\t{}\t{}", c.mv, c.nodes)?;
            }
        }
        Ok(())
    }

    fn read(path: &Path, r: impl BufRead) -> Result<Record, RecordError> {
        let mut rec = Record::default();
        let mut index: HashMap<Position, usize> = HashMap::new();
        // Per setting, the choice in each position seen so far.
        let mut choices: Vec<(Setting, Vec<Option<Choice>>)> = Vec::new();
        for (line, text) in data_lines(r) {
            let text = text.map_err(|e| RecordError::Io(path.to_path_buf(), e))?;
            let bad = |why: LineFault| RecordError::Line {
                path: path.to_path_buf(),
                line,
                text: text.clone(),
                why,
            };
            let (p, s, c) = parse_line(&text).map_err(bad)?;
            let i = *index.entry(p).or_insert_with(|| {
                rec.positions.push(p);
                rec.positions.len() - 1
            });
            let at = match choices.iter().position(|(x, _)| *x == s) {
                Some(at) => at,
                None => {
                    choices.push((s, Vec::new()));
                    choices.len() - 1
                }
            };
            let v = &mut choices[at].1;
            v.resize(v.len().max(i + 1), None);
            v[i] = Some(c);
        }
        for (s, mut v) in choices {
            v.resize(rec.positions.len(), None);
            let v: Option<Vec<Choice>> = v.into_iter().collect();
            let v = v.ok_or_else(|| RecordError::Incomplete(path.to_path_buf(), s))?;
            rec.settings.push((s, v));
        }
        Ok(rec)
    }
}

/// `position<TAB>setting<TAB>move<TAB>nodes`, the move legal in the position.
fn parse_line(text: &str) -> Result<(Position, Setting, Choice), LineFault> {
    let f: Vec<&str> = text.split('\t').collect();
    let [p, s, m, nodes] = f[..] else {
        return Err(LineFault::Fields(f.len()));
    };
    let p: Position = p.parse().map_err(LineFault::Position)?;
    let s: Setting = s.parse()?;
    let mv: Move = m.parse().map_err(LineFault::Move)?;
    p.play(mv).map_err(|why| LineFault::Illegal {
        text: m.to_string(),
        why,
    })?;
    let nodes = nodes
        .parse()
        .map_err(|_| LineFault::Nodes(nodes.to_string()))?;
    Ok((p, s, Choice { mv, nodes }))
}

/// The positions of a record file.
pub fn record_positions(path: &Path) -> Result<Vec<Position>, RecordError> {
    Ok(read_record(path)?.positions)
}

/// Distinct positions that `judge` covers, with at least two legal moves,
/// from engine games of `a.checkers` checkers (`a.game_nodes` nodes a move
/// after 2 to `a.random_plies` random plies drawn from `seed`): the
/// measurement's positions, and the Texel fit's ([`crate::tune`]).
pub fn covered_positions(
    judge: &dyn Judge,
    a: &QualitySettings,
    seed: u64,
    log: &mut dyn Write,
) -> Vec<Position> {
    positions(&|p| judge.covers(p), a, seed, log)
}

/// Reads a record file.
fn read_record(path: &Path) -> Result<Record, RecordError> {
    let f = std::fs::File::open(path).map_err(|e| RecordError::Io(path.to_path_buf(), e))?;
    Record::read(path, std::io::BufReader::new(f))
}

fn best_move(s: &mut Searcher, pos: &Position, limits: &Limits) -> Choice {
    let control = SearchControl::new(false);
    let mut nodes = 0;
    let r = s.search(pos, limits, &control, &mut |r| nodes = r.nodes);
    Choice {
        mv: r.best.expect("the game goes on"),
        nodes,
    }
}

/// Positions from engine games (random first plies) that `wanted` accepts.
fn positions(
    wanted: &dyn Fn(&Position) -> bool,
    a: &QualitySettings,
    seed: u64,
    log: &mut dyn Write,
) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut s = Searcher::new(SearchOptions::default());
    let limits = Setting::Nodes(a.game_nodes).limits();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut games = 0u64;
    while out.len() < a.positions && a.max_games.is_none_or(|g| games < g) {
        games += 1;
        s.clear();
        let mut p = Position::start(a.checkers).expect("checked");
        // The draws are `next % n`, as they were before the shared generator.
        let random = 2 + rng.next_u64() % (a.random_plies.max(2) - 1);
        let mut ply = 0;
        while !p.is_game_over() {
            let moves = p.legal_moves();
            if wanted(&p) && moves.len() >= 2 && seen.insert(p.canonical_key()) {
                out.push(p);
            }
            let m = if ply < random {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            } else {
                best_move(&mut s, &p, &limits).mv
            };
            p.play_unchecked(m);
            ply += 1;
        }
        if games.is_multiple_of(200) {
            let _ = writeln!(log, "quality: {games} games, {} positions", out.len());
        }
    }
    out.truncate(a.positions);
    let _ = writeln!(log, "quality: {games} games gave {} positions", out.len());
    out
}

/// The engine's choice in every position at `setting` (no tables, a fresh
/// hash per position, `workers` positions at once, each searched on
/// `threads` threads).
fn choose(ps: &[Position], setting: Setting, workers: usize, threads: usize) -> Vec<Choice> {
    let limits = setting.limits();
    let options = SearchOptions {
        threads: threads.max(1),
        ..SearchOptions::default()
    };
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; ps.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                let mut s = Searcher::new(options.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = ps.get(i) else { break };
                    s.clear();
                    let c = best_move(&mut s, p, &limits);
                    results.lock().expect("no panic")[i] = Some(c);
                }
            });
        }
    });
    let r = results.into_inner().expect("no panic");
    r.into_iter().map(|c| c.expect("every position")).collect()
}

/// Plays (or replays) the measurement and prints, per setting: positions,
/// wins and draws among them, moves that gave value away, mean nodes;
/// progress goes to `log`.
pub fn run(
    a: &QualitySettings,
    seed: u64,
    out: &mut impl Write,
    log: &mut dyn Write,
) -> Result<(), QualityError> {
    if Position::start(a.checkers).is_none() {
        return Err(QualityError::Checkers(a.checkers));
    }
    let tables = match &a.retro {
        Some(dir) => Some(RetroTables::open(dir, None)?),
        None => None,
    };
    if let Some(t) = &tables {
        writeln!(out, "tables {} units, {} bytes", t.units(), t.bytes())?;
    }
    if a.threads > 1 && a.replay.is_none() {
        writeln!(out, "search threads {} a position", a.threads)?;
    }
    let truth = match &a.truth {
        Some(_) if a.replay.is_none() && a.positions_from.is_none() => {
            return Err(QualityError::TruthWithoutRecord)
        }
        Some(path) => Some(Truth::open(path)?),
        None => None,
    };
    if let (Some(t), Some(path)) = (&truth, &a.truth) {
        let n = t.positions().len();
        writeln!(out, "truth {n} positions from {}", path.display())?;
    }
    let judge: Option<&dyn Judge> = match (&tables, &truth) {
        (Some(t), _) => Some(t),
        (None, Some(t)) => Some(t),
        (None, None) => None,
    };
    let record = match (&a.replay, &a.positions_from) {
        (Some(path), _) => read_record(path)?,
        (None, Some(path)) => {
            let mut positions = record_positions(path)?;
            positions.truncate(a.positions);
            let _ = writeln!(
                log,
                "quality: {} positions from {}",
                positions.len(),
                path.display()
            );
            choose_all(a, positions, log)
        }
        (None, None) => measure(a, judge, seed, log),
    };
    if let Some(path) = &a.record {
        let io = |e| RecordError::Io(path.clone(), e);
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
        record.write(&mut w).and_then(|()| w.flush()).map_err(io)?;
        writeln!(
            out,
            "recorded {} positions at {} settings in {}",
            record.positions.len(),
            record.settings.len(),
            path.display()
        )?;
    }
    if let (Some(path), Some(t)) = (&a.export_truth, &tables) {
        export_truth(t, &record.positions, path, out)?;
    }
    match judge {
        Some(j) => score(j, &record, out)?,
        None => writeln!(
            out,
            "no tables (--retro) or truth (--truth): nothing scored"
        )?,
    }
    if let (Some(path), Some(t)) = (&a.errors, &tables) {
        let explained = explain_errors(t, &record, log);
        let io = |e| RecordError::Io(path.clone(), e);
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
        writeln!(w, "{}", errors::HEADER).map_err(io)?;
        for e in &explained {
            writeln!(w, "{e}").map_err(io)?;
        }
        w.flush().map_err(io)?;
        errors::summarize(&explained, out)?;
        writeln!(
            out,
            "explained {} errors in {}",
            explained.len(),
            path.display()
        )?;
    }
    Ok(())
}

/// Writes the truth of `positions` from `tables` to `path`.
fn export_truth(
    tables: &RetroTables,
    positions: &[Position],
    path: &Path,
    out: &mut impl Write,
) -> Result<(), QualityError> {
    let truth = Truth::from_judge(tables, positions);
    let io = |e| TruthError::Io(path.to_path_buf(), e);
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
    truth.write(&mut w).and_then(|()| w.flush()).map_err(io)?;
    let n = truth.positions().len();
    writeln!(out, "truth of {n} positions in {}", path.display())?;
    Ok(())
}

/// Collects the positions and the engine's choices at every setting.
fn measure(
    a: &QualitySettings,
    judge: Option<&dyn Judge>,
    seed: u64,
    log: &mut dyn Write,
) -> Record {
    let wanted = |p: &Position| match judge {
        Some(j) => j.covers(p),
        None => is_stored(p),
    };
    let positions = positions(&wanted, a, seed, log);
    choose_all(a, positions, log)
}

/// The engine's choices in `positions` at every setting of `a`.
fn choose_all(a: &QualitySettings, positions: Vec<Position>, log: &mut dyn Write) -> Record {
    let settings = a.movetimes.iter().map(|&ms| Setting::Movetime(ms));
    let settings = settings.chain(a.nodes.iter().map(|&n| Setting::Nodes(n)));
    let settings = settings
        .map(|s| {
            let _ = writeln!(log, "quality: searching at {}", s.label());
            (s, choose(&positions, s, a.workers, a.threads))
        })
        .collect();
    Record {
        positions,
        settings,
    }
}

/// The caps of the deeper search that explains an error.
const EXPLAIN_CAPS: errors::Caps = errors::Caps {
    depth: 40,
    nodes: 1_000_000,
    solve_level: 10,
};

/// Every value-losing move of `rec` on the positions the tables cover,
/// explained (see [`crate::errors`]).
fn explain_errors(
    tables: &RetroTables,
    rec: &Record,
    log: &mut dyn Write,
) -> Vec<errors::Explained> {
    let mut out = Vec::new();
    for (setting, choices) in &rec.settings {
        let limits = setting.limits();
        for (p, c) in rec.positions.iter().zip(choices) {
            if !tables.covers(p) {
                continue;
            }
            let value = tables.probe(p).expect("covered");
            if value >= 0 && errors::kept(tables, p, c.mv) < value {
                let s = setting.to_string();
                out.push(errors::explain(tables, p, &s, &limits, c.mv, EXPLAIN_CAPS));
            }
        }
        let _ = writeln!(log, "quality: explained the errors at {}", setting.label());
    }
    out
}

/// Scores a record on the positions the judge covers.
fn score(judge: &dyn Judge, rec: &Record, out: &mut impl Write) -> std::io::Result<()> {
    let covered: Vec<usize> = (0..rec.positions.len())
        .filter(|&i| judge.covers(&rec.positions[i]))
        .collect();
    let values: Vec<i8> = covered
        .iter()
        .map(|&i| judge.value(&rec.positions[i]))
        .collect();
    let count = |v: i8| values.iter().filter(|&&x| x == v).count();
    writeln!(
        out,
        "positions {} of {} covered (wins {}, draws {}, losses {})",
        covered.len(),
        rec.positions.len(),
        count(1),
        count(0),
        count(-1)
    )?;
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    for (setting, choices) in &rec.settings {
        let kept: Vec<i8> = covered
            .iter()
            .map(|&i| judge.kept(&rec.positions[i], choices[i].mv))
            .collect();
        let lost = |v: i8| {
            (0..covered.len())
                .filter(|&j| values[j] == v && kept[j] < v)
                .count()
        };
        let (lw, ld) = (lost(1), lost(0));
        let nodes = covered.iter().map(|&i| choices[i].nodes).sum::<u64>();
        let nodes = nodes / covered.len().max(1) as u64;
        let (w, d) = (count(1), count(0));
        writeln!(
            out,
            "{}: lost value {} of {} ({:.2}%): win->not win {lw} of {w} ({:.2}%), draw->loss {ld} of {d} ({:.2}%); mean nodes {nodes}",
            setting.label(),
            lw + ld,
            w + d,
            pct(lw + ld, w + d),
            pct(lw, w),
            pct(ld, d),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_plies_come_from_splitmix64() {
        // SplitMix64's first outputs from seed 0 (Vigna's splitmix64.c):
        // another generator would draw other games from the same seed.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn settings_round_trip_and_refuse_bad_text() {
        for s in [Setting::Movetime(10), Setting::Nodes(14_400)] {
            assert_eq!(s.to_string().parse::<Setting>(), Ok(s));
        }
        for bad in ["movetime", "movetime:x", "depth:3", ""] {
            let e = bad.parse::<Setting>().unwrap_err().to_string();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    fn sample() -> Record {
        let p = Position::start(6).expect("start");
        let moves = p.legal_moves();
        let q = p.play(moves[0]).expect("legal");
        let choice = |pos: &Position, k: usize, nodes| Choice {
            mv: pos.legal_moves()[k],
            nodes,
        };
        Record {
            positions: vec![p, q],
            settings: vec![
                (
                    Setting::Movetime(10),
                    vec![choice(&p, 1, 5), choice(&q, 0, 7)],
                ),
                (
                    Setting::Nodes(100),
                    vec![choice(&p, 0, 100), choice(&q, 2, 99)],
                ),
            ],
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let rec = sample();
        let mut text = Vec::new();
        rec.write(&mut text).expect("write");
        let back = Record::read(Path::new("r.txt"), &text[..]).expect("read");
        assert_eq!(back, rec);
    }

    #[test]
    fn a_bad_record_line_is_named_with_its_line_number() {
        let rec = sample();
        let mut text = Vec::new();
        rec.write(&mut text).expect("write");
        let text = String::from_utf8(text).expect("utf-8");
        let p = rec.positions[0];
        // A move that is not legal in the position (an empty point's step).
        let bad = text.replacen(
            &format!("{p}\tmovetime:10\t"),
            &format!("{p}\tmovetime:10\tx"),
            1,
        );
        let e = Record::read(Path::new("r.txt"), bad.as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("r.txt:2: move"), "{e}");
        // A setting missing for one position.
        let short: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
        let e = Record::read(Path::new("r.txt"), short.as_bytes()).unwrap_err();
        assert!(matches!(e, RecordError::Incomplete(..)), "{e}");
    }
}
