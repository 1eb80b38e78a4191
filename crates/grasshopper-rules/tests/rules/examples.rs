//! The worked examples of docs/rules/RULES.md, the reasons `play` gives for refusing a
//! move, and position strings that must be refused. Each example is checked
//! for White and, mirrored, for Black.

use grasshopper_rules::{Color, Outcome, Position, Square};
use testkit::given::{
    destinations, fen, given, given_both, given_fen, mirror, moves, mv, play, pt, refusal,
};
use testkit::naive;

/// Asserts that `text` is refused in `pos` with a message containing `want`,
/// and that generation agrees it is not a legal move.
fn assert_refused(pos: &Position, text: &str, want: &str) {
    let why = refusal(pos, text);
    assert!(
        why.contains(want),
        "{text} in {pos}: refused with {why:?}, expected it to say {want:?}"
    );
    assert!(
        !pos.legal_moves().contains(mv(text)),
        "{text} is refused in {pos} but generated"
    );
}

// ---- The worked examples of docs/rules/RULES.md ------------------------------------

#[test]
fn example_1_a_lone_checker_on_3_may_go_to_any_empty_point_7_to_12() {
    // Given a white lone checker on 3, nothing else nearby
    for (_, pos) in given_both("white lone 3") {
        // Then it may go to any point 7..12
        assert_eq!(destinations(&pos, 3), vec![7, 8, 9, 10, 11, 12], "{pos}");
    }
    // Given an opposing lone checker on 9: "any empty point" leaves 9 out,
    // and a lone checker does not block the points beyond it.
    for (_, pos) in given_both("white lone 3, black lone 9") {
        assert_eq!(destinations(&pos, 3), vec![7, 8, 10, 11, 12], "{pos}");
    }
}

#[test]
fn example_2_a_lone_checker_on_2_behind_an_occupied_7_and_a_wall_on_8_has_no_move() {
    // Given a white lone checker on 2, point 7 occupied, a white wall on 8
    for (me, pos) in given_both("white lone 2, black lone 7, white wall 8") {
        // Then the checker on 2 has no move
        assert_eq!(destinations(&pos, 2), Vec::<u8>::new(), "{pos}");
        // because 7 is occupied, 8 is a wall, 9..12 lie beyond the wall
        assert_refused(&pos, "2/7", "point 7 is occupied");
        assert_refused(&pos, "2/8", "point 8 is occupied");
        for q in 9..=12 {
            assert_refused(
                &pos,
                &format!("2/{q}"),
                &format!("the {me} wall on 8 blocks the way"),
            );
        }
    }
}

#[test]
fn example_3_the_top_of_a_wall_on_8_jumps_walls_to_any_empty_point_13_to_18_or_onto_14() {
    // Given the white wall on 8 of example 2, walls of both colours on the way
    // (9, 10, 11, 13 is left open), a white lone checker on 14, a black lone on 16
    let spec = "white lone 2, black lone 7, white wall 8, black wall 9, white wall 10, \
                black wall 11, white lone 14, black lone 16";
    for (me, pos) in given_both(spec) {
        // Then its top may go to every empty point of 13..18 and onto 14
        assert_eq!(destinations(&pos, 8), vec![13, 14, 15, 17, 18], "{pos}");
        assert_refused(&pos, "8/16", "point 16 is occupied");
        // When it builds on 14
        let next = play(&pos, "8/14");
        // Then 8 keeps a lone checker and 14 holds a wall
        assert_eq!(next.square(pt(8)), Square::Lone(me));
        assert_eq!(next.square(pt(14)), Square::Wall(me));
        assert_eq!(next.side_to_move(), me.opposite());
    }
    // Given an own lone checker on 17 instead: building is allowed only 6 ahead
    for (_, pos) in given_both("white wall 8, white lone 17") {
        assert_eq!(destinations(&pos, 8), vec![13, 14, 15, 16, 18], "{pos}");
        assert_refused(&pos, "8/17", "exactly 6 points ahead (14), not on 17");
    }
}

