//! `backgammon benchmark`: a fixed set of positions from games, each with
//! the rolled-out equities of its candidate moves, and the checker-play
//! error rate of a player on it per class (contact, crashed, race, as GNU
//! Backgammon classes them), in thousandths of equity a move.
//!
//! The set is built in two seeded, resumable steps ([`build`]): a *plan*
//! (positions from seeded self-play with a fresh roll each, or the turns
//! of recorded games with their own rolls; distinct, classed by gnubg,
//! each with its candidates: our best 3 at 1-ply, our 2-ply choice and
//! gnubg 0-ply's best 2), then *shards* of the plan rolled out candidate
//! by candidate, each shard a file appended a line a position, so a
//! killed run resumes at the first missing line. Every candidate is
//! rolled out with the same dice (the rollout's trial `i`
//! depends only on the seed and `i`, and the seed only on the position), so
//! a move rolled out later — a player's choice outside the candidates
//! ([`score`] does it on the fly) — gets the dice the others had.

use crate::class::{NetClass, UnknownClass};
use crate::gnubg::{self, GnubgError, Job, CLASSIFY, JUDGE};
use crate::players::gen0;
use crate::recorded::{self, RecordsError};
use crate::selfplay;
use backgammon_engine::cube::CubeState;
use backgammon_engine::eval::{classify, equity, won};
use backgammon_engine::files::write_atomic;
use backgammon_engine::rollout::{rollout, RolloutError, Settings, Target};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, Dice, MoveList, PositionKey, RollDice, Side, SplitMix};
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A candidate move in GNU Backgammon's notation, with its rolled-out
/// cubeless equity (the mover's) and standard error once rolled out.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub text: String,
    pub value: Option<(f64, f64)>,
}

