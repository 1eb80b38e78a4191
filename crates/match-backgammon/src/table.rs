//! The table: one runner game of backgammon (a money game, or a whole
//! match) as a state machine over the rules core. It rolls the dice from
//! the setup's seeded stream, says what decision is due and from whom,
//! applies the answers, and writes the turns as the records write them
//! and the events a transcript needs. The referee drives it with the
//! engines' answers, the replay with a record's turns, so both see the
//! same game.

use crate::token::{CubeAction, Roll, Turn};
use crate::Setup;
use backgammon_rules::{
    win_kind, Board, Decision, Dice, Ending, Game as Rules, GameError, GameState, MatchState, Move,
    Player, Rules as Options,
};
use match_runner::outcome::{GameResult, Side};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What must happen next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// The side on roll may double before rolling: double or roll.
    Cube(Side),
    /// The doubled side takes or drops.
    Take(Side),
    /// The side on roll plays these dice.
    Move(Side, Dice),
    /// The runner game is over: a money game's points, or a match's score.
    Over(GameResult),
}

impl Due {
    /// Who decides, while the game goes on.
    pub fn side(self) -> Option<Side> {
        match self {
            Due::Cube(s) | Due::Take(s) | Due::Move(s, _) => Some(s),
            Due::Over(_) => None,
        }
    }
}

/// What happened, for transcripts: each backgammon game's start and end
/// and every action between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A backgammon game starts with this score (White's, Black's).
    GameStart {
        score: [u16; 2],
    },
    /// `side` rolled `dice` and played `play` on `before` (seen from `side`).
    Move {
        side: Side,
        dice: Dice,
        before: Board,
        play: Move,
    },
    /// `side` doubled to `cube`.
    Double {
        side: Side,
        cube: u32,
    },
    Take {
        side: Side,
    },
    Drop {
        side: Side,
    },
    /// The game ended: `points` scored (after the Jacoby rule), and the
    /// board's own count (cube times 1, 2 or 3) for a game borne off (or,
    /// in a .mat file read, resigned).
    GameEnd {
        winner: Side,
        points: u32,
        borne_off: Option<u32>,
    },
}

/// White is GNU Backgammon's player 0 (the first column of a .mat file).
pub fn side_of(p: Player) -> Side {
    match p {
        Player::Zero => Side::White,
        Player::One => Side::Black,
    }
}

/// The player of a seat.
pub fn player_of(s: Side) -> Player {
    match s {
        Side::White => Player::Zero,
        Side::Black => Player::One,
    }
}

