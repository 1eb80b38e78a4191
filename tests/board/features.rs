//! What players expect of the board (issue 24), each used by clicks, taps,
//! drags and keys in headless Chromium: Resign, copying the position and a
//! link to it, named levels, the engine's score hidden while playing and a
//! Hint, one tap for a checker with one move, drag and drop, "Move now",
//! keyboard play and names for screen readers.

use crate::browser::{after, page_state, screenshots, settle, take_turn, PATIENCE};
use crate::defects::{message_with, page_fetch};
use crate::webdriver::Browser;
use crate::Served;
use serde_json::json;
use std::time::Duration;

#[test]
fn resign_hint_levels_and_the_hidden_score_against_the_engine() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!(
        "{}?new=1&checkers=4&mode=white&level=beginner",
        server.url
    ));
    let s = settle(&b);
    assert_eq!(s["limit"], json!({ "kind": "depth", "value": 1 }));
    assert_eq!(
        b.script("return document.getElementById('level').value;", json!([])),
        json!("beginner")
    );
    // A named level sets the strength.
    b.script(
        "const l = document.getElementById('level'); l.value = 'club'; l.dispatchEvent(new Event('change'));",
        json!([]),
    );
    b.wait("the club level", PATIENCE, || {
        (page_state(&b)["limit"] == json!({ "kind": "depth", "value": 4 })).then_some(())
    });
    // The engine's score and line are hidden while a person plays it.
    let s = after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    assert!(!s["engine"]["info"].is_null(), "the engine reported");
    assert!(
        b.find("#engine-info[hidden]").is_some(),
        "hidden by default"
    );
    // A hint: the engine's move for the person, marked and not played.
    let before = s["moves"].as_array().unwrap().len();
    b.click_css("#hint");
    let s = b.wait("the hint", PATIENCE, || {
        let s = page_state(&b);
        (!s["hint"].is_null() && s["engine"]["busy"] == json!(false)).then_some(s)
    });
    assert_eq!(s["moves"].as_array().unwrap().len(), before, "not played");
    let hint = s["hint"].as_str().unwrap().to_string();
    assert!(
        s["legal"].as_array().unwrap().contains(&json!(hint)),
        "{hint}"
    );
    message_with(&b, &format!("Hint: {hint}"));
    assert!(!b.find_all(".tri.hinted").is_empty());
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("board-hint.png"));
    }
    // Resign asks once more, then ends the game with a record.
    b.click_css("#resign");
    message_with(&b, "Really resign");
    let s = after(&b, || b.click_css("#resign"));
    assert_eq!(s["outcome"]["result"], json!("0-1"));
    assert!(b.text("#banner").contains("White resigns: Black wins"));
    assert!(b.find("#download:not([disabled])").is_some());
    let id = s["id"].as_str().unwrap();
    let record = b.script(
        "const x = new XMLHttpRequest(); x.open('GET', '/api/games/' + arguments[0] + '/record', false); x.send(); return x.responseText;",
        json!([id]),
    );
    let record = record.as_str().unwrap();
    assert!(record.contains("0-1"), "{record}");
    assert!(record.contains("White resigns"), "{record}");
}

#[test]
fn copy_the_position_and_a_link_then_open_the_link() {
    let server = Served::start(&[]);
    let b = Browser::start(390, 844);
    b.goto(&format!("{}?new=1&checkers=4&mode=both", server.url));
    settle(&b);
    let s = after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    let fen = s["fen"].as_str().unwrap().to_string();
    b.click_css("#copy-fen");
    let out = b.script(
        "return document.getElementById('copy-out').value;",
        json!([]),
    );
    assert_eq!(out, json!(fen));
    b.click_css("#copy-link");
    let link = b.script(
        "return document.getElementById('copy-out').value;",
        json!([]),
    );
    let link = link.as_str().unwrap().to_string();
    assert!(
        link.starts_with(&server.url) && link.contains("?fen="),
        "{link}"
    );
    b.goto(&link);
    let s = settle(&b);
    assert_eq!(s["start"], json!(fen), "the link opens the position");
}

