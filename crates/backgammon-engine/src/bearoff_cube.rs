//! Exact cube decisions at the end of a game: two-sided tables of cubeful
//! values for every bear-off where each side has at most [`CHECKERS`]
//! checkers left, all home (852,000 positions, the same reach as GNU
//! Backgammon's two-sided database), in money play and in a match.
//!
//! Janowski's model, which prices the cube everywhere else, treats the
//! cube's future as a fixed fraction of a fully live cube. In the last
//! rolls of a game that is far off: when the opponent finishes next roll
//! whatever happens, owning the cube is worth nothing and a player with 64%
//! must double (the take is worth 0.556 against the no double's 0.278),
//! where the model's 0.6 efficiency said no double. Here the values come
//! from the game itself, by backward induction over the rolls: no gammon
//! is possible (each side has borne off at least nine checkers), so a game
//! is worth one cube to its winner, and each player plays each roll to
//! maximise their cubeful value.
//!
//! Money: equities per cube (multiply by the cube's value), for the player
//! on roll, before the roll, without doubling now, for each owner of the
//! cube: [`CubefulBearoff::no_double`]; the decision follows:
//! [`CubefulBearoff::decide`]. One table serves every cube, cached on disk.
//!
//! A match: match winning chances (MWC), which are not proportional to the
//! cube, so one table per score and cube value, each side on roll apart
//! (the score is not symmetric): [`CubefulBearoff::decide_match`]. A game
//! won at cube `c` is worth the match equity table's value of the new
//! score ([`CubeState::value`], in the view of the side needing fewer
//! points; the other side's MWC is its complement). A take leads to the
//! table of cube `2c`, so a decision at cube `c` needs the chain `c`, `2c`,
//! `4c`, ... up to the first cube that reaches both sides' away: there a
//! win wins the match whoever doubles, every higher cube ends the game
//! with the same MWC (1 or 0), so doubling can change nothing and the
//! cube is dead. That table is the same at every score (each side plays
//! for the cubeless win; at double match point it is the whole game), and
//! the chain stops at it. The Crawford game has no cube: one table, no
//! doubles. Tables are made on first use, or ahead on a thread of their
//! own ([`CubefulBearoff::prepare_match`]), one at a time either way
//! (about 0.4 CPU-second each: a chain takes 0.8 s at 2-away 4-away, 1.4 s
//! in a 7-point match from cube 1, 2.2 s at 25-away 25-away), and the last
//! [`KEPT`] are kept in memory, 20 MB each.
//!
//! Money and match tables, the dead cube's included, are one backward
//! induction (`Game`) told apart by the value of a win, what a take
//! leads to and whether a double is possible.

use crate::bearoff::{home_boards, home_of, lone_board, rank, POSITIONS};
use crate::cube::{CubeDecision, CubeState, Owner};
use crate::files::{bytes_f32, f32_bytes, Cached};
use crate::search::weight;
use backgammon_rules::{Board, Dice, MoveList, Side};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// Checkers each side has left, at most, in the table.
pub const CHECKERS: u8 = 6;
/// Home boards of at most [`CHECKERS`] checkers: C(6 + 6, 6).
const SIDES: usize = 924;
/// Values in a table per side on roll: a pair of home boards, 3 owners.
const PER_SIDE: usize = SIDES * SIDES * 3;
/// Match tables kept in memory, the most recently used: each holds both
/// sides on roll, 852,000 pairs × 2 × 3 owners × 4 bytes ≈ 20 MB (120 MB
/// in all); a 25-point match's chain from cube 1 is five tables (cubes 1
/// to 16; 32 is the shared dead table, 10 MB).
pub const KEPT: usize = 6;

/// The owner index of the cube seen from the other side.
const fn flipped(owner: usize) -> usize {
    [0, 2, 1][owner]
}

/// The table's index of a cube owner: centred, the player on roll, the
/// opponent.
const fn owner_index(owner: Owner) -> usize {
    match owner {
        Owner::Centred => 0,
        Owner::Me => 1,
        Owner::Opponent => 2,
    }
}

const OPP: usize = owner_index(Owner::Opponent);

/// Where the values of `side` on roll with home board `me` against `them`
/// start in table `t` (three owners follow; a pair's sides on roll lie side
/// by side). A table of one side on roll serves both.
fn at(t: &[f32], side: usize, me: usize, them: usize) -> usize {
    let sides = t.len() / PER_SIDE;
    ((me * SIDES + them) * sides + side % sides) * 3
}

