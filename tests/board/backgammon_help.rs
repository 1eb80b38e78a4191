//! Help for a backgammon player: a game set up from a GNU Backgammon
//! `PositionID:MatchID` or an XGID, given to the API and typed into the
//! page (bad text refused with the rules' reason, the game in play kept);
//! the hint's ranked moves and cube equities; the review after a game.

use crate::backgammon::{serve, settle, state, PATIENCE};
use crate::webdriver::Browser;
use crate::{http, Served};
use serde_json::{json, Value};

/// A 9-point match position (the rules crate's example of a gnubg ID).
const GNUBG_ID: &str = "4HPwATDgc/ABMA:QYkqASAAIAAA";
/// A 7-point match at 4-2 for player 0, cube 2, 5-2 rolled.
const XGID: &str = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";

fn set_up(a: &str, position: &str) -> http::Reply {
    let people =
        json!({"game": "backgammon", "white": "human", "black": "human", "position": position});
    http::post(a, "/api/games", &people)
}

#[test]
fn a_game_set_up_from_a_gnubg_id_or_an_xgid_over_the_api() {
    let server: Served = serve("3");
    let a = server.addr.as_str();
    let r = set_up(a, GNUBG_ID);
    assert_eq!(r.status, 201, "{}", r.body);
    let s = r.json();
    assert_eq!(s["length"], json!(9));
    assert_eq!(s["set_up_from"], json!(GNUBG_ID));
    assert_eq!(
        s["position"],
        json!(GNUBG_ID),
        "the game is at that position"
    );
    assert_eq!(s["log"][0], json!(format!("Set up from {GNUBG_ID}")));
    // An XGID with the dice rolled: the move with those dice is due.
    let s = set_up(a, XGID).json();
    assert_eq!(s["length"], json!(7));
    assert_eq!(s["cube"]["value"], json!(2));
    assert_eq!(s["due"]["kind"], json!("move"), "{s}");
    let mut dice: Vec<u64> = s["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .collect();
    dice.sort();
    assert_eq!(dice, [2, 5]);
    let score = [&s["score"]["white"], &s["score"]["black"]];
    assert!(
        score.contains(&&json!(4)) && score.contains(&&json!(2)),
        "{s}"
    );
    // Play goes on from there by the rules.
    let id = s["id"].as_str().unwrap();
    let text = s["legal"][0]["text"].as_str().unwrap();
    let r = http::post(
        a,
        &format!("/api/games/{id}/move"),
        &json!({ "move": text }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // No .mat for a game that did not start at the opening.
    let r = http::get(a, &format!("/api/games/{id}/record"));
    assert_eq!(r.status, 409, "{}", r.body);
    // Bad text: the rules' reason, quoting it.
    let r = set_up(a, "4HPwATDgc/ABM");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("4HPwATDgc/ABM"), "{}", r.body);
    // A length that is not the position's.
    let body = json!({"game": "backgammon", "white": "human", "black": "human", "position": XGID, "length": 0});
    let r = http::post(a, "/api/games", &body);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("7-point match"), "{}", r.body);
}

#[test]
fn a_position_typed_into_the_page_starts_a_game_and_bad_text_is_refused() {
    crate::webdriver::require_browser();
    let server = serve("4");
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}backgammon?mode=white&length=0", server.url));
    let first: Value = settle(&b);
    b.type_into("#setup-text", "XGID=nonsense");
    b.click_css("#setup");
    let message = b.wait("the refusal", PATIENCE, || {
        let m = b.text("#message");
        (!m.is_empty() && m.contains("nonsense")).then_some(m)
    });
    assert_eq!(
        state(&b)["id"],
        first["id"],
        "the game in play is kept: {message}"
    );
    b.script(
        "document.getElementById('setup-text').value = '';",
        json!([]),
    );
    b.type_into("#setup-text", XGID);
    b.click_css("#setup");
    let s = b.wait("the set-up game", PATIENCE, || {
        let s = state(&b);
        (s["set_up_from"] == json!(XGID)).then_some(s)
    });
    assert_eq!(s["length"], json!(7));
    assert!(
        b.text("#score").contains("7-point match"),
        "{}",
        b.text("#score")
    );
    assert!(b.text("#log").contains("Set up from XGID="));
}