/// The dice of backgammon game `number` of the runner game with seed `seed`.
fn stream(seed: u64, number: u32) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed ^ (number as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// One runner game in progress.
#[derive(Clone, Debug)]
pub struct Table {
    setup: Setup,
    game: Rules,
    dice: Pcg64Mcg,
    /// The backgammon game being played, from 0.
    number: u32,
    /// Turns begun in this backgammon game.
    turns_in_game: u32,
    turns: Vec<Turn>,
    movers: Vec<Side>,
    /// The turn in progress and whose it is.
    current: Option<(Side, Turn)>,
    events: Vec<Event>,
}

impl Table {
    /// The table before the first roll.
    pub fn new(setup: Setup) -> Table {
        let rules = Options {
            jacoby: setup.jacoby,
            crawford: setup.crawford,
            holland: setup.holland,
        };
        let game = match setup.length {
            0 => Rules::money(rules),
            n => Rules::new_match(n, rules),
        };
        Table {
            setup,
            game,
            dice: stream(setup.dice, 0),
            number: 0,
            turns_in_game: 0,
            turns: Vec::new(),
            movers: Vec::new(),
            current: None,
            events: vec![Event::GameStart { score: [0, 0] }],
        }
    }

    /// The table taken up from a position and its match state (read from a
    /// GNU Backgammon ID or an XGID by `backgammon_rules::parse_position`):
    /// play goes on from there with the setup's dice, and a match's later
    /// games start from the opening as usual. The setup's length must be
    /// the position's (a money position for a money setup), and the game
    /// must be under way (not over, no resignation waiting).
    pub fn from_position(
        setup: Setup,
        board: Board,
        state: MatchState,
    ) -> Result<Table, PositionError> {
        if setup.length != state.match_length {
            return Err(PositionError::Length {
                setup: setup.length,
                position: state.match_length,
            });
        }
        if state.game_state != GameState::Playing {
            return Err(PositionError::NotPlaying(state.game_state));
        }
        if state.resigned.is_some() {
            return Err(PositionError::Resignation);
        }
        let rules = Options {
            jacoby: setup.jacoby,
            crawford: setup.crawford,
            holland: setup.holland,
        };
        let mut table = Table::new(setup);
        table.game = Rules::from_state(board, state, rules);
        table.events = vec![Event::GameStart { score: state.score }];
        Ok(table)
    }

    /// The rules core's game (board, match state, the GNU Backgammon ID).
    pub fn game(&self) -> &Rules {
        &self.game
    }

    /// The complete turns so far.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The complete turns and the one in progress if something happened
    /// in it (a double, a take): what a forfeited game's record holds.
    pub fn record(&self) -> (Vec<Turn>, Vec<Side>) {
        let mut turns = self.turns.clone();
        let mut movers = self.movers.clone();
        if let Some((side, t)) = self.current.as_ref().filter(|(_, t)| !t.is_empty()) {
            turns.push(t.clone());
            movers.push(*side);
        }
        (turns, movers)
    }

    /// Who played each complete turn.
    pub fn movers(&self) -> &[Side] {
        &self.movers
    }

    /// What happened so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Turns begun in the backgammon game being played.
    pub fn turns_in_game(&self) -> u32 {
        self.turns_in_game
    }

    fn roll_die(&mut self) -> u8 {
        self.dice.random_range(1..=6u8)
    }

    /// The turn in progress, begun for the player on roll if none is.
    fn begin_turn(&mut self) {
        if self.current.is_none() {
            let side = side_of(self.game.state().on_roll);
            self.current = Some((side, Turn::default()));
            self.turns_in_game += 1;
        }
    }

    fn current(&mut self) -> &mut Turn {
        self.begin_turn();
        &mut self.current.as_mut().expect("begun").1
    }

    fn end_turn(&mut self) {
        if let Some((side, t)) = self.current.take() {
            self.turns.push(t);
            self.movers.push(side);
        }
    }

    /// What is due now. Rolls the dice itself (the opening roll, and the
    /// roll of a player who cannot double) and starts the next game of a
    /// match.
    pub fn due(&mut self) -> Due {
        loop {
            match self.game.decision() {
                Decision::OpeningRoll => {
                    // Equal dice are rolled again.
                    loop {
                        let (a, b) = (self.roll_die(), self.roll_die());
                        match self.game.roll_opening(a, b) {
                            Ok(Some(_first)) => break,
                            Ok(None) => continue,
                            Err(e) => unreachable!("dice 1-6 at the opening roll: {e}"),
                        }
                    }
                    self.begin_turn();
                }
                Decision::RollOrDouble { player, may_double } => {
                    self.begin_turn();
                    if may_double && self.setup.cube {
                        return Due::Cube(side_of(player));
                    }
                    self.roll();
                }
                Decision::TakeOrDrop { player } => return Due::Take(side_of(player)),
                Decision::Move { player, dice } => {
                    self.begin_turn();
                    return Due::Move(side_of(player), dice);
                }
                Decision::GameOver(r) => {
                    if self.setup.length == 0 {
                        return Due::Over(GameResult::points_for(side_of(r.winner), r.points));
                    }
                    self.game
                        .next_game()
                        .expect("a finished game of an unfinished match goes on");
                    self.number += 1;
                    self.turns_in_game = 0;
                    self.dice = stream(self.setup.dice, self.number);
                    let s = self.game.state().score;
                    self.events.push(Event::GameStart { score: s });
                }
                Decision::MatchOver { .. } => {
                    let s = self.game.state().score;
                    return Due::Over(GameResult::points(s[0] as u32, s[1] as u32));
                }
                Decision::AnswerResignation { .. } => {
                    unreachable!("the runner offers no resignations")
                }
            }
        }
    }

    /// The player on roll rolls (declining to double, or unable to).
    pub fn roll(&mut self) {
        let dice = loop {
            let (a, b) = (self.roll_die(), self.roll_die());
            if let Some(d) = Dice::new(a, b) {
                break d;
            }
        };
        self.game.roll(dice).expect("rolled when a roll is due");
    }

    /// The player on roll doubles.
    pub fn double(&mut self) -> Result<(), GameError> {
        let side = side_of(self.game.state().on_roll);
        self.game.double()?;
        self.current().cube = CubeAction::Offered;
        let cube = 2 * self.game.state().cube_value();
        self.events.push(Event::Double { side, cube });
        Ok(())
    }

    /// The doubled player takes.
    pub fn take(&mut self) -> Result<(), GameError> {
        let side = side_of(self.game.state().turn);
        self.game.take()?;
        self.current().cube = CubeAction::Taken;
        self.events.push(Event::Take { side });
        Ok(())
    }

    /// The doubled player drops: the game ends.
    pub fn drop(&mut self) -> Result<(), GameError> {
        let side = side_of(self.game.state().turn);
        self.game.drop()?;
        self.current().cube = CubeAction::Dropped;
        self.events.push(Event::Drop { side });
        self.end_turn();
        self.game_end(None);
        Ok(())
    }

    /// The player on roll plays `text` (any notation the rules core reads).
    pub fn play(&mut self, text: &str) -> Result<Move, GameError> {
        let Decision::Move { player, dice } = self.game.decision() else {
            return Err(self.game.play_text(text).expect_err("no move is due"));
        };
        let before = *self.game.board();
        let m = self.game.play_text(text)?;
        let side = side_of(player);
        self.current().roll = Some(Roll {
            dice,
            play: before.move_text(&m),
        });
        self.events.push(Event::Move {
            side,
            dice,
            before,
            play: m,
        });
        self.end_turn();
        if self.game.result().is_some() {
            let after = before.apply_unchecked(m);
            let cube = self.game.state().cube_value();
            self.game_end(Some(cube * win_kind(&after).multiplier()));
        }
        Ok(m)
    }

    fn game_end(&mut self, borne_off: Option<u32>) {
        let r = self.game.result().expect("the game is over");
        debug_assert!(borne_off.is_some() == (r.ending == Ending::BorneOff));
        self.events.push(Event::GameEnd {
            winner: side_of(r.winner),
            points: r.points,
            borne_off,
        });
    }

    /// The result if `loser` forfeits now: in money play the most the
    /// game could still be worth (a backgammon at the cube's value, or a
    /// single game while the Jacoby rule holds), in a match the match.
    pub fn forfeit_result(&self, loser: Side) -> GameResult {
        let winner = loser.opposite();
        let s = self.game.state();
        match self.setup.length {
            0 => {
                let jacoby = self.setup.jacoby && s.cube_value() == 1;
                let kind = if jacoby { 1 } else { 3 };
                GameResult::points_for(winner, s.cube_value() * kind)
            }
            n => {
                let mut score = s.score.map(|x| x as u32);
                score[winner.index()] = n as u32;
                GameResult::points(score[0], score[1])
            }
        }
    }

    /// Applies a record's turn, or says why it cannot be.
    pub fn apply(&mut self, turn: &Turn) -> Result<(), ApplyError> {
        let due = self.due();
        if turn.cube != CubeAction::None {
            if !matches!(due, Due::Cube(_)) {
                return Err(ApplyError::DoubleOutOfTurn(due));
            }
            self.double().map_err(ApplyError::Game)?;
            match turn.cube {
                CubeAction::Offered => return Ok(()),
                CubeAction::Taken => self.take().map_err(ApplyError::Game)?,
                CubeAction::Dropped => return self.drop().map_err(ApplyError::Game),
                CubeAction::None => unreachable!(),
            }
        }
        let Some(roll) = &turn.roll else {
            return Ok(());
        };
        let due = match self.due() {
            Due::Cube(_) => {
                self.roll();
                self.due()
            }
            due => due,
        };
        match due {
            Due::Move(_, dice) if dice == roll.dice => {
                self.play(&roll.play).map_err(ApplyError::Game)?;
                Ok(())
            }
            Due::Move(_, dice) => Err(ApplyError::WrongDice {
                rolled: roll.dice,
                due: dice,
            }),
            due => Err(ApplyError::MoveOutOfTurn(due)),
        }
    }
}

/// Why a record's turn does not apply to the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The turn doubles when no cube decision is due.
    #[error("doubles, but {}", describe(*.0))]
    DoubleOutOfTurn(Due),
    /// The turn moves when no move is due.
    #[error("moves, but {}", describe(*.0))]
    MoveOutOfTurn(Due),
    /// The turn's roll is not the one the match's dice give.
    #[error("rolls {rolled}, but the dice of this match give {due}")]
    WrongDice { rolled: Dice, due: Dice },
    /// The rules refuse the cube action or the move.
    #[error("{0}")]
    Game(GameError),
}

