//! `backgammon rollout-data`: training targets from our own rollouts.
//! Positions are sampled from seeded self-play of the shipped nets (or
//! taken from recorded games, [`Source::Records`]), classed
//! contact / crashed / race as GNU Backgammon classes them ([`NetClass`]),
//! and each is rolled out cubeless before the roll; one [`Record`] a line.
//!
//! A run of `positions` is cut into `of` shards: shard `k` (from 1) holds
//! the positions whose index `i` (from 0) has `i mod of = k - 1`. Each
//! position's dice seed comes from the run's seed and its index alone, so a
//! shard's lines are those of the unsharded run, and [`merge`] joins the
//! shards into the unsharded run's file byte for byte. A shard appends and
//! flushes each line as its rollout ends; rerun, it keeps the complete
//! lines (cutting a line a kill left half-written) and goes on from there.

use crate::class::{NetClass, UnknownClass};
use crate::recorded::{self, RecordsError};
use crate::selfplay;
use backgammon_engine::cube::CubeState;
use backgammon_engine::eval::{equity, Evaluator};
use backgammon_engine::prune::Pruner;
use backgammon_engine::rollout::{rollout, RolloutError, Settings, Target};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, MoveList, RollDice, Side, SplitMix};
use fnv1a::fnv1a;
use std::collections::HashSet;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What a generation run rolls out (the same for every shard).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DataSettings {
    /// Positions of the whole run (all shards) to roll out; not part of a
    /// run's identity: a run grows when rerun with more.
    pub positions: usize,
    pub trials: u32,
    pub ply: u8,
    pub truncate: Option<u32>,
    pub seed: u64,
    /// Only positions of this class (a run of its own: another sample).
    pub class: Option<NetClass>,
    /// Instead of a rollout, label each position with the nets' look this
    /// many rolls ahead ([`Searcher::look_ahead`]: 1 = 2-ply, 2 = 3-ply):
    /// the search's values, to distil into the net; cheap (2 rolls: about
    /// 30 positions a second) but inheriting part of the nets' errors.
    pub look: Option<u8>,
    /// Instead of the sampled positions themselves, the positions after
    /// the best this many moves (by the nets at 1-ply) of a seeded roll in
    /// each ([`siblings`]): the candidates a move choice compares, bad ones
    /// included, which the nets must tell apart.
    pub siblings: Option<u8>,
    /// With siblings: the siblings of one position are rolled out on the
    /// same dice (their family's seed, [`Item::dice_key`]), as a rollout of a roll's
    /// candidates is, so that the luck their labels share drops out of
    /// their differences: the ranking a fit learns from them.
    pub common_dice: bool,
}

impl fmt::Display for DataSettings {
    /// The header's settings part.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "trials {} ply {} truncate {} seed {}",
            self.trials,
            self.ply,
            self.truncate.map_or("none".to_string(), |k| k.to_string()),
            self.seed
        )?;
        if let Some(c) = self.class {
            write!(f, " class {c}")?;
        }
        // Only when set: the runs made before the option keep their header.
        if let Some(k) = self.look {
            write!(f, " look {k}")?;
        }
        if let Some(k) = self.siblings {
            write!(f, " siblings {k}")?;
        }
        if self.common_dice {
            write!(f, " common-dice")?;
        }
        Ok(())
    }
}

/// Shard `k` of `of` (k from 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u32,
    pub of: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { k: 1, of: 1 };

    pub fn new(k: u32, of: u32) -> Result<Shard, DataError> {
        if of == 0 || k == 0 || k > of {
            return Err(DataError::Shard { k, of });
        }
        Ok(Shard { k, of })
    }

    /// The indices of the run's positions this shard holds, in order.
    pub fn indices(self, positions: usize) -> impl Iterator<Item = usize> {
        (self.k as usize - 1..positions).step_by(self.of as usize)
    }

    /// The shard's file in `dir`.
    pub fn file(self, dir: &Path) -> PathBuf {
        dir.join(format!("shard-{}-of-{}.txt", self.k, self.of))
    }
}

/// The first line of a data file: the settings, where the positions come
/// from, the nets that sample and label them (by [`Evaluator::digest`]:
/// a run resumed with other nets would mix two teachers), the shard.
fn header(s: &DataSettings, source: &Source, labeller: Labeller, shard: Shard) -> String {
    format!(
        "# grasshopper rollout-data {s}{source}{} nets fnv1a:{:016x} shard {}/{}\n",
        prune_field(labeller.pruner),
        labeller.eval.digest(),
        shard.k,
        shard.of
    )
}

/// The header's part for a look-ahead's pruning (the kept moves and the
/// ranking net's digest), empty without: the runs made before pruning keep
/// their header.
fn prune_field(pruner: Option<&Pruner>) -> String {
    pruner.map_or(String::new(), |p| {
        format!(" prune {} fnv1a:{:016x}", p.keep(), p.digest())
    })
}

/// What labels a run: the nets, and for look-ahead labels the pruning of
/// each roll's moves ([`Evaluator::best_move_pruned`]), if any.
#[derive(Copy, Clone, Debug)]
pub struct Labeller<'a> {
    pub eval: &'a Evaluator,
    pub pruner: Option<&'a Pruner>,
}

impl<'a> Labeller<'a> {
    /// The nets alone: look-aheads judge every move.
    pub fn plain(eval: &'a Evaluator) -> Labeller<'a> {
        Labeller { eval, pruner: None }
    }
}

/// The first line of a file written before headers named their nets
/// (2026-12-04): such a run resumes, on the word of its docs for the nets.
fn header_without_nets(s: &DataSettings, source: &Source, shard: Shard) -> String {
    format!(
        "# grasshopper rollout-data {s}{source} shard {}/{}\n",
        shard.k, shard.of
    )
}

/// Where a run's positions come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Seeded self-play of the nets ([`sample`]).
    SelfPlay,
    /// The positions met in recorded games (games against GNU Backgammon,
    /// say), named in the header by the records file's digest (FNV-1a of
    /// its bytes), so that another file is another run.
    Records { digest: u64, boards: Vec<Board> },
}