/// The generated money table.
pub struct CubefulBearoff {
    /// `nd[at(nd, 0, me, them) + owner]`: the no-double equity per cube of
    /// the player on roll with home board `me` against `them`.
    nd: Vec<f32>,
}

impl std::fmt::Debug for CubefulBearoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CubefulBearoff")
    }
}

/// Every home board of at most [`CHECKERS`] checkers with its pips, in
/// order of pips (the empty board first).
fn small_boards() -> Vec<([u8; 6], u32)> {
    let mut out = home_boards(CHECKERS);
    debug_assert_eq!(out.len(), SIDES);
    out.sort_by_key(|&(_, pips)| pips);
    out
}

/// The table's index of each of the one-sided database's ranks
/// (`u16::MAX` where a board has too many checkers).
fn index() -> &'static [u16] {
    static INDEX: OnceLock<Vec<u16>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = vec![u16::MAX; POSITIONS];
        for (i, (c, _)) in small_boards().iter().enumerate() {
            index[rank(c)] = i as u16;
        }
        index
    })
}

/// The table's indices of the two home boards of a covered `board`.
fn pair(board: &Board) -> (usize, usize) {
    let index = index();
    let me = index[rank(&home_of(board))] as usize;
    let them = index[rank(&home_of(&board.swapped()))] as usize;
    (me, them)
}

/// The cache of the table: 10 MB, read in milliseconds where generating
/// takes a third of a CPU-second (an engine's `isready` makes it).
const CACHE: Cached<CubefulBearoff> = Cached {
    file: "bearoff-cube-GHBOFC01.bin",
    magic: b"GHBOFC01",
    make: CubefulBearoff::generate,
    body: CubefulBearoff::body,
    read: CubefulBearoff::read,
};

/// The moves every table is made of.
struct Moves {
    /// Per board and roll, the distinct boards its legal moves leave.
    next: Vec<[Vec<u16>; 21]>,
    /// The weight of each roll, in [`Dice::all`]'s order.
    weights: Vec<f32>,
    /// Every pair of boards with checkers left, in order of pips in all: a
    /// pair's successors (fewer pips) come before it.
    order: Vec<(u16, u16)>,
}

/// The moves of this process, made on first use (a tenth of the tables'
/// time, and a few MB).
fn moves() -> &'static Moves {
    static MOVES: OnceLock<Moves> = OnceLock::new();
    MOVES.get_or_init(|| {
        let boards = small_boards();
        let index = index();
        let mut moves = Box::<MoveList>::default();
        let next = boards
            .iter()
            .map(|(c, _)| {
                let board = lone_board(c);
                let rolls: Vec<Vec<u16>> = Dice::all()
                    .map(|dice| {
                        board.legal_moves_into(dice, &mut moves);
                        let mut after: Vec<u16> = moves
                            .boards()
                            .iter()
                            .map(|b| index[rank(&home_of(b))])
                            .collect();
                        after.sort_unstable();
                        after.dedup();
                        after
                    })
                    .collect();
                rolls.try_into().expect("21 rolls")
            })
            .collect();
        let mut order: Vec<(u16, u16)> = (1..SIDES as u16)
            .flat_map(|m| (1..SIDES as u16).map(move |t| (m, t)))
            .collect();
        order.sort_by_key(|&(m, t)| boards[m as usize].1 + boards[t as usize].1);
        Moves {
            next,
            weights: Dice::all().map(weight).collect(),
            order,
        }
    })
}

/// What sets one table's game apart from another's: the value of its end,
/// whether a double is possible and what a take leads to. Money, each
/// match score and cube, and the dead cube are all this one induction.
struct Game<'a> {
    /// Sides on roll the table tells apart: 1 where both see the same game
    /// (money, the dead cube), 2 in a match (side 0 needs `away.0`).
    sides: usize,
    /// The value to one side of the other's value `v` is `zero - v`: 0 in
    /// money (equities), 1 in a match (MWC).
    zero: f32,
    /// Per side on roll: the value of bearing off the last checker now,
    /// which is also what a passed double gives the doubler.
    win: [f32; 2],
    /// What a take leads to; `None`: no doubling (the Crawford game, the
    /// dead cube).
    take: Option<Take<'a>>,
}