/// A line of the plan or of a shard: `ID DICE CLASS; MOVE [EQ SE]; ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub board: Board,
    pub dice: Dice,
    pub class: NetClass,
    pub candidates: Vec<Candidate>,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.board, self.dice, self.class)?;
        for c in &self.candidates {
            write!(f, "; {}", c.text)?;
            if let Some((v, e)) = c.value {
                write!(f, " {v:+.4} {e:.4}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Entry {
    type Err = BenchmarkError;
    fn from_str(line: &str) -> Result<Entry, BenchmarkError> {
        let bad = |why: &str| BenchmarkError::Line(format!("\"{line}\": {why}"));
        let mut parts = line.split(';').map(str::trim);
        let head: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        let [id, dice, class] = head[..] else {
            return Err(bad("expected \"POSITION-ID DICE CLASS; MOVE ...\""));
        };
        let board = Board::from_position_id(id).map_err(|e| bad(&e.to_string()))?;
        let dice = dice
            .parse()
            .map_err(|e: backgammon_rules::ParseDiceError| bad(&e.0))?;
        let mut candidates = Vec::new();
        for part in parts {
            let words: Vec<&str> = part.split_whitespace().collect();
            let n = words.len();
            let numbers = (n >= 3)
                .then(|| Some((words[n - 2].parse().ok()?, words[n - 1].parse().ok()?)))
                .flatten();
            let text = match numbers {
                Some(_) => words[..n - 2].join(" "),
                None => words.join(" "),
            };
            candidates.push(Candidate {
                text,
                value: numbers,
            });
        }
        let entry = Entry {
            board,
            dice,
            class: class
                .parse()
                .map_err(|e: UnknownClass| bad(&e.to_string()))?,
            candidates,
        };
        entry
            .afters()
            .map_err(|m| bad(&format!("\"{m}\" is not a legal move")))?;
        Ok(entry)
    }
}

impl Entry {
    /// The position after each candidate (seen from the mover), or the
    /// text of one that is not a legal move.
    pub fn afters(&self) -> Result<Vec<Board>, String> {
        let list = self.board.legal_moves(self.dice);
        self.candidates
            .iter()
            .map(|c| {
                list.moves()
                    .iter()
                    .position(|m| self.board.move_text(m) == c.text)
                    .map(|i| list.boards()[i])
                    .ok_or_else(|| c.text.clone())
            })
            .collect()
    }

    /// The dice seed of this position's rollouts: the benchmark's seed
    /// mixed with the position and roll, so that lines need no seed of
    /// their own and any move of the position can be rolled out later with
    /// the same dice.
    pub fn seed(&self, base: u64) -> u64 {
        let text = format!("{} {}", self.board, self.dice);
        base ^ fnv1a::fnv1a(text.as_bytes())
    }
}

/// Why building or scoring the benchmark failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchmarkError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("bad benchmark line {0}")]
    Line(String),
    #[error("{}: {why}", path.display())]
    Header { path: PathBuf, why: String },
    #[error(transparent)]
    Gnubg(#[from] GnubgError),
    #[error("gnubg: {0}")]
    GnubgOutput(String),
    #[error(transparent)]
    Rollout(#[from] RolloutError),
    #[error(transparent)]
    Nets(#[from] backgammon_engine::eval::NetsError),
    #[error(transparent)]
    Records(#[from] RecordsError),
    #[error("the plan names records {0:016x}: give their file (--records)")]
    RecordsMissing(u64),
    #[error("{}: no recorded turn with a choice of moves outside the bear-off", .0.display())]
    NoRecordedTurns(PathBuf),
    #[error("output error: {0}")]
    Output(#[from] std::io::Error),
}

/// How the benchmark is built: the positions and the rollouts.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildSettings {
    /// Positions in the plan.
    pub positions: usize,
    /// Positions a shard.
    pub shard_size: usize,
    /// Seed of the self-play games and rolls, and base of the dice seeds.
    pub seed: u64,
    /// The digest (FNV-1a) of the records file the positions come from,
    /// if they come from recorded games ([`Recorded`]) rather than self-play.
    pub records: Option<u64>,
    /// The rollouts (their seed is set per position).
    pub rollout: Settings,
}

const MAGIC: &str = "# grasshopper backgammon benchmark 1:";

impl BuildSettings {
    /// The header of the plan, which names everything the lines depend on.
    fn header(&self) -> String {
        let r = &self.rollout;
        format!(
            "{MAGIC} positions {} shard {} seed {} trials {} ply {} truncate {} vr {}",
            self.positions,
            self.shard_size,
            self.seed,
            r.trials,
            r.ply,
            r.truncate.map_or("none".to_string(), |k| k.to_string()),
            r.variance_reduction
        ) + &self
            .records
            .map_or(String::new(), |d| format!(" records {d:016x}"))
    }

    fn parse_header(line: &str) -> Option<BuildSettings> {
        let words: Vec<&str> = line.strip_prefix(MAGIC)?.split_whitespace().collect();
        let get = |name: &str| {
            let i = words.iter().position(|w| *w == name)?;
            words.get(i + 1).copied()
        };
        Some(BuildSettings {
            positions: get("positions")?.parse().ok()?,
            shard_size: get("shard")?.parse().ok()?,
            seed: get("seed")?.parse().ok()?,
            records: match get("records") {
                Some(d) => Some(u64::from_str_radix(d, 16).ok()?),
                None => None,
            },
            rollout: Settings {
                trials: get("trials")?.parse().ok()?,
                ply: get("ply")?.parse().ok()?,
                truncate: match get("truncate")? {
                    "none" => None,
                    k => Some(k.parse().ok()?),
                },
                variance_reduction: get("vr")?.parse().ok()?,
                ..Settings::default()
            },
        })
    }
}

fn read(path: &Path) -> Result<String, BenchmarkError> {
    std::fs::read_to_string(path).map_err(|source| BenchmarkError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The plan file of a benchmark directory.
pub fn plan_path(dir: &Path) -> PathBuf {
    dir.join("plan.txt")
}

/// Shard `k`'s file.
fn shard_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("shard-{k:03}.txt"))
}

/// Reads a plan: its settings and its lines.
pub fn read_plan(dir: &Path) -> Result<(BuildSettings, Vec<Entry>), BenchmarkError> {
    let path = plan_path(dir);
    let text = read(&path)?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let settings = BuildSettings::parse_header(header).ok_or_else(|| BenchmarkError::Header {
        path: path.clone(),
        why: format!("expected \"{MAGIC} ...\", got \"{header}\""),
    })?;
    let entries = lines.map(str::parse).collect::<Result<_, _>>()?;
    Ok((settings, entries))
}

/// Positions with a roll that leaves a choice, from seeded self-play of
/// the generation-0 nets at 1-ply (the nets the benchmark was built with): every 3rd position of each game, with a
/// fresh roll, distinct (position and roll), not a bear-off.
fn sample(n: usize, seed: u64) -> Vec<(Board, Dice)> {
    let mut rng = SplitMix::new(seed ^ 0xbe9c);
    let mut fresh = Fresh::default();
    let mut moves = Box::<MoveList>::default();
    let mut out = Vec::new();
    let mut game = 0u64;
    while out.len() < n {
        // One game at a time: its positions depend on the seed and its number.
        for board in selfplay::positions(gen0(), 1, seed.wrapping_add(game))
            .into_iter()
            .step_by(3)
        {
            let dice: Dice = rng.dice();
            board.legal_moves_into(dice, &mut moves);
            if moves.len() >= 2 && out.len() < n && fresh.admits(&board, dice) {
                out.push((board, dice));
            }
        }
        game += 1;
    }
    out
}

/// Which positions with a roll a plan takes: not a bear-off (the database
/// answers those), and each position and roll once.
#[derive(Default)]
struct Fresh(HashSet<(PositionKey, String)>);

impl Fresh {
    /// True for a position and roll the plan may take, which it will not
    /// take again.
    fn admits(&mut self, board: &Board, dice: Dice) -> bool {
        classify(board) != backgammon_engine::eval::Class::Bearoff
            && self.0.insert((board.key(), dice.to_string()))
    }
}

/// The positions of a plan made from recorded games: every turn where the
/// mover had a choice, with the roll played, distinct (position and roll),
/// not a bear-off, in the order played; and the records file's digest,
/// which the plan's header names.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub digest: u64,
    pub rolls: Vec<(Board, Dice)>,
}

impl Recorded {
    /// The recorded games of `path` (a match runner's `--pgn`).
    pub fn read(path: &Path) -> Result<Recorded, BenchmarkError> {
        let (text, all) = recorded::choices(path)?;
        let mut fresh = Fresh::default();
        let rolls = all
            .into_iter()
            .filter(|(b, d)| fresh.admits(b, *d))
            .collect::<Vec<_>>();
        if rolls.is_empty() {
            return Err(BenchmarkError::NoRecordedTurns(path.to_path_buf()));
        }
        let digest = fnv1a::fnv1a(text.as_bytes());
        Ok(Recorded { digest, rolls })
    }
}

/// gnubg's class of each position (None: a bear-off in gnubg's eyes).
fn gnubg_classes(
    gnubg_bin: &Path,
    boards: &[Board],
) -> Result<Vec<Option<NetClass>>, BenchmarkError> {
    let ids: String = boards.iter().map(|b| b.position_id() + "\n").collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![],
    };
    let ran = gnubg::run(gnubg_bin, CLASSIFY, &job)?;
    let text = ran.outputs.into_iter().next().expect("one output");
    let text = text.map_err(|e| BenchmarkError::GnubgOutput(format!("no classes: {e}")))?;
    let classes: Vec<Option<NetClass>> = text
        .lines()
        .map(|l| l.trim().parse().ok().and_then(NetClass::from_gnubg))
        .collect();
    if classes.len() != boards.len() {
        return Err(BenchmarkError::GnubgOutput(format!(
            "{} classes for {} positions",
            classes.len(),
            boards.len()
        )));
    }
    Ok(classes)
}

/// gnubg 0-ply's cubeless equity (the mover's) of each legal move of each
/// position; a move that wins gets its exact value.
pub fn gnubg_values(
    gnubg_bin: &Path,
    rolls: &[(Board, Dice)],
) -> Result<Vec<Vec<f64>>, BenchmarkError> {
    let afters: Vec<Vec<Board>> = rolls
        .iter()
        .map(|(b, d)| b.legal_moves(*d).boards().to_vec())
        .collect();
    let ids: String = afters
        .iter()
        .map(|a| {
            let live: Vec<String> = a
                .iter()
                .filter(|b| !b.has_won(Side::OnRoll))
                .map(|b| b.swapped().position_id())
                .collect();
            live.join(" ") + "\n"
        })
        .collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![("BG_PLIES", "0".to_string())],
    };
    let ran = gnubg::run(gnubg_bin, JUDGE, &job)?;
    let text = ran.outputs.into_iter().next().expect("one output");
    let text = text.map_err(|e| BenchmarkError::GnubgOutput(format!("no values: {e}")))?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != rolls.len() {
        return Err(BenchmarkError::GnubgOutput(format!(
            "{} lines of values for {} positions",
            lines.len(),
            rolls.len()
        )));
    }
    afters
        .iter()
        .zip(lines)
        .map(|(a, line)| {
            let mut live = line.split(',').filter(|s| !s.is_empty()).map(|pair| {
                pair.split_whitespace()
                    .next()
                    .and_then(|v| v.parse::<f64>().ok())
                    .ok_or_else(|| BenchmarkError::GnubgOutput(format!("bad value \"{pair}\"")))
            });
            a.iter()
                .map(|b| match b.has_won(Side::OnRoll) {
                    true => Ok(equity(&won(b)) as f64),
                    false => live.next().unwrap_or_else(|| {
                        Err(BenchmarkError::GnubgOutput("too few values".into()))
                    }),
                })
                .collect()
        })
        .collect()
}

/// Indices of the `k` largest values, best first (the first of equals).
fn top(values: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    order.truncate(k);
    order
}

/// The candidates of a position, by index in its legal moves: our best 3
/// at 1-ply, our 2-ply choice, gnubg 0-ply's best 2, without repeats.
fn candidate_indices(
    searcher: &mut Searcher,
    board: &Board,
    dice: Dice,
    gnubg0: &[f64],
) -> Vec<usize> {
    let mut moves = Box::<MoveList>::default();
    board.legal_moves_into(dice, &mut moves);
    let ours: Vec<f64> = moves
        .boards()
        .iter()
        .map(|a| equity(&gen0().after_move(a)) as f64)
        .collect();
    let two = searcher.choose(board, dice, 2, None, &mut moves).index;
    let mut out = Vec::new();
    for i in top(&ours, 3).into_iter().chain([two]).chain(top(gnubg0, 2)) {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// Makes the plan: `positions` sampled (from self-play, or spread evenly
/// over the recorded turns), classed and given candidates.
fn make_plan(
    s: &BuildSettings,
    recorded: Option<&Recorded>,
    gnubg_bin: &Path,
    log: &mut impl Write,
) -> Result<Vec<Entry>, BenchmarkError> {
    // Sample extra, since gnubg calls some of ours bear-offs.
    let extra = s.positions + s.positions / 10 + 10;
    let rolls = match (s.records, recorded) {
        (None, _) => sample(extra, s.seed),
        (Some(d), Some(r)) if r.digest == d => recorded::spread(&r.rolls, extra),
        (Some(d), _) => return Err(BenchmarkError::RecordsMissing(d)),
    };
    let boards: Vec<Board> = rolls.iter().map(|r| r.0).collect();
    let classes = gnubg_classes(gnubg_bin, &boards)?;
    let rolls: Vec<((Board, Dice), NetClass)> = rolls
        .into_iter()
        .zip(classes)
        .filter_map(|(r, c)| Some((r, c?)))
        .take(s.positions)
        .collect();
    let plain: Vec<(Board, Dice)> = rolls.iter().map(|r| r.0).collect();
    writeln!(
        log,
        "benchmark: {} positions sampled; gnubg 0-ply values",
        plain.len()
    )?;
    let gnubg0 = gnubg_values(gnubg_bin, &plain)?;
    let mut searcher = Searcher::new(gen0());
    let mut out = Vec::new();
    for (((board, dice), class), g) in rolls.into_iter().zip(&gnubg0) {
        let list = board.legal_moves(dice);
        let candidates = candidate_indices(&mut searcher, &board, dice, g)
            .into_iter()
            .map(|i| Candidate {
                text: board.move_text(&list.moves()[i]),
                value: None,
            })
            .collect();
        out.push(Entry {
            board,
            dice,
            class,
            candidates,
        });
    }
    Ok(out)
}

/// The rolled-out cubeless equity (the mover's) and its standard error of
/// moving to `after` in `entry`'s position.
pub fn roll_move(
    entry: &Entry,
    after: &Board,
    s: &BuildSettings,
    threads: usize,
) -> Result<(f64, f64), RolloutError> {
    if after.has_won(Side::OnRoll) {
        return Ok((equity(&won(after)) as f64, 0.0));
    }
    let settings = Settings {
        seed: entry.seed(s.seed),
        threads,
        ..s.rollout
    };
    let target = Target {
        board: after.swapped(),
        dice: None,
        cube: CubeState::money(true),
    };
    let r = rollout(gen0(), &target, &settings, None, |_| true)?;
    let o = &r.outcomes[0];
    Ok((-o.cubeless, o.cubeless_error))
}

/// Builds (or resumes) the benchmark in `dir`: the plan first (kept if it
/// is there; made from `recorded` when `s` names records), then each shard
/// numbered in `shards` (None: all), line by line.
pub fn build(
    dir: &Path,
    s: &BuildSettings,
    recorded: Option<&Recorded>,
    shards: Option<std::ops::Range<usize>>,
    threads: usize,
    gnubg_bin: &Path,
    log: &mut impl Write,
) -> Result<(), BenchmarkError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BenchmarkError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let plan = plan_path(dir);
    let entries = if plan.exists() {
        let (had, entries) = read_plan(dir)?;
        if had != *s {
            return Err(BenchmarkError::Header {
                path: plan,
                why: format!(
                    "made with other settings: \"{}\", not \"{}\"",
                    had.header(),
                    s.header()
                ),
            });
        }
        entries
    } else {
        let entries = make_plan(s, recorded, gnubg_bin, log)?;
        let text: String = std::iter::once(s.header())
            .chain(entries.iter().map(|e| e.to_string()))
            .map(|l| l + "\n")
            .collect();
        write_atomic(&plan, text.as_bytes()).map_err(io(&plan))?;
        entries
    };
    let chunks: Vec<&[Entry]> = entries.chunks(s.shard_size.max(1)).collect();
    let wanted = shards.unwrap_or(0..usize::MAX);
    for (k, chunk) in chunks
        .iter()
        .enumerate()
        .filter(|(k, _)| wanted.contains(k))
    {
        let path = shard_path(dir, k);
        let done = match std::fs::read_to_string(&path) {
            Ok(t) => t.lines().count(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(source) => return Err(BenchmarkError::Io { path, source }),
        };
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        for (n, plan_entry) in chunk.iter().enumerate().skip(done) {
            let mut entry = plan_entry.clone();
            let afters = entry.afters().map_err(BenchmarkError::Line)?;
            for (c, after) in entry.candidates.iter_mut().zip(&afters) {
                c.value = Some(roll_move(plan_entry, after, s, threads)?);
            }
            writeln!(file, "{entry}").map_err(io(&path))?;
            writeln!(log, "shard {k}: {}/{}", n + 1, chunk.len())?;
        }
    }
    Ok(())
}

/// The rolled-out lines of a benchmark: a directory's shards in order, or
/// one file of lines.
pub fn read_lines(path: &Path) -> Result<Vec<Entry>, BenchmarkError> {
    let files: Vec<PathBuf> = if path.is_dir() {
        (0..)
            .map(|k| shard_path(path, k))
            .take_while(|p| p.exists())
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        for line in read(&f)?
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let e: Entry = line.parse()?;
            if e.candidates.iter().any(|c| c.value.is_none()) {
                return Err(BenchmarkError::Line(format!(
                    "\"{line}\": a candidate without its value"
                )));
            }
            out.push(e);
        }
    }
    Ok(out)
}

/// A player scored on the benchmark.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// Our net searched to this many plies.
    Ours(u8),
    /// GNU Backgammon's best move at 0-ply.
    Gnubg0,
}

impl fmt::Display for Chooser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chooser::Ours(p) => write!(f, "grasshopper {p}-ply"),
            Chooser::Gnubg0 => f.write_str("gnubg 0-ply"),
        }
    }
}

