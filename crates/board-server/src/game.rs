//! What the server needs of a game beyond the match runner's [`Game`]: the
//! start position of a variant, legal moves, a checked move with the rules'
//! reason, the end of the game in words, the board as JSON for the page, and
//! the engine's `position` line. Grasshopper is the first game; a second
//! (backgammon, once its protocol lands) implements this trait and is named
//! in [`crate::GAMES`], and the page gets a drawing for its board.

use match_grasshopper::Grasshopper;
use match_runner::{Game, GameResult, Side};
use serde_json::{json, Value};

/// A game the board can host.
pub trait BoardGame: Game<Opening: Copy + Send, Move: Copy + Send> {
    /// The name in the API (`"game": "grasshopper"`).
    const NAME: &'static str;

    /// The smallest and largest variant size, and the default (checkers per player).
    const SIZES: (u8, u8, u8);

    /// The start position of the variant of size `size`, if there is one.
    fn start(size: u8) -> Option<Self::Opening>;

    /// The variant size of a position.
    fn size(pos: &Self::Opening) -> u8;

    /// Every legal move (a lone pass when the side to move has no action);
    /// empty once the game is over.
    fn legal_moves(pos: &Self::Opening) -> Vec<Self::Move>;

    /// The rules' reason why a move is illegal.
    type IllegalMove: std::error::Error;

    /// The position after `m`, or the rules' reason why `m` is illegal.
    fn play_checked(pos: &Self::Opening, m: Self::Move)
        -> Result<Self::Opening, Self::IllegalMove>;

    /// Who is to move.
    fn to_move(pos: &Self::Opening) -> Side;

    /// The result and its explanation, once the rules have ended the game.
    fn outcome(pos: &Self::Opening) -> Option<(GameResult, String)>;

    /// The board for the page to draw.
    fn board(pos: &Self::Opening) -> Value;

    /// The engine's `position` line for the game from `start` after `moves`.
    fn position_command(start: &Self::Opening, moves: &[Self::Move]) -> String;
}

/// The colour's name for the page.
pub fn side_word(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

impl BoardGame for Grasshopper {
    const NAME: &'static str = "grasshopper";
    const SIZES: (u8, u8, u8) = (2, grasshopper_rules::MAX_CHECKERS, 14);
    type IllegalMove = grasshopper_rules::IllegalMove;

    fn start(size: u8) -> Option<grasshopper_rules::Position> {
        grasshopper_rules::Position::start(size)
    }

    fn size(pos: &grasshopper_rules::Position) -> u8 {
        pos.checkers()
    }

    fn legal_moves(pos: &grasshopper_rules::Position) -> Vec<grasshopper_rules::Move> {
        pos.legal_moves().as_slice().to_vec()
    }

    fn play_checked(
        pos: &grasshopper_rules::Position,
        m: grasshopper_rules::Move,
    ) -> Result<grasshopper_rules::Position, grasshopper_rules::IllegalMove> {
        pos.play(m)
    }

    fn to_move(pos: &grasshopper_rules::Position) -> Side {
        color_side(pos.side_to_move())
    }

    fn outcome(pos: &grasshopper_rules::Position) -> Option<(GameResult, String)> {
        use grasshopper_rules::Outcome;
        match pos.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win(c) => Some((
                GameResult::win_for(color_side(c)),
                format!("{} wins: two scores in succession", capital(c.name())),
            )),
            Outcome::Draw => Some((
                GameResult::Draw,
                "Draw: neither player can move".to_string(),
            )),
        }
    }

    fn board(pos: &grasshopper_rules::Position) -> Value {
        use grasshopper_rules::{Color, Point, Square};
        let points: Vec<Value> = Point::all()
            .map(|p| match pos.square(p) {
                Square::Empty => json!({ "point": p.number(), "color": null, "count": 0 }),
                Square::Lone(c) => json!({ "point": p.number(), "color": c.name(), "count": 1 }),
                Square::Wall(c) => json!({ "point": p.number(), "color": c.name(), "count": 2 }),
            })
            .collect();
        let per =
            |f: &dyn Fn(Color) -> u8| json!({ "white": f(Color::White), "black": f(Color::Black) });
        let run = pos
            .run()
            .map(|r| json!({ "color": r.color.name(), "count": r.count }));
        let run_text = match pos.run() {
            None => "nobody has scored yet".to_string(),
            Some(r) if r.count >= 2 => format!("{} scored twice in succession", r.color),
            Some(r) => format!(
                "{} scored last: {}'s next score wins unless {} scores first",
                r.color,
                r.color,
                r.color.opposite()
            ),
        };
        json!({
            "points": points,
            "to_enter": per(&|c| pos.to_enter(c)),
            "on_board": per(&|c| pos.on_board(c)),
            "score": per(&|c| pos.score(c)),
            "run": run,
            "run_text": run_text,
            "quadrants": [
                { "name": "A", "from": 1, "to": 6 },
                { "name": "B", "from": 7, "to": 12 },
                { "name": "C", "from": 13, "to": 18 },
                { "name": "D", "from": 19, "to": 24 },
            ],
        })
    }

    fn position_command(
        start: &grasshopper_rules::Position,
        moves: &[grasshopper_rules::Move],
    ) -> String {
        let mut line = format!("position fen {start}");
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(&m.to_string());
            }
        }
        line
    }
}

fn color_side(c: grasshopper_rules::Color) -> Side {
    match c {
        grasshopper_rules::Color::White => Side::White,
        grasshopper_rules::Color::Black => Side::Black,
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