/// The values after a double and take: the same side on roll, the
/// opponent owning a cube of twice the value.
enum Take<'a> {
    /// Money: twice this table's values (they are per cube).
    Twice,
    /// A match: the table of the doubled cube.
    From(&'a [f32]),
}

impl Game<'_> {
    /// The values of `side` on roll with `me` against `them`, for each
    /// owner of the cube, from the no-double values `e`: doubling where
    /// that is best, the opponent then taking or passing, whichever is
    /// worse for the doubler.
    fn cube_action(&self, e: [f32; 3], side: usize, me: usize, them: usize) -> [f32; 3] {
        let take = match &self.take {
            None => return e,
            Some(Take::Twice) => 2.0 * e[OPP],
            Some(Take::From(t)) => t[at(t, side, me, them) + OPP],
        };
        let doubled = take.min(self.win[side]);
        std::array::from_fn(|o| if o == OPP { e[o] } else { e[o].max(doubled) })
    }

    /// The table by backward induction: for each side on roll, the value
    /// before the roll without doubling now, for each owner; each roll
    /// played to the best value for the side on roll, knowing the cube
    /// actions of the next turn (kept apart while the table is made: each
    /// is read by many predecessors).
    fn induct(&self) -> Vec<f32> {
        let m = moves();
        let mut v = vec![0.0f32; self.sides * PER_SIDE];
        let mut acted = v.clone();
        for &(me, them) in &m.order {
            let (me, them) = (me as usize, them as usize);
            for side in 0..self.sides {
                let other = (side + 1) % self.sides;
                let mut e = [0.0f32; 3];
                for (roll, w) in m.next[me].iter().zip(&m.weights) {
                    let mut best = [f32::NEG_INFINITY; 3];
                    for &a in roll {
                        let after = match a {
                            0 => [self.win[side]; 3],
                            a => {
                                let j = at(&acted, other, them, a as usize);
                                std::array::from_fn(|o| self.zero - acted[j + o])
                            }
                        };
                        for (o, b) in best.iter_mut().enumerate() {
                            // The opponent sees the cube's owner flipped.
                            *b = b.max(after[flipped(o)]);
                        }
                    }
                    for (eo, b) in e.iter_mut().zip(best) {
                        *eo += w * b;
                    }
                }
                let i = at(&v, side, me, them);
                v[i..][..3].copy_from_slice(&e);
                acted[i..][..3].copy_from_slice(&self.cube_action(e, side, me, them));
            }
        }
        v
    }
}

impl CubefulBearoff {
    /// Generates the table (about a third of a CPU-second).
    pub fn generate() -> CubefulBearoff {
        let money = Game {
            sides: 1,
            zero: 0.0,
            win: [1.0; 2],
            take: Some(Take::Twice),
        };
        CubefulBearoff { nd: money.induct() }
    }

