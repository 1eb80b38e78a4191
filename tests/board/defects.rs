//! The defects found by playing the board as a person would (issue 24),
//! each replayed by clicks in headless Chromium, phone-sized where the
//! defect is about phones: the board scrolling away, a New game while the
//! engine thinks, two tabs on one game, a full server, a game closed for
//! idleness or by a restart, a reload, the strength field, moving while
//! reviewing, the engine's pass, and the smaller ones.

use crate::browser::{after, page_state, settle, take_turn, PATIENCE};
use crate::http;
use crate::webdriver::Browser;
use crate::Served;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Runs `fetch` in the page (its cookie, so as another tab of this browser
/// would) and returns the answer's JSON, without the page seeing it.
pub fn page_fetch(b: &Browser, method: &str, path: &str, body: Value) -> Value {
    b.script(
        "const [m, p, body] = arguments; const init = { method: m, headers: {} };
         if (m === 'POST') { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
         const x = new XMLHttpRequest(); x.open(m, p, false);
         if (m === 'POST') x.setRequestHeader('Content-Type', 'application/json');
         x.send(m === 'POST' ? JSON.stringify(body) : null);
         return { status: x.status, body: x.responseText ? JSON.parse(x.responseText) : null };",
        json!([method, path, body]),
    )
}

/// The board's box on the screen and the window's height.
fn board_in_view(b: &Browser) -> (f64, f64, f64) {
    let v = b.script(
        "const r = document.getElementById('board').getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight];",
        json!([]),
    );
    (
        v[0].as_f64().unwrap(),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
    )
}

fn open_games(server: &Served) -> u64 {
    http::get(&server.addr, "/api/info").json()["open_games"]
        .as_u64()
        .unwrap()
}

/// Waits for the message line to say something containing `want`.
pub fn message_with(b: &Browser, want: &str) -> String {
    b.wait(&format!("a message with \"{want}\""), PATIENCE, || {
        let m = b.text("#message");
        m.contains(want).then_some(m)
    })
}

/// Issue 24's "done when": a whole game on a phone, and the board in view
/// at every move (defect 1: the moves list scrolled the page, and after
/// about 8 moves the board's top was off-screen).
#[test]
fn a_whole_game_on_a_phone_keeps_the_board_in_view_at_every_move() {
    let server = Served::start(&[]);
    let b = Browser::start(390, 844);
    b.goto(&format!(
        "{}?new=1&checkers=6&depth=1&mode=white",
        server.url
    ));
    let mut s = settle(&b);
    let mut turns = 0;
    while s["outcome"].is_null() {
        s = take_turn(&b);
        turns += 1;
        let (top, bottom, height) = board_in_view(&b);
        assert!(
            top >= 0.0 && bottom <= height,
            "after {turns} turns ({} plies) the board is at {top}..{bottom} of {height}",
            s["cursor"]
        );
        assert!(turns < 80, "a 6-checker game ends");
    }
    assert!(
        s["moves"].as_array().unwrap().len() >= 16,
        "long enough to have scrolled: {}",
        s["moves"]
    );
    let banner = b.text("#banner");
    assert!(banner.contains(s["outcome"]["result"].as_str().unwrap()));
    eprintln!(
        "phone game: {} plies, {turns} turns by taps",
        s["moves"].as_array().unwrap().len()
    );
}

/// Defect 2: New game while the engine thinks left the old game open and
/// said it had been closed after a long pause.
#[test]
fn a_new_game_while_the_engine_thinks_closes_the_old_one_quietly() {
    // Four engines start and stop here, each while another thinks: on a
    // loaded machine that takes longer than the suite's usual patience, and
    // the defect was never a slow answer but a wrong one.
    const SLOW: Duration = Duration::from_secs(40);
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!(
        "{}?new=1&checkers=14&movetime=10000&mode=black",
        server.url
    ));
    b.wait("the engine to think", SLOW, || {
        (page_state(&b)["engine"]["thinking"] == json!(true)).then_some(())
    });
    for _ in 0..4 {
        let old = page_state(&b)["id"].clone();
        b.click_css("#new-game");
        b.wait("the new game", SLOW, || {
            let s = page_state(&b);
            (s["id"] != old && s["engine"]["thinking"] == json!(true)).then_some(())
        });
        std::thread::sleep(Duration::from_millis(300));
    }
    // Closing a game whose engine is thinking stops that engine first, which
    // takes a moment on a loaded machine: wait for it rather than a fixed
    // time (before the fix the old games stayed open for good).
    b.wait("only the page's own game open", SLOW, || {
        (open_games(&server) == 1).then_some(())
    });
    let message = b.text("#message");
    assert!(!message.contains("closed"), "{message}");
}

/// Defect 2, the server's half: a request of the page already on its way
/// when the page closed its game (a refresh, a wait for the engine) used to
/// open the game again from disk, leaving it open for good. A game closed by
/// its page stays closed to such requests; the page's own open (its load,
/// `POST /api/games/ID/open`) still brings it back.
#[test]
fn a_game_closed_by_its_page_is_not_opened_again_by_a_stray_request() {
    let server = Served::start(&[]);
    let a = server.addr.as_str();
    let people = json!({ "checkers": 4, "white": "human", "black": "human" });
    let id = http::post(a, "/api/games", &people).json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = http::request(a, "DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(http::get(a, &format!("/api/games/{id}")).status, 404);
    let go = http::post(a, &format!("/api/games/{id}/go"), &json!({}));
    assert_eq!(go.status, 404, "{}", go.body);
    assert_eq!(open_games(&server), 0);
    let r = http::post(a, &format!("/api/games/{id}/open"), &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["id"], json!(id));
    assert_eq!(open_games(&server), 1);
}

/// Defect 2 once more (seen in CI on a loaded machine): the close took the
/// game out of the open ones first and marked it closed by its page only
/// after saving it and stopping its engine, so a request of the page that
/// came in between opened it again from disk, for good. Here two threads
/// ask for the game the whole time it is being closed.
#[test]
fn a_request_while_the_game_closes_does_not_open_it_again() {
    let server = Served::start(&[]);
    let a = server.addr.clone();
    let people = json!({ "checkers": 14, "white": "human", "black": "human" });
    for round in 0..30 {
        let id = http::post(&a, "/api/games", &people).json()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let askers: Vec<_> = (0..2)
            .map(|_| {
                let (a, id, done) = (a.clone(), id.clone(), done.clone());
                std::thread::spawn(move || {
                    while !done.load(std::sync::atomic::Ordering::SeqCst) {
                        http::get(&a, &format!("/api/games/{id}"));
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
        let r = http::request(&a, "DELETE", &format!("/api/games/{id}"), None);
        assert_eq!(r.status, 204, "{}", r.body);
        std::thread::sleep(Duration::from_millis(20));
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for t in askers {
            t.join().unwrap();
        }
        assert_eq!(open_games(&server), 0, "round {round}: the game came back");
    }
}

/// Defect 3: a stale tab played on a position it did not show, and saw the
/// other tab's moves only 18 s later.
#[test]
fn a_stale_tab_is_told_and_catches_up_with_the_other() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}?new=1&checkers=4&mode=both", server.url));
    let s = settle(&b);
    let id = s["id"].as_str().unwrap().to_string();
    // "Another tab" enters on 1; this page still shows the start.
    let other = page_fetch(
        &b,
        "POST",
        &format!("/api/games/{id}/move"),
        json!({ "move": "bar/1" }),
    );
    assert_eq!(other["status"], json!(200), "{other}");
    b.click_css("#pile-white");
    b.click_css(".hit[data-point='2']");
    message_with(&b, "changed since this page last saw it");
    let s = page_state(&b);
    assert_eq!(
        s["moves"],
        json!(["bar/1"]),
        "the stale click was not played"
    );
    // Another move there: this page shows it within a few seconds, unasked.
    let black: String = other["body"]["legal"][0].as_str().unwrap().to_string();
    page_fetch(
        &b,
        "POST",
        &format!("/api/games/{id}/move"),
        json!({ "move": black }),
    );
    b.wait("the other tab's move", Duration::from_secs(6), || {
        (page_state(&b)["moves"].as_array().unwrap().len() == 2).then_some(())
    });
}

/// Defect 4: a page on a full server got a blank board whose buttons threw
/// TypeErrors, no retry, and closing tabs freed nothing.
#[test]
fn a_full_server_gives_a_page_that_waits_and_retries_and_a_closed_tab_makes_room() {
    let server = Served::start(&["--max-games", "2"]);
    // Two other browsers take the server's places.
    let mut others = Vec::new();
    for n in 2..4 {
        let cookie = format!("grasshopper_owner={n:032x}");
        let r = http::request_as(
            Some(&cookie),
            &server.addr,
            "POST",
            "/api/games",
            Some(("application/json", "{\"checkers\": 4}")),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        others.push((cookie, r.json()["id"].as_str().unwrap().to_string()));
    }
    let b = Browser::start(390, 844);
    b.goto(&format!("{}?new=1", server.url));
    message_with(&b, "the most this server allows");
    assert!(
        b.find("#retry:not([hidden])").is_some(),
        "a Try again button"
    );
    for button in ["#undo", "#flip", "#next", "#prev", "#engine-move"] {
        assert!(
            b.find(&format!("{button}[disabled]")).is_some(),
            "{button} is off without a game"
        );
    }
    // Nothing throws, whatever is pressed (the buttons' handlers included).
    let errors = b.script(
        "const errors = [];
         window.addEventListener('error', (e) => errors.push(String(e.message)));
         window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
         for (const id of ['undo', 'flip', 'next', 'prev', 'first', 'last', 'download', 'copy-fen']) {
           const el = document.getElementById(id); el.disabled = false; el.click();
         }
         document.getElementById('fen').value = '';
         document.getElementById('load-fen').click();
         document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }));
         return new Promise((done) => setTimeout(() => done(errors), 300));",
        json!([]),
    );
    assert_eq!(errors, json!([]), "no uncaught errors");
    assert!(b.text("#message").contains("position string first"));
    // A place frees up: Try again opens a game.
    let (cookie, id) = &others[0];
    let r = http::request_as(
        Some(cookie),
        &server.addr,
        "DELETE",
        &format!("/api/games/{id}"),
        None,
    );
    assert_eq!(r.status, 204);
    b.click_css("#retry");
    b.wait("a game", PATIENCE, || {
        b.text("#turn").contains("to move").then_some(())
    });
    assert!(b.find("#retry[hidden]").is_some());
    let mine = page_state(&b)["id"].as_str().unwrap().to_string();
    let s = after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    assert_eq!(s["moves"][0], json!("bar/3"));
    // Closing the tab frees its place at once; its link opens it again.
    assert_eq!(open_games(&server), 2);
    b.goto("about:blank");
    b.wait("the place to be free", PATIENCE, || {
        (open_games(&server) == 1).then_some(())
    });
    b.goto(&format!("{}?game={mine}", server.url));
    let s = settle(&b);
    assert_eq!(s["id"], json!(mine));
    assert_eq!(s["moves"][0], json!("bar/3"));
}

/// Defect 5 and the feature: a game closed for idleness (a phone in the
/// background) or by a restart of the server is opened again, moves and
/// all, by its next request or its link.
#[test]
fn a_game_survives_idling_and_a_restart_of_the_server() {
    let dir =
        std::env::temp_dir().join(format!("grasshopper-board-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = Served::start_in(&dir, &["--idle-timeout", "1"]);
    let b = Browser::start(390, 844);
    b.goto(&format!("{}?new=1&checkers=4&mode=both", server.url));
    settle(&b);
    let s = after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    let id = s["id"].as_str().unwrap().to_string();
    // The page asks every 3 s; the server closes the game after 1 s.
    b.wait("the idle game to be closed", PATIENCE, || {
        (open_games(&server) == 0).then_some(())
    });
    let s = after(&b, || {
        b.click_css("#pile-black");
        b.click_css(".hit.target");
    });
    assert_eq!(s["id"], json!(id), "the same game");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2, "{}", s["moves"]);
    assert!(!b.text("#message").contains("no such game"));
    // The server restarts (another port): the link opens the game again.
    drop(server);
    let server = Served::start_in(&dir, &[]);
    b.goto(&format!("{}?game={id}", server.url));
    let s = settle(&b);
    assert_eq!(s["id"], json!(id));
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defect 6: a reload reset the panel, `?new=1` and `?fen=` in the address
/// started new games on reload, and bad address values went unsaid.
#[test]
fn a_reload_keeps_the_game_and_its_panel_and_bad_addresses_are_answered() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!(
        "{}?new=1&checkers=8&depth=7&mode=both&flip=1",
        server.url
    ));
    let s = settle(&b);
    let id = s["id"].clone();
    b.script("location.reload();", json!([]));
    std::thread::sleep(Duration::from_millis(300));
    let s = settle(&b);
    assert_eq!(s["id"], id, "the same game after a reload");
    let panel = b.script(
        "return [document.getElementById('checkers').value, document.getElementById('limit-kind').value,
                 document.getElementById('limit-value').value, ui.flipped];",
        json!([]),
    );
    assert_eq!(panel, json!(["8", "depth", "7", true]));

    b.goto(&format!("{}?new=1&fen=garbage", server.url));
    let m = message_with(&b, "could not be used");
    assert!(m.contains("garbage"), "{m}");
    b.goto(&format!("{}?new=1&checkers=5", server.url));
    let m = message_with(&b, "could not be used");
    assert!(m.contains("checkers"), "{m}");
    assert_ne!(
        b.script(
            "return document.getElementById('checkers').value;",
            json!([])
        ),
        json!("")
    );
    // Loading a position sets "Checkers each" from it.
    b.goto(&format!(
        "{}?fen={}",
        server.url, "w...../....../....../......%20b%201%202%200-0%20-"
    ));
    settle(&b);
    assert_eq!(
        b.script(
            "return document.getElementById('checkers').value;",
            json!([])
        ),
        json!("2")
    );
}

/// Defect 7: the strength field kept a refused value, kept its error after
/// a good one, and turned -5 into 500 silently.
#[test]
fn the_strength_field_shows_only_values_in_force() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}?new=1&mode=both&movetime=500", server.url));
    settle(&b);
    let set = |v: &str| {
        b.script(
            "const f = document.getElementById('limit-value'); f.value = arguments[0];
             f.dispatchEvent(new Event('change'));",
            json!([v]),
        );
    };
    for bad in ["999999", "-5", "0"] {
        set(bad);
        let m = message_with(&b, "expected a whole number");
        assert!(m.contains(bad), "{m}");
        let field = b.script(
            "return document.getElementById('limit-value').value;",
            json!([]),
        );
        assert_eq!(
            field,
            json!("500"),
            "back to the value in force after {bad}"
        );
    }
    set("700");
    b.wait("the new strength", PATIENCE, || {
        (page_state(&b)["limit"] == json!({ "kind": "movetime", "value": 700 })).then_some(())
    });
    assert_eq!(b.text("#message"), "", "the error is gone");
}

