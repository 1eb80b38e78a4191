//! Backgammon on the board, in headless Chromium by clicks: a whole money
//! game and a whole 3-point match with the cube against our engine (its
//! 1-ply net, the fastest player that doubles), seeded dice, at desktop
//! and phone sizes; and over the API, that the dice are the server's (a
//! seed repeats them, the page cannot send any) and that a UBGI engine is
//! offered for backgammon only.

use crate::browser::screenshots;
use crate::webdriver::Browser;
use crate::{http, Served, BIN};

use serde_json::{json, Value};
use std::time::{Duration, Instant};

pub(crate) const PATIENCE: Duration = Duration::from_secs(20);

/// The server with our binary as a UBGI engine at 1-ply and seeded dice.
pub(crate) fn serve(seed: &str) -> Served {
    serve_with(seed, &[])
}

/// [`serve`] with more `--engine` words for the engine (`arg=...`).
fn serve_with(seed: &str, engine: &[&str]) -> Served {
    let cmd = format!("cmd={BIN}");
    let mut args = vec![
        "--seed",
        seed,
        "--engine",
        &cmd,
        "name=grasshopper-bg",
        "proto=ubgi",
        "option.engine.ply=1",
    ];
    args.extend_from_slice(engine);
    Served::start(&args)
}

pub(crate) use crate::browser::page_state as state;

/// Waits until a person is to act (or the whole game is over).
pub(crate) fn settle(b: &Browser) -> Value {
    b.wait("a person's decision", PATIENCE, || {
        let s = state(b);
        if s.is_null() || s["thinking"] == json!(true) {
            return None;
        }
        let kind = s["due"]["kind"].as_str().unwrap_or("");
        let side = s["due"]["side"].as_str().unwrap_or("");
        let person = !side.is_empty() && s["seats"][side] == json!("human");
        (person || kind == "game_over" || kind == "over").then_some(s)
    })
}

/// Clicks and waits for the server's answer to reach the page.
fn after(b: &Browser, css: &str) -> Value {
    let before = state(b)["version"].clone();
    b.click_css(css);
    b.wait("the server's answer", PATIENCE, || {
        (state(b)["version"] != before).then_some(())
    });
    settle(b)
}

/// Plays a person's checker move by clicks: a movable checker, then (unless
/// its only target was taken at once) its first target, until the move is
/// whole; checks the highlighted targets, then confirms.
fn move_by_clicks(b: &Browser) -> Value {
    let dice = state(b)["dice"].clone();
    for _ in 0..8 {
        if b.find("#bg-confirm:not([hidden])").is_some() {
            break;
        }
        b.click_css(".hit.movable");
        if b.find(".hit.selected").is_some() {
            assert!(
                b.find(".hit.target, .tray-zone.target").is_some(),
                "a selected checker shows its targets"
            );
            b.click_css(".hit.target, .tray-zone.target");
        }
    }
    assert!(
        b.find("#bg-undo:not([hidden])").is_some(),
        "a move can be undone before it is sent"
    );
    let s = after(b, "#bg-confirm");
    assert_ne!(s["version"], json!(null), "{s}");
    let last = s["log"].as_array().unwrap().iter().rev().find(|l| {
        l.as_str()
            .is_some_and(|l| l.contains("(you) rolls") && l.contains(&dice_text(&dice)))
    });
    assert!(last.is_some(), "the person's move is in the list: {s}");
    s
}

fn dice_text(d: &Value) -> String {
    format!("{}{}", d[0], d[1])
}

/// Plays to the end by clicks; doubles once per game when the cube is
/// centred, takes a double to 2 and (if `drop_redoubles`) drops a redouble. Returns the final
/// state, the person's moves and cube actions.
fn play_out(b: &Browser, drop_redoubles: bool) -> (Value, usize, usize, bool) {
    let mut s = settle(b);
    let (mut turns, mut cube_actions) = (0, 0);
    let mut doubled_in = None;
    let mut crawford = false;
    loop {
        crawford |= s["crawford"] == json!(true);
        let kind = s["due"]["kind"].as_str().unwrap().to_string();
        match kind.as_str() {
            "over" => return (s, turns, cube_actions, crawford),
            "game_over" => {
                assert!(!b.find("#banner").unwrap().is_empty());
                let banner = b.text("#banner");
                assert!(banner.contains("wins"), "{banner}");
                s = after(b, "#bg-next");
            }
            "cube" => {
                let game = (s["score"]["white"].clone(), s["score"]["black"].clone());
                if s["cube"]["value"] == json!(1) && doubled_in.as_ref() != Some(&game) {
                    doubled_in = Some(game);
                    cube_actions += 1;
                    s = after(b, "#bg-double");
                } else {
                    s = after(b, "#bg-roll");
                }
            }
            "take" => {
                cube_actions += 1;
                assert!(b.text("#message").contains("take or drop"));
                let button = match !drop_redoubles || s["cube"]["value"] == json!(1) {
                    true => "#bg-take",
                    false => "#bg-drop",
                };
                s = after(b, button);
            }
            "move" => {
                turns += 1;
                s = move_by_clicks(b);
            }
            other => panic!("unexpected decision {other}: {s}"),
        }
        assert!(s["error"].is_null(), "no engine error: {s}");
        assert!(turns < 400, "the game ends");
    }
}

