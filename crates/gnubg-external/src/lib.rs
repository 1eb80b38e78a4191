//! GNU Backgammon's external player: gnubg (`set player N external
//! HOST:PORT`) connects to a TCP port and, for each decision of that
//! player, sends one FIBS board line; the bot answers one line: a move as
//! `from/to` steps, `roll` or `double` before the roll, `take` or `drop`
//! when doubled. Our engine decides; the rules crate checks every answer
//! before it is written, and a board that cannot be read is answered with
//! gnubg's `Error: ...` line (gnubg prints it and stops the game) rather
//! than a guess. See docs/gnubg-external.md.

mod server;

pub use server::{serve, serve_connection, MAX_LINE};

use backgammon_engine::player::{cube_state, prepare_match, NetSettings};
use backgammon_engine::{Kind, Player};
use backgammon_rules::{
    Board, Decision, Dice, FibsBoard, FibsError, FibsPosition, Game, GameError, Move, Rules,
};
use std::fmt;

/// How the bot plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Who decides: the net (with its search and cube), pubeval or random.
    pub player: Kind,
    /// Root-inclusive plies of the net (1 = gnubg's 0-ply), as UBGI's `engine.ply`.
    pub ply: u8,
    /// Seed of the random player (`None`: from the OS).
    pub seed: Option<u64>,
    /// Money play under the Jacoby rule (gnubg's default; the board line
    /// does not say).
    pub jacoby: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            player: Kind::Net,
            ply: backgammon_engine::search::DEFAULT_PLY,
            seed: None,
            jacoby: true,
        }
    }
}

/// One answer line (without its line break).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A checker play: `from/to` steps with the bar 25 and off 0, the form
    /// gnubg's own move parser reads; empty when no checker can move.
    Move(String),
    Roll,
    Double,
    Take,
    Drop,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reply::Move(steps) => steps,
            Reply::Roll => "roll",
            Reply::Double => "double",
            Reply::Take => "take",
            Reply::Drop => "drop",
        })
    }
}

/// Why a board line got no decision.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The line is no FIBS board, or one that makes no position.
    #[error(transparent)]
    Board(#[from] FibsError),
    /// The position asks for no decision the bot makes (game over, an
    /// opening roll, a resignation).
    #[error("nothing for the external player to decide: {0}")]
    NoDecision(Decision),
    /// The engine's answer failed the rules check (a bug: never sent).
    #[error("our answer \"{reply}\" was refused by the rules: {error}")]
    Refused { reply: String, error: String },
}

/// The engine behind the protocol, kept across the lines of a connection.
pub struct Bot {
    player: Player,
    rules: Rules,
}

impl Bot {
    /// A bot playing as `settings` says.
    pub fn new(settings: Settings) -> Bot {
        let net = NetSettings {
            plies: settings.ply,
            movetime: None,
        };
        Bot {
            player: Player::with_net(settings.player, settings.seed, net),
            rules: Rules {
                jacoby: settings.jacoby,
                ..Rules::default()
            },
        }
    }

    /// The answer to one board line, checked by the rules.
    pub fn answer(&mut self, line: &str) -> Result<Reply, ExternalError> {
        let pos = read_board(line)?;
        let mut state = pos.state;
        state.jacoby = state.is_money() && self.rules.jacoby;
        let game = Game::from_state(pos.board, state, self.rules);
        let board = pos.board;
        let cube = cube_state(&state);
        // gnubg gives no clock: a race's match cube tables are made while
        // the game goes on, not at its first covered cube decision.
        prepare_match(&board, &cube);
        match game.decision() {
            Decision::Move { dice, .. } => {
                let (reply, after) = self.checker_play(&board, dice)?;
                prepare_match(&after, &cube);
                Ok(reply)
            }
            Decision::RollOrDouble { may_double, .. } => {
                let double = may_double && self.player.doubles(&board, &cube);
                if double {
                    checked(&game, Reply::Double, Game::double)
                } else {
                    Ok(Reply::Roll)
                }
            }
            Decision::TakeOrDrop { .. } => {
                // The board and cube are seen from the doubler, as `takes` wants.
                if self.player.takes(&board, &cube) {
                    checked(&game, Reply::Take, Game::take)
                } else {
                    checked(&game, Reply::Drop, Game::drop)
                }
            }
            other => Err(ExternalError::NoDecision(other)),
        }
    }

