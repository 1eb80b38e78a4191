//! Property tests: position and move strings round-trip, checkers are
//! conserved, every game ends within the bound of docs/rules/RULES.md 13, and checked
//! play accepts exactly the generated moves.

use grasshopper_rules::{Color, Move, Outcome, Point, Position};
use proptest::prelude::*;
use rand::Rng;
use testkit::naive;
use testkit::rng::rng;

/// A game's N: 2, 4, ..., 14.
fn checkers() -> impl Strategy<Value = u8> {
    (1u8..=7).prop_map(|k| 2 * k)
}

/// The position `plies` random moves after the start of an N-checker game
/// (or the end of the game, if it comes first).
fn playout(n: u8, seed: u64, plies: usize) -> Position {
    let mut rng = rng(seed);
    let mut pos = Position::start(n).unwrap();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    pos
}

/// A position reached by random play.
fn reachable() -> impl Strategy<Value = Position> {
    (checkers(), any::<u64>(), 0usize..150).prop_map(|(n, seed, plies)| playout(n, seed, plies))
}

fn point() -> impl Strategy<Value = Point> {
    (1u8..=24).prop_map(|n| Point::new(n).unwrap())
}

/// Any well-formed move, legal or not.
fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::PASS),
        point().prop_map(Move::enter),
        point().prop_map(Move::bear_off),
        (point(), point()).prop_filter_map("a step must go somewhere", |(a, b)| Move::step(a, b)),
    ]
}

/// A valid position string with one small edit: a character replaced,
/// removed or inserted, or a number field written with a leading zero. Most
/// edits give strings the parser must refuse; some give other valid ones.
fn edited_position_text(seed: u64) -> String {
    let mut rng = rng(seed);
    let text = naive::random_fen(&mut rng);
    let mut chars: Vec<char> = text.chars().collect();
    const ALPHABET: &[char] = &[
        '.', 'w', 'W', 'b', 'B', '/', ' ', '-', '0', '1', '2', '7', '9', 'x',
    ];
    let at = rng.random_range(0..chars.len());
    let new = ALPHABET[rng.random_range(0..ALPHABET.len())];
    match rng.random_range(0..4) {
        0 => chars[at] = new,
        1 => {
            chars.remove(at);
        }
        2 => chars.insert(at, new),
        _ => {
            let mut fields: Vec<String> = text.split(' ').map(String::from).collect();
            let k = 2 + rng.random_range(0..2);
            fields[k] = format!("0{}", fields[k]);
            return fields.join(" ");
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn reachable_positions_round_trip_through_their_string(pos in reachable()) {
        let text = pos.to_string();
        let back: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.key(), pos.key());
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn random_boards_that_parse_round_trip(seed in any::<u64>()) {
        let text = naive::random_fen(&mut rng(seed));
        let pos: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(pos.to_string(), text);
    }

    #[test]
    fn edited_position_text_either_round_trips_or_is_refused_with_a_field(seed in any::<u64>()) {
        let text = edited_position_text(seed);
        match text.parse::<Position>() {
            Ok(pos) => prop_assert_eq!(pos.to_string(), text),
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("bad ") || msg.starts_with("impossible "), "{}", msg);
            }
        }
    }

    #[test]
    fn move_strings_round_trip(m in any_move()) {
        let text = m.to_string();
        prop_assert_eq!(text.parse::<Move>(), Ok(m));
    }

    #[test]
    fn parsing_any_short_text_as_a_move_never_panics_and_is_idempotent(text in "[a-z0-9/]{0,7}") {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn checked_play_accepts_exactly_the_generated_moves(pos in reachable(), m in any_move()) {
        let legal = pos.legal_moves();
        match pos.play(m) {
            Ok(next) => {
                prop_assert!(legal.contains(m), "{} accepted in {} but not generated", m, pos);
                let mut fast = pos;
                fast.play_unchecked(m);
                prop_assert_eq!(fast, next);
            }
            Err(e) => {
                prop_assert!(!legal.contains(m), "{} generated in {} but refused: {}", m, pos, e);
                prop_assert_eq!(e.mv, m);
            }
        }
        // Every generated move is accepted too.
        for &g in legal.iter() {
            prop_assert!(pos.play(g).is_ok(), "{} generated in {} but refused", g, pos);
        }
    }

    #[test]
    fn games_conserve_checkers_and_end_within_the_bound_of_rule_13(n in checkers(), seed in any::<u64>()) {
        let mut rng = rng(seed);
        let mut pos = Position::start(n).unwrap();
        let (mut actions, mut passes) = ([0u32; 2], 0u32);
        let mut last_was_pass = false;
        // docs/rules/RULES.md 13: each checker enters and crosses three quadrant borders
        // (4 actions), each wall is borne off once (N/2 per player).
        let bound = 2 * (4 * n as u32) + n as u32;
        loop {
            for c in Color::ALL {
                let total = pos.to_enter(c) + pos.on_board(c) + 2 * pos.score(c);
                prop_assert_eq!(total, n, "{} has {} checkers in {}", c, total, pos);
            }
            prop_assert_eq!(pos.checkers(), n);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                prop_assert_ne!(pos.outcome(), Outcome::Ongoing, "no moves in {}", pos);
                break;
            }
            prop_assert_eq!(pos.outcome(), Outcome::Ongoing, "moves in a finished game {}", pos);
            let m = moves[rng.random_range(0..moves.len())];
            if m.is_pass() {
                // A pass hands the turn to a player who can act: never two in a row.
                prop_assert!(!last_was_pass, "two passes in a row at {}", pos);
                prop_assert_eq!(moves.len(), 1);
                passes += 1;
            } else {
                actions[pos.side_to_move().index()] += 1;
            }
            last_was_pass = m.is_pass();
            pos = pos.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let per_player = 4 * n as u32 + n as u32 / 2;
            prop_assert!(actions[0] <= per_player && actions[1] <= per_player, "{:?}", actions);
            prop_assert!(actions[0] + actions[1] <= bound);
        }
        // Each pass is followed by an action, so passes never outnumber actions.
        prop_assert!(passes <= actions[0] + actions[1], "{} passes, {:?} actions", passes, actions);
    }
}
