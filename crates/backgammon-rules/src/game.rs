//! Games, the cube and matches (docs/rules/RULES-backgammon.md §2, §6-9): whose turn it
//! is, what decision is due, the result of a game and the score of a match.

use crate::board::{Board, Point, Side};
use crate::dice::Dice;
use crate::matchid::{CubeOwner, GameState, GnubgId, MatchState, Player, WinKind};
use crate::moves::Move;
use crate::play::MoveError;
use crate::xgid::{Xgid, XgidError};
use std::fmt;

/// The rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Money play: gammons count single unless the cube was turned (§8).
    pub jacoby: bool,
    /// Matches: no doubling in the game after a player reaches 1-away (§9).
    pub crawford: bool,
    /// Matches: after the Crawford game, the trailer doubles only once each
    /// side has rolled twice in the game (§9).
    pub holland: bool,
}

impl Default for Rules {
    /// Jacoby on, Crawford on, Holland off.
    fn default() -> Self {
        Rules {
            jacoby: true,
            crawford: true,
            holland: false,
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The winner bore off all 15 checkers.
    BorneOff,
    /// The loser refused a double.
    Dropped,
    /// The loser resigned and the winner accepted.
    Resigned,
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub winner: Player,
    /// Single, gammon or backgammon as scored (after the Jacoby rule).
    pub kind: WinKind,
    /// The cube value the game was played for.
    pub cube: u32,
    /// Points scored: `cube` times the kind's multiplier.
    pub points: u32,
    pub ending: Ending,
}

/// What must happen next, and who decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A new game waits for the opening roll: each player rolls one die.
    OpeningRoll,
    /// The player rolls, or first doubles when `may_double`.
    RollOrDouble { player: Player, may_double: bool },
    /// The player must take or drop a double.
    TakeOrDrop { player: Player },
    /// The player must move with these dice.
    Move { player: Player, dice: Dice },
    /// The player must accept or decline the opponent's resignation.
    AnswerResignation { player: Player, offered: WinKind },
    /// The game is over; [`Game::next_game`] starts the next one.
    GameOver(GameResult),
    /// The match is over.
    MatchOver { winner: Player },
}

/// Why the cube cannot be turned now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NoDouble {
    /// The opponent owns the cube.
    OpponentOwnsCube,
    /// This is the Crawford game.
    Crawford,
    /// Post-Crawford, the trailer must wait for each side's second roll.
    Holland,
    /// The cube is at 2^15, the most a Match ID can hold.
    CubeAtMaximum,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The action is not the decision now due.
    NotNow { action: &'static str, due: Decision },
    /// A double was offered when the cube cannot be turned.
    CannotDouble(NoDouble),
    /// A move was refused.
    Move(MoveError),
    /// Opening dice that are not 1-6.
    BadDie(u8),
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::OpeningRoll => f.write_str("the opening roll"),
            Decision::RollOrDouble { player, .. } => write!(f, "{player} to roll or double"),
            Decision::TakeOrDrop { player } => write!(f, "{player} to take or drop"),
            Decision::Move { player, dice } => write!(f, "{player} to move {dice}"),
            Decision::AnswerResignation { player, .. } => {
                write!(f, "{player} to accept or decline a resignation")
            }
            Decision::GameOver(r) => write!(f, "game over, won by {}", r.winner),
            Decision::MatchOver { winner } => write!(f, "match over, won by {winner}"),
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::NotNow { action, due } => write!(f, "cannot {action} now: {due}"),
            GameError::CannotDouble(why) => f.write_str(match why {
                NoDouble::OpponentOwnsCube => "cannot double: the opponent owns the cube",
                NoDouble::Crawford => "cannot double: nobody doubles in the Crawford game",
                NoDouble::Holland => {
                    "cannot double: by the Holland rule the trailer doubles only after \
                     each side has rolled twice"
                }
                NoDouble::CubeAtMaximum => "cannot double: the cube is at its maximum, 32768",
            }),
            GameError::Move(e) => e.fmt(f),
            GameError::BadDie(d) => write!(f, "bad die {d}: expected 1 to 6"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game in a money session or a match: the board (seen from the player
/// on roll), the [`MatchState`], the rules, and what the Match ID leaves out
/// (whether the cube was turned, the Crawford history, rolls per side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
    state: MatchState,
    rules: Rules,
    opening: bool,
    cube_turned: bool,
    crawford_played: bool,
    rolls: [u16; 2],
    result: Option<GameResult>,
}

impl Game {
    /// The first game of a money session.
    pub fn money(rules: Rules) -> Game {
        Game::fresh(MatchState::money(rules.jacoby), rules)
    }

    /// The first game of an `length`-point match.
    pub fn new_match(length: u16, rules: Rules) -> Game {
        Game::fresh(MatchState::new_match(length), rules)
    }

    fn fresh(state: MatchState, rules: Rules) -> Game {
        Game {
            board: Board::START,
            state,
            rules,
            opening: true,
            cube_turned: false,
            crawford_played: false,
            rolls: [0, 0],
            result: None,
        }
    }

    /// A game taken up from a position and match state (e.g. from IDs). A
    /// cube above 1 counts as turned; post-Crawford play is a match where a
    /// player is 1-away and this is not the Crawford game.
    pub fn from_state(board: Board, state: MatchState, rules: Rules) -> Game {
        let n = state.match_length;
        let one_away = n > 0 && state.score.contains(&(n - 1));
        Game {
            board,
            state,
            rules,
            opening: false,
            cube_turned: state.cube_log2 > 0,
            crawford_played: one_away && !state.crawford,
            rolls: [2, 2],
            result: None,
        }
    }

    /// The board, seen from [`MatchState::on_roll`].
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The match state (the Match ID's fields).
    pub fn state(&self) -> &MatchState {
        &self.state
    }

    /// The rule options.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// This game is played after the Crawford game.
    pub fn is_post_crawford(&self) -> bool {
        self.crawford_played && !self.state.crawford
    }

    /// The GNU Backgammon `PositionID:MatchID` of the game now.
    pub fn gnubg_id(&self) -> GnubgId {
        GnubgId {
            board: self.board,
            state: self.state,
        }
    }

    /// The XGID of the game now (only while it is being played).
    pub fn xgid(&self) -> Result<Xgid, XgidError> {
        Xgid::from_state(&self.board, &self.state)
    }

    /// The decision now due.
    pub fn decision(&self) -> Decision {
        let s = &self.state;
        if let Some(winner) = self.match_winner() {
            return Decision::MatchOver { winner };
        }
        if let Some(r) = self.result {
            return Decision::GameOver(r);
        }
        if self.opening {
            return Decision::OpeningRoll;
        }
        if let Some(offered) = s.resigned {
            return Decision::AnswerResignation {
                player: s.turn,
                offered,
            };
        }
        if s.doubled {
            return Decision::TakeOrDrop { player: s.turn };
        }
        match s.dice {
            Some(dice) => Decision::Move {
                player: s.on_roll,
                dice,
            },
            None => Decision::RollOrDouble {
                player: s.on_roll,
                may_double: self.double_refusal().is_none(),
            },
        }
    }

    fn match_winner(&self) -> Option<Player> {
        let n = self.state.match_length;
        let s = self.state.score;
        (n > 0 && s.iter().any(|&x| x >= n)).then(|| {
            if s[0] >= n {
                Player::Zero
            } else {
                Player::One
            }
        })
    }

    fn due(&self, action: &'static str, ok: bool) -> Result<(), GameError> {
        match ok {
            true => Ok(()),
            false => Err(GameError::NotNow {
                action,
                due: self.decision(),
            }),
        }
    }

    /// Why the player on roll may not double now, if they may not.
    fn double_refusal(&self) -> Option<NoDouble> {
        let s = &self.state;
        let me = s.on_roll;
        if s.cube_owner == CubeOwner::Owned(me.other()) {
            return Some(NoDouble::OpponentOwnsCube);
        }
        if s.crawford {
            return Some(NoDouble::Crawford);
        }
        if s.cube_log2 >= 15 {
            return Some(NoDouble::CubeAtMaximum);
        }
        let n = s.match_length;
        let trailer = n > 0 && s.score[me.index()] != n - 1 && s.score[me.other().index()] == n - 1;
        if self.rules.holland
            && self.is_post_crawford()
            && trailer
            && self.rolls.iter().any(|&r| r < 2)
        {
            return Some(NoDouble::Holland);
        }
        None
    }

    /// The opening roll: each player rolls one die; the higher moves first
    /// with both numbers. Equal dice are rolled again (`Ok(None)`).
    pub fn roll_opening(&mut self, die0: u8, die1: u8) -> Result<Option<Player>, GameError> {
        self.due(
            "roll the opening dice",
            self.decision() == Decision::OpeningRoll,
        )?;
        let dice = Dice::new(die0, die1).ok_or(GameError::BadDie(if (1..=6).contains(&die0) {
            die1
        } else {
            die0
        }))?;
        if die0 == die1 {
            return Ok(None);
        }
        let first = if die0 > die1 {
            Player::Zero
        } else {
            Player::One
        };
        self.opening = false;
        self.state.on_roll = first;
        self.state.turn = first;
        self.state.dice = Some(dice);
        self.rolls[first.index()] += 1;
        Ok(Some(first))
    }

    /// The player on roll rolls `dice`.
    pub fn roll(&mut self, dice: Dice) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::RollOrDouble { .. });
        self.due("roll", due)?;
        self.state.dice = Some(dice);
        self.rolls[self.state.on_roll.index()] += 1;
        Ok(())
    }

    /// The player on roll doubles (before rolling).
    pub fn double(&mut self) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::RollOrDouble { .. });
        self.due("double", due)?;
        if let Some(why) = self.double_refusal() {
            return Err(GameError::CannotDouble(why));
        }
        self.state.doubled = true;
        self.state.turn = self.state.on_roll.other();
        Ok(())
    }

