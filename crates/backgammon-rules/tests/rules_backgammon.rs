//! One test per rule of docs/rules/RULES-backgammon.md, each with a position that shows it.

use backgammon_rules::{
    win_kind, Board, CubeOwner, Decision, Dice, Game, GameError, MatchState, NoDouble, Player,
    Point, Rules, Side, WinKind, Xgid,
};

/// A board from the mover's side: `me` as (point, count) in the mover's
/// numbering, `them` as (point, count) also in the mover's numbering (25 is
/// each side's own bar). Checkers not placed are borne off.
fn board(me: &[(u8, u8)], them: &[(u8, u8)]) -> Board {
    let mut a = [0u8; 25];
    let mut b = [0u8; 25];
    for &(p, n) in me {
        a[p as usize - 1] = n;
    }
    for &(p, n) in them {
        let own = if p == 25 { 25 } else { 25 - p };
        b[own as usize - 1] = n;
    }
    Board::from_counts(&a, &b).unwrap()
}

fn dice(s: &str) -> Dice {
    s.parse().unwrap()
}

/// The legal moves in canonical notation, sorted.
fn moves(b: &Board, roll: &str) -> Vec<String> {
    let list = b.legal_moves(dice(roll));
    let mut v: Vec<String> = list.moves().iter().map(|m| b.move_text(m)).collect();
    v.sort();
    v
}

/// Why the typed move is refused.
fn refusal(b: &Board, roll: &str, text: &str) -> String {
    match b.play_text(dice(roll), text) {
        Ok((m, _)) => panic!("{text} was accepted as {}", b.move_text(&m)),
        Err(e) => e.to_string(),
    }
}

fn pt(n: u8) -> Point {
    Point::new(n).unwrap()
}

// §1 Board and checkers.

#[test]
fn s1_start_position_and_numbering() {
    let b = Board::START;
    for (p, n) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
        assert_eq!(b.count(Side::OnRoll, pt(p)), n);
        assert_eq!(b.count(Side::Opponent, pt(p)), n);
    }
    // My 24 is their 1: the same point seen from the other side.
    assert_eq!(pt(24).mirror(), Some(pt(1)));
    assert_eq!(b.swapped(), b);
    assert_eq!(
        b.off(Side::OnRoll) + b.counts(Side::OnRoll).iter().sum::<u8>(),
        15
    );
    // Checkers move from higher to lower numbers.
    assert!(moves(&b, "21").contains(&"13/11 6/5".to_string()));
}

// §2 Who starts.

#[test]
fn s2_opening_roll_higher_die_moves_first_with_both_numbers() {
    let mut g = Game::money(Rules::default());
    assert_eq!(
        g.roll_opening(4, 4),
        Ok(None),
        "equal dice are rolled again"
    );
    assert_eq!(g.state().cube_value(), 1, "no automatic doubles");
    assert_eq!(g.roll_opening(6, 1), Ok(Some(Player::Zero)));
    assert_eq!(
        g.decision(),
        Decision::Move {
            player: Player::Zero,
            dice: dice("61")
        }
    );
}

// §3 Moving.

#[test]
fn s3_each_die_moves_one_checker_or_one_checker_both() {
    let m = moves(&Board::START, "21");
    assert!(m.contains(&"13/11 6/5".to_string()));
    assert!(m.contains(&"13/10".to_string()), "one checker, both dice");
}

#[test]
fn s3_doubles_give_four_moves() {
    let b = Board::START;
    for m in b.legal_moves(dice("66")).moves() {
        assert_eq!(m.len(), 4);
    }
}

#[test]
fn s3_no_landing_on_a_point_held_by_two() {
    let b = board(&[(13, 2)], &[(12, 2)]);
    assert!(!moves(&b, "16").iter().any(|m| m.contains("/12")));
    assert!(refusal(&b, "61", "13/12 13/7").contains("point 12 is held by two or more"));
}

#[test]
fn s3_landing_on_a_blot_hits_it() {
    let b = board(&[(13, 2)], &[(7, 1), (20, 2)]);
    let (m, after) = b.play_text(dice("63"), "13/7* 13/10").unwrap();
    assert_eq!(b.move_text(&m), "13/10 13/7*");
    assert_eq!(after.bar(Side::Opponent), 1);
}