#[test]
fn example_4_a_lone_checker_on_4_builds_on_10_unless_a_wall_stands_between() {
    // Given white lone checkers on 4 and 10, no wall on 5..9
    for (me, pos) in given_both("white lone 4 10") {
        // Then 4 -> 10 is legal, beside every empty point of B
        assert_eq!(destinations(&pos, 4), vec![7, 8, 9, 10, 11, 12], "{pos}");
        // When 4 -> 10 is played, Then it builds a wall on 10
        let next = play(&pos, "4/10");
        assert_eq!(next.square(pt(4)), Square::Empty);
        assert_eq!(next.square(pt(10)), Square::Wall(me));
    }
    // A wall beyond 10 does not matter for 4 -> 10, only for the points behind it.
    for (_, pos) in given_both("white lone 4 10, black wall 11") {
        assert_eq!(destinations(&pos, 4), vec![7, 8, 9, 10], "{pos}");
    }
    // "With a black wall on 6": a wall in quadrant A can never arise (entering
    // never builds a wall and nothing moves into A), so the engine refuses the
    // literal position...
    let literal = "....../....../....../...... w 12 12 0-0 -";
    let literal = literal
        .replacen("....../", "...w.B/", 1)
        .replacen("....../", "...w../", 1);
    let err = literal.parse::<Position>().unwrap_err().to_string();
    assert!(err.contains("quadrant A"), "{literal}: {err}");
    // ... the rules model applied to it literally finds no move of the checker on 4 ...
    let model = naive::Naive::from_fen(&literal);
    assert!(
        model
            .actions(naive::WHITE)
            .iter()
            .all(|m| !matches!(m, naive::NaiveMove::Step(4, _))),
        "{literal}"
    );
    // ... and the engine agrees on the nearest possible board: a black wall on 7
    // (the only point of 5..9 outside A that shuts every point of B).
    for (_, pos) in given_both("white lone 4 10, black wall 7") {
        assert_eq!(destinations(&pos, 4), Vec::<u8>::new(), "{pos}");
        assert_refused(&pos, "4/10", "wall on 7 blocks the way");
    }
    // A black wall on 8 leaves 7 open and blocks 9..12.
    for (_, pos) in given_both("white lone 4 10, black wall 8") {
        assert_eq!(destinations(&pos, 4), vec![7], "{pos}");
    }
}

#[test]
fn example_5_a_wall_built_in_d_is_borne_off_for_a_point() {
    // Given white lone checkers on 15 and 21, nobody has scored
    for (me, pos) in given_both("white lone 15 21, black lone 1") {
        // When 15 -> 21 is played, Then it builds a wall in D
        let built = play(&pos, "15/21");
        assert_eq!(built.square(pt(21)), Square::Wall(me));
        // And a later action bears it off for one point
        let later = play(&built, "1/7");
        assert!(moves(&later).contains(&"21/off".to_string()), "{later}");
        let scored = play(&later, "21/off");
        assert_eq!(scored.square(pt(21)), Square::Empty);
        assert_eq!(scored.score(me), 1);
        assert_eq!(scored.run().map(|r| (r.color, r.count)), Some((me, 1)));
        assert_eq!(scored.outcome(), Outcome::Ongoing);
    }
    // Given White scored the point before, no black score in between
    for (me, pos) in given_both("white wall 21, black lone 1, score 1-0 w1") {
        // When it bears off, Then it has won
        let won = play(&pos, "21/off");
        assert_eq!(won.outcome(), Outcome::Win(me), "{won}");
        assert!(won.is_game_over());
        assert_eq!(won.legal_moves().len(), 0);
        assert_refused(&won, "1/7", "game is over");
    }
    // Given a black score in between, the run is broken: no win
    for (me, pos) in given_both("white wall 21, black lone 1, score 1-1 b1") {
        let scored = play(&pos, "21/off");
        assert_eq!(scored.outcome(), Outcome::Ongoing, "{scored}");
        assert_eq!(scored.run().map(|r| (r.color, r.count)), Some((me, 1)));
    }
}

