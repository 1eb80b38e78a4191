//! Endgame tables: every position of the last phase of a game, solved.
//!
//! # The phase
//!
//! A position is in the phase of bound `T` (an even number, 2 to 6) when
//! neither player has a checker left to enter and the two players together
//! have at most `T` checkers on the board. The phase is closed under play:
//! without entries no action adds a checker to the board. Because each player
//! started with an even N and bears off in pairs, each has an even number on
//! the board, and since scores alternate until the winning one, the two
//! counts differ by at most 2. The value of such a position depends on the
//! board, the side to move and the scoring run only, not on N or the score,
//! so one table serves every N (including 14).
//!
//! Positions are colour-normalised (the mover is called "mover", see
//! [`Position::canonical`]) and indexed by blocks: one block per valid triple
//! (run, mover's checkers on board, other's checkers on board), in the order
//! run = none, mover scored once, other scored once, then by the two counts.
//! Inside a block the index is `rank(mover) * configs(other) + rank(other)`,
//! where a player's configurations with `c` checkers (lone-checker mask and
//! wall mask, walls outside quadrant A) are ranked in increasing order of
//! `(wall mask, lone mask)`.
//!
//! # Entries
//!
//! One byte per index: 0 for an index naming no position (the two players'
//! checkers overlap), 1 for a draw, `2 * plies` for a win of the mover in
//! `plies` plies, `2 * plies + 1` for a loss after `plies` plies (winner
//! hurrying, loser delaying; plies below 128).
//!
//! # File format (version 1, little-endian)
//!
//! | bytes | field |
//! |-------|-------|
//! | 8 | magic `GHOPTBL\0` |
//! | 4 | version, `1` |
//! | 4 | `T`, the bound on checkers on the board |
//! | 8 | number of entries (must equal the index size for `T`) |
//! | 8 | FNV-1a 64-bit checksum of the entries |
//! | n | the entries, in index order |

use super::value::{Value, BIG};
use super::Probe;
use fnv1a::fnv1a;
use grasshopper_rules::{Color, Parts, Position, Quadrant, Run};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"GHOPTBL\0";
const VERSION: u32 = 1;
/// Largest bound on checkers on the board that [`Tables::generate`] accepts.
pub const MAX_BOUND: u8 = 6;

/// Reads an entry byte: 0 not stored, 1 a draw, else twice the plies plus
/// 0 for a win or 1 for a loss.
fn probe_from_byte(b: u8) -> Option<Probe> {
    match b {
        0 => None,
        1 => Some(Probe {
            value: Value::Draw,
            plies: None,
        }),
        b => Some(Probe {
            value: if b & 1 == 0 { Value::Win } else { Value::Loss },
            plies: Some(b as u32 / 2),
        }),
    }
}

/// Why a table could not be generated, read or written.
#[derive(Debug)]
pub enum TableError {
    /// Reading or writing the file failed.
    Io(std::io::Error),
    /// The file does not start with the table magic.
    NotATable,
    /// The file has a version this program does not read.
    Version(u32),
    /// The bound is not one of 2, 4, 6.
    Bound(u32),
    /// The entry count does not match the index size of the bound.
    Size { expected: u64, found: u64 },
    /// The entries do not match the checksum in the header.
    Checksum,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io(e) => write!(f, "endgame table file: {e}"),
            TableError::NotATable => write!(f, "not an endgame table file (bad magic)"),
            TableError::Version(v) => {
                write!(f, "endgame table version {v}: expected version {VERSION}")
            }
            TableError::Bound(t) => write!(
                f,
                "endgame table bound {t}: expected an even number of checkers on the board from 2 to {MAX_BOUND}"
            ),
            TableError::Size { expected, found } => write!(
                f,
                "endgame table holds {found} entries: expected {expected} for its bound (truncated file?)"
            ),
            TableError::Checksum => write!(f, "endgame table checksum mismatch (damaged file)"),
        }
    }
}

impl std::error::Error for TableError {}

impl From<std::io::Error> for TableError {
    fn from(e: std::io::Error) -> Self {
        TableError::Io(e)
    }
}

/// A fast hasher for the configuration map (keys are already distinct masks).
#[derive(Default)]
struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The rank key of one colour's checkers: its wall and lone masks.
fn config_key(pos: &Position, c: Color) -> u64 {
    ((pos.wall_mask(c) as u64) << 32) | pos.lone_mask(c) as u64
}

/// One block of the index.
#[derive(Copy, Clone, Debug)]
struct Block {
    run: u8,
    mover: u8,
    other: u8,
    offset: u64,
}

/// The index of one bound: configurations, their ranks, the blocks.
struct Index {
    bound: u8,
    /// `configs[c / 2]`: the (lone, wall) masks with `c` checkers.
    configs: Vec<Vec<(u32, u32)>>,
    rank: HashMap<u64, u32, BuildHasherDefault<MaskHasher>>,
    blocks: Vec<Block>,
    size: u64,
}