/// Defect 8: a move while looking at an earlier ply deleted the later plies
/// without asking; a loaded record was playable at ply 0.
#[test]
fn moving_while_reviewing_asks_first_and_a_record_is_for_watching() {
    let server = Served::start(&[]);
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}?new=1&checkers=4&mode=both", server.url));
    settle(&b);
    after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    after(&b, || {
        b.click_css("#pile-black");
        b.click_css(".hit.target");
    });
    after(&b, || b.click_css("#prev"));
    b.click_css(".hit[data-point='3']");
    message_with(&b, "looking at an earlier move");
    b.click_css("#pile-black");
    assert_eq!(page_state(&b)["moves"].as_array().unwrap().len(), 2);
    // Chosen: play on from here.
    b.click_css("#play-here");
    b.click_css("#pile-black");
    let s = after(&b, || b.click_css(".hit.target"));
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["cursor"], json!(2));

    // A finished game's record, loaded: at ply 0 it is watched, not played.
    let r = page_fetch(
        &b,
        "POST",
        "/api/games",
        json!({ "fen": "....../....../....../W..... w 0 4 1-0 w1", "white": "human", "black": "human" }),
    );
    let gid = r["body"]["id"].as_str().unwrap().to_string();
    page_fetch(
        &b,
        "POST",
        &format!("/api/games/{gid}/move"),
        json!({ "move": "19/off" }),
    );
    let record = b.script(
        "const x = new XMLHttpRequest(); x.open('GET', '/api/games/' + arguments[0] + '/record', false); x.send(); return x.responseText;",
        json!([gid]),
    );
    page_fetch(&b, "DELETE", &format!("/api/games/{gid}"), json!(null));
    b.script(
        "document.getElementById('record-paste').value = arguments[0];",
        json!([record]),
    );
    b.click_css("details summary");
    b.click_css("#load-record");
    b.wait("the record", PATIENCE, || {
        b.text("#turn")
            .contains("Looking at move 0 of 1")
            .then_some(())
    });
    b.click_css(".hit[data-point='19']");
    message_with(&b, "looking at an earlier move");
    assert_eq!(page_state(&b)["moves"], json!(["19/off"]));
}

