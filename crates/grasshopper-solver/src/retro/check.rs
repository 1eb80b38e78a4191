//! The tables against independent references: sampled positions of the
//! solved units, each solved by the alpha-beta [`crate::Solver`]; the
//! `tablegen` endgame tables; a forward solve; and a plain minimax over every
//! position reachable from the start ([`check_minimax`]).

use super::{halves_of, unit_size, units, Retro, RetroError, RetroOptions};
use crate::{Solver, Value};
use grasshopper_rules::{Outcome, Position};
use splitmix::SplitMix64;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What a comparison found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Positions compared.
    pub samples: u64,
    /// Positions where the two disagree: the position, the table's value
    /// and the solver's (+1, 0, -1).
    pub mismatches: Vec<(Position, i8, i8)>,
    /// Wins, draws, losses among the samples.
    pub wdl: [u64; 3],
    /// Units sampled from, and their positions.
    pub units: usize,
    pub positions: u64,
    pub seconds: f64,
}

/// What [`check`] samples and how it solves.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// Positions to compare.
    pub samples: u64,
    /// Seed of the sample.
    pub seed: u64,
    /// Sample only units of at most this level.
    pub max_level: Option<u8>,
    /// The alpha-beta solver's table, in MiB.
    pub hash_mb: usize,
}

