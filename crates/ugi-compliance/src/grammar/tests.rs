//! The grammar's tests: every form accepted in its one spelling, every
//! rule broken refused with its reason.

use super::*;

fn ok(text: &str) -> Line {
    let line = classify(text).unwrap_or_else(|e| panic!("{text:?} refused: {e}"));
    line
}

fn refused(text: &str) -> String {
    match classify(text) {
        Ok(l) => panic!("{text:?} accepted as {l:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn what_our_engine_writes_is_accepted_and_written_back_the_same() {
    for text in [
        "id name grasshopper 0.1.0",
        "id author the grasshopper developers",
        "option name Hash type spin default 16 min 1 max 4096",
        "option name Ponder type check default false",
        "option name TablePath type string default <empty>",
        "option name Move Overhead type spin default -5 min -10 max 10",
        "ugiok",
        "uciok",
        "readyok",
        "info depth 3 seldepth 5 multipv 1 score cp -35 nodes 1234 nps 5678 hashfull 12 \
             time 217 pv bar/1 bar/2",
        "info depth 1 score mate -4 nodes 0",
        "info string game over: white has won; no move to search",
        "info string score cp 0 is a proved draw",
        "bestmove bar/3",
        "bestmove 20/off ponder pass",
        "bestmove (none)",
        "response",
        "response true",
        "response false point 2 is occupied",
        "error unknown_command \"isreadyy\" is not a command; expected one of uci",
        "error busy position: a search is running;  two spaces in free text",
        "bar/1: 480",
        "nodes 2880",
    ] {
        assert_eq!(ok(text).to_string(), text);
    }
}

#[test]
fn typed_forms() {
    assert_eq!(
        ok("bestmove 3/9 ponder bar/1"),
        Line::BestMove {
            mv: Some("3/9".parse().unwrap()),
            ponder: Some("bar/1".parse().unwrap())
        }
    );
    let Line::Info(i) = ok("info depth 2 score cp 7 pv 1/7") else {
        panic!()
    };
    assert_eq!(i.depth, Some(2));
    assert_eq!(i.score, Some(Score::Cp(7)));
    assert_eq!(i.pv.len(), 1);
    assert_eq!(
        ok("error bad_option setoption: no"),
        Line::Error {
            code: ErrorCode::BadOption,
            message: "setoption: no".into()
        }
    );
    assert_eq!(
        ok("option name Checkers type spin default 14 min 2 max 14"),
        Line::Option(OptionLine {
            name: "Checkers".into(),
            kind: OptionKind::Spin {
                default: 14,
                min: 2,
                max: 14
            }
        })
    );
}

#[test]
fn every_refusal_says_why() {
    for (text, why) in [
        ("", "empty line"),
        ("readyok\r", "CR at byte 7"),
        ("bestmove\tbar/1", "tab at byte 8"),
        ("info string a\u{7}b", "control character"),
        (" readyok", "leading space"),
        ("readyok ", "trailing space"),
        ("bestmove  bar/1", "two spaces in a row at byte 9"),
        ("info depth 3  nodes 5", "two spaces in a row"),
        ("readyok now", "readyok: extra token \"now\""),
        ("ugiokay?", "\"ugiokay?\" is not a line"),
        ("UGIOK", "not a line"),
        ("bestmove", "bestmove: missing a move or (none)"),
        ("bestmove bar/1 bar/2", "bestmove: extra token \"bar/2\""),
        ("bestmove bar/1 ponder", "missing the ponder move"),
        ("bestmove bar/1 ponder bar/2 x", "extra token \"x\""),
        ("bestmove (none) ponder bar/1", "extra token \"ponder\""),
        ("bestmove bar/25", "\"bar/25\" is not a move"),
        ("bestmove Bar/1", "is not a move"),
        ("bestmove !!@@##", "is not a move"),
        ("bestmove 99/off", "is not a move"),
        ("info", "info: no field"),
        (
            "info depth banana",
            "depth must be a decimal integer, found \"banana\"",
        ),
        ("info depth 3.5", "must be a decimal integer"),
        ("info depth +3", "must be a decimal integer"),
        ("info depth 03", "must be a decimal integer"),
        ("info depth 0", "depth 0 is out of range"),
        ("info nodes 99999999999999999999999", "out of range"),
        ("info score cp -0", "must be a decimal integer"),
        ("info score mate 0", "out of range"),
        ("info score banana", "expected cp or mate"),
        ("info score cp 5 lowerbound", "not part of this protocol"),
        ("info depth 1 depth 2", "field depth given twice"),
        ("info currmove bar/1", "UCI's but not part of this protocol"),
        ("info wdl 1 2 3", "unknown field \"wdl\""),
        ("info pv", "missing a move after pv"),
        ("info pv bar/1 depth 3", "\"depth\" is not a move"),
        ("info depth 3 string x", "string must be the only field"),
        ("info string", "missing a text"),
        ("info hashfull 1001", "out of range"),
        ("info multipv 0", "out of range"),
        ("response  true", "two spaces in a row at byte 9"),
        ("id", "missing name or author"),
        ("id name", "missing a text"),
        ("id version 3", "expected name or author"),
        ("error", "missing an error code"),
        ("error oops something", "unknown error code \"oops\""),
        ("error syntax", "missing a message"),
        ("option name Hash type spin default 16 min 1", "missing max"),
        (
            "option name Hash type spin default 16 min 1 max 4 x",
            "extra token",
        ),
        (
            "option name Hash type spin default 16 min 1 max 4",
            "not within",
        ),
        ("option name type check default true", "missing a name"),
        (
            "option name A type check default yes",
            "expected true or false",
        ),
        (
            "option name A type combo default x var x",
            "type combo is not part",
        ),
        (
            "option name A value type check default true",
            "\"value\" is a keyword",
        ),
        ("option name A type string default", "missing a default"),
        ("nodes", "missing the count"),
        ("nodes 5 6", "extra token"),
        ("bar/1: x", "must be a decimal integer"),
        ("bar/1:", "missing a count"),
    ] {
        let got = refused(text);
        assert!(got.contains(why), "{text:?}: wanted {why:?} in {got:?}");
    }
}

#[test]
fn raw_lines_are_judged_by_their_bytes() {
    let raw = |text: &str, utf8, ended| RawLine {
        text: text.into(),
        utf8,
        ended,
    };
    assert_eq!(classify_raw(&raw("readyok", true, true)), Ok(Line::ReadyOk));
    assert_eq!(
        classify_raw(&raw("readyok", false, true)),
        Err(Refusal::NotUtf8)
    );
    assert_eq!(
        classify_raw(&raw("readyok", true, false)),
        Err(Refusal::Unterminated)
    );
    assert_eq!(
        classify_raw(&raw(&"x".repeat(MAX_LINE), true, false)),
        Err(Refusal::TooLong)
    );
}

#[test]
fn responses_are_read_as_answers_to_their_question() {
    use Question::*;
    assert_eq!(answer(GameOver, Some("true")), Ok(Answer::Bool(true)));
    assert!(answer(GameOver, Some("true x")).is_err());
    assert!(answer(P1Turn, None).is_err());
    assert_eq!(
        answer(Result, Some("p2win")),
        Ok(Answer::Result(GameResult::P2Win))
    );
    assert!(answer(Result, Some("white")).is_err());
    assert_eq!(answer(Legal, Some("true")), Ok(Answer::Legal(Ok(()))));
    assert_eq!(
        answer(Legal, Some("false point 2 is occupied")),
        Ok(Answer::Legal(Err(IllegalReason(
            "point 2 is occupied".into()
        ))))
    );
    assert!(answer(Legal, Some("false")).is_err());
    assert!(answer(Legal, Some("true because")).is_err());
    assert_eq!(answer(Moves, None), Ok(Answer::Moves(vec![])));
    assert_eq!(
        answer(Moves, Some("bar/1 bar/2")).unwrap(),
        Answer::Moves(vec!["bar/1".parse().unwrap(), "bar/2".parse().unwrap()])
    );
    assert!(answer(Moves, Some("bar/1 bar/1")).is_err());
    assert!(answer(Moves, Some("bar/1 x")).is_err());
    let start = "....../....../....../...... w 14 14 0-0 -";
    assert_eq!(
        answer(Fen, Some(start)),
        Ok(Answer::Fen(start.parse().unwrap()))
    );
    assert!(answer(Fen, Some("....../....../....../...... x 14 14 0-0 -")).is_err());
    assert!(answer(Fen, None).is_err());
}
