//! The parsers against the protocol's spellings: every command reads, near
//! misses are refused with the right error, and text forms round-trip.

use super::*;
use crate::command::{Command, Go, Query, Start};
use crate::error::{CommandError, ErrorCode};
use grasshopper_rules::{Move, Point, Position};

fn ok(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn err(line: &str) -> CommandError {
    match parse_command(line) {
        Err(e) => e,
        other => panic!("{line:?} should fail but gave {other:?}"),
    }
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

#[test]
fn bare_commands_read_with_any_surrounding_whitespace() {
    let cases = [
        ("uci", Command::Uci),
        ("ugi", Command::Ugi),
        ("isready", Command::IsReady),
        ("uginewgame", Command::NewGame),
        ("ucinewgame", Command::NewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("d", Command::Display),
    ];
    for (text, cmd) in cases {
        assert_eq!(ok(text), cmd);
        assert_eq!(ok(&format!("  \t{text} \r\n")), cmd);
        assert_eq!(ok(&format!("{text}\r")), cmd);
    }
}

#[test]
fn blank_lines_are_no_command() {
    for line in ["", "   ", "\r\n", "\t \r"] {
        assert_eq!(parse_command(line), Ok(None));
    }
}

#[test]
fn near_misses_are_unknown_commands_quoting_the_word() {
    for (line, word) in [
        ("isreadyy", "isreadyy"),
        ("isready_", "isready_"),
        ("ISREADY", "ISREADY"),
        ("gox depth 3", "gox"),
        ("positions startpos", "positions"),
        ("dd", "dd"),
        ("\u{feff}uci", "\u{feff}uci"),
    ] {
        let e = err(line);
        assert_eq!(e.code(), ErrorCode::UnknownCommand, "{line}");
        // Quoted with invisible characters escaped (the BOM shows as \u{feff}).
        assert!(e.to_string().contains(&protocol_vocab::quote(word)), "{e}");
    }
}

#[test]
fn bare_commands_with_arguments_are_syntax_errors() {
    let e = err("isready now");
    assert_eq!(e.code(), ErrorCode::Syntax);
    assert_eq!(
        e.to_string(),
        "isready: expected end of line, found \"now\""
    );
    assert_eq!(err("quit 1").code(), ErrorCode::Syntax);
}

#[test]
fn position_startpos_with_and_without_moves() {
    assert_eq!(
        ok("position startpos"),
        Command::Position {
            start: Start::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position   startpos\tmoves bar/1  bar/2 "),
        Command::Position {
            start: Start::StartPos,
            moves: vec![mv("bar/1"), mv("bar/2")]
        }
    );
    assert_eq!(
        ok("position startpos moves"),
        Command::Position {
            start: Start::StartPos,
            moves: vec![]
        }
    );
}

#[test]
fn position_fen_tolerates_extra_blanks_between_fields() {
    let fen = "w...../W...../....../b..... b 9 11 1-1 w1";
    let p: Position = fen.parse().unwrap();
    assert_eq!(
        ok(&format!("position fen {fen}")),
        Command::Position {
            start: Start::Fen(p),
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position fen w...../W...../....../b.....  b\t9 11 1-1 w1 moves 1/7"),
        Command::Position {
            start: Start::Fen(p),
            moves: vec![mv("1/7")]
        }
    );
}

#[test]
fn position_fen_with_a_bad_field_names_the_field() {
    let e = err("position fen ....../....../....../...... x 14 14 0-0 -");
    assert_eq!(e.code(), ErrorCode::BadPosition);
    assert!(e.to_string().contains("side to move"), "{e}");
    assert!(e.to_string().contains("\"x\""), "{e}");
    let e = err("position fen ....../....../....../...... w 14 14 0-0");
    assert_eq!(e.code(), ErrorCode::BadPosition);
    assert!(e.to_string().contains("6 fields"), "{e}");
    let e = err("position fen ....../....../....../...... w 14 14 0-0 moves bar/1");
    assert_eq!(e.code(), ErrorCode::BadPosition, "{e}");
    assert_eq!(err("position fen").code(), ErrorCode::Syntax);
    assert_eq!(err("position fen moves bar/1").code(), ErrorCode::Syntax);
}

#[test]
fn position_with_a_malformed_move_names_its_index() {
    let e = err("position startpos moves bar/1 3-9");
    assert_eq!(e.code(), ErrorCode::IllegalMove);
    assert!(e.to_string().starts_with("position: move 2: "), "{e}");
    assert!(e.to_string().contains("\"3-9\""), "{e}");
}

#[test]
fn position_near_misses_are_syntax_errors() {
    for line in [
        "position",
        "position start",
        "position startpos bar/1",
        "position startpos move bar/1",
        "position startposmoves",
    ] {
        assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
    }
    assert_eq!(
        err("position start").to_string(),
        "position: expected startpos or fen <position string>, found \"start\""
    );
}

#[test]
fn go_reads_every_limit_and_the_aliases() {
    let g = |line: &str| match ok(line) {
        Command::Go(g) => g,
        c => panic!("{c:?}"),
    };
    assert_eq!(g("go"), Go::default());
    let full = g(
        "go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5 movetime 300 \
                  depth 7 nodes 100000 infinite ponder searchmoves bar/1 bar/2",
    );
    assert_eq!(
        full,
        Go {
            p1time: Some(1000),
            p2time: Some(2000),
            p1inc: Some(10),
            p2inc: Some(20),
            movestogo: Some(5),
            movetime: Some(300),
            depth: Some(7),
            nodes: Some(100000),
            infinite: true,
            ponder: true,
            searchmoves: vec![mv("bar/1"), mv("bar/2")],
        }
    );
    assert_eq!(
        g("go wtime 1000 btime 2000 winc 10 binc 20"),
        Go {
            p1time: Some(1000),
            p2time: Some(2000),
            p1inc: Some(10),
            p2inc: Some(20),
            ..Go::default()
        }
    );
    // searchmoves in the middle ends at the next parameter.
    let sm = g("go searchmoves bar/3 depth 2");
    assert_eq!(sm.searchmoves, vec![mv("bar/3")]);
    assert_eq!(sm.depth, Some(2));
    // A flag-fallen clock reads as 0.
    assert_eq!(g("go wtime -15 btime 10").p1time, Some(0));
}

#[test]
fn go_refuses_negative_zero_and_huge_limits() {
    let e = err("go depth -3");
    assert_eq!(e.code(), ErrorCode::Syntax);
    assert_eq!(
        e.to_string(),
        "go: expected a whole number of plies from 1 to 4294967295, found \"-3\""
    );
    for line in [
        "go depth 0",
        "go depth",
        "go nodes 0",
        "go movestogo 0",
        "go movetime -5",
        "go depth 3.5",
        "go depth +3",
        "go wtime",
        "go wtime --5",
        "go depthh 3",
        "go infinitely",
        "go 5",
    ] {
        assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
    }
    let e = err("go depth 99999999999999999999999");
    assert_eq!(e.code(), ErrorCode::Syntax);
    assert!(e.to_string().contains("too large"), "{e}");
    assert!(matches!(
        err("go nodes 18446744073709551616"),
        CommandError::TooLarge { .. }
    ));
    assert!(matches!(
        err("go searchmoves bar/1 bar/99"),
        CommandError::BadMove { index: 2, .. }
    ));
}

#[test]
fn setoption_reads_names_of_several_words_and_free_values() {
    assert_eq!(
        ok("setoption name Hash value 64"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("64".into())
        }
    );
    assert_eq!(
        ok("setoption  name Move  Overhead value  50"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("50".into())
        }
    );
    assert_eq!(
        ok("setoption name Ponder"),
        Command::SetOption {
            name: "Ponder".into(),
            value: None
        }
    );
    assert_eq!(
        ok("setoption name Ponder value"),
        Command::SetOption {
            name: "Ponder".into(),
            value: Some(String::new())
        }
    );
    for line in [
        "setoption",
        "setoption Hash 64",
        "setoption name",
        "setoption name value 3",
    ] {
        assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
    }
}

#[test]
fn query_reads_every_question() {
    let cases = [
        ("query gameover", Query::GameOver),
        ("query p1turn", Query::P1Turn),
        ("query result", Query::Result),
        ("query legal bar/1", Query::Legal("bar/1".into())),
        ("query legal 3-9", Query::Legal("3-9".into())),
        ("query moves", Query::Moves),
        ("query fen", Query::Fen),
    ];
    for (line, q) in cases {
        assert_eq!(ok(line), Command::Query(q));
    }
    for line in [
        "query",
        "query legal",
        "query legal a b",
        "query p2turn",
        "query fen x",
    ] {
        assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
    }
}

#[test]
fn perft_reads_a_depth() {
    assert_eq!(ok("perft 3"), Command::Perft(3));
    assert_eq!(ok("perft 0"), Command::Perft(0));
    for line in [
        "perft",
        "perft -1",
        "perft x",
        "perft 3 4",
        "perft 4294967296",
        "perft 13",
        "perft 40",
    ] {
        assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
    }
    assert_eq!(ok("perft 12"), Command::Perft(12));
    assert_eq!(
        err("perft 40").to_string(),
        "perft: expected a depth in plies (a whole number from 0 to 12), found \"40\""
    );
}

#[test]
fn the_perft_cap_is_the_one_the_message_names() {
    assert!(PERFT_DEPTHS.contains(&format!(" to {})", crate::perft::MAX_PERFT_DEPTH)));
}

#[test]
fn bench_reads_an_optional_depth() {
    assert_eq!(ok("bench"), Command::Bench(None));
    assert_eq!(ok("bench 7"), Command::Bench(Some(7)));
    for line in [
        "bench 0",
        "bench -1",
        "bench x",
        "bench 3 4",
        "bench 4294967296",
        "benchmark",
    ] {
        assert!(parse_command(line).is_err(), "{line}");
    }
    assert_eq!(err("bench 0").code(), ErrorCode::Syntax);
}

#[test]
fn long_tokens_are_quoted_shortened() {
    let long = "x".repeat(10_000);
    let e = err(&long).to_string();
    assert!(e.len() < 400, "{}", e.len());
    assert!(e.contains("...\""));
}

fn arb_move() -> impl proptest::strategy::Strategy<Value = Move> {
    use proptest::prelude::*;
    prop_oneof![
        Just(Move::PASS),
        (1u8..=6).prop_map(|p| Move::enter(Point::new(p).unwrap())),
        (19u8..=24).prop_map(|p| Move::bear_off(Point::new(p).unwrap())),
        (1u8..=18, 1u8..=6).prop_map(|(a, d)| Move::step(
            Point::new(a).unwrap(),
            Point::new((a + d + 5).min(24)).unwrap()
        )
        .unwrap()),
    ]
}

proptest::proptest! {
    #[test]
    fn go_round_trips_through_text(
        times in proptest::collection::vec(proptest::option::of(0u64..u64::MAX), 4),
        movestogo in proptest::option::of(1u32..=u32::MAX),
        movetime in proptest::option::of(0u64..=u64::MAX),
        depth in proptest::option::of(1u32..=u32::MAX),
        nodes in proptest::option::of(1u64..=u64::MAX),
        infinite: bool,
        ponder: bool,
        searchmoves in proptest::collection::vec(arb_move(), 0..4),
    ) {
        let cmd = Command::Go(Go {
            p1time: times[0], p2time: times[1], p1inc: times[2], p2inc: times[3],
            movestogo, movetime, depth, nodes, infinite, ponder, searchmoves,
        });
        proptest::prop_assert_eq!(cmd.to_string().parse::<Command>(), Ok(cmd));
    }

    #[test]
    fn position_round_trips_through_text(
        fen in proptest::bool::ANY,
        moves in proptest::collection::vec(arb_move(), 0..6),
    ) {
        let start = if fen {
            Start::Fen("w...../W...../....../b..... b 9 11 1-1 w1".parse().unwrap())
        } else {
            Start::StartPos
        };
        let cmd = Command::Position { start, moves };
        proptest::prop_assert_eq!(cmd.to_string().parse::<Command>(), Ok(cmd));
    }

    #[test]
    fn no_line_makes_the_parser_panic(line in "\\PC{0,60}") {
        let _ = parse_command(&line);
    }

    #[test]
    fn mangled_commands_never_panic(
        base in proptest::sample::select(vec![
            "go depth 3 searchmoves bar/1", "position startpos moves bar/1 bar/2",
            "setoption name Hash value 3", "query legal 3/9", "perft 2",
        ]),
        cut_at in 0usize..40,
        junk in "[ -~]{0,5}",
    ) {
        let mut s = base.to_string();
        let at = cut_at.min(s.len());
        s.insert_str(at, &junk);
        let _ = parse_command(&s);
    }
}

#[test]
fn the_other_commands_round_trip_through_text() {
    let cmds = [
        Command::Uci,
        Command::Ugi,
        Command::IsReady,
        Command::NewGame,
        Command::Stop,
        Command::PonderHit,
        Command::Quit,
        Command::Display,
        Command::Perft(4),
        Command::Bench(None),
        Command::Bench(Some(3)),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("8".into()),
        },
        Command::SetOption {
            name: "Ponder".into(),
            value: None,
        },
        Command::Query(Query::GameOver),
        Command::Query(Query::P1Turn),
        Command::Query(Query::Result),
        Command::Query(Query::Legal("bar/4".into())),
        Command::Query(Query::Moves),
        Command::Query(Query::Fen),
    ];
    for c in cmds {
        assert_eq!(c.to_string().parse::<Command>(), Ok(c.clone()), "{c}");
    }
}