impl Source {
    /// The distinct positions of the games recorded in `path` before each
    /// roll, seen by the player on roll, that a net evaluates (not
    /// bear-offs), in the order met.
    pub fn records(path: &Path) -> Result<Source, RecordsError> {
        let mut seen = HashSet::new();
        let mut boards = Vec::new();
        let text = recorded::replay(path, |game, turn| {
            let b = *game.board();
            let net = NetClass::of(&b).is_some();
            if turn.roll.is_some() && net && seen.insert(b.key()) {
                boards.push(b);
            }
        })?;
        let digest = fnv1a(text.as_bytes());
        Ok(Source::Records { digest, boards })
    }

    /// How many positions the run has: `s.positions`, fewer when the
    /// records hold fewer. Known before the (slow) self-play sample, so a
    /// shard file of another run is refused at once.
    fn count(&self, eval: &Evaluator, s: &DataSettings) -> usize {
        match self {
            Source::SelfPlay => s.positions,
            Source::Records { .. } => self.positions(eval, s).count(),
        }
    }

    /// The run's positions in order, each with its family, all of them at
    /// once: what a file of the run holds, to read it by family
    /// ([`crate::relevel`]).
    pub fn run(&self, eval: &Evaluator, s: &DataSettings) -> Vec<(usize, Board)> {
        self.positions(eval, s).collect()
    }

    /// The run's positions in order: its first `s.positions` (of
    /// `s.class` only, with a class), fewer when the records hold fewer,
    /// each with its family: the ordinal of the position it is a sibling
    /// of (without siblings, its own). Made as they are read, so that a
    /// shard labels its first position at once and a resumed one plays
    /// only the games up to where it stopped.
    fn positions<'a>(
        &'a self,
        eval: &'a Evaluator,
        s: &DataSettings,
    ) -> Box<dyn Iterator<Item = (usize, Board)> + 'a> {
        let parents: Box<dyn Iterator<Item = Board> + 'a> = match self {
            Source::SelfPlay => Box::new(Sampler::new(eval, s.seed, s.class)),
            Source::Records { boards, .. } => Box::new(recorded_run(boards, s).copied()),
        };
        let all: Box<dyn Iterator<Item = (usize, Board)> + 'a> = match s.siblings {
            Some(k) => Box::new(siblings(eval, parents, k, s.seed)),
            None => Box::new(parents.enumerate()),
        };
        match self {
            Source::SelfPlay => Box::new(all.take(s.positions)),
            Source::Records { .. } => all,
        }
    }
}

/// The recorded positions a run of `s` takes, in order (with siblings, the
/// parents of its positions).
fn recorded_run<'a>(boards: &'a [Board], s: &DataSettings) -> impl Iterator<Item = &'a Board> {
    let class = s.class;
    boards
        .iter()
        .filter(move |b| class.is_none() || NetClass::of(b) == class)
        .take(s.positions)
}

/// The siblings of each of `parents` in turn, each with its parent's
/// ordinal: for a roll drawn from `seed` (one a parent, in order), the
/// positions after the `k` best moves by the nets at 1-ply (fewer when
/// fewer are legal), best first, each with the opponent on roll; finished
/// games and bear-offs are left out (no net evaluates them), and so is a
/// position met before.
pub fn siblings<'a>(
    eval: &'a Evaluator,
    parents: impl Iterator<Item = Board> + 'a,
    k: u8,
    seed: u64,
) -> impl Iterator<Item = (usize, Board)> + 'a {
    let mut dice = SplitMix::new(seed ^ 0x51B1_1265);
    let mut moves = Box::<MoveList>::default();
    let mut seen = HashSet::new();
    parents.enumerate().flat_map(move |(family, parent)| {
        parent.legal_moves_into(dice.dice(), &mut moves);
        selfplay::ranked(eval, &moves)
            .into_iter()
            .take(k as usize)
            .filter(|after| !after.has_won(Side::OnRoll))
            .map(|after| after.swapped())
            .filter(|child| NetClass::of(child).is_some() && seen.insert(child.key()))
            .map(|child| (family, child))
            .collect::<Vec<_>>()
    })
}

impl fmt::Display for Source {
    /// The header's part naming the source (nothing for self-play, so that
    /// the runs made before records keep their header).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::SelfPlay => Ok(()),
            Source::Records { digest, .. } => write!(f, " records {digest:016x}"),
        }
    }
}

/// One rolled-out position: its index in the run, the position (player on
/// roll, before the roll), its class, the five rolled-out chances of the
/// player on roll (win, win gammon, win backgammon, lose gammon, lose
/// backgammon), the cubeless equity and its standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub index: usize,
    pub board: Board,
    pub class: NetClass,
    pub probs: [f32; 5],
    pub equity: f64,
    pub error: f64,
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.probs;
        write!(
            f,
            "{} {} {} {:.4} {:.4} {:.4} {:.4} {:.4} {:+.4} {:.4}",
            self.index,
            self.board.position_id(),
            self.class,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            self.equity,
            self.error
        )
    }
}

impl FromStr for Record {
    type Err = DataError;
    fn from_str(line: &str) -> Result<Record, DataError> {
        let w: Vec<&str> = line.split_whitespace().collect();
        let bad = |why: &str| DataError::Line {
            line: line.to_string(),
            why: why.to_string(),
        };
        if w.len() != 10 {
            return Err(bad(
                "expected 10 fields: index id class 5 chances equity error",
            ));
        }
        let num = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| bad(&format!("\"{s}\" is not a number")))
        };
        let mut probs = [0.0f32; 5];
        for (k, p) in probs.iter_mut().enumerate() {
            *p = num(w[3 + k])? as f32;
        }
        Ok(Record {
            index: w[0]
                .parse()
                .map_err(|_| bad(&format!("\"{}\" is not an index", w[0])))?,
            board: Board::from_position_id(w[1]).map_err(|e| bad(&e.to_string()))?,
            class: w[2].parse()?,
            probs,
            equity: num(w[8])?,
            error: num(w[9])?,
        })
    }
}

