//! Who chooses the moves and cube actions: the neural net (searched to a
//! number of plies, with cubeful cube decisions) and the baselines (a
//! uniformly random mover, pubeval) behind one interface, so the protocol
//! and the match runner treat every player alike. Baselines never double
//! and always take.

use crate::bearoff_cube::CubefulBearoff;
use crate::cube::{self, CubeDecision, CubeState, Owner};
use crate::eval::{classify, Class, Evaluator, Probs};
use crate::pubeval::{is_race, Pubeval};
use crate::search::{cores, Choice, Searcher, MAX_PLY};
use backgammon_rules::{Board, CubeOwner, Dice, MatchState, Move, MoveList, Side};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The kinds of player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The neural evaluation trained here, with search and cube decisions.
    #[default]
    Net,
    /// The move pubeval scores highest.
    Pubeval,
    /// Uniformly random among the legal moves (one per resulting position).
    Random,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Net => "net",
            Kind::Random => "random",
            Kind::Pubeval => "pubeval",
        })
    }
}

/// A player name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad backgammon player \"{0}\": expected net, pubeval or random")]
pub struct ParseKindError(pub String);

impl FromStr for Kind {
    type Err = ParseKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "net" => Ok(Kind::Net),
            "random" => Ok(Kind::Random),
            "pubeval" => Ok(Kind::Pubeval),
            _ => Err(ParseKindError(s.to_string())),
        }
    }
}

/// The nets the players of this process use, set once.
static EVAL: OnceLock<Evaluator> = OnceLock::new();

/// The nets of this process: the shipped ones, or those [`use_nets`] gave
/// before the first call.
pub fn nets() -> &'static Evaluator {
    EVAL.get_or_init(Evaluator::shipped)
}

/// The nets of `dir`, or without one a copy of this process's ([`nets`]):
/// what a command with its own `--nets` option plays or scores.
pub fn nets_or_dir(dir: Option<&std::path::Path>) -> Result<Evaluator, crate::eval::NetsError> {
    match dir {
        Some(dir) => Evaluator::read_dir(dir),
        None => Ok(nets().clone()),
    }
}

/// The nets this process's players decide the cube with, set once with
/// [`use_nets`].
static CUBE_EVAL: OnceLock<Evaluator> = OnceLock::new();

/// The nets of this process's cube decisions: the shipped ones'
/// ([`Evaluator::shipped_cube`]: a crashed net at our rollouts' level), or
/// those [`use_nets`] gave. Checker play ranks by [`nets`].
pub fn cube_nets() -> &'static Evaluator {
    CUBE_EVAL.get_or_init(Evaluator::shipped_cube)
}

/// The nets were already in use when [`use_nets`] was called.
#[derive(Debug, thiserror::Error)]
#[error("the nets are already in use: set them before the first evaluation")]
pub struct NetsInUse;

/// Makes `eval` the nets of this process's checker play and `cube` those
/// of its cube decisions (the command line's `--nets DIR`:
/// [`Evaluator::read_dir`] and [`Evaluator::cube_in_dir`]); only before
/// [`nets`] and [`cube_nets`] are first called.
pub fn use_nets(eval: Evaluator, cube: Evaluator) -> Result<(), NetsInUse> {
    EVAL.set(eval).map_err(|_| NetsInUse)?;
    CUBE_EVAL.set(cube).map_err(|_| NetsInUse)
}

/// Builds what the players share (the nets, the bear-off tables) now rather
/// than at the first decision: for `isready`, so that `ubgi` is answered at
/// once and the first move's time is not spent on it.
pub fn prepare() {
    nets().bearoff();
    cube_nets();
    CubefulBearoff::get();
}

/// How the net player searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NetSettings {
    /// Root-inclusive plies of checker play and cube decisions (1..=[`crate::search::MAX_PLY`]).
    pub plies: u8,
    /// Time per decision; the search stops when it is spent, keeping the
    /// deepest level it completed.
    pub movetime: Option<Duration>,
}

impl Default for NetSettings {
    fn default() -> Self {
        NetSettings {
            plies: 2,
            movetime: None,
        }
    }
}

/// A player with its state: the random generator, the evaluation, and a
/// move list kept between calls (it is large).
pub struct Player {
    kind: Kind,
    rng: Pcg64Mcg,
    seed: Option<u64>,
    pubeval: Pubeval,
    net: NetSettings,
    searcher: Searcher<'static>,
    /// The cube decisions' search, over [`cube_nets`].
    cube_searcher: Searcher<'static>,
    moves: Box<MoveList>,
    last: Option<Choice>,
    /// How long a cube decision in a match's last bear-offs waits for the
    /// exact tables of its score ([`Player::set_table_wait`]); `None`:
    /// as long as they take.
    table_wait: Option<Duration>,
}

