//! Win/draw/loss tables of half-phases in memory (2 bits a position) and
//! their files.
//!
//! # Unit files (version 1, little-endian)
//!
//! A *unit* is a half-phase together with its flip (the same phase with the
//! other player to move): steps and passes lead from one to the other, so
//! they are solved together. Its file is `u-TM-BM-TO-BO-R.wdl` (the smaller
//! of the two half-phase keys), or `.ckpt` for an unfinished unit.
//!
//! | bytes | field |
//! |-------|-------|
//! | 8 | magic `GHRWDL\0\0` |
//! | 4 | version, `1` |
//! | 4 | halves `h` (1 or 2) |
//! | 8 | where to resume: slice level in the low 8 bits, first work item of that level above (`u64::MAX` when complete) |
//! | 16 per half | its key (`tm bm to bo r`, 3 zero bytes), its positions |
//! | 8 | checksum of the data words |
//! | 8 per word | the halves' data, 32 positions a word, 2 bits each |
//!
//! Entry codes: 0 not computed, 1 win, 2 draw, 3 loss (for the side to move).
//! A checkpoint is written while the workers go on: the work items before
//! the resume point are complete, later ones may be partly written (with
//! their final values; resuming computes them again and stores the same
//! bits).

use super::index::{locate, HalfKey, Layout, MoverPart, HALF_IDS};
use grasshopper_rules::{Decided, Position};
use std::fmt;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"GHRWDL\0\0";
const VERSION: u32 = 1;
/// The "next level" of a complete unit.
pub const COMPLETE: u64 = u64::MAX;

/// Why a table file could not be read or written.
#[derive(Debug)]
pub enum RetroError {
    Io(PathBuf, std::io::Error),
    /// Not a unit file, or one for other keys or sizes.
    Format(PathBuf, String),
    /// The data does not match the checksum.
    Checksum(PathBuf),
    /// A phase needed by the solve is missing.
    Missing(PathBuf),
}

