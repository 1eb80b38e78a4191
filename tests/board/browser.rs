//! The page in headless Chromium: a whole 4-checker game against the engine
//! (depth 1) played by clicks, an illegal click answered with the rules'
//! reason, the banner, the record (downloaded from the server, read with the
//! match runner's parser, loaded back and replayed move by move), and the
//! phone-sized layout. With BOARD_SCREENSHOTS=DIR it also saves screenshots.

use crate::webdriver::Browser;
use crate::{http, Served};
use match_grasshopper::Grasshopper;
use match_runner::{parse_records, Termination};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub const PATIENCE: Duration = Duration::from_secs(10);

pub fn screenshots() -> Option<PathBuf> {
    std::env::var_os("BOARD_SCREENSHOTS").map(PathBuf::from)
}

/// The page's view of the game (the state it last drew); null while the
/// page's script has not defined it yet (just after a navigation), so
/// that a wait goes on instead of failing on a script error.
pub fn page_state(b: &Browser) -> serde_json::Value {
    b.script(
        "return typeof ui === 'undefined' ? null : ui.state;",
        json!([]),
    )
}

/// Waits until it is a person's turn or the game is over; returns the state.
pub fn settle(b: &Browser) -> serde_json::Value {
    b.wait("the engine's move", PATIENCE, || {
        let s = page_state(b);
        let idle = !s.is_null()
            && s["engine"]["thinking"] == json!(false)
            && s["engine"]["busy"] == json!(false);
        let people = idle && s["seats"][s["to_move"].as_str().unwrap_or("white")] == json!("human");
        (idle && (people || !s["outcome"].is_null())).then_some(s)
    })
}

/// Runs `click`, waits for the page to hear back from the server, then for
/// the engine's answer; returns the state.
pub fn after(b: &Browser, click: impl FnOnce()) -> serde_json::Value {
    let before = page_state(b)["version"].clone();
    click();
    b.wait("the move to be played", PATIENCE, || {
        (page_state(b)["version"] != before).then_some(())
    });
    settle(b)
}

/// Plays one turn by clicks: Pass when it is the only move, else the first
/// movable checker and (unless one tap played its only move) its first target.
pub fn take_turn(b: &Browser) -> serde_json::Value {
    if b.find("#pass:not([hidden])").is_some() {
        return after(b, || b.click_css("#pass"));
    }
    after(b, || {
        b.click_css(".hit.movable");
        if b.find(".hit.target").is_some() {
            b.click_css(".hit.target");
        }
    })
}

fn moves_in_list(b: &Browser) -> Vec<String> {
    let v = b.script(
        "return [...document.querySelectorAll('#moves .move')].map(e => e.textContent);",
        json!([]),
    );
    serde_json::from_value(v).unwrap()
}