    /// The table of this process, on first use read from the cache (see
    /// [`crate::files::cache_dir`]) or generated and cached.
    pub fn get() -> &'static CubefulBearoff {
        static TABLE: OnceLock<CubefulBearoff> = OnceLock::new();
        TABLE.get_or_init(|| CACHE.load_or_make())
    }

    /// The table from the cache file in `dir`, or generated and cached there.
    pub fn cached_in(dir: &Path) -> CubefulBearoff {
        CACHE.load_or_make_in(dir)
    }

    fn body(&self) -> Vec<u8> {
        f32_bytes(self.nd.iter().copied())
    }

    fn read(body: &[u8]) -> Option<CubefulBearoff> {
        if body.len() != PER_SIDE * 4 {
            return None;
        }
        Some(CubefulBearoff {
            nd: bytes_f32(body).collect(),
        })
    }

    /// True when both sides of `board` are home with at most [`CHECKERS`]
    /// checkers left and nobody has won.
    pub fn covers(board: &Board) -> bool {
        let left = |s: Side| 15 - board.off(s);
        board.all_home(Side::OnRoll)
            && board.all_home(Side::Opponent)
            && (1..=CHECKERS).contains(&left(Side::OnRoll))
            && (1..=CHECKERS).contains(&left(Side::Opponent))
    }

    /// The equity per cube of the player on roll of a covered `board`, who
    /// does not double now, with the cube owned by `owner`.
    pub fn no_double(&self, board: &Board, owner: Owner) -> f64 {
        let (me, them) = pair(board);
        self.nd[at(&self.nd, 0, me, them) + owner_index(owner)] as f64
    }

    /// The money cube decision on a covered `board` (the cube as `state`
    /// says; gammons cannot happen, so the Jacoby rule changes nothing):
    /// equities in points, as [`crate::cube::decide`] gives them.
    pub fn decide(&self, board: &Board, state: &CubeState) -> CubeDecision {
        let v = state.cube as f64;
        CubeDecision {
            no_double: v * self.no_double(board, state.owner),
            double_take: 2.0 * v * self.no_double(board, Owner::Opponent),
            double_pass: v,
        }
    }

    /// Makes the match tables of `state`'s score and cube (the chain
    /// [`CubefulBearoff::decide_match`] reads) on a thread of their own, so
    /// that the first decision of a game's last bear-offs finds them made
    /// instead of spending up to a few CPU-seconds on them. `None` in money
    /// play, when they are made already, or when the thread runs (it makes
    /// them after the scores asked before); otherwise the new thread's
    /// handle, which gives the number of values it made ready.
    pub fn prepare_match(state: &CubeState) -> Option<std::thread::JoinHandle<usize>> {
        state.away?;
        if Self::is_prepared(state) {
            return None;
        }
        // One preparing thread at a time, working through the scores asked
        // for (each once): a client that keeps asking while the tables are
        // made (every position of a race, every decision that does not
        // wait) must not pile up threads, each making tables that push the
        // others out of the kept six.
        let (score, _) = Score::of(state);
        let mut asked = ASKED.lock().unwrap();
        if !asked.0.contains(&score) {
            asked.0.push(score);
        }
        if asked.1 {
            return None;
        }
        asked.1 = true;
        Some(std::thread::spawn(|| {
            let mut made = 0;
            loop {
                let score = {
                    let mut asked = ASKED.lock().unwrap();
                    if asked.0.is_empty() {
                        asked.1 = false;
                        return made;
                    }
                    asked.0.remove(0)
                };
                made += score.values().len();
                if !score.crawford {
                    score.doubled().values();
                }
            }
        }))
    }

    /// Whether the match tables of `state`'s score and cube are made, those
    /// of the doubled cube too (a take leads there): whether
    /// [`CubefulBearoff::decide_match`] will answer without making any.
    /// Always in money play, which has one table of its own.
    pub fn is_prepared(state: &CubeState) -> bool {
        let Some(_) = state.away else {
            return true;
        };
        let (score, _) = Score::of(state);
        score.is_made() && (score.crawford || score.doubled().is_made())
    }

    /// The match cube decision on a covered `board` (`state.away` set), in
    /// MWC as [`crate::cube::decide`] gives them; exact, from the tables of
    /// the score and cube (made on first use, up to a few CPU-seconds for
    /// a long match's chain). In the Crawford game the double's values are
    /// the no double's (no double is possible).
    pub fn decide_match(board: &Board, state: &CubeState) -> CubeDecision {
        let (score, side) = Score::of(state);
        let (me, them) = pair(board);
        let value = |t: &[f32], owner: usize| t[at(t, side, me, them) + owner] as f64;
        let no_double = value(&score.values(), owner_index(state.owner));
        let double_take = if score.crawford {
            no_double
        } else {
            value(&score.doubled().values(), OPP)
        };
        CubeDecision {
            no_double,
            double_take,
            double_pass: score.game().win[side] as f64,
        }
    }
}

/// The match tables kept, the most recently used last.
static TABLES: Mutex<Vec<(Score, Arc<Vec<f32>>)>> = Mutex::new(Vec::new());
/// Held while a match table is made.
static MAKING: Mutex<()> = Mutex::new(());
/// The scores [`CubefulBearoff::prepare_match`] was asked for and has
/// not made yet, and whether its thread runs.
static ASKED: Mutex<(Vec<Score>, bool)> = Mutex::new((Vec::new(), false));
/// The dead cube's table ([`dead`]), made once.
static DEAD: OnceLock<Arc<Vec<f32>>> = OnceLock::new();

/// A match table's score and cube, in the view of side 0: the side needing
/// fewer points (either at a tie).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Score {
    away: (u32, u32),
    cube: u32,
    crawford: bool,
    post_crawford: bool,
}

impl Score {
    /// The score of `state` (a match) and the side on roll in it.
    fn of(state: &CubeState) -> (Score, usize) {
        let (a, b) = state.away.expect("a match score");
        let score = |away| Score {
            away,
            cube: state.cube,
            crawford: state.crawford,
            post_crawford: state.post_crawford,
        };
        if a <= b {
            (score((a, b)), 0)
        } else {
            (score((b, a)), 1)
        }
    }