    /// The doubled player takes: the cube doubles and they own it.
    pub fn take(&mut self) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::TakeOrDrop { .. });
        self.due("take", due)?;
        let s = &mut self.state;
        s.cube_log2 += 1;
        s.cube_owner = CubeOwner::Owned(s.turn);
        s.doubled = false;
        s.turn = s.on_roll;
        self.cube_turned = true;
        Ok(())
    }

    /// The doubled player drops: the doubler wins the cube's value.
    pub fn drop(&mut self) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::TakeOrDrop { .. });
        self.due("drop", due)?;
        self.state.doubled = false;
        let winner = self.state.on_roll;
        self.finish(winner, WinKind::Single, Ending::Dropped, GameState::Dropped);
        Ok(())
    }

    /// The player on roll plays `m` with the dice rolled.
    pub fn play(&mut self, m: &Move) -> Result<(), GameError> {
        let Decision::Move { dice, .. } = self.decision() else {
            return Err(GameError::NotNow {
                action: "move",
                due: self.decision(),
            });
        };
        let after = self
            .board
            .apply(dice, m)
            .map_err(|e| GameError::Move(MoveError::Illegal(e)))?;
        self.after_move(after);
        Ok(())
    }

    /// The player on roll plays a typed move (`24/18 13/11`).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        let Decision::Move { dice, .. } = self.decision() else {
            return Err(GameError::NotNow {
                action: "move",
                due: self.decision(),
            });
        };
        let (m, after) = self.board.play_text(dice, text).map_err(GameError::Move)?;
        self.after_move(after);
        Ok(m)
    }

    fn after_move(&mut self, after: Board) {
        let mover = self.state.on_roll;
        if after.has_won(Side::OnRoll) {
            self.board = after;
            self.state.dice = None;
            let kind = win_kind(&after);
            self.finish(mover, kind, Ending::BorneOff, GameState::Over);
            return;
        }
        self.board = after.swapped();
        self.state.on_roll = mover.other();
        self.state.turn = mover.other();
        self.state.dice = None;
    }

    /// The player to act offers to resign a game of the given size.
    pub fn resign(&mut self, kind: WinKind) -> Result<(), GameError> {
        let due = matches!(
            self.decision(),
            Decision::RollOrDouble { .. } | Decision::Move { .. }
        );
        self.due("resign", due)?;
        self.state.resigned = Some(kind);
        self.state.turn = self.state.on_roll.other();
        Ok(())
    }

    /// The opponent accepts the resignation: the game ends.
    pub fn accept_resignation(&mut self) -> Result<(), GameError> {
        let Decision::AnswerResignation { player, offered } = self.decision() else {
            return Err(GameError::NotNow {
                action: "accept a resignation",
                due: self.decision(),
            });
        };
        self.finish(player, offered, Ending::Resigned, GameState::Resigned);
        Ok(())
    }

    /// The opponent declines: play goes on.
    pub fn decline_resignation(&mut self) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::AnswerResignation { .. });
        self.due("decline a resignation", due)?;
        self.state.resigned = None;
        self.state.turn = self.state.on_roll;
        Ok(())
    }

    fn finish(&mut self, winner: Player, kind: WinKind, ending: Ending, gs: GameState) {
        let s = &mut self.state;
        let jacoby = s.is_money() && self.rules.jacoby && !self.cube_turned;
        let kind = if jacoby && ending != Ending::Dropped {
            WinKind::Single
        } else {
            kind
        };
        let cube = s.cube_value();
        let points = cube * kind.multiplier();
        s.game_state = gs;
        s.turn = s.on_roll;
        let sc = &mut s.score[winner.index()];
        *sc = sc.saturating_add(points.min(u16::MAX as u32) as u16);
        self.result = Some(GameResult {
            winner,
            kind,
            cube,
            points,
            ending,
        });
    }

    /// Starts the next game after one is over: cube back to 1 in the
    /// middle, the start position, the opening roll due. In a match the
    /// first game after a player reaches 1-away is the Crawford game.
    pub fn next_game(&mut self) -> Result<(), GameError> {
        let due = matches!(self.decision(), Decision::GameOver(_));
        self.due("start the next game", due)?;
        let s = self.state;
        let n = s.match_length;
        let crawford_now =
            self.rules.crawford && n > 0 && !self.crawford_played && s.score.contains(&(n - 1));
        if s.crawford {
            self.crawford_played = true;
        }
        let mut next = MatchState {
            score: s.score,
            jacoby: s.jacoby,
            ..MatchState::new_match(n)
        };
        next.crawford = crawford_now;
        self.crawford_played |= crawford_now;
        *self = Game {
            crawford_played: self.crawford_played,
            ..Game::fresh(next, self.rules)
        };
        Ok(())
    }
}