/// The page's .mat link, fetched, is a file GNU Backgammon imports and
/// writes back unchanged (when gnubg is installed, as in CI).
fn gnubg_reads_the_mat(b: &Browser) {
    assert!(b.find("#bg-download:not([hidden])").is_some());
    let mat = b.script(
        "return fetch(document.getElementById('bg-download').href).then((r) => r.text());",
        json!([]),
    );
    let mat = mat.as_str().expect("the .mat text").to_string();
    assert!(mat.contains(" 3 point match"), "{mat}");
    let gnubg = std::path::Path::new("/usr/games/gnubg");
    if !gnubg.exists() {
        eprintln!("no GNU Backgammon: its import of the .mat is not checked");
        return;
    }
    let dir = std::env::temp_dir().join(format!("board-mat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.mat");
    std::fs::write(&file, &mat).unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gnubg-mat-dump.py");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 3>&1 >/dev/null </dev/null; exec {} -t -q -p {}",
            gnubg.display(),
            script.display()
        ))
        .env("MAT_FILES", file.display().to_string())
        .env("REEXPORT_SUFFIX", ".gnubg")
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && !lines.contains("\"error\""),
        "{lines}"
    );
    let again = std::fs::read_to_string(dir.join("board.mat.gnubg")).unwrap();
    let body = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with(';'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        body(&again),
        body(&mat),
        "GNU Backgammon writes the match back unchanged"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn no_sideways_scroll(b: &Browser) {
    let wide = b.script(
        "return document.documentElement.scrollWidth <= window.innerWidth;",
        json!([]),
    );
    assert_eq!(wide, json!(true), "no sideways scrolling");
}

#[test]
fn a_money_game_by_clicks_to_the_end_at_desktop_size() {
    crate::webdriver::require_browser();
    let started = Instant::now();
    let server = serve("11");
    let b = Browser::start(1366, 768);
    b.goto(&format!("{}backgammon?mode=white&length=0", server.url));
    let s = settle(&b);
    assert_eq!(s["game"], json!("backgammon"));
    assert_eq!(s["length"], json!(0));
    // Bar, trays, pip counts and the cube are drawn.
    for css in [
        "#bg-bar-white",
        "#bg-off-white",
        "#bg-off-black",
        "#bg-cube",
    ] {
        assert!(b.find(css).is_some(), "{css}");
    }
    assert!(b.text("#score").contains("pips: White"));
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("backgammon-desktop.png"));
    }
    // A hint: the engine's advice for the person's decision, nothing played.
    let version = state(&b)["version"].clone();
    b.click_css("#bg-hint");
    let advice = b.wait("the hint", PATIENCE, || {
        let m = b.text("#message");
        m.starts_with("The engine would").then_some(m)
    });
    assert_eq!(state(&b)["version"], version, "{advice}");
    assert!(state(&b)["log"].as_array().unwrap().len() == 1);
    let (end, turns, cube, _) = play_out(&b, false);
    let result = &end["result"];
    let points = result["points"].as_u64().unwrap();
    assert!(points >= 1);
    let banner = b.text("#banner");
    assert!(
        banner.contains(&format!("{points} point")),
        "the banner gives the points: {banner}"
    );
    let winner = result["winner"].as_str().unwrap();
    assert_eq!(end["score"][winner], json!(points));
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("backgammon-game-over.png"));
    }
    eprintln!(
        "money game by clicks: {turns} moves of the person, {cube} cube actions, {} ({}), {:?}",
        result["text"],
        result["kind"],
        started.elapsed()
    );
}

#[test]
fn a_three_point_match_with_the_cube_by_clicks_at_phone_size() {
    crate::webdriver::require_browser();
    // Whether a match reaches the Crawford game hangs on its dice and on
    // the engine's play, which changes with the nets (generation 7's
    // contact net took seed 5's match to 3 points in one game; generation
    // 11's won all six of these seeds' matches by a backgammon in the first
    // game): the engine plays with generation 10's nets, kept in the lab,
    // and the first of a few seeds whose match does is enough.
    let seeds = ["5", "6", "7", "8", "9", "10"];
    let crawford = seeds.iter().any(|seed| three_point_match(seed));
    assert!(crawford, "a Crawford game was played (seeds {seeds:?})");
}