// ---- Other rules, stated directly ---------------------------------------

#[test]
fn entering_goes_to_any_empty_point_of_a_and_walls_do_not_stop_it() {
    // Given every point of A empty but 2 (own) and 5 (opponent), walls in B
    for (_, pos) in given_both("white lone 2, black lone 5, black wall 7 8, white wall 9") {
        let entries: Vec<String> = moves(&pos)
            .into_iter()
            .filter(|m| m.starts_with("bar/"))
            .collect();
        assert_eq!(entries, ["bar/1", "bar/3", "bar/4", "bar/6"], "{pos}");
        assert_refused(&pos, "bar/2", "point 2 is occupied");
    }
}

#[test]
fn lone_checkers_in_d_wait_and_cannot_be_borne_off() {
    // Given only white lone checkers in D and nothing to enter, black to move first
    let pos =
        given("white lone 19 20, white to enter 0, black lone 1, black to enter 1, black to move");
    // When black moves, Then white has nothing but a pass
    let next = play(&pos, "1/7");
    assert_eq!(moves(&next), ["pass"]);
    assert_refused(&next, "19/off", "no white wall on 19");
    assert_refused(&next, "19/20", "quadrant D");
}

#[test]
fn a_forced_pass_is_the_only_move_and_a_double_block_is_a_draw() {
    // Given white stuck behind its own waiting checkers while black can act
    let pos = given("white lone 19 20, black lone 3");
    assert_eq!(pos.outcome(), Outcome::Ongoing);
    assert_eq!(moves(&pos), ["pass"]);
    assert_eq!(pos.count_legal_moves(), 1);
    // When white passes, Then black must move (it may not pass)
    let next = play(&pos, "pass");
    assert_eq!(next.side_to_move(), Color::Black);
    assert_refused(&next, "pass", "black has a legal action and may not pass");
    // Given neither side can act, Then the game is drawn and nothing is legal
    let draw = given("white lone 19 20, black lone 21 22");
    assert_eq!(draw.outcome(), Outcome::Draw);
    assert_eq!(draw.count_legal_moves(), 0);
    assert!(draw.legal_moves().is_empty());
    assert_refused(&draw, "pass", "game is over: drawn");
    // Given everything borne off after alternating scores, it is a draw too
    let gone = fen("....../....../....../...... b 0 0 1-1 b1");
    assert_eq!(gone.outcome(), Outcome::Draw);
}

// ---- The reasons play gives ------------------------------------------------

#[test]
fn play_explains_refusals_in_a_players_words() {
    let pos = given(
        "white lone 3 8, black wall 9, black lone 5, white wall 14, white lone 21, 12 checkers",
    );
    for (who, pos) in [(Color::White, pos), (Color::Black, mirror(&pos))] {
        let other = who.opposite();
        let cases = [
            ("3/10", format!("the {other} wall on 9 blocks the way")),
            (
                "3/15",
                "3/15 does not land in the next quadrant".to_string(),
            ),
            ("3/6", "3/6 does not land in the next quadrant".to_string()),
            ("8/2", "8/2 does not land in the next quadrant".to_string()),
            (
                "3/8",
                "a wall can be built only exactly 6 points ahead (9), not on 8".into(),
            ),
            ("3/9", "point 9 is occupied".to_string()),
            ("bar/5", "point 5 is occupied".to_string()),
            (
                "bar/9",
                "checkers enter only on points 1-6, not on 9".to_string(),
            ),
            ("6/12", format!("there is no {who} checker on 6")),
            ("5/11", format!("there is no {who} checker on 5")),
            ("9/15", format!("there is no {who} checker on 9")),
            (
                "21/off",
                format!("there is no {who} wall on 21 to bear off"),
            ),
            ("9/off", format!("there is no {who} wall on 9 to bear off")),
            ("14/off", "the wall on 14 is not in quadrant D".to_string()),
            (
                "21/22",
                "quadrant D (19-24), where nothing moves forward".to_string(),
            ),
            ("pass", format!("{who} has a legal action and may not pass")),
        ];
        for (text, want) in cases {
            assert_refused(&pos, text, &want);
            let err = pos.play(mv(text)).unwrap_err();
            assert_eq!((err.mv, err.side), (mv(text), who), "{text}");
        }
    }
}