/// Defect 9: the engine passed without a word and the panel showed "Black
/// +5.00 walls" where White wins; a forced pass is now played by the
/// server, announced, and no stale score is shown.
#[test]
fn the_engines_forced_pass_is_announced_and_no_stale_score_shown() {
    let server = Served::start(&[]);
    let b = Browser::start(390, 844);
    b.goto(&format!(
        "{}?new=1&mode=white&depth=2&fen={}",
        server.url, "....../....../....../ww.bb.%20w%202%200%200-1%20b1"
    ));
    settle(&b);
    b.script(
        "document.getElementById('show-analysis').checked = true;",
        json!([]),
    );
    let s = after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    assert_eq!(s["moves"], json!(["bar/3", "pass"]), "{}", s["moves"]);
    assert_eq!(s["notes"][1], json!("forced pass"));
    assert_eq!(s["to_move"], json!("white"));
    message_with(&b, "Black (engine) has no legal move and passes");
    let info = b.text("#engine-info");
    assert!(!info.contains("Black +"), "{info}");
}

/// Defect 10, the smaller ones: the illegal-move message said the move
/// twice; the banner pushed the replay buttons below the fold at 1366×768;
/// a depth search cut at the move timeout went unsaid.
#[test]
fn smaller_defects_of_the_page() {
    let server = Served::start(&["--move-timeout", "1"]);
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}?new=1&checkers=4&mode=both", server.url));
    settle(&b);
    after(&b, || {
        b.click_css("#pile-white");
        b.click_css(".hit[data-point='3']");
    });
    after(&b, || {
        b.click_css("#pile-black");
        b.click_css(".hit.target");
    });
    b.click_css(".hit[data-point='3']");
    b.click_css(".hit[data-point='14']");
    let m = message_with(&b, "3/14");
    assert_eq!(m.matches("3/14").count(), 1, "{m}");

    // The banner leaves the replay buttons on the screen.
    b.goto(&format!(
        "{}?new=1&mode=both&fen={}",
        server.url, "....../....../....../W.....%20w%200%204%201-0%20w1"
    ));
    settle(&b);
    let s = after(&b, || b.type_into("#move-input", "19/off\u{E007}"));
    assert!(!s["outcome"].is_null());
    let v = b.script(
        "return [document.getElementById('replay').getBoundingClientRect().bottom, window.innerHeight];",
        json!([]),
    );
    assert!(
        v[0].as_f64().unwrap() <= v[1].as_f64().unwrap(),
        "the replay buttons end at {} of {}",
        v[0],
        v[1]
    );

    // A depth-64 search is stopped at --move-timeout (1 s) and the page says so.
    b.goto(&format!(
        "{}?new=1&checkers=14&depth=64&mode=black",
        server.url
    ));
    let started = Instant::now();
    message_with(&b, "stopped after 1 s");
    eprintln!("the cut search was reported after {:?}", started.elapsed());
}