/// A player's error on one position, in equity, and whether its move was
/// outside the candidates (rolled out on the fly).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Scored {
    pub error: f64,
    pub outside: bool,
}

/// Scores chosen moves (positions after them, one per player) on an entry:
/// the best of the candidates' rolled-out equities and the chosen move's
/// own, less the chosen move's. `roll` rolls out a move that is not a
/// candidate (once, however many players chose it). Another player's
/// choice never counts: a player's error does not depend on who else is
/// scored in the same run.
pub fn score_entry(
    entry: &Entry,
    chosen: &[Board],
    mut roll: impl FnMut(&Board) -> Result<(f64, f64), BenchmarkError>,
) -> Result<Vec<Scored>, BenchmarkError> {
    let afters = entry.afters().map_err(BenchmarkError::Line)?;
    let mut known: Vec<(Board, f64)> = afters
        .iter()
        .zip(&entry.candidates)
        .map(|(a, c)| (*a, c.value.map_or(f64::NEG_INFINITY, |v| v.0)))
        .collect();
    let mut outside = Vec::new();
    for b in chosen {
        let found = known.iter().any(|k| k.0 == *b);
        outside.push(!found);
        if !found {
            known.push((*b, roll(b)?.0));
        }
    }
    let best = known[..afters.len()]
        .iter()
        .map(|k| k.1)
        .fold(f64::NEG_INFINITY, f64::max);
    Ok(chosen
        .iter()
        .zip(outside)
        .map(|(b, outside)| {
            let v = known.iter().find(|k| k.0 == *b).expect("known").1;
            Scored {
                error: best.max(v) - v,
                outside,
            }
        })
        .collect())
}