#[test]
fn s3_one_checker_using_both_dice_needs_an_open_intermediate_point() {
    let b = board(&[(24, 1)], &[(18, 2), (19, 2)]);
    assert_eq!(moves(&b, "65"), ["pass"]);
    assert!(refusal(&b, "65", "24/13").contains("is held by two or more opposing checkers"));
}

#[test]
fn s3_a_blot_on_the_intermediate_point_is_hit_on_the_way() {
    let b = board(&[(24, 1)], &[(18, 1), (19, 2)]);
    assert_eq!(moves(&b, "65"), ["24/18*/13"]);
    let (_, after) = b.play_text(dice("65"), "24/13").unwrap();
    assert_eq!(after.bar(Side::Opponent), 1);
}

#[test]
fn s3_both_dice_must_be_used_when_possible() {
    let b = board(&[(20, 1), (9, 1)], &[(19, 2), (13, 2), (3, 2)]);
    let m = moves(&b, "61");
    assert!(m.contains(&"20/14 9/8".to_string()), "{m:?}");
    assert!(!m.contains(&"20/14".to_string()));
    assert!(refusal(&b, "61", "20/14").contains("this plays one die where both can be played"));
}

#[test]
fn s3_the_larger_die_when_only_one_can_be_played() {
    let b = board(&[(24, 1)], &[(14, 2)]);
    assert_eq!(moves(&b, "64"), ["24/18"]);
    assert!(refusal(&b, "64", "24/20").contains("the larger die must be played"));
}

#[test]
fn s3_the_smaller_die_when_the_larger_cannot_be_played() {
    let b = board(&[(24, 1)], &[(18, 2), (13, 2)]);
    assert_eq!(moves(&b, "65"), ["24/19"]);
}

#[test]
fn s3_neither_die_playable_passes() {
    let b = board(&[(24, 1)], &[(18, 2), (19, 2)]);
    assert_eq!(moves(&b, "65"), ["pass"]);
    assert!(b.play_text(dice("65"), "pass").is_ok());
    assert!(refusal(&Board::START, "65", "pass").contains("cannot pass"));
}

#[test]
fn s3_as_many_of_a_double_as_possible() {
    let b = board(&[(24, 1)], &[(9, 2)]);
    assert_eq!(moves(&b, "55"), ["24/14"]);
    assert!(refusal(&b, "55", "24/19").contains("plays 1 of the four dice where 2 can be played"));
}

#[test]
fn s3_sequences_reaching_the_same_position_are_one_move() {
    // 24/18/13 and 24/19/13 are the same move.
    let m = moves(&Board::START, "65");
    assert_eq!(m.iter().filter(|m| *m == "24/13").count(), 1);
    assert_eq!(m.len(), 7);
}

// §4 The bar.

#[test]
fn s4_checkers_on_the_bar_enter_first() {
    let b = board(&[(25, 1), (13, 2)], &[]);
    assert!(moves(&b, "65").iter().all(|m| m.starts_with("bar/")));
    assert!(refusal(&b, "65", "13/7 13/8").contains("a checker on the bar must enter first"));
}

#[test]
fn s4_entry_lands_on_25_minus_the_die_and_hits() {
    let b = board(&[(25, 1), (6, 14)], &[(22, 1), (24, 2)]);
    let m = moves(&b, "31");
    assert!(m.iter().any(|m| m.starts_with("bar/22*")), "{m:?}");
    assert!(!m.iter().any(|m| m.starts_with("bar/24")), "{m:?}");
}