/// Plays the 3-point match of the server's `seed` by clicks at phone size
/// to its end and checks it; says whether it had a Crawford game (then
/// also more than one game).
fn three_point_match(seed: &str) -> bool {
    let started = Instant::now();
    let nets = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/backgammon-lab/data/nets/gen10"
    );
    let server = serve_with(seed, &["arg=--nets", &format!("arg={nets}")]);
    let b = Browser::start(390, 844);
    b.goto(&format!("{}backgammon?mode=white&length=3", server.url));
    let s = settle(&b);
    assert_eq!(s["length"], json!(3));
    no_sideways_scroll(&b);
    if let Some(dir) = screenshots() {
        b.screenshot(&dir.join("backgammon-phone.png"));
    }
    let (end, turns, cube, crawford) = play_out(&b, true);
    let winner = end["match_winner"]
        .as_str()
        .expect("the match has a winner");
    assert!(end["score"][winner].as_u64().unwrap() >= 3, "{end}");
    assert!(cube >= 1, "the cube was used");
    let games: Vec<&str> = end["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| {
            l.as_str()
                .filter(|l| l.contains(" wins ") && l.contains("point"))
        })
        .collect();
    if crawford {
        assert!(games.len() >= 2, "more than one game: {games:?}");
    }
    let banner = b.text("#banner");
    assert!(banner.contains("wins the match"), "{banner}");
    no_sideways_scroll(&b);
    gnubg_reads_the_mat(&b);
    eprintln!(
        "3-point match by clicks, seed {seed}: {turns} moves of the person, {cube} cube actions, games {games:?}, score {}, Crawford {crawford}, {:?}",
        end["score"],
        started.elapsed()
    );
    crawford
}

#[test]
fn the_dice_are_the_servers_and_engines_are_offered_by_game() {
    let server = serve("42");
    let a = server.addr.as_str();
    let info = http::get(a, "/api/info").json();
    assert_eq!(info["games"], json!(["grasshopper", "backgammon"]));
    assert_eq!(info["engines"][0]["game"], json!("backgammon"));
    // The same seed rolls the same dice; the page cannot send any.
    let people = json!({"game": "backgammon", "white": "human", "black": "human"});
    let first = || {
        let r = http::post(a, "/api/games", &people);
        assert_eq!(r.status, 201, "{}", r.body);
        let s = r.json();
        let id = s["id"].as_str().unwrap().to_string();
        http::request(a, "DELETE", &format!("/api/games/{id}"), None);
        (s["dice"].clone(), id)
    };
    let (one, two) = (first(), first());
    assert_eq!(one.0, two.0);
    assert_ne!(one.1, two.1);
    let r = http::post(
        a,
        "/api/games",
        &json!({"game": "backgammon", "dice": [6, 6]}),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    // A UBGI engine plays backgammon only: it is not sent Grasshopper.
    let r = http::post(a, "/api/games", &json!({"game": "grasshopper"}));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("UBGI"), "{}", r.body);
    // An illegal move is refused with the rules' reason.
    let s = http::post(a, "/api/games", &people).json();
    let id = s["id"].as_str().unwrap();
    let r = http::post(
        a,
        &format!("/api/games/{id}/move"),
        &json!({"move": "24/1"}),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("illegal move"), "{}", r.body);
}

#[test]
fn a_backgammon_game_is_kept_on_disk_and_opens_again_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("board-bg-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cmd = format!("cmd={BIN}");
    let args = ["--seed", "8", "--engine", &cmd, "proto=ubgi"];
    let (id, before) = {
        let server = Served::start_in(&dir, &args);
        let a = server.addr.as_str();
        let people = json!({"game": "backgammon", "length": 5, "white": "human", "black": "human"});
        let s = http::post(a, "/api/games", &people).json();
        let id = s["id"].as_str().unwrap().to_string();
        let text = s["legal"][0]["text"].as_str().unwrap().to_string();
        let r = http::post(
            a,
            &format!("/api/games/{id}/move"),
            &json!({ "move": text }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        // The next player doubles: an action in the middle of a turn.
        let r = http::post(a, &format!("/api/games/{id}/double"), &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        (id, r.json())
    };
    let server = Served::start_in(&dir, &args);
    let after = http::get(&server.addr, &format!("/api/games/{id}")).json();
    for key in ["position", "due", "cube", "score", "log", "version"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
