//! A `.mat` file imported on the board: GNU Backgammon's own export of a
//! 5-point match (fixtures/gnubg-5-point-match.mat) pasted into the page,
//! stepped through by its buttons and game selector in Chromium, each
//! shown Position ID checked against the record as the reader replays it,
//! and a game played on from one of its positions; the file chosen with
//! the file picker too, and back to the game in play; over the API, a file
//! that is not a match refused naming the line and the token.

use crate::backgammon::{serve, settle, state, PATIENCE};
use crate::browser::screenshots;
use crate::http;
use crate::webdriver::Browser;
use match_backgammon::mat;
use serde_json::{json, Value};

const FIXTURE: &str = include_str!("../../fixtures/gnubg-5-point-match.mat");

fn shown(b: &Browser) -> String {
    let v = b.script(
        "return document.getElementById('position').value;",
        json!([]),
    );
    v.as_str().unwrap().to_string()
}

fn click(b: &Browser, css: &str, times: usize) {
    for _ in 0..times {
        b.click_css(css);
    }
}

#[test]
fn an_imported_mat_is_stepped_through_and_played_on_from_a_position() {
    crate::webdriver::require_browser();
    let file = mat::parse(FIXTURE).unwrap();
    let server = serve("5");
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}backgammon?mode=white&length=0", server.url));
    let first: Value = settle(&b);
    b.script(
        "document.getElementById('mat-text').value = arguments[0];",
        json!([FIXTURE]),
    );
    b.click_css("#mat-import");
    b.wait("the replay", PATIENCE, || b.find("#replay:not([hidden])"));
    let games = b.find_all("#replay-game option");
    assert_eq!(games.len(), file.games.len());
    let game1 = &file.games[0].steps;
    assert_eq!(shown(&b), game1[0].before.to_string());
    click(&b, "#replay-next", 7);
    assert_eq!(shown(&b), game1[7].before.to_string());
    assert!(
        b.text("#replay-at").contains(&game1[7].action),
        "{}",
        b.text("#replay-at")
    );
    click(&b, "#replay-prev", 2);
    assert_eq!(shown(&b), game1[5].before.to_string());
    b.click_css("#replay-last");
    assert_eq!(shown(&b), file.games[0].end.to_string());
    // The third game, the Crawford game, chosen in the selector.
    b.script(
        "const s = document.getElementById('replay-game'); s.value = '2'; s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    let game3 = &file.games[2].steps;
    assert_eq!(shown(&b), game3[0].before.to_string());
    assert!(
        b.text("#score").contains("Crawford game"),
        "{}",
        b.text("#score")
    );
    click(&b, "#replay-next", 4);
    let here = game3[4].before.to_string();
    assert_eq!(shown(&b), here);
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("backgammon-replay.png"));
    }
    assert_eq!(b.find_all("#log li").len(), game3.len() + 1);
    // Play from here: a game set up from that position.
    b.click_css("#replay-play");
    let s = b.wait("the game set up from the replay", PATIENCE, || {
        let s = state(&b);
        (s["set_up_from"] == json!(here)).then_some(s)
    });
    assert_ne!(s["id"], first["id"]);
    assert_eq!(s["length"], json!(5));
    assert_eq!(s["crawford"], json!(true));
    assert_eq!(
        (s["score"]["white"].clone(), s["score"]["black"].clone()),
        (json!(4), json!(0))
    );
    assert!(
        b.find("#replay:not([hidden])").is_none(),
        "the replay is left"
    );
    // The same file chosen with the file picker; Back to the game returns
    // to the game set up from it.
    b.script("document.getElementById('mat-text').value = '';", json!([]));
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gnubg-5-point-match.mat");
    b.type_into("#mat-file", &path.display().to_string());
    b.click_css("#mat-import");
    b.wait("the replay of the chosen file", PATIENCE, || {
        b.find("#replay:not([hidden])")
    });
    assert_eq!(shown(&b), game1[0].before.to_string());
    b.click_css("#replay-close");
    let back = b.wait("the game in play again", PATIENCE, || {
        let s = state(&b);
        (s["set_up_from"] == json!(here)).then_some(s)
    });
    assert_eq!(back["id"], s["id"]);
    assert!(b.find("#replay:not([hidden])").is_none());
    eprintln!(
        "imported {} games ({} positions); played on from game 3, move 5: {here}",
        file.games.len(),
        file.games.iter().map(|g| g.steps.len() + 1).sum::<usize>()
    );
}

#[test]
fn a_file_that_is_not_a_match_is_refused_naming_the_line_and_token() {
    let server = serve("5");
    let a = server.addr.as_str();
    let r = http::post(a, "/api/mat", &json!({ "text": FIXTURE }));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["games"].as_array().unwrap().len(), 6);
    let bad = FIXTURE.replacen("Doubles => 2", "Doubles => 8", 1);
    let r = http::post(a, "/api/mat", &json!({ "text": bad }));
    assert_eq!(r.status, 422, "{}", r.body);
    let at = FIXTURE
        .lines()
        .position(|l| l.contains("Doubles => 2"))
        .unwrap()
        + 1;
    assert_eq!(
        r.json()["error"],
        json!(format!(
            "the .mat file: line {at}: \"Doubles\": the cube goes to 2"
        ))
    );
    let r = http::post(a, "/api/mat", &json!({ "file": "x" }));
    assert_eq!(r.status, 400, "{}", r.body);
}