/// Run relative to the mover: 0 none, 1 mover scored last once, 2 other did.
fn relative_run(pos: &Position) -> Option<u8> {
    match pos.run() {
        None => Some(0),
        Some(Run { color, count: 1 }) if color == pos.side_to_move() => Some(1),
        Some(Run { count: 1, .. }) => Some(2),
        Some(_) => None,
    }
}

fn valid_block(run: u8, mover: u8, other: u8) -> bool {
    match run {
        0 => mover == other && mover > 0,
        1 => other == mover || other == mover + 2,
        _ => mover == other || mover == other + 2,
    }
}

impl Index {
    fn new(bound: u8) -> Index {
        // One player has at most the largest even count that leaves the other
        // no more than 2 fewer: 2 for T = 2 or 4, 4 for T = 6.
        let per = (bound / 2).div_ceil(2) * 2;
        let mut configs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); per as usize / 2 + 1];
        // Walls stand on B, C, D only; enumerate wall masks, then lone masks
        // on the remaining points, keeping those with an even count <= per.
        let wall_points: u32 = !Quadrant::A.mask() & 0xFF_FFFF;
        let mut walls_list = Vec::new();
        subsets(wall_points, per as u32 / 2, &mut walls_list);
        for &w in &walls_list {
            let mut lones = Vec::new();
            let room = per as u32 - 2 * w.count_ones();
            subsets(0xFF_FFFF & !w, room, &mut lones);
            for &l in &lones {
                let c = l.count_ones() + 2 * w.count_ones();
                if c % 2 == 0 {
                    configs[c as usize / 2].push((l, w));
                }
            }
        }
        let mut rank = HashMap::default();
        for list in configs.iter_mut() {
            list.sort_by_key(|&(l, w)| ((w as u64) << 32) | l as u64);
            for (r, &(l, w)) in list.iter().enumerate() {
                rank.insert(((w as u64) << 32) | l as u64, r as u32);
            }
        }
        let mut blocks = Vec::new();
        let mut offset = 0u64;
        for run in 0..3u8 {
            for mover in (0..=per).step_by(2) {
                for other in (0..=per.min(bound - mover)).step_by(2) {
                    if valid_block(run, mover, other) {
                        blocks.push(Block {
                            run,
                            mover,
                            other,
                            offset,
                        });
                        offset += configs[mover as usize / 2].len() as u64
                            * configs[other as usize / 2].len() as u64;
                    }
                }
            }
        }
        Index {
            bound,
            configs,
            rank,
            blocks,
            size: offset,
        }
    }

    /// The index of a position of the phase, else `None`.
    #[inline(always)]
    fn index_of(&self, pos: &Position) -> Option<u64> {
        if pos.to_enter(Color::White) + pos.to_enter(Color::Black) != 0 {
            return None;
        }
        let c = pos.canonical();
        let (m, o) = (c.on_board(Color::White), c.on_board(Color::Black));
        if m + o > self.bound {
            return None;
        }
        let run = relative_run(&c)?;
        let block = self
            .blocks
            .iter()
            .find(|b| b.run == run && b.mover == m && b.other == o)?;
        let rm = *self.rank.get(&config_key(&c, Color::White))? as u64;
        let ro = *self.rank.get(&config_key(&c, Color::Black))? as u64;
        Some(block.offset + rm * self.configs[o as usize / 2].len() as u64 + ro)
    }

    /// The position at `index` (White to move, with a score that fits the
    /// run), or `None` when the two players' checkers overlap.
    fn position_at(&self, index: u64) -> Option<Position> {
        let block = self.blocks.iter().rev().find(|b| b.offset <= index)?;
        let others = &self.configs[block.other as usize / 2];
        let i = index - block.offset;
        let (lm, wm) = self.configs[block.mover as usize / 2][(i / others.len() as u64) as usize];
        let (lo, wo) = others[(i % others.len() as u64) as usize];
        if (lm | wm) & (lo | wo) != 0 {
            return None;
        }
        // Scores: the least that fit the run and the counts on the board.
        let white = |count| {
            Some(Run {
                color: Color::White,
                count,
            })
        };
        let black = |count| {
            Some(Run {
                color: Color::Black,
                count,
            })
        };
        let (score, run) = match block.run {
            0 => ([0, 0], None),
            1 => (
                [1, if block.other == block.mover { 1 } else { 0 }],
                white(1),
            ),
            _ => (
                [if block.mover == block.other { 1 } else { 0 }, 1],
                black(1),
            ),
        };
        Position::from_parts(Parts {
            lone: [lm, lo],
            wall: [wm, wo],
            to_enter: [0, 0],
            score,
            run,
            side: Color::White,
        })
    }
}

/// All subsets of `mask` with at most `max` bits, in no particular order.
fn subsets(mask: u32, max: u32, out: &mut Vec<u32>) {
    fn go(rest: u32, max: u32, acc: u32, out: &mut Vec<u32>) {
        out.push(acc);
        if max == 0 {
            return;
        }
        let mut r = rest;
        while r != 0 {
            let bit = r & r.wrapping_neg();
            r &= r - 1;
            // Only bits above `bit` remain for later choices: each subset once.
            go(r, max - 1, acc | bit, out);
        }
    }
    go(mask, max, 0, out);
}