/// Why generation or a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("shard {k} of {of}: expected 1 <= K <= N")]
    Shard { k: u32, of: u32 },
    #[error(transparent)]
    Class(#[from] UnknownClass),
    #[error("line \"{line}\": {why}")]
    Line { line: String, why: String },
    #[error("{}: {why}", path.display())]
    File { path: PathBuf, why: String },
    #[error(transparent)]
    Rollout(#[from] RolloutError),
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// Pruning chooses the moves of a look-ahead; a rollout plays its own.
    #[error("pruning needs look-ahead labels (--look): a rollout chooses its moves by its ply")]
    PruneWithoutLook,
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Chance that a self-play move is the second best: some positions the
/// nets' own best play would not reach, as a stronger opponent's would.
const EXPLORE: f32 = 0.1;

/// The run's first `positions` positions: distinct net positions of seeded
/// self-play games (one seed a game, drawn from the run's seed), each kept
/// with chance [`KEEP`], in the order met. A longer run's sample begins
/// with a shorter one's, so a run grows by rerunning it with more.
///
/// With `class`, only positions of that class are kept (the same games, so
/// another sample).
pub fn sample(
    eval: &Evaluator,
    positions: usize,
    seed: u64,
    class: Option<NetClass>,
) -> Vec<Board> {
    Sampler::new(eval, seed, class).take(positions).collect()
}

/// The positions of [`sample`], a game at a time as they are read.
pub(crate) struct Sampler<'a> {
    eval: &'a Evaluator,
    class: Option<NetClass>,
    seeds: SplitMix,
    keep: SplitMix,
    seen: HashSet<backgammon_rules::PositionKey>,
    game: std::vec::IntoIter<Board>,
}

impl<'a> Sampler<'a> {
    pub(crate) fn new(eval: &'a Evaluator, seed: u64, class: Option<NetClass>) -> Sampler<'a> {
        Sampler {
            eval,
            class,
            seeds: SplitMix::new(seed),
            keep: SplitMix::new(seed ^ 0x5EED_DA7A),
            seen: HashSet::new(),
            game: Vec::new().into_iter(),
        }
    }

    /// Whether the sample keeps `b`, met now.
    fn kept(&mut self, b: &Board) -> bool {
        let wanted = match (NetClass::of(b), self.class) {
            (Some(c), Some(only)) => c == only,
            (found, _) => found.is_some(),
        };
        wanted && self.seen.insert(b.key()) && self.keep.unit() < KEEP
    }
}

impl Iterator for Sampler<'_> {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        loop {
            while let Some(b) = self.game.next() {
                if self.kept(&b) {
                    return Some(b);
                }
            }
            let seed = self.seeds.next_u64();
            self.game = selfplay::exploring(self.eval, 1, EXPLORE, seed).into_iter();
        }
    }
}

/// Chance that a self-play position is kept: fewer positions of one game,
/// more games.
const KEEP: f32 = 0.25;

/// The rollout seed of position `index`: from the run's seed and the index
/// alone, whatever the shard.
fn position_seed(seed: u64, index: usize) -> u64 {
    SplitMix::new(seed ^ SplitMix::new(index as u64).next_u64()).next_u64()
}

/// One position of a run: its index, the ordinal of its family (the
/// position it is a sibling of; without siblings, its own index) and the
/// position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Item {
    pub index: usize,
    pub family: usize,
    pub board: Board,
}

impl Item {
    /// What its dice are drawn from: the family's with common dice, else
    /// the position's own index.
    fn dice_key(&self, s: &DataSettings) -> usize {
        if s.common_dice {
            self.family
        } else {
            self.index
        }
    }
}

/// Rolls out `item` of the run.
pub fn roll_out(
    labeller: Labeller,
    s: &DataSettings,
    item: Item,
    threads: usize,
) -> Result<Record, DataError> {
    let Item { index, board, .. } = item;
    let class = NetClass::of(&board).ok_or_else(|| DataError::Line {
        line: board.position_id(),
        why: "not a net's position (bear-off or finished)".to_string(),
    })?;
    let eval = labeller.eval;
    if let Some(rolls) = s.look {
        let probs = Searcher::new(eval).look_ahead(&board, rolls, labeller.pruner);
        return Ok(Record {
            index,
            board,
            class,
            probs,
            equity: equity(&probs) as f64,
            error: 0.0,
        });
    }
    let settings = Settings {
        trials: s.trials,
        ply: s.ply,
        truncate: s.truncate,
        seed: position_seed(s.seed, item.dice_key(s)),
        threads,
        ..Settings::default()
    };
    let target = Target {
        board,
        dice: None,
        cube: CubeState::money(true),
    };
    let r = rollout(eval, &target, &settings, None, |_| true)?;
    let o = &r.outcomes[0];
    Ok(Record {
        index,
        board,
        class,
        probs: o.probs,
        equity: o.cubeless,
        error: o.cubeless_error,
    })
}

/// A shard's file read back: its complete records, and the length in bytes
/// of the part holding them (a kill may leave a half line after it).
fn read_done(
    path: &Path,
    head: &str,
    legacy: &str,
) -> Result<Option<(Vec<Record>, u64)>, DataError> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_at(path)(e)),
    };
    if text.len() < head.len() && head.starts_with(&text) {
        return Ok(None); // killed while writing the header
    }
    let head = if text.starts_with(legacy) {
        legacy
    } else {
        head
    };
    if !text.starts_with(head) {
        let first = text.lines().next().unwrap_or("");
        return Err(DataError::File {
            path: path.to_path_buf(),
            why: format!(
                "its header \"{first}\" is not this run's \"{}\"",
                head.trim_end()
            ),
        });
    }
    let body = &text[head.len()..];
    let complete = body.rfind('\n').map_or(0, |i| i + 1);
    let records = body[..complete]
        .lines()
        .map(str::parse)
        .collect::<Result<Vec<Record>, _>>()?;
    Ok(Some((records, (head.len() + complete) as u64)))
}