#[test]
fn entering_with_nothing_left_is_refused() {
    for (who, pos) in given_both("white lone 3 7, white to enter 0, black to enter 2") {
        assert_refused(
            &pos,
            "bar/4",
            &format!("{who} has no checker left to enter"),
        );
    }
}

#[test]
fn nothing_is_legal_once_the_game_is_over() {
    let won = given("white lone 7, black lone 8, score 2-0 w2, black to move");
    assert_eq!(won.outcome(), Outcome::Win(Color::White));
    for text in ["8/14", "bar/1", "pass"] {
        assert_refused(&won, text, "game is over: white has won");
    }
    let won = mirror(&won);
    assert_eq!(won.outcome(), Outcome::Win(Color::Black));
    assert_refused(&won, "8/14", "game is over: black has won");
}

// ---- Position strings that must be refused ---------------------------------

#[test]
fn impossible_or_malformed_position_strings_are_refused_naming_field_and_text() {
    let start = "....../....../....../...... w 14 14 0-0 -";
    let cases = [
        ("", "expected 6 fields"),
        (
            " ....../....../....../...... w 14 14 0-0 -",
            "expected 6 fields",
        ),
        (
            "....../....../....../...... w 14 14 0-0 - ",
            "expected 6 fields",
        ),
        (
            "....../....../....../......\tw 14 14 0-0 -",
            "expected 6 fields",
        ),
        ("....../....../....../...... w 14 14 0-0 - x", "found 7"),
        (
            "....../....../....../....... w 14 14 0-0 -",
            "bad board \"....../....../....../.......\"",
        ),
        (
            "........................ w 14 14 0-0 -",
            "bad board \"........................\"",
        ),
        (".....//....../....../..... w 14 14 0-0 -", "bad board"),
        (
            "....../....x./....../...... w 14 14 0-0 -",
            "bad board \"....../....x./",
        ),
        ("....../....é./....../...... w 14 14 0-0 -", "bad board"),
        (
            "....../....../....../...... W 14 14 0-0 -",
            "bad side to move \"W\"",
        ),
        (
            "....../....../....../...... w 14 15 0-0 -",
            "bad black checkers to enter \"15\"",
        ),
        (
            "....../....../....../...... w 99 14 0-0 -",
            "bad white checkers to enter \"99\"",
        ),
        (
            "....../....../....../...... w 014 14 0-0 -",
            "bad white checkers to enter \"014\"",
        ),
        (
            "....../....../....../...... w -1 14 0-0 -",
            "bad white checkers to enter \"-1\"",
        ),
        // a leading zero would not read back the same
        (
            "....../....../....../...... w 08 08 0-0 -",
            "bad white checkers to enter \"08\"",
        ),
        (
            "....../....../....../...... w 14 014 0-0 -",
            "bad black checkers to enter \"014\"",
        ),
        (
            "....../....../....../...... w 8 08 0-0 -",
            "bad black checkers to enter \"08\"",
        ),
        (
            "....../....../....../...... w 14 14 8-0 -",
            "bad score \"8-0\"",
        ),
        (
            "....../....../....../...... w 14 14 10-0 -",
            "bad score \"10-0\"",
        ),
        (
            "....../....../....../...... w 14 14 1- -",
            "bad score \"1-\"",
        ),
        (
            "....../....../....../...... w 14 14 0-0 w",
            "bad scoring run \"w\"",
        ),
        (
            "....../....../....../...... w 14 14 0-0 w3",
            "bad scoring run \"w3\"",
        ),
        // a run w2 / b2 with a score under 2
        (
            "....../....../....../...... w 12 14 1-0 w2",
            "white scored 2 times in succession, but white's score is 1",
        ),
        (
            "....../....../....../...... w 14 12 0-1 b2",
            "black scored 2 times in succession, but black's score is 1",
        ),
        // runs that contradict the score
        ("....../....../....../...... w 14 14 0-0 w1", "score is 0"),
        ("....../....../....../...... w 14 12 0-1 w1", "score is 0"),
        ("....../....../....../...... w 12 14 1-0 b1", "score is 0"),
        ("....../....../....../...... w 10 14 2-0 w1", "0 or 1"),
        ("....../....../....../...... w 8 14 3-0 w2", "1 or 2"),
        ("....../....../....../...... w 10 10 2-2 w2", "1 or 2"),
        (
            "....../....../....../...... w 14 12 0-1 -",
            "nobody has scored",
        ),
        // checker totals
        (
            "wwwwww/wwwwww/ww..../...... w 1 14 0-0 -",
            "white would have 15 checkers",
        ),
        (
            "bbbbbb/....../....../...... w 14 9 0-0 -",
            "black would have 15 checkers",
        ),
        ("....../WWWWWW/WW..../...... w 0 14 0-0 -", "more than 14"),
        (
            "....../....../....../...... w 0 0 0-0 -",
            "white has 0, black has 0",
        ),
        (
            "....../....../....../...... w 1 1 0-0 -",
            "white has 1, black has 1",
        ),
        (
            "w...../....../....../...... w 2 2 0-0 -",
            "white has 3, black has 2",
        ),
        (
            "b...../....../....../...... w 4 4 0-0 -",
            "white has 4, black has 5",
        ),
        // walls in quadrant A
        (
            ".....B/....../....../...... w 14 12 0-0 -",
            "a wall on point 6",
        ),
    ];
    assert!(start.parse::<Position>().is_ok());
    let mut failures = Vec::new();
    for (text, want) in cases {
        match text.parse::<Position>() {
            Ok(p) => failures.push(format!("{text:?} accepted as {p}")),
            Err(e) if !e.to_string().contains(want) => {
                failures.push(format!("{text:?}: {e} (expected it to say {want:?})"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn edge_positions_that_can_arise_are_accepted_and_read_back_unchanged() {
    for text in [
        "wwwwww/wwwwww/ww..../...... b 0 14 0-0 -",
        "bbbbbb/wwwwww/wwBBBB/...... w 6 0 0-0 -",
        "....../....../....../...... b 0 0 1-1 b1",
        "....../....../....../...... b 2 2 0-0 -",
        "....../....../....../...... w 0 4 7-5 w2",
        "....../....../....../WWW... w 8 14 0-0 -",
    ] {
        let pos = fen(text);
        assert_eq!(pos.to_string(), text);
    }
}

// ---- The helpers themselves --------------------------------------------------

#[test]
fn given_fills_the_bar_so_that_both_players_have_the_same_n() {
    assert_eq!(
        given_fen("white lone 3, white wall 8, black wall 9"),
        "..w.../.WB.../....../...... w 1 2 0-0 -"
    );
    assert_eq!(
        given_fen("white lone 3, black to move, 10 checkers, score 1-0 w1"),
        "..w.../....../....../...... b 7 10 1-0 w1"
    );
    assert_eq!(
        mirror(&given("white lone 3, score 1-0 w1")),
        given("black lone 3, score 0-1 b1, black to move")
    );
}

#[test]
#[should_panic(expected = "is refused: impossible board")]
fn given_explains_an_impossible_description() {
    given("white wall 3");
}