impl Player {
    /// A player of `kind`; `seed` makes a random player repeatable (else it
    /// is seeded from the OS).
    pub fn new(kind: Kind, seed: Option<u64>) -> Player {
        Player::with_net(kind, seed, NetSettings::default())
    }

    /// A player of `kind` whose net searches as `net` says, its 4th ply
    /// on the machine's cores ([`crate::search::PARALLEL_DEPTH`]: the same
    /// moves and values, sooner).
    pub fn with_net(kind: Kind, seed: Option<u64>, net: NetSettings) -> Player {
        let mut searcher = Searcher::new(nets());
        searcher.set_threads(cores());
        let mut cube_searcher = Searcher::new(cube_nets());
        cube_searcher.set_threads(cores());
        Player {
            kind,
            rng: rng_for(seed),
            seed,
            pubeval: Pubeval::published(),
            net: NetSettings {
                plies: net.plies.clamp(1, MAX_PLY),
                ..net
            },
            searcher,
            cube_searcher,
            moves: Box::default(),
            last: None,
            table_wait: None,
        }
    }

    /// A player on a clock: a cube decision in a match's last bear-offs
    /// waits at most `wait` for the exact tables of its score (made on a
    /// thread of their own, up to a few CPU-seconds for a long match's
    /// chain, more on a loaded machine) and otherwise decides as in the
    /// rest of the game, by Janowski's model on the net's chances; the
    /// tables go on being made for the next decision. `None` (the default)
    /// waits for them: the decisions then never depend on timing.
    pub fn set_table_wait(&mut self, wait: Option<Duration>) {
        self.table_wait = wait;
    }

    /// The kind of player.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The net's search settings.
    pub fn net_settings(&self) -> NetSettings {
        self.net
    }

    /// A new game: the random generator restarts from its seed, so with a
    /// seed a game's moves depend only on the game.
    pub fn new_game(&mut self) {
        self.rng = rng_for(self.seed);
    }

    /// The net's last checker-play search (chances, ply reached, work).
    pub fn last_choice(&self) -> Option<&Choice> {
        self.last.as_ref()
    }

    /// The chosen move of the player on roll with `dice` (`Move::PASS` when
    /// nothing is legal), with the board it leads to.
    pub fn choose(&mut self, board: &Board, dice: Dice) -> (Move, Board) {
        self.last = None;
        let i = match self.kind {
            Kind::Random => {
                board.legal_moves_into(dice, &mut self.moves);
                self.rng.random_range(0..self.moves.len())
            }
            Kind::Pubeval => {
                board.legal_moves_into(dice, &mut self.moves);
                best_by_pubeval(&self.pubeval, board, &self.moves)
            }
            Kind::Net => {
                let deadline = self.net.movetime.map(|t| Instant::now() + t);
                let c =
                    self.searcher
                        .choose(board, dice, self.net.plies, deadline, &mut self.moves);
                let i = c.index;
                self.last = Some(c);
                i
            }
        };
        self.moves.get(i).expect("a legal move list is never empty")
    }

    /// The cubeless chances of the player on roll of `board` before rolling,
    /// at the player's plies, by the cube's nets ([`cube_nets`]): what the
    /// player's cube decisions are made on.
    pub fn chances(&mut self, board: &Board) -> Probs {
        self.cube_searcher.position_value(board, self.net.plies - 1)
    }

    /// The cube decision of the player on roll of `board` (net only), on
    /// the net's own chances: the nets fitted to rollouts (generation 2 on)
    /// give gammons within a point of GNU Backgammon's in every class, so
    /// the TD nets' scaling of contact gammons is gone.
    /// In the last bear-offs (at most six checkers a side) the decision is
    /// exact, from the cubeful tables ([`CubefulBearoff`]): money's, or in
    /// a match those of the score and cube, in match winning chances.
    pub fn cube_decision(&mut self, board: &Board, cube: &CubeState) -> CubeDecision {
        if let Some(wait) = self.table_wait {
            if !match_tables_within(board, cube, wait) {
                return cube::decide(cube, &self.chances(board), efficiency(board));
            }
        }
        decide_cube(board, cube, || self.chances(board))
    }

    /// Whether the player on roll of `board` should double now, the cube
    /// as `cube` says (seen from that player). Baselines never double.
    pub fn doubles(&mut self, board: &Board, cube: &CubeState) -> bool {
        self.kind == Kind::Net && cube.may_double() && self.cube_decision(board, cube).double()
    }

    /// Whether to take a double offered by the player on roll of `board`
    /// (the board and `cube` seen from the doubler). Baselines always take.
    pub fn takes(&mut self, board: &Board, cube: &CubeState) -> bool {
        self.kind != Kind::Net || self.cube_decision(board, cube).take()
    }
}