    /// The same score with the cube doubled.
    fn doubled(self) -> Score {
        Score {
            cube: self.cube * 2,
            ..self
        }
    }

    /// Whether this score's table is made: the dead one (once made), or
    /// one kept.
    fn is_made(self) -> bool {
        if self.dead() {
            DEAD.get().is_some()
        } else {
            self.kept().is_some()
        }
    }

    /// This score's table if it is kept, then the most recently used.
    fn kept(self) -> Option<Arc<Vec<f32>>> {
        let mut tables = TABLES.lock().unwrap();
        let i = tables.iter().position(|(s, _)| *s == self)?;
        let entry = tables.remove(i);
        let values = Arc::clone(&entry.1);
        tables.push(entry);
        Some(values)
    }

    /// A win at this cube wins the match for either side: no double can
    /// change anything.
    fn dead(self) -> bool {
        self.cube >= self.away.0.max(self.away.1)
    }

    /// The game at this score and cube, without doubles (the caller says
    /// what a take leads to): wins valued by [`CubeState::value`], the one
    /// reader of the match equity table, in side 0's view.
    fn game(self) -> Game<'static> {
        let state = CubeState {
            away: Some(self.away),
            cube: self.cube,
            owner: Owner::Centred,
            jacoby: false,
            crawford: self.crawford,
            post_crawford: self.post_crawford,
        };
        let c = self.cube as i32;
        Game {
            sides: 2,
            zero: 1.0,
            win: [state.value(c) as f32, 1.0 - state.value(-c) as f32],
            take: None,
        }
    }

    /// The table of this score and cube: the dead one, one kept, or made
    /// now (after the doubled cube's, which its takes lead to).
    fn values(self) -> Arc<Vec<f32>> {
        if self.dead() {
            return dead();
        }
        if let Some(v) = self.kept() {
            return v;
        }
        let taken = (!self.crawford).then(|| self.doubled().values());
        // One table is made at a time: a decision that comes while a
        // prepared table is being made waits for it instead of making it
        // again beside it.
        let _making = MAKING.lock().unwrap();
        if let Some(v) = self.kept() {
            return v;
        }
        let start = std::time::Instant::now();
        let game = Game {
            take: taken.as_ref().map(|t| Take::From(t.as_slice())),
            ..self.game()
        };
        let values = Arc::new(game.induct());
        log::debug!(
            "cubeful bear-off table {self:?} made in {:?}",
            start.elapsed()
        );
        let mut tables = TABLES.lock().unwrap();
        if tables.len() >= KEPT {
            tables.remove(0);
        }
        tables.push((self, Arc::clone(&values)));
        values
    }
}