    /// The engine's move, written as steps and read back by the rules: the
    /// text must name a legal move that leads where the engine's does.
    /// Also gives the position the move leads to.
    fn checker_play(&mut self, board: &Board, dice: Dice) -> Result<(Reply, Board), ExternalError> {
        let (m, after) = self.player.choose(board, dice);
        let text = steps_text(&m);
        let refused = |error: String| ExternalError::Refused {
            reply: text.clone(),
            error,
        };
        if m.is_pass() {
            return match board.legal_moves(dice).moves() {
                [only] if only.is_pass() => Ok((Reply::Move(text), after)),
                _ => Err(refused("a pass while a checker can move".to_string())),
            };
        }
        let (_, read) = board
            .play_text(dice, &text)
            .map_err(|e| refused(e.to_string()))?;
        if read != after {
            return Err(refused(
                "the steps lead elsewhere than the engine's move".to_string(),
            ));
        }
        Ok((Reply::Move(text), after))
    }
}

/// The position of a board line from gnubg 1.07. Its board, turn and cube
/// fields put "you" as gnubg's player 1, but its names and scores are
/// those of `ap[fTurn ^ fMove]` first: player 0's while no double is
/// pending (seen from gnubg 1.07.001: a money game it led 4-0 came as
/// `board:gnubg:root:0:4:0:...` to root, its player 1, on roll). So the
/// scores are exchanged unless a double is pending.
fn read_board(line: &str) -> Result<FibsPosition, ExternalError> {
    let mut fibs: FibsBoard = line.parse()?;
    if fibs.was_doubled == 0 {
        fibs.score.swap(0, 1);
    }
    Ok(fibs.position()?)
}

/// A cube answer, sent only if the rules accept it as the action now due.
fn checked(
    game: &Game,
    reply: Reply,
    act: fn(&mut Game) -> Result<(), GameError>,
) -> Result<Reply, ExternalError> {
    match act(&mut game.clone()) {
        Ok(()) => Ok(reply),
        Err(e) => Err(ExternalError::Refused {
            reply: reply.to_string(),
            error: e.to_string(),
        }),
    }
}

