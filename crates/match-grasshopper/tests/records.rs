//! The records format with the Grasshopper game: records round trip
//! through text, cut or damaged files are flagged with their line, replay
//! checks the result (moved here from match-runner's records module, which
//! no longer knows any game).

use grasshopper_rules::{Color, Move, Outcome, Position};
use match_grasshopper::Grasshopper;
use match_runner::records::{Parsed, RecordError, ReplayError};
use match_runner::{parse_record_bytes, GameResult, Replayed, Side, Termination};

type GameRecord = match_runner::GameRecord<Grasshopper>;

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn parse_records(text: &str) -> Result<Parsed<Grasshopper>, RecordError> {
    match_runner::parse_records(text)
}

fn sample(moves: &[&str], opening: &str) -> GameRecord {
    let opening: Position = opening.parse().unwrap();
    let moves: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
    let mut pos = opening;
    for &m in &moves {
        pos = pos.play(m).unwrap();
    }
    let (result, termination, detail) = match pos.outcome() {
        Outcome::Win(c) => (GameResult::win_for(side(c)), Termination::Normal, None),
        Outcome::Draw => (GameResult::Draw, Termination::Normal, None),
        Outcome::Ongoing => (
            GameResult::win_for(side(pos.side_to_move().opposite())),
            Termination::IllegalMove,
            Some("Black played the illegal move bar/7: {odd} \"quoted\"".to_string()),
        ),
    };
    GameRecord {
        event: "test \"match\"".into(),
        date: "2026.11.29".into(),
        pair: 4,
        game: 2,
        white: "alpha".into(),
        black: "beta \\ gamma".into(),
        opening,
        tc: "depth=2".into(),
        result,
        termination,
        notes: (0..moves.len())
            .map(|i| format!("cp {i} depth 2 {i}ms"))
            .collect(),
        detail,
        moves,
    }
}

#[test]
fn records_round_trip_through_text() {
    // Given a drawn 2-checker game and a forfeit from a black-to-move opening
    let drawn = sample(
        &[
            "bar/1", "bar/2", "bar/3", "bar/4", "1/7", "2/8", "3/9", "4/10", "7/13", "8/14",
            "9/15", "10/16", "13/19", "14/20", "15/21", "16/22",
        ],
        "....../....../....../...... w 2 2 0-0 -",
    );
    let forfeit = sample(&["bar/2"], "w...../....../....../...... b 13 14 0-0 -");
    // When written and read back
    let text = format!("{drawn}{forfeit}");
    let parsed = parse_records(&text).unwrap();
    // Then the records are the same, and replay to their results
    assert!(!parsed.truncated);
    let mut want_forfeit = forfeit.clone();
    want_forfeit.detail = Some("Black played the illegal move bar/7: odd \"quoted\"".into());
    assert_eq!(parsed.games, vec![drawn, want_forfeit]);
    assert!(text.contains("[Round \"5.2\"]"));
    assert!(text.contains("1... bar/2"));
    for g in &parsed.games {
        g.replay().unwrap();
    }
}

#[test]
fn a_record_cut_off_at_the_end_is_flagged_not_fatal() {
    let won = sample(&["bar/1"], "....../....../....../...... w 2 2 0-0 -");
    let text = format!("{won}");
    let cut = &text[..text.find("[Plies").unwrap()];
    let parsed = parse_records(&format!("{won}{cut}")).unwrap();
    assert_eq!(parsed.games.len(), 1);
    assert!(parsed.truncated);
}

#[test]
fn a_record_cut_anywhere_is_left_out() {
    let a = sample(&["bar/1"], "....../....../....../...... w 2 2 0-0 -");
    let b = sample(&["bar/2"], "....../....../....../...... w 2 2 0-0 -");
    let full = format!("{a}{b}");
    let first = parse_records(&a.to_string()).unwrap().games;
    let second = a.to_string().len();
    // Up to the cut that leaves "1-0" without its last character.
    for cut in second + 1..full.len() - 2 {
        let parsed = parse_records(&full[..cut]).unwrap_or_else(|e| panic!("{cut}: {e}"));
        assert_eq!(parsed.games, first, "cut at {cut}");
        assert!(parsed.truncated, "cut at {cut}");
    }
}