/// The cube decision of the player on roll of `board`: exact, from the
/// cubeful bear-off tables ([`CubefulBearoff`]: money's, or in a match those
/// of the score and cube), where they cover the board; elsewhere Janowski's
/// model on `chances` (asked only then) at the position's cube efficiency.
/// The one place that chooses between the two, for play and for rollouts.
pub fn decide_cube(
    board: &Board,
    cube: &CubeState,
    chances: impl FnOnce() -> Probs,
) -> CubeDecision {
    if CubefulBearoff::covers(board) {
        return match cube.away {
            None => CubefulBearoff::get().decide(board, cube),
            Some(_) => CubefulBearoff::decide_match(board, cube),
        };
    }
    cube::decide(cube, &chances(), efficiency(board))
}

/// Whether [`decide_cube`] finds the exact tables it needs for `board`
/// made within `wait`: always outside a match's last bear-offs; there, once
/// the tables of the score are made (starting them on a thread of their
/// own if nobody has).
fn match_tables_within(board: &Board, cube: &CubeState, wait: Duration) -> bool {
    if cube.away.is_none() || !CubefulBearoff::covers(board) {
        return true;
    }
    let deadline = Instant::now() + wait;
    let _ = CubefulBearoff::prepare_match(cube);
    while !CubefulBearoff::is_prepared(cube) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    true
}

/// Makes the exact match cube tables of the last bear-offs ahead, on a
/// thread of their own, once a match game is a race (contact is over, so
/// the bear-off is a few rolls away): the first covered decision then takes
/// no time for them (a 7-point match's chain costs about 1.4 CPU-seconds).
/// Nothing in money play, in contact, or when they are made already.
pub fn prepare_match(board: &Board, cube: &CubeState) {
    let race = matches!(classify(board), Class::Race | Class::Bearoff);
    if race && cube.away.is_some() {
        // Detached: the tables are shared, whoever asks first waits no more.
        let _ = CubefulBearoff::prepare_match(cube);
    }
}

/// The cube efficiency of a position for the player on roll.
pub fn efficiency(board: &Board) -> f64 {
    cube::efficiency(classify(board), board.pips(Side::OnRoll))
}

/// The cube state of a match state, seen from the player on roll.
pub fn cube_state(state: &MatchState) -> CubeState {
    let me = state.on_roll;
    let n = state.match_length as u32;
    let away = (n > 0).then(|| {
        (
            n.saturating_sub(state.score[me.index()] as u32).max(1),
            n.saturating_sub(state.score[me.other().index()] as u32)
                .max(1),
        )
    });
    let one_away = away.is_some_and(|(a, b)| a == 1 || b == 1);
    CubeState {
        away,
        cube: state.cube_value(),
        owner: match state.cube_owner {
            CubeOwner::Centred => Owner::Centred,
            CubeOwner::Owned(p) if p == me => Owner::Me,
            CubeOwner::Owned(_) => Owner::Opponent,
        },
        jacoby: state.is_money() && state.jacoby,
        crawford: state.crawford,
        post_crawford: one_away && !state.crawford,
    }
}

fn rng_for(seed: Option<u64>) -> Pcg64Mcg {
    match seed {
        Some(s) => Pcg64Mcg::seed_from_u64(s),
        None => Pcg64Mcg::from_os_rng(),
    }
}

