//! Helpers that let rules tests state their positions the way docs/rules/RULES.md does:
//! `given("white lone 2, black lone 7, white wall 8")`.

use crate::naive::checkers_on;
use grasshopper_rules::{Color, Move, MoveKind, Point, Position};

/// Builds a position from a readable description, a comma-separated list of:
///
/// - `white lone 3 10`, `black wall 9`: checkers on points (walls are two);
/// - `black to move` (default: white to move);
/// - `white to enter 3` (default: whatever makes both totals the game's N);
/// - `score 1-0 w1` (score and scoring run; default `0-0 -`);
/// - `8 checkers` (the game's N; default: the smallest even number that
///   holds everything described).
///
/// Panics with the description and the reason when it cannot be built.
pub fn given(spec: &str) -> Position {
    let fen = given_fen(spec);
    fen.parse()
        .unwrap_or_else(|e| panic!("given({spec:?}) gives {fen:?}, which is refused: {e}"))
}

/// The position string [`given`] builds, before it is parsed.
pub fn given_fen(spec: &str) -> String {
    let fail = |why: String| -> ! { panic!("given({spec:?}): {why}") };
    let mut board = ['.'; 24];
    let mut side = 'w';
    let mut to_enter: [Option<u32>; 2] = [None, None];
    let mut score = (0u32, 0u32, "-".to_string());
    let mut n: Option<u32> = None;
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let words: Vec<&str> = item.split_whitespace().collect();
        let colour = |w: &str| match w {
            "white" => 0,
            "black" => 1,
            other => fail(format!("{other:?} in {item:?} is not white or black")),
        };
        let number = |w: &str| -> u32 {
            w.parse()
                .unwrap_or_else(|_| fail(format!("{w:?} in {item:?} is not a number")))
        };
        match words.as_slice() {
            [c, kind @ ("lone" | "wall"), points @ ..] if !points.is_empty() => {
                let c = colour(c);
                let letter = match (c, *kind) {
                    (0, "lone") => 'w',
                    (0, _) => 'W',
                    (_, "lone") => 'b',
                    _ => 'B',
                };
                for p in points {
                    let p = number(p);
                    if !(1..=24).contains(&p) {
                        fail(format!("point {p} in {item:?} is not on the board"));
                    }
                    if board[p as usize - 1] != '.' {
                        fail(format!("point {p} is described twice"));
                    }
                    board[p as usize - 1] = letter;
                }
            }
            [c, "to", "move"] => side = if colour(c) == 0 { 'w' } else { 'b' },
            [c, "to", "enter", k] => to_enter[colour(c)] = Some(number(k)),
            ["score", s, run] => {
                let (w, b) = s
                    .split_once('-')
                    .unwrap_or_else(|| fail(format!("score {s:?} is not <white>-<black>")));
                score = (number(w), number(b), run.to_string());
            }
            [k, "checkers"] => n = Some(number(k)),
            _ => fail(format!("cannot read {item:?}")),
        }
    }
    let used = [
        checkers_on(&board, 'w') + 2 * score.0 + to_enter[0].unwrap_or(0),
        checkers_on(&board, 'b') + 2 * score.1 + to_enter[1].unwrap_or(0),
    ];
    let n = n.unwrap_or_else(|| {
        let most = used[0].max(used[1]).max(2);
        most + most % 2
    });
    let mut enter = [0; 2];
    for c in 0..2 {
        enter[c] = match to_enter[c] {
            Some(k) => k,
            None => n
                .checked_sub(used[c])
                .unwrap_or_else(|| fail(format!("more than {n} checkers for colour {c}"))),
        };
    }
    let mut text = String::new();
    for (i, s) in board.iter().enumerate() {
        text.push(*s);
        if i == 5 || i == 11 || i == 17 {
            text.push('/');
        }
    }
    format!(
        "{text} {side} {} {} {}-{} {}",
        enter[0], enter[1], score.0, score.1, score.2
    )
}

/// The point with number `n`.
pub fn pt(n: u8) -> Point {
    Point::new(n).unwrap_or_else(|| panic!("{n} is not a point"))
}

/// The move written `text`.
pub fn mv(text: &str) -> Move {
    text.parse()
        .unwrap_or_else(|e| panic!("test move {text:?} does not parse: {e}"))
}

/// A position from its string, panicking with the parse error.
pub fn fen(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("test position {text:?} does not parse: {e}"))
}

/// The legal moves, as sorted text.
pub fn moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The points the checker (or wall top) on `from` may move to, ascending.
pub fn destinations(pos: &Position, from: u8) -> Vec<u8> {
    let mut v: Vec<u8> = pos
        .legal_moves()
        .iter()
        .filter_map(|m| match m.kind() {
            MoveKind::Step(f, t) if f.number() == from => Some(t.number()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Plays `text`, panicking with the reason if the move is refused.
pub fn play(pos: &Position, text: &str) -> Position {
    pos.play(mv(text))
        .unwrap_or_else(|e| panic!("{text} refused in {pos}: {e}"))
}

/// The message with which `text` is refused (panics if it is accepted).
pub fn refusal(pos: &Position, text: &str) -> String {
    match pos.play(mv(text)) {
        Ok(next) => panic!("{text} was accepted in {pos}, giving {next}"),
        Err(e) => e.to_string(),
    }
}

/// The same position with the colours swapped: what White has, Black has, and
/// the other way round. The rules are the same for both colours (both move
/// from 1 to 24), so every example must hold in its mirror too.
pub fn mirror(pos: &Position) -> Position {
    let text = pos.to_string();
    let f: Vec<&str> = text.split(' ').collect();
    let board: String = f[0]
        .chars()
        .map(|c| match c {
            'w' => 'b',
            'b' => 'w',
            'W' => 'B',
            'B' => 'W',
            other => other,
        })
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let (ws, bs) = f[4].split_once('-').unwrap();
    let run = match f[5] {
        "-" => "-".to_string(),
        r => format!("{}{}", if r.starts_with('w') { 'b' } else { 'w' }, &r[1..]),
    };
    fen(&format!("{board} {side} {} {} {bs}-{ws} {run}", f[3], f[2]))
}

/// The position from `spec` (written for White) and its mirror, each with the
/// colour playing White's part.
pub fn given_both(spec: &str) -> [(Color, Position); 2] {
    let p = given(spec);
    [(Color::White, p), (Color::Black, mirror(&p))]
}