#[test]
fn a_person_plays_a_whole_game_against_the_engine_by_clicks_also_on_a_phone() {
    let started = Instant::now();
    crate::webdriver::require_browser();
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    eprintln!("browser up after {:?}", started.elapsed());
    b.goto(&format!(
        "{}?new=1&checkers=4&depth=1&mode=white",
        server.url
    ));
    let s = settle(&b);
    eprintln!("page up after {:?}", started.elapsed());
    assert_eq!(s["size"], json!(4));
    assert_eq!(s["limit"], json!({ "kind": "depth", "value": 1 }));
    assert!(
        b.text("#turn").contains("White to move"),
        "{}",
        b.text("#turn")
    );

    // An entry by clicks: the pile, then point 3 (highlighted as a target).
    b.click_css("#pile-white.movable");
    let targets = b.find_all(".hit.target");
    assert_eq!(targets.len(), 6, "six empty points in A to enter on");
    let s = after(&b, || b.click_css(".hit[data-point='3'].target"));
    let moves: Vec<String> = serde_json::from_value(s["moves"].clone()).unwrap();
    assert_eq!(moves[0], "bar/3");
    assert_eq!(moves.len(), 2, "the engine answered: {moves:?}");
    let black_entry: String = moves[1].trim_start_matches("bar/").to_string();
    if let Some(dir) = screenshots() {
        std::fs::create_dir_all(&dir).unwrap();
    }

    // Illegal attempts get the rules' reason and change nothing.
    b.click_css("#pile-white");
    b.click_css(&format!(".hit[data-point='{black_entry}']"));
    let message = b.wait("the reason", PATIENCE, || {
        let m = b.text("#message");
        (!m.is_empty()).then_some(m)
    });
    assert!(
        message.contains(&format!("point {black_entry} is occupied")),
        "{message}"
    );
    b.click_css(".hit[data-point='3']");
    b.click_css(".hit[data-point='14']");
    let message = b.wait("the reason", PATIENCE, || {
        let m = b.text("#message");
        m.contains("3/14").then_some(m)
    });
    assert!(
        message.contains("does not land in the next quadrant"),
        "{message}"
    );
    assert_eq!(page_state(&b)["moves"].as_array().unwrap().len(), 2);

    // Undo takes back the engine's move and the person's: White to move at the start.
    let s = after(&b, || b.click_css("#undo"));
    assert_eq!(s["cursor"], json!(0));
    assert_eq!(s["moves"], json!([]));

    // Play on: always the first movable checker and its first target.
    let mut clicks = 0;
    eprintln!("game starts after {:?}", started.elapsed());
    let mut s = settle(&b);
    let over = loop {
        if !s["outcome"].is_null() {
            break s;
        }
        s = take_turn(&b);
        clicks += 1;
        assert!(clicks < 60, "a 4-checker game has at most 36 actions");
    };
    eprintln!("game over after {:?}", started.elapsed());
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("board-game-over.png"));
    }

    // The banner says how it ended, as the rules do.
    let banner = b.text("#banner");
    let result = over["outcome"]["result"].as_str().unwrap().to_string();
    assert!(banner.contains(&result), "{banner}");
    assert!(
        banner.contains("wins: two scores in succession") || banner.contains("Draw"),
        "{banner}"
    );
    let listed = moves_in_list(&b);
    let played: Vec<String> = serde_json::from_value(over["moves"].clone()).unwrap();
    assert_eq!(listed, played);

    // The record: the match runner's format, replaying to the banner's result.
    assert!(b.find("#download:not([disabled])").is_some());
    let id = over["id"].as_str().unwrap();
    let path = format!("/api/games/{id}/record");
    // The game is this browser's: its owner cookie, which the page's
    // scripts cannot read, opens it; another client's does not.
    let cookie = b.cookie("grasshopper_owner");
    assert_eq!(cookie["httpOnly"], json!(true), "{cookie}");
    assert_eq!(cookie["sameSite"], json!("Strict"), "{cookie}");
    assert_eq!(b.script("return document.cookie;", json!([])), json!(""));
    assert_eq!(http::get(&server.addr, &path).status, 403);
    let owner = format!("grasshopper_owner={}", cookie["value"].as_str().unwrap());
    let reply = http::request_as(Some(&owner), &server.addr, "GET", &path, None);
    assert_eq!(reply.status, 200);
    assert!(reply
        .header("content-disposition")
        .is_some_and(|d| d.contains("attachment")));
    let records = parse_records::<Grasshopper>(&reply.body).unwrap().games;
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record.termination, Termination::Normal);
    assert_eq!(record.result.to_string(), result);
    assert_eq!(record.white, "Human");
    assert_eq!(record.black, "grasshopper");
    assert_eq!(record.tc, "depth=1");
    let recorded: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(recorded, played);
    record.replay().unwrap();

    // Load it back and step through it.
    b.script(
        "document.getElementById('record-paste').value = arguments[0];",
        json!([reply.body]),
    );
    b.click_css("details summary");
    b.click_css("#load-record");
    let n = played.len();
    b.wait("the record to load", PATIENCE, || {
        b.text("#ply")
            .contains(&format!("move 0 of {n}"))
            .then_some(())
    });
    assert!(
        b.find("#banner[hidden]").is_some(),
        "no banner at the start"
    );
    for k in 1..=3 {
        b.click_css("#next");
        b.wait("a step forward", PATIENCE, || {
            b.text("#ply")
                .contains(&format!("move {k} of {n}"))
                .then_some(())
        });
    }
    assert_eq!(page_state(&b)["fen"].as_str().unwrap(), {
        let mut pos = record.opening;
        for m in &record.moves[..3] {
            pos = pos.play(*m).unwrap();
        }
        pos.to_string()
    });
    b.click_css("#last");
    b.wait("the end of the record", PATIENCE, || {
        b.text("#banner").contains(&result).then_some(())
    });
    assert!(b.text("#loaded").contains("Human vs grasshopper"));
    eprintln!(
        "browser game: {n} plies, {clicks} turns by clicks, {:?}",
        started.elapsed()
    );

    middle_game_on_desktop_and_phone(&b, &server);
    let elapsed = started.elapsed();
    // About 20 s on the idle 2-core machine; the bound only catches a stuck page.
    assert!(elapsed < Duration::from_secs(90), "took {elapsed:?}");
}

/// A middle game (walls, lone checkers, a score and a run): the targets of a
/// wall, the board turned round, and the phone-sized layout.
fn middle_game_on_desktop_and_phone(b: &Browser, server: &Served) {
    let fen = "ww.b.w/.W.b.b/..B.w./W..b.. w 4 8 1-0 w1";
    let url = format!(
        "{}?new=1&mode=both&fen={}",
        server.url,
        fen.replace(' ', "%20")
    );
    b.goto(&url);
    let s = settle(b);
    assert_eq!(s["fen"], json!(fen));
    // Select the wall on 8 (B): its top may go to the empty points of C, and
    // 14 (8 + 6) is among them; 17 holds a lone white checker not 6 ahead.
    b.click_css(".hit[data-point='8']");
    let targets = || -> Vec<String> {
        serde_json::from_value(b.script(
            "return [...document.querySelectorAll('.hit.target')].map(e => e.dataset.point);",
            json!([]),
        ))
        .unwrap()
    };
    assert_eq!(targets(), ["13", "14", "16", "18"]);
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("board-desktop.png"));
    }
    // Flipped, point 1 moves from the bottom right to the top left.
    let corner = || -> (f64, f64) {
        let v = b.script(
            "const r = document.querySelector(\".hit[data-point='1']\").getBoundingClientRect(); return [r.x, r.y];",
            json!([]),
        );
        (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
    };
    let (x, y) = corner();
    b.click_css("#flip");
    let (fx, fy) = corner();
    assert!(fx < x && fy < y, "({x}, {y}) -> ({fx}, {fy})");
    assert_eq!(targets(), ["13", "14", "16", "18"], "the selection stays");
    b.click_css("#flip");

    b.resize(390, 844);
    b.goto(&url);
    settle(b);
    let fits = b.script(
        "return document.documentElement.scrollWidth <= window.innerWidth;",
        json!([]),
    );
    assert_eq!(fits, json!(true), "no sideways scrolling on a phone");
    let width = b.script(
        "return document.getElementById('board').getBoundingClientRect().width;",
        json!([]),
    );
    assert!(
        width.as_f64().unwrap() >= 350.0,
        "the board uses the width: {width}"
    );
    b.click_css(".hit[data-point='8']");
    assert_eq!(targets().len(), 4);
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("board-phone.png"));
    }
}