/// Opens a shard's file for appending after its complete records (creating
/// it with its header), returning the records already there.
fn open_shard(
    path: &Path,
    [head, legacy]: [&str; 2],
    expected: &[usize],
) -> Result<(std::fs::File, Vec<Record>), DataError> {
    let done = read_done(path, head, legacy)?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(io_at(path))?;
    let records = match done {
        Some((records, len)) => {
            f.set_len(len).map_err(io_at(path))?;
            records
        }
        None => {
            f.set_len(0).map_err(io_at(path))?;
            f.write_all(head.as_bytes()).map_err(io_at(path))?;
            Vec::new()
        }
    };
    let indices: Vec<usize> = records.iter().map(|r| r.index).collect();
    if indices.len() > expected.len() || indices[..] != expected[..indices.len()] {
        return Err(DataError::File {
            path: path.to_path_buf(),
            why: "its records are not this shard's positions in order".to_string(),
        });
    }
    use std::io::Seek;
    f.seek(io::SeekFrom::End(0)).map_err(io_at(path))?;
    Ok((f, records))
}

/// Generates (or resumes) shard `shard` of a run into `dir`: each record is
/// appended and flushed as its rollout ends; `progress` hears each one with
/// the count done and the shard's total. Returns the shard's file.
pub fn generate(
    labeller: Labeller,
    s: &DataSettings,
    source: &Source,
    shard: Shard,
    dir: &Path,
    threads: usize,
    mut progress: impl FnMut(&Record, usize, usize),
) -> Result<PathBuf, DataError> {
    if labeller.pruner.is_some() && s.look.is_none() {
        return Err(DataError::PruneWithoutLook);
    }
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let path = shard.file(dir);
    let eval = labeller.eval;
    let expected: Vec<usize> = shard.indices(source.count(eval, s)).collect();
    let head = header(s, source, labeller, shard);
    // Files from before headers named their nets were never pruned.
    let legacy = match labeller.pruner {
        None => header_without_nets(s, source, shard),
        Some(_) => head.clone(),
    };
    let (mut f, done) = open_shard(&path, [&head, &legacy], &expected)?;
    let mut boards = source.positions(eval, s);
    let mut next = 0;
    let todo = &expected[done.len()..];
    // A rollout spreads its trials over the threads; look-ahead labels are
    // one thread's work each, so the threads take a chunk of positions
    // together instead, written in order when the chunk is done.
    let chunk = if s.look.is_some() {
        8 * threads.max(1)
    } else {
        1
    };
    for (c, part) in todo.chunks(chunk).enumerate() {
        let items: Vec<Item> = part
            .iter()
            .map(|&index| {
                let (family, board) = boards
                    .nth(index - next)
                    .expect("the run has its count of positions");
                next = index + 1;
                Item {
                    index,
                    family,
                    board,
                }
            })
            .collect();
        let records = label_chunk(labeller, s, &items, threads)?;
        for (k, r) in records.iter().enumerate() {
            f.write_all(format!("{r}\n").as_bytes())
                .map_err(io_at(&path))?;
            let n = done.len() + c * chunk + k + 1;
            progress(r, n, expected.len());
        }
        f.flush()
            .and_then(|_| f.sync_data())
            .map_err(io_at(&path))?;
    }
    Ok(path)
}

/// The records of `items`, in their order: a rollout
/// alone on all `threads`, or look-ahead labels shared out among them
/// (each thread every `threads`-th item; the labels do not depend on
/// which thread makes them).
fn label_chunk(
    labeller: Labeller,
    s: &DataSettings,
    items: &[Item],
    threads: usize,
) -> Result<Vec<Record>, DataError> {
    // Threads over the items, and each item's own (a rollout's trials).
    let (threads, per_item) = match s.look {
        Some(_) => (threads.clamp(1, items.len().max(1)), 1),
        None => (1, threads),
    };
    if threads == 1 {
        return items
            .iter()
            .map(|&item| roll_out(labeller, s, item, per_item))
            .collect();
    }
    let parts: Vec<Vec<Result<Record, DataError>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    items
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&item| roll_out(labeller, s, item, 1))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a labelling thread panicked"))
            .collect()
    });
    let mut parts: Vec<_> = parts.into_iter().map(Vec::into_iter).collect();
    (0..items.len())
        .map(|k| parts[k % threads].next().expect("every item labelled"))
        .collect()
}

/// Reads a data file: its header line and its complete records (a line a
/// running or killed shard has half written is left out).
pub fn read_file(path: &Path) -> Result<(String, Vec<Record>), DataError> {
    let text = std::fs::read_to_string(path).map_err(io_at(path))?;
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..complete].lines();
    let head = lines.next().unwrap_or("").to_string();
    if !head.starts_with("# grasshopper rollout-data ") {
        return Err(DataError::File {
            path: path.to_path_buf(),
            why: format!("\"{head}\" is not a rollout-data header"),
        });
    }
    let records = lines.map(str::parse).collect::<Result<Vec<Record>, _>>()?;
    Ok((head, records))
}

/// The settings part of a header (without its shard).
fn settings_of(head: &str) -> &str {
    head.rsplit_once(" shard ").map_or(head, |(s, _)| s)
}

