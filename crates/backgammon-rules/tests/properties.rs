//! Property tests: checkers are conserved, the pips moved are the dice used,
//! every legal move is maximal (checked against a plain reference generator
//! that tries every order of every die), checked play accepts exactly the
//! generated moves, and the text forms round-trip.

mod support;

use backgammon_rules::{
    Board, CubeOwner, Dice, GameState, MatchState, Move, Player, Point, Side, Step, TypedMove,
    WinKind, Xgid,
};
use proptest::prelude::*;
use std::collections::BTreeSet;
use support::{random_board, Rng, KINDS};

/// A random board of any kind from a seed (mixing in positions of random games).
fn board_from(seed: u64) -> (Board, Dice) {
    let mut rng = Rng::new(seed);
    if rng.chance(25) {
        let pairs = support::game_pairs(&mut rng, 1);
        return pairs[rng.below(pairs.len() as u64) as usize];
    }
    let kind = KINDS[rng.below(KINDS.len() as u64) as usize];
    (random_board(&mut rng, kind), rng.dice())
}

/// The reference: plays every die in every order from every checker with
/// the rules written out plainly, keeping the longest sequences' boards.
fn reference(board: &Board, dice: Dice) -> (usize, BTreeSet<Board>) {
    let (a, b) = dice.values();
    let orders: Vec<Vec<u8>> = if dice.is_double() {
        vec![vec![a; 4]]
    } else {
        vec![vec![a, b], vec![b, a]]
    };
    let mut best = (0, BTreeSet::new());
    for order in orders {
        walk(board, &order, 0, &mut best);
    }
    if best.0 == 1 && !dice.is_double() {
        // Only one die can be played: the larger if it can.
        let high: BTreeSet<Board> = single(board, dice.high());
        if !high.is_empty() {
            best.1 = high;
        }
    }
    if best.0 == 0 {
        best.1.insert(*board);
    }
    best
}

fn single(board: &Board, d: u8) -> BTreeSet<Board> {
    (1..=25).filter_map(|p| plain_step(board, p, d)).collect()
}

fn walk(board: &Board, dice: &[u8], used: usize, best: &mut (usize, BTreeSet<Board>)) {
    let mut any = false;
    if let Some(&d) = dice.first() {
        for p in 1..=25 {
            if let Some(next) = plain_step(board, p, d) {
                any = true;
                walk(&next, &dice[1..], used + 1, best);
            }
        }
    }
    if !any {
        if used > best.0 {
            *best = (used, BTreeSet::new());
        }
        if used == best.0 {
            best.1.insert(*board);
        }
    }
}

/// Die `d` played from `p` (25 the bar) by the rules as written, or `None`.
fn plain_step(board: &Board, p: u8, d: u8) -> Option<Board> {
    let me = board.counts(Side::OnRoll);
    let them = board.counts(Side::Opponent);
    if me[p as usize - 1] == 0 || (me[24] > 0 && p != 25) {
        return None;
    }
    let to = p as i32 - d as i32;
    let mut me2 = me;
    let mut them2 = them;
    me2[p as usize - 1] -= 1;
    if to >= 1 {
        let theirs = &mut them2[(24 - to) as usize];
        if *theirs >= 2 {
            return None;
        }
        if *theirs == 1 {
            *theirs = 0;
            them2[24] += 1;
        }
        me2[to as usize - 1] += 1;
    } else {
        let home = me.iter().enumerate().all(|(i, &n)| i < 6 || n == 0);
        let higher = me[p as usize..24].iter().any(|&n| n > 0);
        if !home || (to < 0 && higher) {
            return None;
        }
    }
    Some(Board::from_counts(&me2, &them2).unwrap())
}