impl fmt::Display for RetroError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetroError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            RetroError::Format(p, why) => {
                write!(f, "{}: not a table of this version: {why}", p.display())
            }
            RetroError::Checksum(p) => {
                write!(f, "{}: checksum mismatch (damaged file)", p.display())
            }
            RetroError::Missing(p) => write!(
                f,
                "{}: phase table missing (solve the later phases first)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for RetroError {}

/// One half-phase's layout and values.
pub struct Half {
    pub layout: Layout,
    pub data: Box<[AtomicU64]>,
}

impl Half {
    /// A half with nothing computed.
    pub fn empty(key: HalfKey) -> Half {
        let layout = Layout::new(key);
        let words = layout.size.div_ceil(32) as usize;
        Half {
            layout,
            data: (0..words).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The entry code at `i`.
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        (self.data[(i / 32) as usize].load(Ordering::Relaxed) >> (2 * (i % 32)) & 3) as u8
    }

    /// Stores the value (+1, 0, -1 for the side to move) at `i`.
    #[inline(always)]
    pub fn set(&self, i: u64, v: i8) {
        let code = match v {
            1 => 1u64,
            0 => 2,
            _ => 3,
        };
        self.data[(i / 32) as usize].fetch_or(code << (2 * (i % 32)), Ordering::Relaxed);
    }

    /// Counts of (not computed, wins, draws, losses).
    pub fn census(&self) -> [u64; 4] {
        let mut c = [0u64; 4];
        let full = self.layout.size / 32;
        for w in &self.data[..full as usize] {
            let w = w.load(Ordering::Relaxed);
            // Per 2-bit entry: hi and lo bits.
            let lo = w & 0x5555_5555_5555_5555;
            let hi = (w >> 1) & 0x5555_5555_5555_5555;
            c[1] += (lo & !hi).count_ones() as u64;
            c[2] += (!lo & hi & 0x5555_5555_5555_5555).count_ones() as u64;
            c[3] += (lo & hi).count_ones() as u64;
        }
        for i in full * 32..self.layout.size {
            c[self.get(i) as usize] += 1;
        }
        c[0] = self.layout.size - c[1] - c[2] - c[3];
        c
    }
}

/// The canonical key of the unit holding `key`.
pub fn unit_of(key: HalfKey) -> HalfKey {
    key.min(key.flip())
}

/// The halves of a unit: the key and, when different, its flip.
pub fn halves_of(unit: HalfKey) -> Vec<HalfKey> {
    if unit.flip() == unit {
        vec![unit]
    } else {
        vec![unit, unit.flip()]
    }
}

/// The file of a unit in `dir`, complete (`wdl`) or checkpoint (`ckpt`).
pub fn unit_path(dir: &Path, unit: HalfKey, ext: &str) -> PathBuf {
    let k = unit;
    dir.join(format!(
        "u-{}-{}-{}-{}-{}.{ext}",
        k.tm, k.bm, k.to, k.bo, k.r
    ))
}

/// A running checksum of data words.
struct Checksum(u64);

impl Checksum {
    fn new() -> Checksum {
        Checksum(0x243F_6A88_85A3_08D3)
    }

    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

fn checksum(words: impl Iterator<Item = u64>) -> u64 {
    let mut c = Checksum::new();
    words.for_each(|w| c.add(w));
    c.0
}

/// Writes a unit's halves to `path` (through a temporary file renamed into
/// place, so a killed write leaves the old file). The data may change while
/// it is written (a checkpoint of a running sweep): the checksum is that of
/// the words as written.
pub fn write_unit(path: &Path, halves: &[&Half], next_level: u64) -> Result<(), RetroError> {
    use std::io::{Seek, SeekFrom};
    let io = |e| RetroError::Io(path.to_path_buf(), e);
    let tmp = path.with_extension("tmp");
    let f = std::fs::File::create(&tmp).map_err(io)?;
    let mut w = BufWriter::with_capacity(1 << 20, f);
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&(halves.len() as u32).to_le_bytes());
    head.extend_from_slice(&next_level.to_le_bytes());
    for h in halves {
        let k = h.layout.key;
        head.extend_from_slice(&[k.tm, k.bm, k.to, k.bo, k.r, 0, 0, 0]);
        head.extend_from_slice(&h.layout.size.to_le_bytes());
    }
    let sum_at = head.len() as u64;
    head.extend_from_slice(&0u64.to_le_bytes());
    w.write_all(&head).map_err(io)?;
    let mut sum = Checksum::new();
    for h in halves {
        for x in h.data.iter() {
            let v = x.load(Ordering::Relaxed);
            sum.add(v);
            w.write_all(&v.to_le_bytes()).map_err(io)?;
        }
    }
    let mut f = w.into_inner().map_err(|e| io(e.into_error()))?;
    f.seek(SeekFrom::Start(sum_at)).map_err(io)?;
    f.write_all(&sum.0.to_le_bytes()).map_err(io)?;
    f.sync_all().map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(())
}

/// Reads a unit file written by [`write_unit`]: its halves and next level.
pub fn read_unit(path: &Path, unit: HalfKey) -> Result<(Vec<Half>, u64), RetroError> {
    let io = |e| RetroError::Io(path.to_path_buf(), e);
    let bad = |why: &str| RetroError::Format(path.to_path_buf(), why.to_string());
    let f = std::fs::File::open(path).map_err(io)?;
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut head = [0u8; 24];
    r.read_exact(&mut head).map_err(|_| bad("short header"))?;
    if &head[..8] != MAGIC {
        return Err(bad("bad magic"));
    }
    if u32::from_le_bytes(head[8..12].try_into().expect("4")) != VERSION {
        return Err(bad("version"));
    }
    let n = u32::from_le_bytes(head[12..16].try_into().expect("4")) as usize;
    let next = u64::from_le_bytes(head[16..24].try_into().expect("8"));
    let keys = halves_of(unit);
    if n != keys.len() {
        return Err(bad("number of halves"));
    }
    let mut halves = Vec::new();
    for &k in &keys {
        let mut e = [0u8; 16];
        r.read_exact(&mut e).map_err(|_| bad("short header"))?;
        let h = Half::empty(k);
        if e[..5] != [k.tm, k.bm, k.to, k.bo, k.r]
            || u64::from_le_bytes(e[8..].try_into().expect("8")) != h.layout.size
        {
            return Err(bad("keys or sizes differ from the unit's"));
        }
        halves.push(h);
    }
    let mut s = [0u8; 8];
    r.read_exact(&mut s).map_err(|_| bad("short header"))?;
    let mut buf = vec![0u8; 1 << 20];
    for h in &halves {
        let mut i = 0;
        while i < h.data.len() {
            let n = (h.data.len() - i).min(buf.len() / 8);
            r.read_exact(&mut buf[..8 * n])
                .map_err(|_| bad("truncated data"))?;
            for (x, b) in h.data[i..i + n].iter().zip(buf.chunks_exact(8)) {
                x.store(
                    u64::from_le_bytes(b.try_into().expect("8")),
                    Ordering::Relaxed,
                );
            }
            i += n;
        }
    }
    let sum = checksum(
        halves
            .iter()
            .flat_map(|h| h.data.iter().map(|x| x.load(Ordering::Relaxed))),
    );
    if sum != u64::from_le_bytes(s) {
        return Err(RetroError::Checksum(path.to_path_buf()));
    }
    Ok((halves, next))
}

/// Where the step children of a position are found (see
/// [`Store::step_target`]).
#[derive(Copy, Clone)]
pub enum StepTarget<'a> {
    /// In this table, with the part of the index that the child's mover
    /// (the parent's other, whom a step does not move) decides.
    Table(&'a Half, MoverPart),
    /// Settled without a table: this value, unless decided on the board.
    Settled(i8),
    /// In a table the store does not hold.
    Missing,
}

/// The value an entry code stands for (`None`: not computed).
#[inline(always)]
fn decode(code: u8) -> Option<i8> {
    const VALUES: [Option<i8>; 4] = [None, Some(1), Some(0), Some(-1)];
    VALUES[code as usize & 3]
}

/// Half-phase tables in memory, found by their dense key.
pub struct Store {
    halves: Vec<Option<Arc<Half>>>,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    pub fn new() -> Store {
        Store {
            halves: vec![None; HALF_IDS],
        }
    }

    pub fn insert(&mut self, h: Arc<Half>) {
        let i = h.layout.key.dense();
        self.halves[i] = Some(h);
    }

    pub fn remove(&mut self, key: HalfKey) {
        self.halves[key.dense()] = None;
    }

    pub fn get(&self, key: HalfKey) -> Option<&Arc<Half>> {
        self.halves[key.dense()].as_ref()
    }

    /// Keys held.
    pub fn keys(&self) -> Vec<HalfKey> {
        self.halves.iter().flatten().map(|h| h.layout.key).collect()
    }

    /// Bytes of the values held.
    pub fn bytes(&self) -> u64 {
        self.halves
            .iter()
            .flatten()
            .map(|h| 8 * h.data.len() as u64)
            .sum()
    }

    /// The value of a position that is not won, for the side to move: +1
    /// win, 0 draw, -1 loss; `None` when its table is not held or the entry
    /// not computed yet.
    #[inline(always)]
    pub fn value(&self, pos: &Position) -> Option<i8> {
        match locate(pos) {
            Err(v) => Some(v),
            Ok((key, lone, wall)) => {
                let h = self.halves[key.dense()].as_ref()?;
                let i = h.layout.index(lone, wall)?;
                decode(h.get(i))
            }
        }
    }

    /// Where the children that `pos` (not won) reaches by a step are found:
    /// a step changes no count and no run, so they all lie in the flip of
    /// its half-phase, or are all settled draws (nobody can win any more).
    #[inline(always)]
    pub fn step_target(&self, pos: &Position) -> StepTarget<'_> {
        let me = pos.side_to_move();
        if !pos.can_still_win(me) && !pos.can_still_win(me.opposite()) {
            return StepTarget::Settled(0);
        }
        let Some(key) = HalfKey::of(pos) else {
            return StepTarget::Settled(-1);
        };
        match self.halves[key.flip().dense()].as_deref() {
            None => StepTarget::Missing,
            Some(h) => {
                let other = me.opposite();
                StepTarget::Table(
                    h,
                    MoverPart::new(pos.lone_mask(other), pos.wall_mask(other)),
                )
            }
        }
    }

    /// [`Store::value`] of a child reached by a step from the position that
    /// gave `target`: the same answer, without finding the table again.
    #[inline(always)]
    pub fn step_value(&self, target: StepTarget<'_>, child: &Position) -> Option<i8> {
        match child.decided() {
            Some(Decided::WinsNow) => return Some(1),
            Some(_) => return Some(-1),
            None => {}
        }
        match target {
            StepTarget::Settled(v) => Some(v),
            StepTarget::Missing => None,
            StepTarget::Table(h, mover) => {
                let other = child.side_to_move().opposite();
                let i =
                    h.layout
                        .index_with(mover, child.lone_mask(other), child.wall_mask(other))?;
                decode(h.get(i))
            }
        }
    }

    /// True when the store holds the table a position (not won) would be
    /// found in, or none is needed.
    pub fn covers(&self, pos: &Position) -> bool {
        match locate(pos) {
            Err(_) => true,
            Ok((key, ..)) => self.halves[key.dense()].is_some(),
        }
    }
}