#[test]
fn s4_no_entry_passes_the_turn() {
    let closed = [(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (24, 2)];
    let b = board(&[(25, 1), (6, 14)], &closed);
    for roll in Dice::all() {
        assert_eq!(moves(&b, &roll.to_string()), ["pass"]);
    }
}

#[test]
fn s4_all_must_enter_before_any_other_checker_moves() {
    let b = board(&[(25, 2), (13, 13)], &[(19, 2)]);
    assert_eq!(moves(&b, "63"), ["bar/22"]);
}

#[test]
fn s4_the_entered_checker_may_go_on() {
    let b = board(&[(25, 1), (6, 14)], &[]);
    assert!(moves(&b, "65").contains(&"bar/14".to_string()));
}

// §5 Bearing off.

#[test]
fn s5_bear_off_only_with_all_checkers_home() {
    let b = board(&[(6, 14), (8, 1)], &[]);
    assert!(refusal(&b, "62", "6/off 6/4").contains("6/off: not all checkers are home"));
    assert!(
        moves(&b, "62").contains(&"8/off".to_string()),
        "once home, the 6 bears off"
    );
}

#[test]
fn s5_a_die_bears_off_from_its_point() {
    let b = board(&[(6, 1), (4, 1)], &[]);
    assert_eq!(moves(&b, "64"), ["6/2 4/off", "6/off 4/off"]);
}

#[test]
fn s5_a_higher_checker_must_move_first() {
    let b = board(&[(6, 1), (2, 1)], &[]);
    assert!(
        moves(&b, "41").iter().all(|m| m.contains("6/")),
        "{:?}",
        moves(&b, "41")
    );
    assert!(refusal(&b, "41", "2/off 6/5").contains("only when no checker is higher"));
}

#[test]
fn s5_with_none_higher_the_highest_checker_bears_off() {
    let b = board(&[(4, 1), (2, 1)], &[]);
    assert_eq!(moves(&b, "65"), ["4/off 2/off"]);
}

#[test]
fn s5_bearing_off_is_not_forced() {
    let b = board(&[(2, 1), (1, 1)], &[]);
    let m = moves(&b, "21");
    assert!(m.contains(&"2/off 1/off".to_string()), "{m:?}");
    // 2/1 1/off: one checker borne off, the one on 1 stays.
    assert!(m.contains(&"2/off".to_string()), "{m:?}");
}

#[test]
fn s5_a_hit_checker_re_enters_and_comes_home_before_bearing_off() {
    let b = board(&[(25, 1), (6, 14)], &[]);
    assert!(refusal(&b, "65", "6/off 6/1").contains("a checker on the bar must enter first"));
    assert!(moves(&b, "65").iter().all(|m| !m.contains("off")));
}

// §6 End of a game.

#[test]
fn s6_single_gammon_backgammon() {
    // The mover has borne off all 15; the loser's checkers decide the size.
    let lost = |them: &[(u8, u8)]| win_kind(&board(&[], them));
    assert_eq!(lost(&[(1, 14)]), WinKind::Single);
    assert_eq!(lost(&[(24, 15)]), WinKind::Gammon);
    assert_eq!(
        lost(&[(5, 1), (24, 14)]),
        WinKind::Backgammon,
        "in the winner's home"
    );
    assert_eq!(
        lost(&[(25, 1), (24, 14)]),
        WinKind::Backgammon,
        "on the bar"
    );
}

#[test]
fn s6_resignation_ends_the_game_when_accepted() {
    let mut g = Game::from_state(Board::START, MatchState::new_match(7), Rules::default());
    g.resign(WinKind::Gammon).unwrap();
    assert_eq!(
        g.decision(),
        Decision::AnswerResignation {
            player: Player::One,
            offered: WinKind::Gammon
        }
    );
    g.decline_resignation().unwrap();
    g.resign(WinKind::Gammon).unwrap();
    g.accept_resignation().unwrap();
    assert_eq!(g.state().score, [0, 2]);
}

// §7 The doubling cube.

#[test]
fn s7_double_take_owner_redoubles_drop_scores_the_cube() {
    let mut g = Game::from_state(Board::START, MatchState::money(true), Rules::default());
    assert_eq!(g.state().cube_owner, CubeOwner::Centred);
    g.double().unwrap();
    g.take().unwrap();
    assert_eq!(
        (g.state().cube_value(), g.state().cube_owner),
        (2, CubeOwner::Owned(Player::One))
    );
    // No beaver: the doubler keeps the turn and cannot double again.
    assert_eq!(
        g.double(),
        Err(GameError::CannotDouble(NoDouble::OpponentOwnsCube))
    );
    g.roll(dice("31")).unwrap();
    g.play_text("8/5 6/5").unwrap();
    g.double().unwrap();
    g.take().unwrap();
    assert_eq!(g.state().cube_value(), 4);
    g.roll(dice("21")).unwrap();
    g.play_text("13/11 6/5").unwrap();
    g.double().unwrap();
    g.drop().unwrap();
    assert_eq!(g.result().unwrap().points, 4);
}

// §8 The Jacoby rule.

#[test]
fn s8_jacoby_counts_gammons_single_until_the_cube_is_turned() {
    let gammon = board(&[(1, 1)], &[(24, 15)]);
    let play = |rules: Rules, turned: bool| {
        let mut s = MatchState::money(rules.jacoby);
        if turned {
            s.cube_log2 = 1;
            s.cube_owner = CubeOwner::Owned(Player::One);
        }
        let mut g = Game::from_state(gammon, s, rules);
        g.roll(dice("21")).unwrap();
        g.play_text("1/off").unwrap();
        g.result().unwrap().points
    };
    assert_eq!(play(Rules::default(), false), 1);
    assert_eq!(play(Rules::default(), true), 4);
    let off = Rules {
        jacoby: false,
        ..Rules::default()
    };
    assert_eq!(play(off, false), 2);
}

// §9 Match play.

#[test]
fn s9_gammons_count_in_matches_and_the_match_ends_at_n() {
    let mut g = Game::from_state(
        board(&[(1, 1)], &[(24, 15)]),
        MatchState::new_match(3),
        Rules::default(),
    );
    g.roll(dice("21")).unwrap();
    g.play_text("1/off").unwrap();
    assert_eq!(g.state().score, [2, 0]);
    g.next_game().unwrap();
    assert!(g.state().crawford, "2 of 3 is 1-away: the Crawford game");
    assert_eq!(g.decision(), Decision::OpeningRoll);
}

#[test]
fn s9_no_doubling_in_the_crawford_game_then_post_crawford_doubling() {
    let mut s = MatchState::new_match(5);
    s.score = [4, 2];
    s.crawford = true;
    let mut g = Game::from_state(Board::START, s, Rules::default());
    assert_eq!(g.double(), Err(GameError::CannotDouble(NoDouble::Crawford)));
    s.crawford = false;
    let mut g = Game::from_state(Board::START, s, Rules::default());
    assert!(g.is_post_crawford());
    assert_eq!(g.double(), Ok(()), "the leader may offer: legal if useless");
}

#[test]
fn s9_holland_rule_is_off_by_default() {
    let mut s = MatchState::new_match(5);
    s.score = [4, 1];
    s.on_roll = Player::One;
    s.turn = Player::One;
    let fresh = |rules| Game::from_state(board(&[(13, 15)], &[(12, 15)]), s, rules).decision();
    assert!(matches!(
        fresh(Rules::default()),
        Decision::RollOrDouble {
            may_double: true,
            ..
        }
    ));
    // With the rule, a game taken up from IDs counts both sides as having
    // rolled twice; a new post-Crawford game is held back (see game tests).
    let holland = Rules {
        holland: true,
        ..Rules::default()
    };
    assert!(matches!(
        fresh(holland),
        Decision::RollOrDouble {
            may_double: true,
            ..
        }
    ));
}

// §10 Text forms.

#[test]
fn s10_ids_and_notation() {
    assert_eq!(Board::START.position_id(), "4HPwATDgc/ABMA");
    for id in ["cAkAAAAAAAAA", "QYkqASAAIAAA", "MIHpAAAAAAAE"] {
        assert_eq!(id.parse::<MatchState>().unwrap().to_string(), id);
    }
    let x = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";
    let (b, s) = x.parse::<Xgid>().unwrap().to_state().unwrap();
    assert_eq!((b, s.cube_value(), s.score), (Board::START, 2, [2, 4]));
    let m = moves(&Board::START, "66");
    for text in ["24/18(2) 13/7(2)", "13/7(4)"] {
        assert!(m.contains(&text.to_string()));
    }
}