/// Why a table cannot be taken up from a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the position is of {}, but the game asked for is {}", length_text(*.position), length_text(*.setup))]
    Length { setup: u16, position: u16 },
    #[error(
        "the position's game is not under way (its state is {0:?}): expected a game being played"
    )]
    NotPlaying(GameState),
    #[error("the position has a resignation waiting: expected a game being played")]
    Resignation,
}

fn length_text(n: u16) -> String {
    match n {
        0 => "a money game".into(),
        n => format!("a {n}-point match"),
    }
}

/// A due decision in words.
fn describe(due: Due) -> String {
    match due {
        Due::Cube(s) => format!("{} is to double or roll", s.capitalised()),
        Due::Take(s) => format!("{} is to take or drop", s.capitalised()),
        Due::Move(s, d) => format!("{} is to move {d}", s.capitalised()),
        Due::Over(r) => format!("the game is over ({r})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(dice: u64) -> Setup {
        Setup {
            length: 0,
            cube: true,
            jacoby: true,
            crawford: true,
            holland: false,
            dice,
        }
    }

    /// Plays the first legal move every turn, doubling when `double` says.
    fn play_out(table: &mut Table, double: impl Fn(&Table) -> bool, takes: bool) -> GameResult {
        loop {
            match table.due() {
                Due::Cube(_) if double(table) => table.double().unwrap(),
                Due::Cube(_) => table.roll(),
                Due::Take(_) if takes => table.take().unwrap(),
                Due::Take(_) => table.drop().unwrap(),
                Due::Move(_, dice) => {
                    let board = *table.game().board();
                    let m = board.legal_moves(dice).moves()[0];
                    table.play(&board.move_steps_text(&m, false)).unwrap();
                }
                Due::Over(r) => return r,
            }
        }
    }

    #[test]
    fn the_same_seed_rolls_the_same_dice_whoever_plays() {
        let mut a = Table::new(money(7));
        let mut b = Table::new(money(7));
        let ra = play_out(&mut a, |_| false, true);
        let rb = play_out(&mut b, |_| false, true);
        assert_eq!(ra, rb);
        assert_eq!(a.turns(), b.turns());
        let mut c = Table::new(money(8));
        play_out(&mut c, |_| false, true);
        assert_ne!(a.turns()[..3], c.turns()[..3]);
    }

    #[test]
    fn a_drop_ends_a_money_game_at_the_cube() {
        let mut t = Table::new(money(1));
        let r = play_out(&mut t, |t| t.turns().len() >= 2, false);
        assert_eq!(t.turns().last().unwrap().to_string(), "double+drop");
        assert_eq!(r.winner(), Some(t.movers()[t.movers().len() - 1]));
        assert_eq!(r.score_of(r.winner().unwrap()), 1.0);
    }

    #[test]
    fn replaying_the_turns_reaches_the_same_end() {
        let setup = Setup {
            length: 5,
            ..money(11)
        };
        let mut t = Table::new(setup);
        let r = play_out(&mut t, |t| t.turns().len() == 3, true);
        assert!(matches!(r, GameResult::Score { .. }), "{r}");
        let mut again = Table::new(setup);
        for turn in t.turns() {
            again.apply(turn).unwrap();
        }
        assert_eq!(again.due(), Due::Over(r));
        assert_eq!(again.events(), t.events());
        assert!(
            t.events()
                .iter()
                .filter(|e| matches!(e, Event::GameStart { .. }))
                .count()
                >= 2
        );
        // A wrong roll is caught.
        let mut wrong = Table::new(setup);
        let mut first = t.turns()[0].clone();
        let roll = first.roll.as_mut().unwrap();
        let (a, b) = roll.dice.values();
        roll.dice = Dice::new(7 - a, 7 - b).unwrap();
        let e = wrong.apply(&first).unwrap_err();
        assert!(matches!(e, ApplyError::WrongDice { .. }));
        assert!(e.to_string().contains("the dice of this match give"));
    }

    #[test]
    fn a_table_taken_up_from_a_position_plays_on_from_there() {
        // A 7-point match under way, the cube at 2, 5-2 rolled.
        let xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";
        let (board, state) = backgammon_rules::parse_position(xgid).unwrap();
        let setup = Setup {
            length: 7,
            ..money(5)
        };
        let mut t = Table::from_position(setup, board, state).unwrap();
        assert_eq!(t.game().board(), &board);
        assert_eq!(t.game().state().score, state.score);
        let dice = state.dice.unwrap();
        assert_eq!(t.due(), Due::Move(side_of(state.on_roll), dice));
        assert_eq!(t.events(), &[Event::GameStart { score: state.score }]);
        // Play goes on with the rules: the first legal move, then the
        // other side's turn from the seeded dice.
        let m = board.legal_moves(dice).moves()[0];
        t.play(&board.move_steps_text(&m, false)).unwrap();
        assert_eq!(t.turns().len(), 1);
        let next = t.due();
        assert_eq!(
            next.side(),
            Some(side_of(state.on_roll).opposite()),
            "{next:?}"
        );
        // The match plays out to its end from the position.
        let r = play_out(&mut t, |_| false, true);
        assert!(matches!(r, GameResult::Score { .. }), "{r}");
        // The setup must be the position's kind of game.
        let e = Table::from_position(money(5), board, state).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the position is of a 7-point match, but the game asked for is a money game"
        );
        let mut over = state;
        over.game_state = GameState::Over;
        let e = Table::from_position(setup, board, over).unwrap_err();
        assert!(matches!(e, PositionError::NotPlaying(_)), "{e}");
    }

    #[test]
    fn forfeits_cost_the_most_the_game_could() {
        let mut t = Table::new(money(3));
        t.due();
        assert_eq!(t.forfeit_result(Side::White), GameResult::BlackWins);
        let cubeless = Setup {
            cube: false,
            jacoby: false,
            ..money(3)
        };
        let t = Table::new(cubeless);
        assert_eq!(t.forfeit_result(Side::Black).to_string(), "3-0");
        let t = Table::new(Setup {
            length: 5,
            ..money(3)
        });
        assert_eq!(t.forfeit_result(Side::White).to_string(), "0-5");
    }
}