/// Two records whose names and notes hold multi-byte characters.
fn non_ascii() -> (GameRecord, GameRecord) {
    let mut a = sample(&["bar/1"], "....../....../....../...... w 2 2 0-0 -");
    a.white = "élan".into();
    let mut b = sample(&["bar/2"], "....../....../....../...... w 2 2 0-0 -");
    b.black = "ünïcødé ☃".into();
    b.notes = vec!["cp 3 — depth 2 ☃".into()];
    (a, b)
}

#[test]
fn invalid_utf8_is_refused_with_its_line() {
    let (a, b) = non_ascii();
    let mut bytes = format!("{a}{b}").into_bytes();
    // A stray byte in the second record's White tag (line 18: each
    // record has 10 tags, a blank line, two lines of moves and a blank)
    let at = bytes.len() - b.to_string().len() + b.to_string().find("alpha").unwrap();
    bytes[at + 2] = 0xFF;
    let e = parse_record_bytes::<Grasshopper>(&bytes).unwrap_err();
    assert_eq!(e.line, 18, "{e}");
    assert!(
        e.message.contains("invalid UTF-8 (byte 0xFF at column 11)"),
        "{e}"
    );
}

#[test]
fn a_file_cut_inside_a_character_keeps_the_records_before() {
    let (a, b) = non_ascii();
    let bytes = format!("{a}{b}").into_bytes();
    let first = a.to_string().len();
    let a = parse_records(&a.to_string()).unwrap().games.remove(0);
    let mut cuts = 0;
    // Every cut inside a multi-byte character of the second record
    for cut in first + 1..bytes.len() {
        if std::str::from_utf8(&bytes[..cut]).is_ok() {
            continue;
        }
        cuts += 1;
        let parsed = parse_record_bytes::<Grasshopper>(&bytes[..cut])
            .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert_eq!(parsed.games, vec![a.clone()], "cut at {cut}");
        assert!(parsed.truncated, "cut at {cut}");
    }
    assert!(cuts >= 10, "{cuts}");
    // And a character cut right after a complete record
    let mut bytes = bytes[..first].to_vec();
    bytes.extend_from_slice(&"☃".as_bytes()[..2]);
    let parsed = parse_record_bytes::<Grasshopper>(&bytes).unwrap();
    assert_eq!((parsed.games.len(), parsed.truncated), (1, true));
}

#[test]
fn a_brace_inside_a_comment_reads_as_the_record_writes_back() {
    // Found by the records_grasshopper fuzz target: the note "a{b" was
    // written as {ab} and read back as another record.
    let won = sample(&["bar/1"], "....../....../....../...... w 2 2 0-0 -");
    let text = won.to_string().replace("{cp 0 depth 2 0ms}", "{cp {0 ms}");
    let parsed = parse_records(&text).unwrap().games;
    assert_eq!(parsed[0].notes, vec!["cp 0 ms".to_string()]);
    let again = parse_records(&parsed[0].to_string()).unwrap().games;
    assert_eq!(again, parsed);
}

#[test]
fn damaged_records_name_the_line() {
    let won = sample(&["bar/1"], "....../....../....../...... w 2 2 0-0 -");
    let text = won.to_string();
    for (from, to, want) in [
        ("[Round \"5.2\"]", "[Round \"5.3\"]", "bad Round"),
        ("[Plies \"1\"]", "[Plies \"2\"]", "Plies says 2"),
        ("bar/1", "bar/x", "\"bar/x\""),
        ("[Result \"1-0\"]", "[Result \"0-1\"]", "Result tag"),
    ] {
        let bad = text.replacen(from, to, 1);
        let e = parse_records(&bad).unwrap_err();
        assert!(e.message.contains(want), "{from}: {e}");
    }
}

#[test]
fn replay_catches_a_wrong_result() {
    let mut won = sample(
        &[
            "bar/1", "bar/2", "bar/3", "bar/4", "1/7", "2/8", "3/9", "4/10", "7/13", "8/14",
            "9/15", "10/16", "13/19", "14/20", "15/21", "16/22",
        ],
        "....../....../....../...... w 2 2 0-0 -",
    );
    assert_eq!(won.replay().unwrap(), Replayed::Over(GameResult::Draw));
    won.result = GameResult::WhiteWins;
    let e = won.replay().unwrap_err();
    assert_eq!(
        e,
        ReplayError::OtherResult {
            want: GameResult::Draw,
            recorded: GameResult::WhiteWins
        }
    );
    assert_eq!(
        e.to_string(),
        "the moves end in 1/2-1/2, but the record says 1-0"
    );
}