/// How the player on roll of `board` (who has just borne off the last
/// checker) wins: a gammon if the loser has borne off none, a backgammon if
/// besides a loser's checker is on the bar or in the winner's home board.
pub fn win_kind(board: &Board) -> WinKind {
    if board.off(Side::Opponent) > 0 {
        return WinKind::Single;
    }
    // The winner's home board is the loser's points 19..=24.
    let stuck = board.bar(Side::Opponent) > 0
        || (19..=24).any(|p| board.count(Side::Opponent, Point::new(p).expect("a point")) > 0);
    if stuck {
        WinKind::Backgammon
    } else {
        WinKind::Gammon
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dice {
        s.parse().unwrap()
    }

    /// A board where the player on roll bears off the last checker with any
    /// roll, and the opponent has `opp` on its own points.
    fn last_checker(opp: &[(usize, u8)], opp_bar: u8) -> Board {
        let mut me = [0u8; 25];
        me[0] = 1;
        let mut them = [0u8; 25];
        for &(p, n) in opp {
            them[p - 1] = n;
        }
        them[24] = opp_bar;
        Board::from_counts(&me, &them).unwrap()
    }

    fn play_out(game: &mut Game) {
        game.roll(d("21")).unwrap();
        game.play_text("1/off").unwrap();
    }

    #[test]
    fn opening_roll_gives_the_higher_die_the_first_move() {
        let mut g = Game::money(Rules::default());
        assert_eq!(g.decision(), Decision::OpeningRoll);
        assert_eq!(g.roll_opening(3, 3), Ok(None));
        assert_eq!(g.roll_opening(2, 5), Ok(Some(Player::One)));
        assert_eq!(
            g.decision(),
            Decision::Move {
                player: Player::One,
                dice: d("25")
            }
        );
        g.play_text("13/8 13/11").unwrap();
        assert_eq!(
            g.decision(),
            Decision::RollOrDouble {
                player: Player::Zero,
                may_double: true
            }
        );
    }

    #[test]
    fn win_kinds_follow_the_loser_checkers() {
        assert_eq!(win_kind(&last_checker(&[(1, 15)], 0)), WinKind::Gammon);
        assert_eq!(
            win_kind(&last_checker(&[(20, 1), (1, 14)], 0)),
            WinKind::Backgammon
        );
        assert_eq!(win_kind(&last_checker(&[(1, 14)], 1)), WinKind::Backgammon);
        assert_eq!(win_kind(&last_checker(&[(1, 13)], 0)), WinKind::Single);
    }

    #[test]
    fn jacoby_rule_makes_an_unturned_gammon_single() {
        let board = last_checker(&[(1, 15)], 0);
        let mut g = Game::from_state(board, MatchState::money(true), Rules::default());
        g.cube_turned = false;
        play_out(&mut g);
        assert_eq!(g.result().unwrap().points, 1);

        let rules = Rules {
            jacoby: false,
            ..Rules::default()
        };
        let mut g = Game::from_state(board, MatchState::money(false), rules);
        play_out(&mut g);
        assert_eq!(g.result().unwrap().kind, WinKind::Gammon);
        assert_eq!(g.state().score[Player::Zero.index()], 2);
    }

    #[test]
    fn doubling_take_and_drop() {
        let mut g = Game::from_state(Board::START, MatchState::money(true), Rules::default());
        g.double().unwrap();
        assert_eq!(
            g.decision(),
            Decision::TakeOrDrop {
                player: Player::One
            }
        );
        g.take().unwrap();
        assert_eq!(g.state().cube_value(), 2);
        assert_eq!(g.state().cube_owner, CubeOwner::Owned(Player::One));
        g.roll(d("31")).unwrap();
        g.play_text("8/5 6/5").unwrap();
        // Player 1 owns the cube and may redouble; player 0 could not.
        g.double().unwrap();
        g.drop().unwrap();
        let r = g.result().unwrap();
        assert_eq!(
            (r.winner, r.points, r.ending),
            (Player::One, 2, Ending::Dropped)
        );
        assert_eq!(g.state().game_state, GameState::Dropped);
    }

    #[test]
    fn the_cube_owner_alone_redoubles() {
        let mut s = MatchState::money(true);
        s.cube_log2 = 1;
        s.cube_owner = CubeOwner::Owned(Player::One);
        let mut g = Game::from_state(Board::START, s, Rules::default());
        assert_eq!(
            g.double(),
            Err(GameError::CannotDouble(NoDouble::OpponentOwnsCube))
        );
    }

    #[test]
    fn crawford_then_post_crawford() {
        let mut s = MatchState::new_match(5);
        s.score = [3, 0];
        let mut g = Game::from_state(last_checker(&[(1, 1)], 0), s, Rules::default());
        g.crawford_played = false;
        play_out(&mut g);
        assert_eq!(g.state().score, [4, 0]);
        g.next_game().unwrap();
        assert!(g.state().crawford);
        g.roll_opening(6, 1).unwrap();
        g.play_text("24/18 8/7").unwrap();
        assert_eq!(
            g.decision(),
            Decision::RollOrDouble {
                player: Player::One,
                may_double: false
            }
        );
        assert_eq!(g.double(), Err(GameError::CannotDouble(NoDouble::Crawford)));
        g.roll(d("21")).unwrap();
        g.play_text("13/11 6/5").unwrap();
        g.resign(WinKind::Single).unwrap();
        g.accept_resignation().unwrap();
        assert_eq!(g.state().score, [4, 1]);
        g.next_game().unwrap();
        assert!(!g.state().crawford && g.is_post_crawford());
    }

    #[test]
    fn holland_rule_holds_the_trailer_back() {
        let mut s = MatchState::new_match(5);
        s.score = [4, 1];
        s.on_roll = Player::One;
        s.turn = Player::One;
        let rules = Rules {
            holland: true,
            ..Rules::default()
        };
        let mut g = Game::from_state(Board::START, s, rules);
        g.rolls = [1, 0];
        assert_eq!(g.double(), Err(GameError::CannotDouble(NoDouble::Holland)));
        g.rolls = [2, 2];
        assert_eq!(g.double(), Ok(()));
    }

    #[test]
    fn match_ends_at_the_length() {
        let mut s = MatchState::new_match(3);
        s.score = [2, 0];
        let mut g = Game::from_state(last_checker(&[(1, 1)], 0), s, Rules::default());
        play_out(&mut g);
        assert_eq!(
            g.decision(),
            Decision::MatchOver {
                winner: Player::Zero
            }
        );
        assert!(g.next_game().is_err());
    }

    #[test]
    fn actions_out_of_turn_are_refused() {
        let mut g = Game::money(Rules::default());
        let e = g.roll(d("21")).unwrap_err();
        assert_eq!(e.to_string(), "cannot roll now: the opening roll");
        assert!(g.take().is_err());
    }
}