#[test]
fn a_set_up_game_is_kept_on_disk_from_its_position() {
    let dir = std::env::temp_dir().join(format!("board-bg-setup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["--seed", "9"];
    let (id, before) = {
        let server = Served::start_in(&dir, &args);
        let s = set_up(&server.addr, XGID).json();
        let id = s["id"].as_str().unwrap().to_string();
        let text = s["legal"][0]["text"].as_str().unwrap();
        let path = format!("/api/games/{id}/move");
        let r = http::post(&server.addr, &path, &json!({ "move": text }));
        assert_eq!(r.status, 200, "{}", r.body);
        (id, r.json())
    };
    let server = Served::start_in(&dir, &args);
    let after = http::get(&server.addr, &format!("/api/games/{id}")).json();
    for key in ["position", "due", "score", "log", "set_up_from"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hint lists the engine's best moves with equities (our UBGI
/// extension `go chequer candidates 5`), and before a roll its cube
/// equities; nothing is played.
#[test]
fn a_hint_lists_the_best_moves_with_equities_and_the_cube_opinion() {
    let server = serve("6");
    let a = server.addr.as_str();
    let people = json!({"game": "backgammon", "white": "human", "black": "human", "engine": 0});
    let s = http::post(a, "/api/games", &people).json();
    let id = s["id"].as_str().unwrap();
    let r = http::post(a, &format!("/api/games/{id}/hint"), &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let after = http::get(a, &format!("/api/games/{id}")).json();
    assert_eq!(after["version"], s["version"], "a hint plays nothing");
    let hint = after["hint"].as_str().unwrap().to_string();
    let best = hint.split("Best moves: ").nth(1).expect(&hint);
    let moves: Vec<&str> = best.split("), ").collect();
    assert_eq!(moves.len(), 5, "{hint}");
    // The engine's choice is its first candidate.
    let first = moves[0].split(" (").next().unwrap();
    assert!(
        hint.starts_with(&format!("The engine would {first}.")),
        "{hint}"
    );
    // Before the next roll: the cube's three equities.
    let text = s["legal"][0]["text"].as_str().unwrap();
    let r = http::post(
        a,
        &format!("/api/games/{id}/move"),
        &json!({ "move": text }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["due"]["kind"], json!("cube"));
    http::post(a, &format!("/api/games/{id}/hint"), &json!({}));
    let hint = http::get(a, &format!("/api/games/{id}")).json()["hint"].clone();
    let hint = hint.as_str().unwrap();
    assert!(
        hint.starts_with(
            "The engine would no double: roll. Equities of the player on roll: no double "
        ),
        "{hint}"
    );
    assert!(
        hint.contains("double/take") && hint.contains("double/drop +1.000"),
        "{hint}"
    );
}

/// The review after a game: two people play a money game over the API,
/// each taking the last listed way to play (often poor); the page's
/// button has the engine rank every choice, and the moves that lost more
/// than the threshold are listed with the better move.
#[test]
fn the_review_marks_the_moves_that_lost_equity_with_the_better_move() {
    crate::webdriver::require_browser();
    let server = serve("12");
    let a = server.addr.as_str();
    // The API plays as the browser's owner, so the page may open the game.
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}backgammon?mode=both", server.url));
    settle(&b);
    let owner = b.cookie("grasshopper_owner");
    let cookie = format!("grasshopper_owner={}", owner["value"].as_str().unwrap());
    let post = |path: &str, body: &Value| {
        let body = body.to_string();
        http::request_as(
            Some(&cookie),
            a,
            "POST",
            path,
            Some(("application/json", &body)),
        )
    };
    let people = json!({"game": "backgammon", "white": "human", "black": "human", "cube": false, "engine": 0});
    let mut s = post("/api/games", &people).json();
    let id = s["id"].as_str().unwrap().to_string();
    let early = post(&format!("/api/games/{id}/review"), &json!({}));
    assert_eq!(
        early.status, 409,
        "the review comes after the game: {}",
        early.body
    );
    let mut turns = 0;
    while s["due"]["kind"] == json!("move") {
        let legal = s["legal"].as_array().unwrap();
        let text = legal.last().unwrap()["text"].as_str().unwrap();
        let r = post(&format!("/api/games/{id}/move"), &json!({ "move": text }));
        assert_eq!(r.status, 200, "{}", r.body);
        s = r.json();
        turns += 1;
        assert!(turns < 600, "the game ends");
    }
    assert_eq!(s["due"]["kind"], json!("over"), "{s}");
    b.goto(&format!("{}backgammon?game={id}", server.url));
    b.wait("the review button", PATIENCE, || {
        b.find("#bg-review:not([hidden])")
    });
    b.click_css("#bg-review");
    let note = b.wait("the review", PATIENCE, || {
        let n = b.text("#review-note");
        (!n.is_empty()).then_some(n)
    });
    assert!(note.contains("lost more than 0.04"), "{note}");
    let review = state(&b)["review"].clone();
    let marked = review["marked"].as_array().unwrap();
    let checked = review["checked"].as_u64().unwrap();
    assert!(checked > 10 && !marked.is_empty(), "{review}");
    for m in marked {
        assert!(m["loss"].as_f64().unwrap() > 0.04, "{m}");
        assert_ne!(m["played"], m["best"], "{m}");
    }
    let items = b.find_all("#review li");
    assert_eq!(items.len(), marked.len());
    let first = b.text("#review li");
    assert!(first.contains("better"), "{first}");
    eprintln!(
        "review: {turns} moves played, {checked} with a choice checked, {} marked; first: {first}",
        marked.len()
    );
}