#[test]
fn one_tap_drag_and_drop_keys_and_names_for_screen_readers() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    // A middle game: White's checker on 1 has one move, the wall on 8 four.
    let fen = "ww.b.w/.W.b.b/..B.w./W..b.. w 4 8 1-0 w1";
    b.goto(&format!(
        "{}?new=1&mode=both&fen={}",
        server.url,
        fen.replace(' ', "%20")
    ));
    let s = settle(&b);
    let from_one: Vec<String> = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .filter(|m| m.starts_with("1/"))
        .map(String::from)
        .collect();
    assert_eq!(from_one.len(), 1, "{}", s["legal"]);
    // One tap plays the only move (with sounds on: a tick).
    b.click_css("#sounds");
    let s = after(&b, || b.click_css(".hit[data-point='1']"));
    assert_eq!(s["moves"], json!([from_one[0]]));
    assert_eq!(b.script("return ui.sounds;", json!([])), json!(1));
    // Black's turn: drag from a black checker to a target.
    let s = page_state(&b);
    let black_from = s["legal"][0].as_str().unwrap().to_string();
    let (from, to) = black_from.split_once('/').unwrap();
    let target = if to == "off" {
        "#off".to_string()
    } else {
        format!(".hit[data-point='{to}']")
    };
    let source = match from {
        "bar" => "#pile-black".to_string(),
        p => format!(".hit[data-point='{p}']"),
    };
    let s = after(&b, || b.drag(&source, &target));
    assert_eq!(s["moves"][1], json!(black_from), "the drag played");
    // Keys: ← steps back, → forward, F flips; a move typed and Enter.
    b.click_css("#run");
    let s = after(&b, || b.keys("\u{E012}"));
    assert_eq!(s["cursor"], json!(1));
    let s = after(&b, || b.keys("\u{E014}"));
    assert_eq!(s["cursor"], json!(2));
    b.keys("f");
    assert_eq!(b.script("return ui.flipped;", json!([])), json!(true));
    // The points, piles and the off tray are buttons with names.
    let names = b.script(
        "return [...document.querySelectorAll('.hit[role=button]')].map(e => e.getAttribute('aria-label'));",
        json!([]),
    );
    let names: Vec<String> = serde_json::from_value(names).unwrap();
    assert_eq!(names.len(), 24 + 2 + 1, "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("point 8: white wall")),
        "{names:?}"
    );
    // Enter on a focused point selects it, as a click does.
    b.script(
        "document.querySelector(\".hit[data-point='8']\").focus();",
        json!([]),
    );
    b.keys("\u{E007}");
    b.wait("the selection", PATIENCE, || {
        (b.script("return ui.selected;", json!([])) == json!("8")).then_some(())
    });
    let next = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .find(|m| !m.starts_with("8/"))
        .unwrap()
        .to_string();
    let s = after(&b, || {
        b.type_into("#move-input", &format!("{next}\u{E007}"))
    });
    assert_eq!(s["moves"][2], json!(next));
}

#[test]
fn move_now_makes_the_engine_play_at_once() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!(
        "{}?new=1&checkers=14&movetime=20000&mode=black",
        server.url
    ));
    b.wait("the engine to think", PATIENCE, || {
        (page_state(&b)["engine"]["thinking"] == json!(true)).then_some(())
    });
    std::thread::sleep(Duration::from_millis(300));
    b.click_css("#move-now");
    // The page plays at depth 1, then sets the strength back: a loaded
    // machine can show the move before the strength is restored.
    let before = json!({ "kind": "movetime", "value": 20000 });
    let s = b.wait(
        "the engine's move at the strength as before",
        PATIENCE,
        || {
            let s = page_state(&b);
            let played = s["moves"].as_array().unwrap().len() == 1;
            (played && s["engine"]["thinking"] == json!(false) && s["limit"] == before).then_some(s)
        },
    );
    assert_eq!(s["limit"], before, "the strength is as before");
    // The API, asked by the page with its cookie, agrees.
    let id = s["id"].as_str().unwrap();
    let r = page_fetch(&b, "GET", &format!("/api/games/{id}"), json!(null));
    assert_eq!(r["body"]["moves"].as_array().unwrap().len(), 1);
}