fn total(board: &Board, side: Side) -> u32 {
    board.counts(side).iter().map(|&n| n as u32).sum::<u32>() + board.off(side) as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn generation_equals_the_reference(seed in any::<u64>()) {
        let (board, dice) = board_from(seed);
        let list = board.legal_moves(dice);
        let (longest, boards) = reference(&board, dice);
        let ours: BTreeSet<Board> = list.boards().iter().copied().collect();
        prop_assert_eq!(ours.len(), list.len(), "one move per position");
        prop_assert_eq!(&ours, &boards, "{} {}", board, dice);
        for m in list.moves() {
            prop_assert_eq!(m.len(), longest, "every move is maximal");
        }
    }

    #[test]
    fn checkers_are_conserved_and_pips_moved_are_the_dice(seed in any::<u64>()) {
        let (board, dice) = board_from(seed);
        for (m, after) in board.legal_moves(dice).iter() {
            prop_assert_eq!(total(&after, Side::OnRoll), 15);
            prop_assert_eq!(total(&after, Side::Opponent), 15);
            let moved = board.pips(Side::OnRoll) - after.pips(Side::OnRoll);
            let steps: u32 = m.steps().iter().map(|s| s.pips() as u32).sum();
            prop_assert_eq!(moved, steps);
            let mut left: Vec<u8> = if dice.is_double() {
                vec![dice.high(); 4]
            } else {
                vec![dice.high(), dice.low()]
            };
            for s in m.steps() {
                // A step uses its own die, or a larger one to bear off.
                let i = left
                    .iter()
                    .position(|&d| d == s.pips() || (s.to().is_off() && d > s.pips()));
                prop_assert!(i.is_some(), "{:?} with {}", m, dice);
                left.remove(i.unwrap());
            }
        }
    }

    #[test]
    fn checked_play_accepts_exactly_the_generated_moves(seed in any::<u64>()) {
        let (board, dice) = board_from(seed);
        let list = board.legal_moves(dice);
        for (m, after) in list.iter() {
            prop_assert_eq!(board.apply(dice, &m), Ok(after));
        }
        // Random step sequences: accepted exactly when they play legally
        // and reach a generated position.
        let mut rng = Rng::new(seed ^ 0x5555);
        for _ in 0..20 {
            let n = 1 + rng.below(4) as usize;
            let steps: Vec<Step> = (0..n)
                .filter_map(|_| {
                    let from = Point::from_index(1 + rng.below(25) as u8).unwrap();
                    let d = [dice.high(), dice.low(), 1 + rng.below(6) as u8][rng.below(3) as usize];
                    let to = Point::from_index(from.index().saturating_sub(d)).unwrap();
                    Step::new(from, to)
                })
                .collect();
            let m = Move::new(&steps).unwrap();
            if let Ok(after) = board.apply(dice, &m) {
                prop_assert!(list.find(&after).is_some(), "{:?} accepted", m);
                prop_assert_eq!(after, board.apply_unchecked(m));
            }
        }
    }

    #[test]
    fn move_texts_round_trip(seed in any::<u64>()) {
        let (board, dice) = board_from(seed);
        for (m, after) in board.legal_moves(dice).iter() {
            let canon = board.move_text(&m);
            let typed: TypedMove = canon.parse().unwrap();
            prop_assert_eq!(typed.to_string(), canon.clone());
            let (_, b) = board.play_text(dice, &canon).unwrap();
            prop_assert_eq!(b, after, "{}", canon);
            for hits in [false, true] {
                let steps = board.move_steps_text(&m, hits);
                let (_, b) = board.play_text(dice, &steps).unwrap();
                prop_assert_eq!(b, after, "{}", steps);
            }
        }
    }

    #[test]
    fn position_ids_round_trip(seed in any::<u64>()) {
        let (board, _) = board_from(seed);
        let id = board.position_id();
        prop_assert_eq!(id.parse::<Board>(), Ok(board));
        prop_assert_eq!(Board::from_key(&board.key()), Ok(board));
        prop_assert_eq!(board.swapped().swapped(), board);
    }

    #[test]
    fn match_ids_and_xgids_round_trip(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let (board, _) = board_from(seed);
        let player = |b: bool| if b { Player::One } else { Player::Zero };
        let length = rng.below(3) as u16 * rng.below(30) as u16;
        let state = MatchState {
            cube_log2: rng.below(16) as u8,
            cube_owner: match rng.below(3) {
                0 => CubeOwner::Centred,
                n => CubeOwner::Owned(player(n == 2)),
            },
            on_roll: player(rng.chance(50)),
            crawford: length > 0 && rng.chance(30),
            game_state: [GameState::NoGame, GameState::Playing, GameState::Over,
                GameState::Resigned, GameState::Dropped][rng.below(5) as usize],
            turn: player(rng.chance(50)),
            doubled: rng.chance(20),
            resigned: [None, Some(WinKind::Single), Some(WinKind::Gammon),
                Some(WinKind::Backgammon)][rng.below(4) as usize],
            dice: rng.chance(50).then(|| rng.dice()).map(|d| Dice::new(d.high(), d.low()).unwrap()),
            match_length: length,
            score: [rng.below(30000) as u16, rng.below(30000) as u16],
            jacoby: length == 0 && rng.chance(50),
        };
        let id = state.to_string();
        prop_assert_eq!(id.parse::<MatchState>(), Ok(state));
        prop_assert_eq!(id.parse::<MatchState>().unwrap().to_string(), id);

        let mut playing = state;
        playing.game_state = GameState::Playing;
        playing.resigned = None;
        playing.turn = if playing.doubled { playing.on_roll.other() } else { playing.on_roll };
        if playing.doubled {
            playing.dice = None;
        }
        let x = Xgid::from_state(&board, &playing).unwrap();
        let text = x.to_string();
        prop_assert_eq!(text.parse::<Xgid>(), Ok(x));
        prop_assert_eq!(x.to_state(), Ok((board, playing)));
    }
}