/// The dead cube's table, the same at every score: each side plays for the
/// cubeless win (MWC 1 or 0, whichever side is on roll).
fn dead() -> Arc<Vec<f32>> {
    Arc::clone(DEAD.get_or_init(|| {
        let cubeless = Game {
            sides: 1,
            zero: 1.0,
            win: [1.0; 2],
            take: None,
        };
        Arc::new(cubeless.induct())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_last_roll_is_doubled_and_taken_at_its_cubeless_odds() {
        // GNU Backgammon 2-ply on BAAASAAAAAAAAA (its two-sided database):
        // cubeless equity +0.278, no double +0.278, double/take +0.556:
        // the opponent comes off next roll whatever happens, so owning the
        // cube is worth nothing and the double is right.
        let table = CubefulBearoff::get();
        let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
        assert!(CubefulBearoff::covers(&b));
        let d = table.decide(&b, &CubeState::money(true));
        assert!((d.no_double - 0.278).abs() < 0.001, "{d:?}");
        assert!((d.double_take - 0.556).abs() < 0.001, "{d:?}");
        assert!(d.double() && d.take());
    }

    #[test]
    fn the_cache_gives_back_the_generated_table() {
        let dir = tempfile::tempdir().unwrap();
        let made = CubefulBearoff::cached_in(dir.path());
        assert!(dir.path().join(CACHE.file).exists());
        let read = CubefulBearoff::cached_in(dir.path());
        assert!(read.nd == made.nd);
        let mut bytes = CACHE.to_bytes(&made);
        bytes[100] ^= 1;
        assert!(CACHE.from_bytes(&bytes).is_none());
    }

    use crate::bearoff::Bearoff;
    use crate::cube::Met;
    use std::collections::HashMap;

    /// A board with home boards `me` (on roll) and `them`, each in its own
    /// numbering.
    fn board(me: [u8; 6], them: [u8; 6]) -> Board {
        let (mut m, mut t) = ([0u8; 25], [0u8; 25]);
        m[..6].copy_from_slice(&me);
        t[..6].copy_from_slice(&them);
        Board::from_counts(&m, &t).unwrap()
    }

    fn state(away: (u32, u32), cube: u32, owner: Owner, crawford: bool, post: bool) -> CubeState {
        CubeState {
            away: Some(away),
            cube,
            owner,
            jacoby: false,
            crawford,
            post_crawford: post,
        }
    }

    /// Who owns the cube, absolutely.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    enum Who {
        Nobody,
        A,
        B,
    }

    /// A state of the naive recursion: the home boards (the player on roll's
    /// first), whether A is on roll, the cube and its owner.
    type Key = ([u8; 6], [u8; 6], bool, u32, Who);

    /// A naive match: player A's MWC by plain recursion over the dice with
    /// explicit cube actions (double, take, pass), memoised, written apart
    /// from the tables. A needs `a` points, B `b`; A is the side the tables
    /// take the MET's view of (the one needing fewer points).
    struct Naive {
        a: i32,
        b: i32,
        crawford: bool,
        post: bool,
        memo: HashMap<Key, f64>,
    }

    impl Naive {
        /// A's MWC when the game ends at `cube`.
        fn end(&self, a_wins: bool, cube: u32) -> f64 {
            let met = Met::kazaross_xg2();
            let (c, post) = (cube as i32, self.post || self.crawford);
            if a_wins {
                met.mwc(self.a - c, self.b, post)
            } else {
                met.mwc(self.a, self.b - c, post)
            }
        }

        /// A's MWC at the start of the turn of the player on roll of
        /// `board` (A when `a_on_roll`), who may double first.
        fn turn(&mut self, board: &Board, a_on_roll: bool, cube: u32, owner: Who) -> f64 {
            let (me, other) = if a_on_roll {
                (Who::A, Who::B)
            } else {
                (Who::B, Who::A)
            };
            let no_double = self.roll(board, a_on_roll, cube, owner);
            if self.crawford || !(owner == Who::Nobody || owner == me) {
                return no_double;
            }
            let take = self.roll(board, a_on_roll, 2 * cube, other);
            let pass = self.end(a_on_roll, cube);
            // A maximises its MWC, B minimises it; the taker chooses first.
            let pick = |x: f64, y: f64, for_a: bool| if for_a { x.max(y) } else { x.min(y) };
            pick(no_double, pick(take, pass, !a_on_roll), a_on_roll)
        }

        /// A's MWC when the player on roll rolls without doubling.
        fn roll(&mut self, board: &Board, a_on_roll: bool, cube: u32, owner: Who) -> f64 {
            let key = (
                home_of(board),
                home_of(&board.swapped()),
                a_on_roll,
                cube,
                owner,
            );
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let mut sum = 0.0;
            for dice in Dice::all() {
                let w = if dice.is_double() { 1.0 } else { 2.0 } / 36.0;
                let mut best: Option<f64> = None;
                for after in &afters(board, dice) {
                    let v = if after.off(Side::OnRoll) == 15 {
                        self.end(a_on_roll, cube)
                    } else {
                        self.turn(&after.swapped(), !a_on_roll, cube, owner)
                    };
                    best = Some(match best {
                        None => v,
                        Some(b) if a_on_roll => b.max(v),
                        Some(b) => b.min(v),
                    });
                }
                sum += w * best.unwrap();
            }
            self.memo.insert(key, sum);
            sum
        }

        /// The decision of the player on roll, in that player's MWC.
        fn decide(&mut self, b: &Board, s: &CubeState) -> CubeDecision {
            let a_on_roll = s.away.unwrap().0 <= s.away.unwrap().1;
            let (me, other) = if a_on_roll {
                (Who::A, Who::B)
            } else {
                (Who::B, Who::A)
            };
            let owner = match s.owner {
                Owner::Centred => Who::Nobody,
                Owner::Me => me,
                Owner::Opponent => other,
            };
            let view = |x: f64| if a_on_roll { x } else { 1.0 - x };
            let no_double = view(self.roll(b, a_on_roll, s.cube, owner));
            CubeDecision {
                no_double,
                double_take: if s.crawford {
                    no_double
                } else {
                    view(self.roll(b, a_on_roll, 2 * s.cube, other))
                },
                double_pass: view(self.end(a_on_roll, s.cube)),
            }
        }
    }

    /// The boards the legal moves of `dice` leave (apart, so that the
    /// recursion's frames do not each hold a move list).
    #[inline(never)]
    fn afters(board: &Board, dice: Dice) -> Vec<Board> {
        board.legal_moves(dice).boards().to_vec()
    }

    /// Home boards of one or two checkers on the points up to `top`.
    fn tiny(top: usize) -> Vec<[u8; 6]> {
        let mut out = Vec::new();
        for i in 0..top {
            let mut c = [0u8; 6];
            c[i] = 1;
            out.push(c);
            for j in i..top {
                let mut d = c;
                d[j] += 1;
                out.push(d);
            }
        }
        out
    }

    #[test]
    fn match_decisions_agree_with_a_naive_recursion() {
        let (c, m, o) = (Owner::Centred, Owner::Me, Owner::Opponent);
        // (away, crawford, post-Crawford, cube states).
        let scores = [
            ((2, 4), false, false, vec![(1, c), (2, m), (2, o)]),
            ((4, 2), false, false, vec![(1, c), (2, o)]),
            ((3, 2), false, false, vec![(1, c), (2, m), (4, o)]),
            ((1, 3), false, true, vec![(1, c), (2, o)]),
            ((3, 1), false, true, vec![(1, c), (2, m)]),
            ((1, 3), true, false, vec![(1, c)]),
            ((3, 1), true, false, vec![(1, c)]),
        ];
        let boards = tiny(4);
        let mut doubles = 0;
        for (away, crawford, post, cubes) in scores {
            let lead = away.0.min(away.1) as i32;
            let mut naive = Naive {
                a: lead,
                b: away.0.max(away.1) as i32,
                crawford,
                post,
                memo: HashMap::new(),
            };
            for &(cube, owner) in &cubes {
                let s = state(away, cube, owner, crawford, post);
                for &me in &boards {
                    for &them in &boards {
                        let b = board(me, them);
                        let got = CubefulBearoff::decide_match(&b, &s);
                        let want = naive.decide(&b, &s);
                        let close = |x: f64, y: f64| (x - y).abs() < 2e-5;
                        assert!(
                            close(got.no_double, want.no_double)
                                && close(got.double_take, want.double_take)
                                && close(got.double_pass, want.double_pass),
                            "{s:?} {me:?} {them:?}: {got:?} against {want:?}"
                        );
                        let clear =
                            (want.double_take.min(want.double_pass) - want.no_double).abs() > 1e-4;
                        if clear && s.may_double() {
                            assert_eq!(got.double(), want.double(), "{s:?} {me:?} {them:?}");
                            doubles += want.double() as u32;
                        }
                        if (want.double_take - want.double_pass).abs() > 1e-4 {
                            assert_eq!(got.take(), want.take(), "{s:?} {me:?} {them:?}");
                        }
                        if crawford {
                            assert!(!got.double());
                        }
                    }
                }
            }
        }
        assert!(doubles > 100, "{doubles}");
        // Post-Crawford, two checkers each on the 6-point, the trailer
        // (3-away) on roll: winning a cube of 2 leaves double match point
        // (50%) where a single game leaves 2-away post-Crawford, and the
        // leader's cube is worth nothing to it: the trailer doubles at once
        // and the leader takes. The same race in the Crawford game: no
        // double.
        let b = board([0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 2]);
        let d = CubefulBearoff::decide_match(&b, &state((3, 1), 1, c, false, true));
        assert!(d.double() && d.take(), "{d:?}");
        let d = CubefulBearoff::decide_match(&b, &state((3, 1), 1, c, true, false));
        assert!(!d.double(), "{d:?}");
    }

    #[test]
    fn a_match_scores_tables_are_made_ahead_on_a_thread_of_their_own() {
        // Given a score no other test uses (9-away 11-away, cube 2)
        let s = state((9, 11), 2, Owner::Centred, false, false);
        let (score, _) = Score::of(&s);
        assert!(!score.is_made());
        // When its tables are prepared, another thread makes the table,
        // both sides on roll
        let handle = CubefulBearoff::prepare_match(&s).expect("a thread");
        assert_eq!(handle.join().unwrap(), 2 * PER_SIDE);
        // (Other tests make tables at the same time and may push it out
        // of the kept ones, so it is not asked for again here.) Money play
        // has nothing to prepare.
        assert!(CubefulBearoff::prepare_match(&CubeState::money(true)).is_none());
    }

    #[test]
    fn a_cube_that_reaches_both_sides_away_is_dead() {
        // At 2-away 3-away with the cube at 4 a win wins the match either
        // way: the game with doubles allowed (takes leading to the dead
        // table of cube 8) is the dead table itself.
        let score = Score {
            away: (2, 3),
            cube: 4,
            crawford: false,
            post_crawford: false,
        };
        assert!(score.dead() && score.game().win == [1.0, 1.0]);
        let dead = dead();
        // Both sides see the same game (wins worth 1): one side on roll.
        let with_doubles = Game {
            sides: 1,
            take: Some(Take::From(&dead)),
            ..score.game()
        }
        .induct();
        let worst = (0..PER_SIDE)
            .map(|i| (with_doubles[i] - dead[i]).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-6, "{worst}");
        // The cube below it is live: its table is another.
        let live = Score { cube: 2, ..score };
        assert!(!live.dead());
        let live = live.values();
        assert!(moves().order.iter().any(|&(me, them)| {
            let (me, them) = (me as usize, them as usize);
            (live[at(&live, 0, me, them)] - dead[at(&dead, 0, me, them)]).abs() > 0.01
        }));
    }

    #[test]
    fn double_match_point_is_the_cubeless_race() {
        // 1-away 1-away: the cube of 1 already wins the match, so the table
        // is the dead one, each side playing for the win. The one-sided
        // database's chances treat the sides as independent, each bearing
        // off in the fewest rolls on average, not playing to win: 1.3
        // points off at worst (0.09 on average) on a sample of 8,435
        // positions; the naive recursion (each side playing to win) is
        // exact on the small ones.
        let bearoff = Bearoff::get();
        let s = state((1, 1), 1, Owner::Centred, false, false);
        let boards = small_boards();
        let (mut worst, mut sum, mut n) = (0.0f64, 0.0, 0);
        for &(me, them) in moves().order.iter().step_by(101) {
            let b = board(boards[me as usize].0, boards[them as usize].0);
            let d = CubefulBearoff::decide_match(&b, &s);
            assert!(!d.double(), "{d:?}");
            let off = (d.no_double - bearoff.probs(&b)[0] as f64).abs();
            (worst, sum, n) = (worst.max(off), sum + off, n + 1);
        }
        assert!(
            worst < 0.015 && sum / (n as f64) < 0.002,
            "{worst} {}",
            sum / n as f64
        );
        let mut naive = Naive {
            a: 1,
            b: 1,
            crawford: false,
            post: false,
            memo: HashMap::new(),
        };
        for &me in &tiny(5) {
            for &them in &tiny(5) {
                let b = board(me, them);
                let want = naive.roll(&b, true, 1, Who::Nobody);
                let got = CubefulBearoff::decide_match(&b, &s).no_double;
                assert!((got - want).abs() < 2e-5, "{me:?} {them:?} {got} {want}");
            }
        }
    }

    #[test]
    fn a_long_match_plays_like_money() {
        // 25-away 25-away: a game is a small part of the match, the MET
        // nearly linear in the points, so the decisions are money's save
        // where money's are close calls: of a sample of 8,435 positions,
        // 969 within 0.02 of another decision are left out, and none of
        // the others differs.
        let money = CubefulBearoff::get();
        let s = state((25, 25), 1, Owner::Centred, false, false);
        let boards = small_boards();
        let mut differ = 0;
        for &(me, them) in moves().order.iter().step_by(101) {
            let b = board(boards[me as usize].0, boards[them as usize].0);
            let want = money.decide(&b, &CubeState::money(false));
            let got = CubefulBearoff::decide_match(&b, &s);
            let margin = (want.double_take.min(want.double_pass) - want.no_double)
                .abs()
                .min((want.double_take - want.double_pass).abs());
            if margin < 0.02 {
                continue;
            }
            if got.double() != want.double() || got.take() != want.take() {
                differ += 1;
                eprintln!("{b:?}: {got:?} money {want:?}");
            }
        }
        assert_eq!(differ, 0);
    }
}