/// What `backgammon benchmark` scores.
#[derive(Clone, Debug)]
pub struct ScoreSettings {
    /// The benchmark: its directory (plan and shards) or a file of lines.
    pub path: PathBuf,
    /// Our plies to score.
    pub plies: Vec<u8>,
    /// Score gnubg 0-ply too (with this binary).
    pub gnubg: Option<PathBuf>,
    /// Threads of on-the-fly rollouts.
    pub threads: usize,
    /// Our players' nets (a nets directory; default the process's). The
    /// rollouts of chosen moves outside the candidates keep the generation-0
    /// nets: the judge stays the benchmark's.
    pub nets: Option<PathBuf>,
}

/// The rollout settings of a benchmark at `path` (a directory's plan, or
/// the plan beside a file of lines).
fn settings_for(path: &Path) -> Result<BuildSettings, BenchmarkError> {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(Path::new("."))
    };
    Ok(read_plan(dir)?.0)
}

/// Runs `backgammon benchmark`: per player and class, the mean error in
/// thousandths of equity a move with its 95% interval, the positions and
/// how many chosen moves were rolled out on the fly.
pub fn score(a: &ScoreSettings, out: &mut impl Write) -> Result<(), BenchmarkError> {
    let settings = settings_for(&a.path)?;
    let entries = read_lines(&a.path)?;
    let mut choosers: Vec<Chooser> = a.plies.iter().map(|&p| Chooser::Ours(p)).collect();
    let gnubg_best: Vec<usize> = match &a.gnubg {
        Some(bin) => {
            choosers.push(Chooser::Gnubg0);
            let rolls: Vec<(Board, Dice)> = entries.iter().map(|e| (e.board, e.dice)).collect();
            gnubg_values(bin, &rolls)?
                .iter()
                .map(|v| top(v, 1)[0])
                .collect()
        }
        None => vec![],
    };
    let nets = backgammon_engine::player::nets_or_dir(a.nets.as_deref())?;
    let mut searcher = Searcher::new(&nets);
    let mut moves = Box::<MoveList>::default();
    let mut scored: Vec<(NetClass, Vec<Scored>)> = Vec::new();
    for (n, e) in entries.iter().enumerate() {
        let mut chosen = Vec::new();
        for c in &choosers {
            let i = match c {
                Chooser::Ours(p) => {
                    searcher
                        .choose(&e.board, e.dice, *p, None, &mut moves)
                        .index
                }
                Chooser::Gnubg0 => {
                    e.board.legal_moves_into(e.dice, &mut moves);
                    gnubg_best[n]
                }
            };
            chosen.push(moves.boards()[i]);
        }
        let s = score_entry(e, &chosen, |b| Ok(roll_move(e, b, &settings, a.threads)?))?;
        scored.push((e.class, s));
    }
    let r = &settings.rollout;
    writeln!(
        out,
        "{} positions of {}; candidates rolled out cubeless, {} trials, ply {}, {}; error = best candidate's equity − the chosen move's, thousandths a move (95% interval)",
        entries.len(),
        a.path.display(),
        r.trials,
        r.ply,
        r.truncate.map_or("played to the end".to_string(), |k| format!("truncated after {k} rolls"))
    )?;
    writeln!(
        out,
        "{:<16} {:<8} {:>6} {:>14} {:>8}",
        "player", "class", "n", "error", "outside"
    )?;
    for (k, c) in choosers.iter().enumerate() {
        let classes = NetClass::ALL.iter().map(|c| (c.to_string(), Some(*c)));
        for (name, class) in classes.chain([("all".to_string(), None)]) {
            let of: Vec<Scored> = scored
                .iter()
                .filter(|(cl, _)| class.is_none_or(|c| c == *cl))
                .map(|(_, s)| s[k])
                .collect();
            if of.is_empty() {
                continue;
            }
            let (mean, half) = mean_interval(&of.iter().map(|s| s.error).collect::<Vec<_>>());
            writeln!(
                out,
                "{:<16} {:<8} {:>6} {:>7.2} ± {:<5.2} {:>8}",
                c.to_string(),
                name,
                of.len(),
                1000.0 * mean,
                1000.0 * half,
                of.iter().filter(|s| s.outside).count()
            )?;
        }
    }
    if let Some(g) = choosers.iter().position(|c| *c == Chooser::Gnubg0) {
        paired(&choosers, g, &scored, out)?;
    }
    Ok(())
}