/// Solved endgame tables for one bound `T`, in memory.
pub struct Tables {
    index: Index,
    data: Vec<u8>,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tables {{ bound: {}, entries: {} }}",
            self.index.bound,
            self.data.len()
        )
    }
}

impl Tables {
    /// Solves every position of the phase with at most `bound` checkers on
    /// the board (2, 4 or 6) by memoised minimax over the phase.
    pub fn generate(bound: u8) -> Result<Tables, TableError> {
        if bound == 0 || !bound.is_multiple_of(2) || bound > MAX_BOUND {
            return Err(TableError::Bound(bound as u32));
        }
        let index = Index::new(bound);
        let mut t = Tables {
            data: vec![0; index.size as usize],
            index,
        };
        for i in 0..t.index.size {
            if t.data[i as usize] == 0 {
                if let Some(pos) = t.index.position_at(i) {
                    t.solve(&pos, i);
                }
            }
        }
        Ok(t)
    }

    /// Computes and stores the entry of `pos` (at `index`), solving its
    /// children first as needed. Returns the entry.
    fn solve(&mut self, pos: &Position, index: u64) -> u8 {
        let moves = pos.legal_moves();
        let mut best: Option<i32> = None;
        for &m in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            // Node-relative child score, then seen from `pos`.
            let s = if child.is_won() {
                -BIG
            } else {
                let ci = self
                    .index
                    .index_of(&child)
                    .expect("the phase is closed under play");
                let mut b = self.data[ci as usize];
                if b == 0 {
                    b = self.solve(&child, ci);
                }
                probe_from_byte(b).expect("solved").score()
            };
            let p = -s + s.signum();
            best = Some(best.map_or(p, |b| b.max(p)));
        }
        let b = match best.unwrap_or(0) {
            0 => 1,
            s if s > 0 => 2 * (BIG - s) as u8,
            s => 2 * (BIG + s) as u8 + 1,
        };
        self.data[index as usize] = b;
        b
    }

    /// The bound `T` on checkers on the board.
    pub fn bound(&self) -> u8 {
        self.index.bound
    }

    /// Number of entries (indices, including those naming no position).
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// True when the table has no entries (never for a generated table).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Counts of (wins, draws, losses) over the positions of the table.
    pub fn census(&self) -> (u64, u64, u64) {
        let (mut w, mut d, mut l) = (0, 0, 0);
        for &b in &self.data {
            match b {
                0 => {}
                1 => d += 1,
                b if b & 1 == 0 => w += 1,
                _ => l += 1,
            }
        }
        (w, d, l)
    }

    /// The exact result of `pos` if it lies in the phase.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if pos.is_won() {
            return None;
        }
        let i = self.index.index_of(pos)?;
        probe_from_byte(self.data[i as usize])
    }

    /// The position stored at `index`, if the index names one (for sampling).
    pub fn position_at(&self, index: u64) -> Option<Position> {
        self.index.position_at(index)
    }

    /// Writes the table in the file format of the module docs.
    pub fn write_to(&self, mut w: impl Write) -> Result<(), TableError> {
        w.write_all(MAGIC)?;
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&(self.index.bound as u32).to_le_bytes())?;
        w.write_all(&(self.data.len() as u64).to_le_bytes())?;
        w.write_all(&fnv1a(&self.data).to_le_bytes())?;
        w.write_all(&self.data)?;
        w.flush()?;
        Ok(())
    }

    /// Writes the table to the file `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TableError> {
        let f = std::fs::File::create(path)?;
        self.write_to(std::io::BufWriter::new(f))
    }

    /// Reads a table written by [`Tables::write_to`], checking every header field.
    pub fn read_from(mut r: impl Read) -> Result<Tables, TableError> {
        let mut head = [0u8; 32];
        r.read_exact(&mut head).map_err(|_| TableError::NotATable)?;
        if &head[..8] != MAGIC {
            return Err(TableError::NotATable);
        }
        let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(TableError::Version(version));
        }
        let bound = u32_at(12);
        if bound == 0 || !bound.is_multiple_of(2) || bound > MAX_BOUND as u32 {
            return Err(TableError::Bound(bound));
        }
        let index = Index::new(bound as u8);
        let found = u64_at(16);
        if found != index.size {
            return Err(TableError::Size {
                expected: index.size,
                found,
            });
        }
        let mut data = Vec::with_capacity(index.size as usize);
        r.take(index.size).read_to_end(&mut data)?;
        if data.len() as u64 != index.size {
            return Err(TableError::Size {
                expected: index.size,
                found: data.len() as u64,
            });
        }
        if fnv1a(&data) != u64_at(24) {
            return Err(TableError::Checksum);
        }
        Ok(Tables { index, data })
    }

    /// Loads a table file.
    pub fn load(path: impl AsRef<Path>) -> Result<Tables, TableError> {
        let f = std::fs::File::open(path)?;
        Tables::read_from(std::io::BufReader::new(f))
    }
}