/// The index of the move whose resulting board pubeval scores highest (the
/// first of equals, in generation order).
fn best_by_pubeval(p: &Pubeval, before: &Board, moves: &MoveList) -> usize {
    let race = is_race(before);
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, after) in moves.boards().iter().enumerate() {
        let s = p.score(after, race);
        if s > best.0 {
            best = (s, i);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_play_legal_moves_and_kinds_round_trip() {
        for kind in [Kind::Random, Kind::Pubeval, Kind::Net] {
            assert_eq!(kind.to_string().parse::<Kind>(), Ok(kind));
            let mut p = Player::with_net(
                kind,
                Some(3),
                NetSettings {
                    plies: 1,
                    movetime: None,
                },
            );
            for dice in Dice::all() {
                let (m, after) = p.choose(&Board::START, dice);
                assert_eq!(Board::START.apply(dice, &m), Ok(after), "{kind} {dice}");
            }
        }
        assert!("gnubg"
            .parse::<Kind>()
            .unwrap_err()
            .to_string()
            .contains("\"gnubg\""));
    }

    #[test]
    fn pubeval_makes_the_standard_opening_points() {
        // 3-1: pubeval makes the 5-point (8/5 6/5), as every strong player does.
        let mut p = Player::new(Kind::Pubeval, None);
        let dice = Dice::new(3, 1).unwrap();
        let (m, _) = p.choose(&Board::START, dice);
        assert_eq!(Board::START.move_text(&m), "8/5 6/5");
    }

    #[test]
    fn a_seeded_random_player_repeats_after_new_game() {
        let mut p = Player::new(Kind::Random, Some(9));
        let dice = Dice::new(6, 5).unwrap();
        let first: Vec<Move> = (0..5).map(|_| p.choose(&Board::START, dice).0).collect();
        p.new_game();
        let again: Vec<Move> = (0..5).map(|_| p.choose(&Board::START, dice).0).collect();
        assert_eq!(first, again);
    }

    #[test]
    fn cube_states_follow_the_match_id() {
        let mut s = MatchState::new_match(7);
        s.score = [4, 6];
        s.on_roll = backgammon_rules::Player::Zero;
        let c = cube_state(&s);
        assert_eq!(c.away, Some((3, 1)));
        assert!(c.post_crawford && !c.crawford);
        let m = cube_state(&MatchState::money(true));
        assert_eq!((m.away, m.jacoby, m.owner), (None, true, Owner::Centred));
        // Baselines never double and always take.
        let mut p = Player::new(Kind::Pubeval, None);
        assert!(!p.doubles(&Board::START, &m));
        assert!(p.takes(&Board::START, &m));
    }

    #[test]
    fn the_last_rolls_of_a_money_game_are_doubled_from_the_exact_table() {
        // The opponent is off next roll whatever happens; the player on
        // roll wins 64%: double, take (GNU Backgammon's verdict). Janowski's
        // model says no double.
        let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
        let mut p = Player::new(Kind::Net, None);
        let money = CubeState::money(true);
        assert!(p.doubles(&b, &money) && p.takes(&b, &money));
        assert!((p.cube_decision(&b, &money).double_take - 0.556).abs() < 1e-3);
        let mut owned = money;
        (owned.cube, owned.owner) = (4, Owner::Me);
        assert!((p.cube_decision(&b, &owned).double_pass - 4.0).abs() < 1e-9);
    }

    #[test]
    fn the_last_rolls_of_a_match_are_decided_from_the_exact_tables() {
        // The last roll of the money test above, 64% for the player on
        // roll, at 2-away 4-away: no double 0.737 (a win leaves 1-away
        // 4-away, 0.814; a loss 2-away 3-away), double/take 0.819 (a win
        // is the match, a loss leaves 2-away 2-away, 0.5): the trailer must
        // pass, 0.814. Janowski's model, which the match used before,
        // prices the cube the trailer would own at 2 as if it had a future
        // (take 0.792) and takes.
        let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
        let mut p = Player::new(Kind::Net, None);
        let mut s = MatchState::new_match(7);
        s.score = [5, 3];
        s.on_roll = backgammon_rules::Player::Zero;
        let c = cube_state(&s);
        assert_eq!(c.away, Some((2, 4)));
        let d = p.cube_decision(&b, &c);
        assert!((d.no_double - 0.7368).abs() < 1e-3, "{d:?}");
        assert!((d.double_take - 0.8194).abs() < 1e-3, "{d:?}");
        assert!((d.double_pass - 0.8144).abs() < 1e-3, "{d:?}");
        assert!(p.doubles(&b, &c) && !p.takes(&b, &c));
        let janowski = cube::decide(&c, &p.chances(&b), efficiency(&b));
        assert!(janowski.take(), "{janowski:?}");
        // At 4-away 3-away: double (0.450 against 0.439), take (Janowski:
        // no double, 0.428 against 0.448).
        let c = cube_state(&MatchState { score: [3, 4], ..s });
        assert_eq!(c.away, Some((4, 3)));
        assert!(p.doubles(&b, &c) && p.takes(&b, &c));
        let janowski = cube::decide(&c, &p.chances(&b), efficiency(&b));
        assert!(!janowski.double(), "{janowski:?}");
    }

    #[test]
    fn a_player_on_a_clock_decides_without_the_match_tables_until_they_are_made() {
        // A score no other test asks for: 11-point match, 4-away 9-away.
        let b: Board = "BAAASAAAAAAAAA".parse().unwrap();
        let mut s = MatchState::new_match(11);
        s.score = [7, 2];
        s.on_roll = backgammon_rules::Player::Zero;
        let c = cube_state(&s);
        let mut p = Player::new(Kind::Net, None);
        p.set_table_wait(Some(Duration::ZERO));
        let janowski = cube::decide(&c, &p.chances(&b), efficiency(&b));
        assert!(!CubefulBearoff::is_prepared(&c));
        assert_eq!(p.cube_decision(&b, &c), janowski);
        // The decision started the tables; once made, the clock does not
        // matter and the decision is the exact one.
        while !CubefulBearoff::is_prepared(&c) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let exact = CubefulBearoff::decide_match(&b, &c);
        assert_eq!(p.cube_decision(&b, &c), exact);
        assert_ne!(exact, janowski);
    }
}