/// Defect 10, the server's part: plurals, 405 for a known path with the
/// wrong method, and `serve --player random` no longer ignored.
#[test]
fn smaller_defects_of_the_server() {
    let server = Served::start(&["--player", "random"]);
    let info = http::get(&server.addr, "/api/info").json();
    assert_eq!(info["engines"][0]["name"], json!("grasshopper-random"));
    let r = http::request(&server.addr, "PUT", "/api/games", None);
    assert_eq!(r.status, 405, "{}", r.body);
    let g = http::post(
        &server.addr,
        "/api/games",
        &json!({ "checkers": 2, "white": "human", "black": "human" }),
    )
    .json();
    let id = g["id"].as_str().unwrap();
    http::post(
        &server.addr,
        &format!("/api/games/{id}/move"),
        &json!({ "move": "bar/1" }),
    );
    let r = http::post(
        &server.addr,
        &format!("/api/games/{id}/seek"),
        &json!({ "ply": 5 }),
    );
    assert!(r.body.contains("the game has 1 move\""), "{}", r.body);
    let r = http::post(
        &server.addr,
        &format!("/api/games/{id}/settings"),
        &json!({ "engine": 3 }),
    );
    // This binary twice: for Grasshopper, and in UBGI for backgammon.
    assert!(r.body.contains("the server has 2 engines "), "{}", r.body);
    let r = http::post(
        &server.addr,
        &format!("/api/games/{id}/settings"),
        &json!({ "engine": 1 }),
    );
    assert!(r.body.contains("plays backgammon only"), "{}", r.body);
    // --player with --engine is refused, not ignored.
    let out = std::process::Command::new(crate::BIN)
        .args([
            "serve",
            "--port",
            "0",
            "--player",
            "random",
            "--engine",
            "/bin/true",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--player random"));
}