/// After a game, the engine values every position: the moves that gave a
/// wall or more away are marked (3 or more: blunders), and a graph shows
/// the value through the game.
#[test]
fn after_a_game_the_analysis_marks_mistakes_and_draws_the_graph() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!(
        "{}?new=1&checkers=4&depth=2&mode=white",
        server.url
    ));
    let mut s = settle(&b);
    while s["outcome"].is_null() {
        s = take_turn(&b);
    }
    let n = s["moves"].as_array().unwrap().len();
    b.click_css("#analyse");
    let m = b.wait("the analysis", Duration::from_secs(60), || {
        let m = b.text("#message");
        m.contains("Analysis done").then_some(m)
    });
    let s = page_state(&b);
    let analysed = s["analysis"].as_array().unwrap();
    assert_eq!(
        analysed.len(),
        n,
        "every position but the last, which is over"
    );
    assert!(b.find("#graph:not([hidden]) polyline").is_some());
    let points = b.script(
        "return document.querySelector('#graph polyline').getAttribute('points').trim().split(' ').length;",
        json!([]),
    );
    assert_eq!(points, json!(n + 1), "one point a position");
    // The marks follow from the values: recomputed here from the API's numbers.
    let sure = 20.0;
    let mut value = vec![None; n + 1];
    for a in analysed {
        let v = a["score_white"].as_f64().unwrap();
        value[a["ply"].as_u64().unwrap() as usize] = Some(match a["score_kind"].as_str() {
            Some("mate") => sure * v.signum(),
            _ => (v / 100.0).clamp(-sure, sure),
        });
    }
    value[n] = Some(match s["outcome"]["winner"].as_str() {
        Some("white") => sure,
        Some("black") => -sure,
        _ => 0.0,
    });
    let first_white = s["first"] == json!("white");
    let mut want = Vec::new();
    for i in 0..n {
        let white = (i % 2 == 0) == first_white;
        let loss = (if white { 1.0 } else { -1.0 }) * (value[i].unwrap() - value[i + 1].unwrap());
        let forced = s["notes"][i] == json!("forced pass");
        let best = analysed
            .iter()
            .find(|a| a["ply"] == json!(i))
            .map(|a| a["best"].clone());
        if loss >= 1.0 && !forced && best != Some(s["moves"][i].clone()) {
            want.push(i + 1);
        }
    }
    let marked: Vec<usize> = serde_json::from_value(b.script(
        "return [...document.querySelectorAll('#moves .move.mistake, #moves .move.blunder')].map(e => Number(e.dataset.ply));",
        json!([]),
    ))
    .unwrap();
    let mut marked = marked;
    marked.sort();
    assert_eq!(marked, want, "{m}");
    eprintln!("analysis: {n} plies, marked {marked:?}: {m}");
    if let Some(dir) = screenshots() {
        b.script(
            "document.getElementById('graph').scrollIntoView({ block: 'end' });",
            json!([]),
        );
        b.screenshot(&dir.join("board-analysis.png"));
    }
}

/// The position editor: points set by clicks, the rest in fields; the
/// server says why an impossible position is refused.
#[test]
fn a_position_is_set_up_in_the_editor_and_played() {
    let server = Served::start(&[]);
    let b = Browser::start(390, 844);
    b.goto(&format!("{}?new=1&checkers=2&mode=both", server.url));
    settle(&b);
    b.click_css("#edit-start");
    assert!(b.text("#turn").contains("Editing"));
    b.click_css("#edit-clear");
    // A wall in A: impossible (entering never builds one); the server says so.
    b.click_css(".hit[data-point='1']");
    b.click_css(".hit[data-point='1']");
    let set = |id: &str, v: &str| {
        b.script(
            "const f = document.getElementById(arguments[0]); f.value = arguments[1];
             f.dispatchEvent(new Event('input'));",
            json!([id, v]),
        );
    };
    set("edit-side", "black");
    set("edit-enter-white", "0");
    set("edit-enter-black", "2");
    set("edit-score-white", "0");
    set("edit-score-black", "0");
    set("edit-run", "-");
    b.click_css("#edit-play");
    message_with(&b, "never builds a wall");
    // One white checker on 1, one to enter: the position after bar/1.
    for _ in 0..4 {
        b.click_css(".hit[data-point='1']");
    }
    set("edit-enter-white", "1");
    let old = page_state(&b)["id"].clone();
    b.click_css("#edit-play");
    let s = b.wait("the edited game", PATIENCE, || {
        let s = page_state(&b);
        (s["id"] != old).then_some(s)
    });
    assert_eq!(s["fen"], json!("w...../....../....../...... b 1 2 0-0 -"));
    assert!(b.find("#editor-fields[hidden]").is_some());
    assert!(b.text("#turn").contains("Black to move"));
}