/// A move as gnubg's plain form: `from/to` per step, bar 25, off 0, highest
/// first (at most four steps, so at most the eight numbers gnubg reads).
fn steps_text(m: &Move) -> String {
    let mut steps: Vec<(u8, u8)> = m
        .steps()
        .iter()
        .map(|s| (s.from().index(), s.to().index()))
        .collect();
    steps.sort_by(|a, b| b.cmp(a));
    let texts: Vec<String> = steps.iter().map(|(a, b)| format!("{a}/{b}")).collect();
    texts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use backgammon_engine::bearoff_cube::CubefulBearoff;
    use backgammon_rules::Side;

    /// gnubg 1.07.001's board for its external player at the opening 6-1.
    const OPENING: &str = "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:1:6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    fn bot(kind: Kind) -> Bot {
        Bot::new(Settings {
            player: kind,
            ply: 1,
            seed: Some(1),
            jacoby: true,
        })
    }

    #[test]
    fn the_opening_roll_is_answered_with_a_legal_move_in_plain_steps() {
        for kind in [Kind::Net, Kind::Pubeval, Kind::Random] {
            let Reply::Move(text) = bot(kind).answer(OPENING).unwrap() else {
                panic!("not a move");
            };
            assert!(text
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'/' || b == b' '));
            let dice = Dice::new(6, 1).unwrap();
            assert!(Board::START.play_text(dice, &text).is_ok(), "{text}");
        }
        let Reply::Move(net) = bot(Kind::Net).answer(OPENING).unwrap() else {
            panic!()
        };
        assert_eq!(net, "13/7 8/7");
    }

    /// A race you have won but for the dice: 4 checkers on your 2- and
    /// 3-points against the opponent's 14 on its 4-point; you to roll.
    fn won_race() -> FibsBoard {
        let mut b: FibsBoard = OPENING.parse().unwrap();
        b.places = [0; 26];
        (b.places[2], b.places[3], b.places[21]) = (2, 2, -14);
        b.off = [11, 1];
        b.dice = [[0, 0], [0, 0]];
        b
    }

    #[test]
    fn before_the_roll_the_answer_is_roll_or_double() {
        let to_roll = OPENING.replace(":1:6:1:6:1:", ":1:0:0:0:0:");
        assert_eq!(bot(Kind::Net).answer(&to_roll).unwrap(), Reply::Roll);
        let race = won_race();
        assert_eq!(
            bot(Kind::Net).answer(&race.to_string()).unwrap(),
            Reply::Double
        );
        // Baselines never double.
        assert_eq!(
            bot(Kind::Pubeval).answer(&race.to_string()).unwrap(),
            Reply::Roll
        );
    }

    #[test]
    fn a_match_race_has_its_cube_tables_made_ahead() {
        // Given a race in a 15-point match at a score no other test uses
        let mut race = won_race();
        (race.match_length, race.score, race.dice) = (15, [4, 7], [[3, 1], [0, 0]]);
        let line = race.to_string();
        let pos = read_board(&line).unwrap();
        let cube = cube_state(&pos.state);
        assert!(!CubefulBearoff::is_prepared(&cube));
        // When the bot plays its roll there, its tables are made on
        // another thread (they take a second or more: this waits for them)
        assert!(matches!(bot(Kind::Net).answer(&line), Ok(Reply::Move(_))));
        let start = std::time::Instant::now();
        while !CubefulBearoff::is_prepared(&cube) {
            assert!(
                start.elapsed().as_secs() < 120,
                "no table after two minutes"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    #[test]
    fn a_double_is_taken_or_dropped() {
        let mut doubled = won_race();
        doubled.was_doubled = 1;
        assert_eq!(
            bot(Kind::Net).answer(&doubled.to_string()).unwrap(),
            Reply::Drop
        );
        // Baselines always take.
        assert_eq!(
            bot(Kind::Pubeval).answer(&doubled.to_string()).unwrap(),
            Reply::Take
        );
        let mut even = doubled.clone();
        (even.places[2], even.places[3], even.places[21]) = (0, 0, -1);
        (even.places[6], even.places[5], even.off) = (2, 2, [11, 14]);
        assert_eq!(
            bot(Kind::Net).answer(&even.to_string()).unwrap(),
            Reply::Take
        );
    }

    #[test]
    fn a_cube_the_rules_forbid_is_not_offered() {
        let mut race = won_race();
        (race.cube, race.may_double) = (2, [false, true]);
        assert_eq!(
            bot(Kind::Net).answer(&race.to_string()).unwrap(),
            Reply::Roll
        );
        let mut crawford = won_race();
        (crawford.match_length, crawford.score, crawford.non_crawford) = (5, [4, 0], false);
        assert_eq!(
            bot(Kind::Net).answer(&crawford.to_string()).unwrap(),
            Reply::Roll
        );
    }

    #[test]
    fn bar_and_off_are_written_as_25_and_0() {
        // You: one checker on the bar, one on your 1-point, 13 off; roll 6-1.
        let mut b: FibsBoard = OPENING.parse().unwrap();
        b.places = [0; 26];
        b.places[25] = 1;
        b.places[1] = 1;
        b.places[24] = -15;
        b.off = [13, 0];
        let Reply::Move(text) = bot(Kind::Net).answer(&b.to_string()).unwrap() else {
            panic!()
        };
        assert!(text.starts_with("25/"), "{text}");
        let board = b.position().unwrap().board;
        assert_eq!(board.bar(Side::OnRoll), 1);
    }

    #[test]
    fn a_blocked_roll_is_answered_with_an_empty_move() {
        // You on the bar against a closed board: no move.
        let mut b: FibsBoard = OPENING.parse().unwrap();
        b.places = [0; 26];
        b.places[25] = 1;
        for p in 19..=24 {
            b.places[p] = -2;
        }
        b.places[1] = 14;
        b.off = [0, 3];
        assert_eq!(
            bot(Kind::Net).answer(&b.to_string()).unwrap(),
            Reply::Move(String::new())
        );
    }

    #[test]
    fn gnubgs_scores_are_read_as_player_0s_first_unless_doubled() {
        let mut b: FibsBoard = OPENING.parse().unwrap();
        (b.match_length, b.score) = (5, [4, 0]);
        assert_eq!(read_board(&b.to_string()).unwrap().state.score, [0, 4]);
        b.was_doubled = 1;
        b.dice = [[0, 0], [0, 0]];
        assert_eq!(read_board(&b.to_string()).unwrap().state.score, [4, 0]);
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let mut bot = bot(Kind::Net);
        let e = bot.answer("hello").unwrap_err().to_string();
        assert!(e.contains("start with board:"), "{e}");
        let e = bot
            .answer(&OPENING.replace(":-2:", ":-3:"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("16 checkers"), "{e}");
        let over = OPENING.replace(":0:1:6:1:", ":0:0:6:1:");
        assert!(bot.answer(&over).is_err());
    }
}