/// Each of our players' error less gnubg 0-ply's, position by position
/// (the pairing removes the positions' own spread from the interval).
fn paired(
    choosers: &[Chooser],
    g: usize,
    scored: &[(NetClass, Vec<Scored>)],
    out: &mut impl Write,
) -> Result<(), BenchmarkError> {
    writeln!(
        out,
        "paired: our error less gnubg 0-ply's on the same positions"
    )?;
    for (k, c) in choosers.iter().enumerate().filter(|(k, _)| *k != g) {
        let classes = NetClass::ALL.iter().map(|c| (c.to_string(), Some(*c)));
        for (name, class) in classes.chain([("all".to_string(), None)]) {
            let d: Vec<f64> = scored
                .iter()
                .filter(|(cl, _)| class.is_none_or(|c| c == *cl))
                .map(|(_, s)| s[k].error - s[g].error)
                .collect();
            if d.is_empty() {
                continue;
            }
            let (mean, half) = mean_interval(&d);
            writeln!(
                out,
                "{:<16} {:<8} {:>6} {:>+7.2} ± {:<5.2}",
                c.to_string(),
                name,
                d.len(),
                1000.0 * mean,
                1000.0 * half
            )?;
        }
    }
    Ok(())
}

/// The mean and the half-width of its 95% interval.
pub(crate) fn mean_interval(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/backgammon-benchmark")
    }

    #[test]
    fn lines_and_classes_round_trip() {
        let line =
            "4HPwATDgc/ABMA 52 contact; 13/11 13/8 +0.0123 0.0040; 24/22 13/8 -0.0500 0.0041";
        let e: Entry = line.parse().unwrap();
        assert_eq!(e.to_string(), line);
        assert_eq!(e.candidates[1].value, Some((-0.05, 0.0041)));
        let plan = "4HPwATDgc/ABMA 52 race; 13/11 13/8; 24/22 13/8";
        let p: Entry = plan.parse().unwrap();
        assert_eq!(p.to_string(), plan);
        assert_eq!(p.candidates[0].value, None);
        assert!("4HPwATDgc/ABMA 52 bearoff; 13/11 13/8"
            .parse::<Entry>()
            .unwrap_err()
            .to_string()
            .contains("\"bearoff\": expected contact, crashed or race"));
        let bad = "4HPwATDgc/ABMA 52 contact; 24/18 13/11 +0.1 0.01";
        assert!(bad
            .parse::<Entry>()
            .unwrap_err()
            .to_string()
            .contains("\"24/18 13/11\""));
        assert!("4HPwATDgc/ABMA 52".parse::<Entry>().is_err());
    }

    #[test]
    fn header_round_trips() {
        let s = BuildSettings {
            positions: 2000,
            shard_size: 100,
            seed: 7,
            records: None,
            rollout: Settings {
                trials: 216,
                truncate: Some(10),
                variance_reduction: false,
                ..Settings::default()
            },
        };
        assert_eq!(BuildSettings::parse_header(&s.header()), Some(s.clone()));
        let recorded = BuildSettings {
            records: Some(0x00c0_ffee_1234_5678),
            ..s
        };
        let header = recorded.header();
        assert!(
            header.ends_with(" vr false records 00c0ffee12345678"),
            "{header}"
        );
        assert_eq!(BuildSettings::parse_header(&header), Some(recorded));
    }

    /// A plan of recorded games: the turns with a choice and their own
    /// rolls, distinct, no bear-offs; a plan naming records is not made
    /// without them (nor with another file's).
    #[test]
    fn recorded_turns_are_a_plans_positions_and_their_file_is_named() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let path = root.join("fixtures/backgammon-money.pgn");
        let r = Recorded::read(&path).unwrap();
        let (text, all) = recorded::choices(&path).unwrap();
        assert_eq!(r.digest, fnv1a::fnv1a(text.as_bytes()));
        // Black opens with 5-6 from the start position (1... 56:24/13).
        assert_eq!(r.rolls[0], (Board::START, Dice::new(5, 6).unwrap()));
        assert!(!r.rolls.is_empty() && r.rolls.iter().all(|t| all.contains(t)));
        let bearoff = |b: &Board| classify(b) == backgammon_engine::eval::Class::Bearoff;
        assert!(r.rolls.iter().all(|(b, _)| !bearoff(b)));
        let keys: HashSet<_> = r.rolls.iter().map(|(b, d)| (b.key(), *d)).collect();
        assert_eq!(keys.len(), r.rolls.len());
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pgn");
        std::fs::write(&empty, "").unwrap();
        let refused = Recorded::read(&empty).unwrap_err().to_string();
        assert!(
            refused.contains("empty.pgn: no recorded turn with a choice"),
            "{refused}"
        );
        let s = BuildSettings {
            positions: 3,
            shard_size: 2,
            seed: 3,
            records: Some(r.digest),
            rollout: Settings::default(),
        };
        let nowhere = Path::new("/nonexistent/gnubg");
        for given in [
            None,
            Some(&Recorded {
                digest: 1,
                ..r.clone()
            }),
        ] {
            let refused = build(
                dir.path(),
                &s,
                given,
                Some(0..0),
                1,
                nowhere,
                &mut Vec::new(),
            );
            assert!(
                matches!(refused, Err(BenchmarkError::RecordsMissing(d)) if d == r.digest),
                "{refused:?}"
            );
        }
        // With its file, the plan goes on to ask gnubg for the classes.
        let asked = build(
            dir.path(),
            &s,
            Some(&r),
            Some(0..0),
            1,
            nowhere,
            &mut Vec::new(),
        );
        assert!(matches!(asked, Err(BenchmarkError::Gnubg(_))), "{asked:?}");
        assert!(!plan_path(dir.path()).exists());
    }

    #[test]
    fn the_best_candidate_scores_zero_and_an_outside_move_is_rolled_out() {
        let e: Entry =
            "4HPwATDgc/ABMA 52 contact; 13/11 13/8 +0.0123 0.0040; 24/22 13/8 -0.0500 0.0041"
                .parse()
                .unwrap();
        let afters = e.afters().unwrap();
        let list = e.board.legal_moves(e.dice);
        let other = *list.boards().iter().find(|b| !afters.contains(b)).unwrap();
        let mut rolled = 0;
        let s = score_entry(&e, &[afters[0], afters[1], other], |_| {
            rolled += 1;
            Ok((-0.1, 0.01))
        })
        .unwrap();
        assert_eq!(rolled, 1);
        assert_eq!(
            s[0],
            Scored {
                error: 0.0,
                outside: false
            }
        );
        assert!((s[1].error - 0.0623).abs() < 1e-12 && !s[1].outside);
        assert!((s[2].error - 0.1123).abs() < 1e-12 && s[2].outside);
        // An outside move that rolls out better than every candidate costs
        // its player nothing and the other players nothing more.
        let s = score_entry(&e, &[afters[1], other], |_| Ok((0.05, 0.01))).unwrap();
        assert!((s[0].error - 0.0623).abs() < 1e-12, "{s:?}");
        assert_eq!(s[1].error, 0.0);
    }

    #[test]
    fn paired_rows_are_our_error_less_gnubgs() {
        let s = |error| Scored {
            error,
            outside: false,
        };
        let scored = vec![
            (NetClass::Race, vec![s(0.004), s(0.001)]),
            (NetClass::Race, vec![s(0.002), s(0.001)]),
        ];
        let mut out = Vec::new();
        paired(&[Chooser::Ours(1), Chooser::Gnubg0], 1, &scored, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<Vec<&str>> = text
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows.len(), 2, "{text}");
        assert_eq!(
            &rows[0][..5],
            ["grasshopper", "1-ply", "race", "2", "+2.00"]
        );
        assert_eq!(rows[1][2], "all");
    }

    /// A killed build resumes at its first missing line and ends with the
    /// files an uninterrupted build writes; a plan of other settings is
    /// refused. (The plan is written here, so gnubg is not needed.)
    #[test]
    fn a_killed_build_resumes_to_the_same_lines() {
        let dir = tempfile::tempdir().unwrap();
        let s = BuildSettings {
            positions: 3,
            shard_size: 2,
            seed: 3,
            records: None,
            rollout: Settings {
                trials: 36,
                truncate: Some(2),
                variance_reduction: false,
                ..Settings::default()
            },
        };
        let lines = [
            "4HPwATDgc/ABMA 52 contact; 13/11 13/8; 24/22 13/8",
            "4HPwATDgc/ABMA 31 contact; 8/5 6/5; 24/23 13/10",
            "4HPwATDgc/ABMA 64 contact; 24/18 13/9; 24/14",
        ];
        let plan = std::iter::once(s.header())
            .chain(lines.iter().map(|l| l.to_string()))
            .map(|l| l + "\n")
            .collect::<String>();
        std::fs::write(plan_path(dir.path()), plan).unwrap();
        let nowhere = Path::new("/no/gnubg");
        let shards = |dir: &Path| -> Vec<String> {
            (0..2)
                .map(|k| std::fs::read_to_string(shard_path(dir, k)).unwrap())
                .collect()
        };
        build(
            dir.path(),
            &s,
            None,
            Some(0..1),
            2,
            nowhere,
            &mut Vec::new(),
        )
        .unwrap();
        assert!(!shard_path(dir.path(), 1).exists());
        build(dir.path(), &s, None, None, 1, nowhere, &mut Vec::new()).unwrap();
        let whole = shards(dir.path());
        assert_eq!(whole[0].lines().count(), 2);
        assert_eq!(whole[1].lines().count(), 1);
        // Kill after the first line of shard 0 and before shard 1.
        let first = whole[0].lines().next().unwrap().to_string() + "\n";
        std::fs::write(shard_path(dir.path(), 0), first).unwrap();
        std::fs::remove_file(shard_path(dir.path(), 1)).unwrap();
        build(dir.path(), &s, None, None, 2, nowhere, &mut Vec::new()).unwrap();
        assert_eq!(shards(dir.path()), whole);
        let e = read_lines(dir.path()).unwrap();
        assert_eq!(e.len(), 3);
        assert!(e
            .iter()
            .all(|e| e.candidates.iter().all(|c| c.value.is_some())));
        let other = BuildSettings { seed: 4, ..s };
        let refused =
            build(dir.path(), &other, None, None, 1, nowhere, &mut Vec::new()).unwrap_err();
        assert!(refused.to_string().contains("seed 3"), "{refused}");
    }

    /// The committed benchmark: a move of its first line rolled out again
    /// with the plan's settings gives the stored value (the dice come from
    /// the line alone), and the command scores the committed sample.
    /// The self-play sample still gives the committed set's positions, in
    /// order (gnubg dropped the few it calls bear-offs), so its plan
    /// regenerates.
    #[test]
    fn the_sample_gives_the_committed_plans_positions() {
        let (settings, plan) = read_plan(&fixture()).unwrap();
        let n = settings.positions;
        let mut sampled = sample(n + n / 10 + 10, settings.seed).into_iter();
        for e in &plan {
            assert!(
                sampled.any(|r| r == (e.board, e.dice)),
                "{} {} is not next in the sample",
                e.board.position_id(),
                e.dice
            );
        }
    }

    #[test]
    fn committed_lines_repeat_and_score() {
        // Both committed sets: self-play's, and the games against gnubg's.
        let games = fixture().with_file_name("backgammon-benchmark-games");
        for dir in [fixture(), games] {
            let (settings, plan) = read_plan(&dir).unwrap();
            let lines = read_lines(&dir).unwrap();
            assert_eq!(lines.len(), plan.len(), "{}", dir.display());
            for (l, p) in lines.iter().zip(&plan) {
                assert_eq!((l.board, l.dice, l.class), (p.board, p.dice, p.class));
            }
            let first = &lines[0];
            let afters = first.afters().unwrap();
            let (v, e) = roll_move(first, &afters[0], &settings, 1).unwrap();
            let stored = first.candidates[0].value.unwrap();
            assert!(
                (v - stored.0).abs() < 1e-4 && (e - stored.1).abs() < 1e-4,
                "{}: {v} {e} {stored:?}",
                dir.display()
            );
        }
        let sample = shard_path(&fixture(), 0);
        let a = ScoreSettings {
            path: sample,
            plies: vec![1],
            gnubg: None,
            threads: 1,
            nets: None,
        };
        let mut out = Vec::new();
        score(&a, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("grasshopper 1-ply"), "{text}");
    }
}