/// Joins the `of` shards in `dir` into `out`: the run's positions up to
/// the first one a shard has not rolled out yet, which is the file an
/// unsharded run of the same settings and that many positions writes, byte
/// for byte. Returns the count of records.
pub fn merge(dir: &Path, of: u32, out: &Path) -> Result<usize, DataError> {
    let mut settings = None;
    let mut all = Vec::new();
    let mut covered = usize::MAX;
    for k in 1..=of {
        let shard = Shard::new(k, of)?;
        let path = shard.file(dir);
        let (head, records) = read_file(&path)?;
        let fault = |why: String| DataError::File {
            path: path.clone(),
            why,
        };
        let own = settings_of(&head).to_string();
        match &settings {
            None => settings = Some(own),
            Some(first) if *first != own => {
                return Err(fault(format!(
                    "its settings differ from shard 1's \"{first}\""
                )))
            }
            Some(_) => {}
        }
        let got: Vec<usize> = records.iter().map(|r| r.index).collect();
        let expected: Vec<usize> = shard
            .indices(got.len() * of as usize + of as usize)
            .collect();
        if got[..] != expected[..got.len()] {
            return Err(fault(
                "its records are not the shard's positions in order".to_string(),
            ));
        }
        // The first index this shard lacks.
        covered = covered.min(k as usize - 1 + got.len() * of as usize);
        all.extend(records);
    }
    all.retain(|r| r.index < covered);
    all.sort_by_key(|r| r.index);
    let mut text = format!("{} shard 1/1\n", settings.unwrap_or_default());
    for r in &all {
        text.push_str(&format!("{r}\n"));
    }
    backgammon_engine::files::write_atomic(out, text.as_bytes()).map_err(io_at(out))?;
    Ok(all.len())
}

/// Our classes beside GNU Backgammon's on the same positions: per our
/// class, the count of positions gnubg puts in each of its classes
/// (contact, crashed, race, other), from its `classifypos`.
pub struct ClassAgreement {
    pub rows: Vec<(NetClass, [usize; 4])>,
}

impl ClassAgreement {
    /// Positions on which the two agree, and all of them.
    pub fn agreed(&self) -> (usize, usize) {
        let mut same = 0;
        let mut all = 0;
        for (c, counts) in &self.rows {
            all += counts.iter().sum::<usize>();
            same += NetClass::ALL
                .iter()
                .position(|x| x == c)
                .map_or(0, |k| counts[k]);
        }
        (same, all)
    }
}

/// Classes `boards` by gnubg (the binary `gnubg`) and by [`NetClass::of`].
pub fn compare_classes(gnubg: &Path, boards: &[Board]) -> Result<ClassAgreement, DataError> {
    use crate::gnubg::{run, Job, CLASSIFY};
    let ids: String = boards.iter().map(|b| b.position_id() + "\n").collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![],
    };
    let gnubg_fault = |why: String| DataError::File {
        path: gnubg.to_path_buf(),
        why,
    };
    let ran = run(gnubg, CLASSIFY, &job).map_err(|e| gnubg_fault(e.to_string()))?;
    let text = ran.outputs.into_iter().next().expect("one output");
    let text = text.map_err(|e| gnubg_fault(format!("no classes: {e}")))?;
    let mut rows: Vec<(NetClass, [usize; 4])> =
        NetClass::ALL.iter().map(|&c| (c, [0; 4])).collect();
    for (b, line) in boards.iter().zip(text.lines()) {
        let Some(ours) = NetClass::of(b) else {
            continue;
        };
        let theirs = line.trim().parse::<u32>().unwrap_or(0);
        let col = NetClass::ALL
            .iter()
            .position(|c| c.gnubg_number() == theirs)
            .unwrap_or(3);
        let row = NetClass::ALL.iter().position(|&c| c == ours).unwrap();
        rows[row].1[col] += 1;
    }
    Ok(ClassAgreement { rows })
}

/// The records of a data file as training pairs for the nets (chances of
/// the player on roll, as the nets give them).
pub fn training_pairs(records: &[Record]) -> Vec<(Board, [f32; 5])> {
    records.iter().map(|r| (r.board, r.probs)).collect()
}

/// Equity RMSE of `eval` against rolled-out records, per class present
/// (class, records, RMSE), then over all of them.
pub fn rmse_by_class(eval: &Evaluator, records: &[Record]) -> Vec<(String, usize, f64)> {
    let groups = NetClass::ALL
        .iter()
        .map(|&c| (c.to_string(), Some(c)))
        .chain([("all".to_string(), None)]);
    groups
        .filter_map(|(name, class)| {
            let pairs: Vec<_> = records
                .iter()
                .filter(|r| class.is_none_or(|c| r.class == c))
                .map(|r| (r.board, r.probs))
                .collect();
            (!pairs.is_empty())
                .then(|| (name, pairs.len(), crate::refine::equity_rmse(eval, &pairs)))
        })
        .collect()
}

/// How [`fit`] fits.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitSettings {
    pub epochs: u32,
    /// The learning rate (Adam's step size with `adam`) of the first epoch
    /// and of the last, geometric between.
    pub alpha: (f32, f32),
    /// Adam in batches of this many records instead of per-sample descent.
    pub adam: Option<usize>,
    /// Seed of each epoch's order.
    pub seed: u64,
    /// Threads of each Adam batch ([`crate::refine::AdamFit::on_threads`]).
    pub threads: usize,
}

/// Fits `eval` to the rolled-out `train` records with the refinement's
/// fitting ([`crate::refine::fit_epoch`], or [`crate::refine::AdamFit`]:
/// each record trains the net of its class). `log` hears the held-out
/// `test` records' RMSE by class ([`rmse_by_class`]) before the first
/// epoch (0) and after each.
pub fn fit(
    eval: &mut Evaluator,
    train: &[Record],
    test: &[Record],
    s: &FitSettings,
    mut log: impl FnMut(u32, &[(String, usize, f64)]),
) {
    let data = training_pairs(train);
    log(0, &rmse_by_class(eval, test));
    let mut adam = s
        .adam
        .map(|batch| crate::refine::AdamFit::on_threads(eval, batch, s.threads));
    let (epochs, alpha) = (s.epochs, s.alpha);
    for epoch in 0..epochs {
        let f = if epochs > 1 {
            epoch as f32 / (epochs - 1) as f32
        } else {
            0.0
        };
        let a = alpha.0 * (alpha.1 / alpha.0).powf(f);
        let mut rng = SplitMix::new(s.seed ^ epoch as u64);
        match &mut adam {
            Some(state) => state.epoch(eval, &data, a, &mut rng),
            None => crate::refine::fit_epoch(eval, &data, a, &mut rng),
        }
        log(epoch + 1, &rmse_by_class(eval, test));
    }
}