/// Compares positions drawn uniformly from the complete units of the game of
/// `n` checkers in `dir` with the alpha-beta solver's value (which may use
/// the last-phase endgame tables, an independent generator).
pub fn check(
    dir: &Path,
    n: u8,
    sampling: &Sampling,
    endgame: Option<crate::Tables>,
    log: &mut dyn Write,
) -> Result<CheckReport, RetroError> {
    let Sampling {
        samples,
        seed,
        max_level,
        hash_mb,
    } = *sampling;
    let start = Instant::now();
    let mut sink = std::io::sink();
    let mut retro = Retro::new(n, dir, RetroOptions::default(), &mut sink);
    let chosen: Vec<_> = units(n)
        .into_iter()
        .filter(|u| max_level.is_none_or(|m| u.level() <= m))
        .filter(|&u| super::unit_path(dir, u, "wdl").exists())
        .collect();
    let mut halves = Vec::new();
    for &u in &chosen {
        retro.load(u)?;
        for k in halves_of(u) {
            halves.push(retro.store.get(k).expect("loaded").clone());
        }
    }
    let total: u64 = chosen.iter().map(|&u| unit_size(u)).sum();
    let mut report = CheckReport {
        units: chosen.len(),
        positions: total,
        ..Default::default()
    };
    if total == 0 {
        return Ok(report);
    }
    let mut solver = Solver::new(hash_mb);
    solver.set_tables(endgame);
    let mut rng = SplitMix64::new(seed);
    let mut last = Instant::now();
    while report.samples < samples {
        let mut i = rng.next_u64() % total;
        let half = halves
            .iter()
            .find(|h| {
                if i < h.layout.size {
                    true
                } else {
                    i -= h.layout.size;
                    false
                }
            })
            .expect("index below the total");
        let pos = half.layout.position_at(i).expect("a position");
        let table = retro.store.value(&pos).expect("solved");
        let solved = match solver.value(&pos) {
            Value::Win => 1,
            Value::Draw => 0,
            Value::Loss => -1,
        };
        if table != solved {
            report.mismatches.push((pos, table, solved));
        }
        report.wdl[(1 - solved) as usize] += 1;
        report.samples += 1;
        if last.elapsed().as_secs() >= 30 {
            last = Instant::now();
            let _ = writeln!(
                log,
                "check: {} of {samples} positions, {} mismatches, {:.0} s",
                report.samples,
                report.mismatches.len(),
                start.elapsed().as_secs_f64()
            );
        }
        // Keep the solver's table from filling with one region only.
        if report.samples.is_multiple_of(200_000) {
            solver.clear();
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Compares every stored position of the complete units of the game of `n`
/// checkers in `dir` that the last-phase endgame tables also hold (nothing
/// to enter, at most their bound on the board) with those tables' value.
pub fn check_endgame(
    dir: &Path,
    n: u8,
    endgame: &crate::Tables,
    log: &mut dyn Write,
) -> Result<CheckReport, RetroError> {
    let start = Instant::now();
    let mut sink = std::io::sink();
    let mut retro = Retro::new(n, dir, RetroOptions::default(), &mut sink);
    let mut report = CheckReport::default();
    for u in units(n) {
        let covered = |k: super::HalfKey| k.tm + k.to == 0 && k.bm + k.bo <= endgame.bound();
        if !halves_of(u).into_iter().any(covered) || !super::unit_path(dir, u, "wdl").exists() {
            continue;
        }
        retro.load(u)?;
        report.units += 1;
        for k in halves_of(u).into_iter().filter(|&k| covered(k)) {
            let h = retro.store.get(k).expect("loaded").clone();
            report.positions += h.layout.size;
            for i in 0..h.layout.size {
                let pos = h.layout.position_at(i).expect("a position");
                let table = retro.store.value(&pos).expect("solved");
                let want = match endgame.probe(&pos).expect("in the endgame phase").value {
                    Value::Win => 1,
                    Value::Draw => 0,
                    Value::Loss => -1,
                };
                if table != want {
                    report.mismatches.push((pos, table, want));
                }
                report.wdl[(1 - want) as usize] += 1;
                report.samples += 1;
            }
        }
        let _ = writeln!(
            log,
            "check: {} positions compared, {} mismatches",
            report.samples,
            report.mismatches.len()
        );
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Every unit of the game of `n` checkers from `dir` (all must be
/// complete), and a report that counts them.
fn load_all<'a>(
    dir: &Path,
    n: u8,
    log: &'a mut dyn Write,
) -> Result<(Retro<'a>, CheckReport), RetroError> {
    let mut retro = Retro::new(n, dir, RetroOptions::default(), log);
    let mut report = CheckReport::default();
    for u in units(n) {
        retro.load(u)?;
        report.units += 1;
        report.positions += unit_size(u);
    }
    Ok((retro, report))
}

/// Solves the start of the game of `n` checkers with the forward solver
/// (a different traversal: depth-first from the start over the positions
/// it needs) and compares every value it computed with the tables in `dir`
/// (all units of the game must be complete there).
pub fn check_forward(dir: &Path, n: u8, log: &mut dyn Write) -> Result<CheckReport, RetroError> {
    let start = Instant::now();
    let mut f = super::forward::Forward::new(n);
    let root = Position::start(n).expect("a game size");
    let v = f.value(&root);
    let _ = writeln!(
        log,
        "check: forward value {v}, {} positions computed",
        f.computed
    );
    let mut sink = std::io::sink();
    let (retro, mut report) = load_all(dir, n, &mut sink)?;
    for u in units(n) {
        for k in halves_of(u) {
            let (a, b) = (
                f.store.get(k).expect("allocated"),
                retro.store.get(k).expect("loaded"),
            );
            for i in 0..a.layout.size {
                let fv = a.get(i);
                if fv == 0 {
                    continue;
                }
                let rv = b.get(i);
                let signed = |c: u8| [0i8, 1, 0, -1][c as usize];
                if fv != rv {
                    let pos = a.layout.position_at(i).expect("a position");
                    report.mismatches.push((pos, signed(rv), signed(fv)));
                }
                report.wdl[(1 - signed(fv)) as usize] += 1;
                report.samples += 1;
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Exact values memoised by position key: open addressing over a
/// power-of-two number of slots, at most half of them used (key 0 marks a
/// free slot; [`fold`] never gives 0).
struct Memo {
    keys: Vec<u64>,
    values: Vec<i8>,
    len: usize,
}

impl Memo {
    fn new(slots_log2: u32) -> Memo {
        Memo {
            keys: vec![0; 1 << slots_log2],
            values: vec![0; 1 << slots_log2],
            len: 0,
        }
    }

    fn slot(&self, key: u64) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        while self.keys[i] != 0 && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, key: u64) -> Option<i8> {
        let i = self.slot(key);
        (self.keys[i] == key).then(|| self.values[i])
    }

    fn insert(&mut self, key: u64, v: i8) {
        assert!(
            2 * self.len < self.keys.len(),
            "the memo is half full: more positions than it was sized for"
        );
        let i = self.slot(key);
        self.keys[i] = key;
        self.values[i] = v;
        self.len += 1;
    }
}

/// The rules' exact 70-bit key folded into 64 bits for games of at most 4
/// checkers a side (at most 4 to enter each): board digits, then the
/// checkers to enter and the run as base-5 digits above them.
fn fold(key: u128) -> u64 {
    const BOARD: u64 = 5u64.pow(24);
    let board = (key & ((1 << 56) - 1)) as u64;
    let tw = (key >> 56 & 15) as u64;
    let tb = (key >> 60 & 15) as u64;
    let run = (key >> 64 & 7) as u64;
    debug_assert!(tw < 5 && tb < 5 && run < 5);
    board + BOARD * (1 + tw + 5 * (tb + 5 * run))
}

/// Plain minimax over the positions reachable from the start, memoised by
/// the rules' key, with the outcome from the rules (docs/rules/RULES.md 11-12); every
/// position it values that the tables store is compared with them.
struct Minimax<'a> {
    memo: Memo,
    store: &'a super::Store,
    report: CheckReport,
}

impl Minimax<'_> {
    fn value(&mut self, pos: &Position) -> i8 {
        let me = pos.side_to_move();
        match pos.outcome() {
            Outcome::Win(c) => return if c == me { 1 } else { -1 },
            Outcome::Draw => return 0,
            Outcome::Ongoing => {}
        }
        let key = fold(pos.canonical_key());
        if let Some(v) = self.memo.get(key) {
            return v;
        }
        let mut best = -1;
        for &m in pos.legal_moves().iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            best = best.max(-self.value(&child));
        }
        self.memo.insert(key, best);
        self.compare(pos, best);
        best
    }

    fn compare(&mut self, pos: &Position, want: i8) {
        let r = &mut self.report;
        match self.store.value(pos) {
            Some(table) if table == want => {}
            Some(table) => r.mismatches.push((*pos, table, want)),
            None => r.mismatches.push((*pos, 2, want)),
        }
        r.wdl[(1 - want) as usize] += 1;
        r.samples += 1;
    }
}

/// Values every position reachable from the start of the game of `n`
/// checkers (at most 4) by plain minimax, which shares nothing with the
/// tables but the rules (no index, phases, reductions or settled slices),
/// and compares each with the tables in `dir` (all units complete). A
/// position the tables do not answer counts as a mismatch with table value 2.
pub fn check_minimax(dir: &Path, n: u8, log: &mut dyn Write) -> Result<CheckReport, RetroError> {
    assert!(
        n <= 4,
        "the minimax check holds games of at most 4 checkers"
    );
    let start = Instant::now();
    let mut sink = std::io::sink();
    let (retro, report) = load_all(dir, n, &mut sink)?;
    let mut m = Minimax {
        memo: Memo::new(if n <= 2 { 16 } else { 29 }),
        store: &retro.store,
        report,
    };
    let root = Position::start(n).expect("a game size");
    let v = m.value(&root);
    let _ = writeln!(
        log,
        "check: minimax value {v}, {} positions valued",
        m.memo.len
    );
    m.report.seconds = start.elapsed().as_secs_f64();
    Ok(m.report)
}