/// Saves nets as a run directory (`contact.net`, `crashed.net`,
/// `race.net`) that `net:DIR` players and `--from` read.
pub fn save_nets(dir: &Path, e: &Evaluator) -> Result<(), DataError> {
    e.write_dir(dir).map_err(io_at(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> DataSettings {
        DataSettings {
            positions: 7,
            trials: 8,
            ply: 1,
            truncate: Some(3),
            seed: 11,
            class: None,
            look: None,
            siblings: None,
            common_dice: false,
        }
    }

    #[test]
    fn a_look_ahead_run_labels_with_the_search_and_says_so() {
        let eval = Evaluator::shipped();
        let s = DataSettings {
            look: Some(1),
            ..tiny()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = unsharded(&eval, &s, &Source::SelfPlay, dir.path()).unwrap();
        let (head, records) = read_file(&path).unwrap();
        let nets = format!(" nets fnv1a:{:016x}", eval.digest());
        assert!(
            head.contains(&format!(" seed 11 look 1{nets} shard 1/1")),
            "{head}"
        );
        assert_eq!(records.len(), 7);
        for r in &records {
            let p = Searcher::new(&eval).look_ahead(&r.board, 1, None);
            assert!((0..5).all(|k| (r.probs[k] - p[k]).abs() < 1e-4), "{r}");
            assert_eq!(r.error, 0.0);
        }
        // A rollout run of the same seed is another run.
        let rolled = DataSettings { look: None, ..s };
        assert!(unsharded(&eval, &rolled, &Source::SelfPlay, dir.path()).is_err());
    }

    #[test]
    fn a_pruned_run_labels_with_the_pruned_look_and_says_so() {
        let eval = Evaluator::shipped();
        let pruner = Pruner::shipped(2).unwrap();
        let labeller = Labeller {
            eval: &eval,
            pruner: Some(&pruner),
        };
        let s = DataSettings {
            look: Some(1),
            ..tiny()
        };
        let dir = tempfile::tempdir().unwrap();
        let run = |labeller, s: &DataSettings| {
            generate(
                labeller,
                s,
                &Source::SelfPlay,
                Shard::WHOLE,
                dir.path(),
                2,
                |_, _, _| {},
            )
        };
        let path = run(labeller, &s).unwrap();
        let (head, records) = read_file(&path).unwrap();
        let prune = format!(" look 1 prune 2 fnv1a:{:016x} nets", pruner.digest());
        assert!(head.contains(&prune), "{head}");
        assert_eq!(records.len(), 7);
        let mut differ = 0;
        for r in &records {
            let p = Searcher::new(&eval).look_ahead(&r.board, 1, Some(&pruner));
            assert!((0..5).all(|k| (r.probs[k] - p[k]).abs() < 1e-4), "{r}");
            let whole = Searcher::new(&eval).look_ahead(&r.board, 1, None);
            differ += (0..5).any(|k| (whole[k] - p[k]).abs() >= 1e-4) as usize;
        }
        // Keeping two moves, some roll somewhere chose otherwise.
        assert!(differ > 0);
        // Without pruning, or keeping another number, it is another run.
        let more = DataSettings { positions: 9, ..s };
        let err = run(Labeller::plain(&eval), &more).unwrap_err();
        assert!(err.to_string().contains("is not this run's"), "{err}");
        let three = Pruner::shipped(3).unwrap();
        let other = Labeller {
            pruner: Some(&three),
            ..labeller
        };
        assert!(run(other, &more).is_err());
        // It grows with the same pruning.
        assert_eq!(
            read_file(&run(labeller, &more).unwrap()).unwrap().1.len(),
            9
        );
        // A rollout has no look-ahead to prune.
        let rolled = DataSettings { look: None, ..s };
        assert!(matches!(
            run(labeller, &rolled),
            Err(DataError::PruneWithoutLook)
        ));
    }

    #[test]
    fn a_run_names_its_nets_and_other_nets_do_not_resume_it() {
        let eval = Evaluator::shipped();
        let s = DataSettings {
            positions: 3,
            look: Some(1),
            ..tiny()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = unsharded(&eval, &s, &Source::SelfPlay, dir.path()).unwrap();
        let (head, _) = read_file(&path).unwrap();
        assert!(head.contains(&format!(" nets fnv1a:{:016x} ", eval.digest())));
        // Other nets (the race net's first weight moved) refuse the file.
        let other_dir = tempfile::tempdir().unwrap();
        eval.write_dir(other_dir.path()).unwrap();
        let race = other_dir.path().join("race.net");
        let mut bytes = std::fs::read(&race).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&race, bytes).unwrap();
        let other = Evaluator::read_dir(other_dir.path()).unwrap();
        assert_ne!(other.digest(), eval.digest());
        let more = DataSettings { positions: 5, ..s };
        let err = unsharded(&other, &more, &Source::SelfPlay, dir.path()).unwrap_err();
        assert!(err.to_string().contains("is not this run's"), "{err}");
        // A file made before headers named nets resumes as it is.
        let legacy = header_without_nets(&s, &Source::SelfPlay, Shard::WHOLE);
        let text = std::fs::read_to_string(&path).unwrap();
        let body = text.split_once('\n').unwrap().1;
        std::fs::write(&path, format!("{legacy}{body}")).unwrap();
        // Such a file was never pruned: a pruned run does not take it.
        let pruner = Pruner::shipped(4).unwrap();
        let pruned = Labeller {
            eval: &eval,
            pruner: Some(&pruner),
        };
        let err = generate(
            pruned,
            &more,
            &Source::SelfPlay,
            Shard::WHOLE,
            dir.path(),
            1,
            |_, _, _| {},
        );
        assert!(err.unwrap_err().to_string().contains("is not this run's"));
        unsharded(&eval, &more, &Source::SelfPlay, dir.path()).unwrap();
        let (head, records) = read_file(&path).unwrap();
        assert_eq!(format!("{head}\n"), legacy);
        assert_eq!(records.len(), 5);
    }

    #[test]
    fn siblings_are_the_best_moves_of_a_roll_ranked_by_the_nets() {
        let eval = Evaluator::shipped();
        let parents = vec![Board::START; 1];
        let kids: Vec<Board> = siblings(&eval, parents.into_iter(), 4, 3)
            .map(|(family, kid)| {
                assert_eq!(family, 0);
                kid
            })
            .collect();
        assert_eq!(kids.len(), 4);
        // Each is the start after a legal move of one roll, the opponent on
        // roll, best first by the nets' 1-ply equity.
        let roll = backgammon_rules::Dice::all()
            .find(|&d| {
                let moves = Board::START.legal_moves(d);
                kids.iter().all(|k| moves.boards().contains(&k.swapped()))
            })
            .expect("one roll makes all four");
        let values: Vec<f32> = kids
            .iter()
            .map(|k| equity(&eval.after_move(&k.swapped())))
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        let best = eval.best_move(&Board::START.legal_moves(roll));
        assert_eq!(equity(&best.1), values[0]);
        // A position met before is not labelled again.
        let twice: Vec<Board> = siblings(&eval, [Board::START; 2].into_iter(), 4, 3)
            .map(|(_, kid)| kid)
            .collect();
        assert_eq!(twice[..4], kids[..]);
        let distinct: HashSet<_> = twice.iter().map(Board::key).collect();
        assert_eq!(distinct.len(), twice.len());
    }

    #[test]
    fn siblings_on_common_dice_are_rolled_out_on_their_familys_dice() {
        let eval = Evaluator::shipped();
        let plain = DataSettings {
            positions: 9,
            siblings: Some(3),
            ..tiny()
        };
        let common = DataSettings {
            common_dice: true,
            ..plain
        };
        let dir = tempfile::tempdir().unwrap();
        let path = unsharded(&eval, &common, &Source::SelfPlay, dir.path()).unwrap();
        let (head, records) = read_file(&path).unwrap();
        assert!(
            head.contains(" siblings 3 common-dice nets fnv1a:"),
            "{head}"
        );
        let families: Vec<(usize, Board)> =
            siblings(&eval, sample(&eval, 9, 11, None).into_iter(), 3, 11)
                .take(9)
                .collect();
        assert!(families.windows(2).any(|w| w[0].0 == w[1].0));
        let mut differ = 0;
        for (r, &(family, board)) in records.iter().zip(&families) {
            assert_eq!(r.board, board);
            // The family's dice are those a run without common dice gives
            // the position whose index is the family's ordinal.
            let on = |index| {
                let item = Item {
                    index,
                    family,
                    board,
                };
                // As written in the file: the record's own index.
                let label = roll_out(Labeller::plain(&eval), &plain, item, 1).unwrap();
                Record {
                    index: r.index,
                    ..label
                }
                .to_string()
            };
            assert_eq!(on(family), r.to_string());
            differ += (on(r.index) != r.to_string()) as usize;
        }
        assert!(differ > 0, "no sibling's own dice gave another label");
        // A run with its own dice per sibling is another run.
        assert!(unsharded(&eval, &plain, &Source::SelfPlay, dir.path()).is_err());
    }

    #[test]
    fn a_siblings_run_labels_the_siblings_of_the_sample_and_says_so() {
        let eval = Evaluator::shipped();
        let s = DataSettings {
            look: Some(1),
            siblings: Some(3),
            ..tiny()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = unsharded(&eval, &s, &Source::SelfPlay, dir.path()).unwrap();
        let (head, records) = read_file(&path).unwrap();
        assert!(head.contains(" look 1 siblings 3 nets fnv1a:"), "{head}");
        let expected: Vec<Board> = siblings(&eval, sample(&eval, 7, 11, None).into_iter(), 3, 11)
            .take(7)
            .map(|(_, kid)| kid)
            .collect();
        let boards: Vec<Board> = records.iter().map(|r| r.board).collect();
        assert_eq!(boards, expected);
        // Not the plain run's positions.
        let plain = DataSettings {
            siblings: None,
            ..s
        };
        assert!(unsharded(&eval, &plain, &Source::SelfPlay, dir.path()).is_err());
    }

    /// An unsharded run into `dir`, on one thread, without progress.
    fn unsharded(
        eval: &Evaluator,
        s: &DataSettings,
        source: &Source,
        dir: &Path,
    ) -> Result<PathBuf, DataError> {
        generate(
            Labeller::plain(eval),
            s,
            source,
            Shard::WHOLE,
            dir,
            1,
            |_, _, _| {},
        )
    }

    /// Look-ahead labels share a chunk of positions out among the threads:
    /// the file is the one thread's, byte for byte, resumed or not, and
    /// progress hears every record once, in order.
    #[test]
    fn look_ahead_labels_on_threads_are_the_one_threads_file() {
        let eval = Evaluator::shipped();
        let s = DataSettings {
            positions: 30,
            look: Some(1),
            ..tiny()
        };
        let one = tempfile::tempdir().unwrap();
        let alone = std::fs::read(unsharded(&eval, &s, &Source::SelfPlay, one.path()).unwrap());
        let three = tempfile::tempdir().unwrap();
        // Killed after 5 records (inside the first chunk of 24), then resumed.
        let mut heard = Vec::new();
        let path = generate(
            Labeller::plain(&eval),
            &s,
            &Source::SelfPlay,
            Shard::WHOLE,
            three.path(),
            3,
            |r, n, of| heard.push((r.index, n, of)),
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text.split_inclusive('\n').take(1 + 5).collect();
        std::fs::write(&path, kept).unwrap();
        generate(
            Labeller::plain(&eval),
            &s,
            &Source::SelfPlay,
            Shard::WHOLE,
            three.path(),
            3,
            |_, _, _| {},
        )
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), alone.unwrap());
        let expected: Vec<(usize, usize, usize)> = (0..30).map(|i| (i, i + 1, 30)).collect();
        assert_eq!(heard, expected);
    }

    #[test]
    fn a_records_run_labels_the_recorded_positions_and_names_the_file() {
        // The workspace's fixture, the records of a money session.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let records = root.join("fixtures/backgammon-money.pgn");
        let source = Source::records(&records).unwrap();
        let Source::Records { boards, digest } = &source else {
            panic!("not a records source")
        };
        // The first position is the start, Black on roll (1... 56:24/13).
        assert_eq!(boards[0], Board::START);
        let distinct: HashSet<_> = boards.iter().map(Board::key).collect();
        assert_eq!(distinct.len(), boards.len());
        assert!(boards.iter().all(|b| NetClass::of(b).is_some()));
        let eval = Evaluator::shipped();
        let s = DataSettings {
            positions: 5,
            look: Some(1),
            class: Some(NetClass::Contact),
            ..tiny()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = unsharded(&eval, &s, &source, dir.path()).unwrap();
        let (head, done) = read_file(&path).unwrap();
        assert!(
            head.ends_with(&format!(
                " look 1 records {digest:016x} nets fnv1a:{:016x} shard 1/1",
                eval.digest()
            )),
            "{head}"
        );
        let contact: Vec<Board> = boards
            .iter()
            .filter(|b| NetClass::of(b) == Some(NetClass::Contact))
            .take(5)
            .copied()
            .collect();
        assert_eq!(done.iter().map(|r| r.board).collect::<Vec<_>>(), contact);
        // All of them when the run asks for more than the records hold.
        let all = DataSettings {
            positions: 10_000,
            ..s
        };
        let more = unsharded(&eval, &all, &source, dir.path()).unwrap();
        let (_, done) = read_file(&more).unwrap();
        assert!(
            done.len() > 5 && done.len() < boards.len(),
            "{}",
            done.len()
        );
        // Self-play of the same settings is another run, and so is another file.
        assert!(unsharded(&eval, &s, &Source::SelfPlay, dir.path()).is_err());
        let other = Source::Records {
            digest: digest ^ 1,
            boards: boards.clone(),
        };
        assert!(unsharded(&eval, &s, &other, dir.path()).is_err());
        assert!(matches!(
            Source::records(Path::new("no/such.pgn")),
            Err(RecordsError::Read { .. })
        ));
    }

    #[test]
    fn records_and_classes_round_trip_through_text() {
        let eval = Evaluator::shipped();
        let s = tiny();
        let boards = sample(&eval, s.positions, s.seed, s.class);
        let item = Item {
            index: 3,
            family: 3,
            board: boards[3],
        };
        let r = roll_out(Labeller::plain(&eval), &s, item, 1).unwrap();
        let text = r.to_string();
        let back: Record = text.parse().unwrap();
        assert_eq!(back.to_string(), text);
        assert_eq!(back.board, r.board);
        assert!(matches!(
            "1 4HPwATDgc/ABMA crash 0.5 0.1 0 0.2 0 0 0".parse::<Record>(),
            Err(DataError::Class(_))
        ));
        assert!(matches!(
            "1 4HPwATDgc/ABMA contact 0.5".parse::<Record>(),
            Err(DataError::Line { .. })
        ));
    }

    #[test]
    fn shards_merge_into_the_unsharded_run_and_a_killed_shard_resumes() {
        let eval = Evaluator::shipped();
        let s = tiny();
        let dir = tempfile::tempdir().unwrap();
        let whole = generate(
            Labeller::plain(&eval),
            &s,
            &Source::SelfPlay,
            Shard::WHOLE,
            &dir.path().join("one"),
            1,
            |_, _, _| {},
        )
        .unwrap();
        let sharded = dir.path().join("three");
        for k in 1..=3 {
            generate(
                Labeller::plain(&eval),
                &s,
                &Source::SelfPlay,
                Shard::new(k, 3).unwrap(),
                &sharded,
                2,
                |_, _, _| {},
            )
            .unwrap();
        }
        // Shard 2 killed after its first record, in the middle of a line.
        let shard2 = Shard::new(2, 3).unwrap().file(&sharded);
        let full = std::fs::read_to_string(&shard2).unwrap();
        let cut = full.lines().take(2).map(|l| l.len() + 1).sum::<usize>() + 9;
        std::fs::write(&shard2, &full[..cut]).unwrap();
        // Merged now, the run holds the positions before shard 2's second.
        assert_eq!(merge(&sharded, 3, &sharded.join("all.txt")).unwrap(), 4);
        generate(
            Labeller::plain(&eval),
            &s,
            &Source::SelfPlay,
            Shard::new(2, 3).unwrap(),
            &sharded,
            1,
            |_, _, _| {},
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&shard2).unwrap(), full);
        assert_eq!(merge(&sharded, 3, &sharded.join("all.txt")).unwrap(), 7);
        assert_eq!(
            std::fs::read(sharded.join("all.txt")).unwrap(),
            std::fs::read(&whole).unwrap()
        );
        // A run grown from fewer positions is the run of more.
        let grown = dir.path().join("grown");
        let fewer = DataSettings { positions: 4, ..s };
        unsharded(&eval, &fewer, &Source::SelfPlay, &grown).unwrap();
        let path = unsharded(&eval, &s, &Source::SelfPlay, &grown).unwrap();
        assert_eq!(std::fs::read(path).unwrap(), std::fs::read(&whole).unwrap());
        // Another run's settings are refused, not appended to.
        let other = DataSettings { seed: 12, ..s };
        assert!(generate(
            Labeller::plain(&eval),
            &other,
            &Source::SelfPlay,
            Shard::WHOLE,
            &dir.path().join("one"),
            1,
            |_, _, _| {}
        )
        .is_err());
    }
}
