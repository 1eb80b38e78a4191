//! The server's API over plain HTTP: games refereed by the rules core, the
//! engine as a child process (crashing, hanging and abandoned ones), records,
//! and the limits that keep a page from harming the machine.

use crate::http::{self, get, post, request};
use crate::Served;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn new_game(s: &Served, settings: Value) -> Value {
    let r = post(&s.addr, "/api/games", &settings);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

fn id(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

fn act(s: &Served, game: &str, action: &str, body: Value) -> http::Reply {
    post(&s.addr, &format!("/api/games/{game}/{action}"), &body)
}

/// Waits until the engine has finished; returns the state.
fn idle(s: &Served, game: &str, patience: Duration) -> Value {
    let until = Instant::now() + patience;
    loop {
        let state = get(&s.addr, &format!("/api/games/{game}")).json();
        if state["engine"]["thinking"] == json!(false) && state["engine"]["busy"] == json!(false) {
            return state;
        }
        assert!(Instant::now() < until, "the engine is still busy: {state}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn engines_running(s: &Served) -> u64 {
    get(&s.addr, "/api/info").json()["engines_running"]
        .as_u64()
        .unwrap()
}

/// `--engine` and the fake engine's settings (testkit's naive rules
/// model, misbehaving on request), as separate words.
fn naive(extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--engine".to_string(),
        format!("cmd={}", testkit::fake_engine().display()),
        "name=naive".to_string(),
    ];
    args.extend(extra.iter().map(|a| format!("arg={a}")));
    args
}

fn serve_with(args: Vec<String>) -> Served {
    Served::start(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn moves_are_refereed_and_the_engine_answers_over_the_protocol() {
    let s = Served::start(&[]);
    let info = get(&s.addr, "/api/info").json();
    assert_eq!(info["games"], json!(["grasshopper", "backgammon"]));
    assert_eq!(info["engines"][0]["name"], json!("grasshopper"));
    let page = get(&s.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg id=\"board\""));
    assert!(get(&s.addr, "/board.js")
        .body
        .contains("nothing here knows the rules"));

    let g = new_game(
        &s,
        json!({ "game": "grasshopper", "checkers": 4, "limit": { "kind": "depth", "value": 2 } }),
    );
    let game = id(&g);
    assert_eq!(g["fen"], json!("....../....../....../...... w 4 4 0-0 -"));
    assert_eq!(g["legal"].as_array().unwrap().len(), 6);
    assert_eq!(engines_running(&s), 0, "no engine before its first move");

    let r = act(&s, &game, "move", json!({ "move": "bar/2" }));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = act(&s, &game, "move", json!({ "move": "bar/2" }));
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"], json!("point 2 is occupied"));
    let r = act(&s, &game, "move", json!({ "move": "2/99" }));
    assert_eq!(r.status, 422);
    assert!(r.json()["error"].as_str().unwrap().contains("99"));

    assert_eq!(act(&s, &game, "go", json!({})).status, 200);
    let state = idle(&s, &game, Duration::from_secs(10));
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["to_move"], json!("white"));
    assert!(
        state["engine"]["info"]["depth"].as_u64().is_some(),
        "{state}"
    );
    assert!(state["notes"][1].as_str().unwrap().contains("depth"));
    assert_eq!(engines_running(&s), 1);

    // Undo two plies, then the record is refused until the game ends.
    let r = act(&s, &game, "undo", json!({ "plies": 2 })).json();
    assert_eq!(r["cursor"], json!(0));
    assert_eq!(
        get(&s.addr, &format!("/api/games/{game}/record")).status,
        409
    );

    // A second game has its own engine process.
    let g2 = id(&new_game(
        &s,
        json!({ "checkers": 2, "limit": { "kind": "movetime", "value": 50 } }),
    ));
    act(&s, &g2, "move", json!({ "move": "bar/1" }));
    act(&s, &g2, "go", json!({}));
    idle(&s, &g2, Duration::from_secs(10));
    assert_eq!(engines_running(&s), 2);
    assert_eq!(
        request(&s.addr, "DELETE", &format!("/api/games/{g2}"), None).status,
        204
    );
    let until = Instant::now() + Duration::from_secs(5);
    while engines_running(&s) != 1 {
        assert!(Instant::now() < until, "the closed game's engine quits");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Closed, not lost: the game is kept on disk and its link (the page's
    // open) opens it again; a stray request of the closing page does not.
    assert_eq!(get(&s.addr, &format!("/api/games/{g2}")).status, 404);
    let again = post(&s.addr, &format!("/api/games/{g2}/open"), &json!({}));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["moves"].as_array().unwrap().len(), 2);
}

#[test]
fn a_finished_game_gives_a_record_that_loads_back_for_replay() {
    let s = Served::start(&[]);
    let g = id(&new_game(
        &s,
        json!({ "checkers": 2, "white": "human", "black": "human" }),
    ));
    // Every checker ends alone in D, where nothing moves: a draw.
    let line = [
        "bar/1", "bar/2", "bar/3", "bar/4", "1/7", "2/8", "3/9", "4/10", "7/13", "8/14", "9/15",
        "10/16", "13/19", "14/20", "15/21", "16/22",
    ];
    for m in line {
        let r = act(&s, &g, "move", json!({ "move": m }));
        assert_eq!(r.status, 200, "{m}: {}", r.body);
    }
    let state = get(&s.addr, &format!("/api/games/{g}")).json();
    assert_eq!(state["outcome"]["result"], json!("1/2-1/2"), "{state}");
    assert_eq!(
        state["outcome"]["text"],
        json!("Draw: neither player can move")
    );
    let record = get(&s.addr, &format!("/api/games/{g}/record"));
    assert_eq!(record.status, 200);
    assert!(record.body.contains("[White \"Human\"]"));
    assert!(record.body.contains("1/2-1/2"));

    let loaded = new_game(&s, json!({ "record": record.body }));
    let lg = id(&loaded);
    assert_eq!(loaded["cursor"], json!(0));
    assert_eq!(loaded["moves"].as_array().unwrap().len(), line.len());
    assert_eq!(loaded["loaded"]["result"], json!("1/2-1/2"));
    let at5 = act(&s, &lg, "seek", json!({ "ply": 5 })).json();
    assert_eq!(at5["cursor"], json!(5));
    assert_eq!(
        at5["moves"].as_array().unwrap().len(),
        line.len(),
        "seeking keeps the moves"
    );
    let end = act(&s, &lg, "seek", json!({ "ply": line.len() })).json();
    assert_eq!(end["outcome"]["result"], json!("1/2-1/2"));
    // The same record comes back out.
    let again = get(&s.addr, &format!("/api/games/{lg}/record"));
    assert_eq!(again.body, record.body);

    let bad = post(
        &s.addr,
        "/api/games",
        &json!({ "record": "[Event \"x\"]\n\n1. bar/9 1-0\n" }),
    );
    assert_eq!(bad.status, 422, "{}", bad.body);
    let bad = post(&s.addr, "/api/games", &json!({ "fen": "nonsense" }));
    assert_eq!(bad.status, 422);
    assert!(bad.json()["error"]
        .as_str()
        .unwrap()
        .starts_with("bad position string"));
    let bad = post(&s.addr, "/api/games", &json!({ "checkers": 5 }));
    assert_eq!(bad.status, 400);
}

#[test]
fn a_crashing_engine_is_reported_and_restarted() {
    let s = serve_with(naive(&["--fail-after", "1", "--fail", "crash"]));
    let g = id(&new_game(
        &s,
        json!({ "checkers": 4, "limit": { "kind": "depth", "value": 1 } }),
    ));
    act(&s, &g, "move", json!({ "move": "bar/1" }));
    act(&s, &g, "go", json!({}));
    let state = idle(&s, &g, Duration::from_secs(10));
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        2,
        "first move fine"
    );
    act(&s, &g, "move", json!({ "move": "bar/3" }));
    act(&s, &g, "go", json!({}));
    let state = idle(&s, &g, Duration::from_secs(10));
    let error = state["engine"]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        error.contains("naive") && error.contains("exited"),
        "{error}"
    );
    assert!(error.contains("restarted"), "{error}");
    assert_eq!(state["engine"]["restarts"], json!(1));
    assert_eq!(state["moves"].as_array().unwrap().len(), 3);
    // The fresh process plays (its own first move of the game).
    act(&s, &g, "go", json!({}));
    let state = idle(&s, &g, Duration::from_secs(10));
    assert!(state["engine"]["error"].is_null(), "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 4);
    assert_eq!(engines_running(&s), 1);
}

#[test]
fn a_hanging_engine_is_killed_reported_and_restarted() {
    let mut args = naive(&["--fail-after", "0", "--fail", "silent"]);
    args.extend(["--move-timeout".to_string(), "0.5".to_string()]);
    let s = serve_with(args);
    let g = id(&new_game(
        &s,
        json!({ "checkers": 4, "limit": { "kind": "depth", "value": 3 } }),
    ));
    act(&s, &g, "move", json!({ "move": "bar/1" }));
    let t = Instant::now();
    act(&s, &g, "go", json!({}));
    let state = idle(&s, &g, Duration::from_secs(15));
    let error = state["engine"]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(error.contains("gave no move"), "{error}");
    assert!(error.contains("restarted"), "{error}");
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    assert_eq!(
        engines_running(&s),
        1,
        "the hung process is gone, a fresh one waits"
    );
}

#[test]
fn an_abandoned_game_is_closed_mid_search_and_its_engine_ends() {
    let mut args = naive(&["--delay", "1500"]);
    // In memory only: a game closed is gone.
    args.extend(["--idle-timeout", "0.4", "--data-dir", "none"].map(String::from));
    let s = serve_with(args);
    let g = id(&new_game(&s, json!({ "checkers": 4 })));
    act(&s, &g, "move", json!({ "move": "bar/1" }));
    act(&s, &g, "go", json!({}));
    // The tab is closed: nobody asks about the game any more (asking would
    // keep it open), only about the server.
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let info = get(&s.addr, "/api/info").json();
        if info["open_games"] == json!(0) && info["engines_running"] == json!(0) {
            break;
        }
        assert!(
            Instant::now() < until,
            "the abandoned game's engine still runs"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    assert_eq!(get(&s.addr, &format!("/api/games/{g}")).status, 404);
    // The server goes on.
    assert_eq!(new_game(&s, json!({ "checkers": 2 }))["size"], json!(2));
}

#[test]
fn requests_are_bounded_and_other_sites_refused() {
    let s = Served::start(&["--max-games", "2"]);
    // Too many games: one browser may not take both slots, two may.
    new_game(&s, json!({}));
    let r = post(&s.addr, "/api/games", &json!({}));
    assert_eq!(r.status, 429, "{}", r.body);
    let other = Some("grasshopper_owner=00000000000000000000000000000002");
    let json_body = Some(("application/json", "{}"));
    let r = http::request_as(other, &s.addr, "POST", "/api/games", json_body);
    assert_eq!(r.status, 201, "{}", r.body);
    let third = Some("grasshopper_owner=00000000000000000000000000000003");
    let r = http::request_as(third, &s.addr, "POST", "/api/games", json_body);
    assert_eq!(r.status, 503);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("games are open"));
    // A body over the limit, announced or not.
    let big = format!("{{\"record\": \"{}\"}}", "x".repeat(300 * 1024));
    let r = request(
        &s.addr,
        "POST",
        "/api/games",
        Some(("application/json", &big)),
    );
    assert_eq!(r.status, 413);
    let r = http::raw(
        &s.addr,
        format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nX-Long: {}\r\n\r\n",
            s.addr,
            "y".repeat(20_000)
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 431);
    let r = http::raw(
        &s.addr,
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n",
    );
    assert_eq!(r.status, 501);
    // Not JSON, another site, another host name.
    let r = request(&s.addr, "POST", "/api/games", Some(("text/plain", "{}")));
    assert_eq!(r.status, 415);
    let r = request(
        &s.addr,
        "POST",
        "/api/games",
        Some(("application/jsonfoo", "{}")),
    );
    assert_eq!(r.status, 415, "a longer media type is not JSON");
    let r = http::raw(
        &s.addr,
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}",
            s.addr
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 403);
    let r = http::raw(
        &s.addr,
        b"GET /api/info HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    );
    assert_eq!(r.status, 403);
    // Nothing from the page names a file.
    assert_eq!(get(&s.addr, "/../Cargo.toml").status, 404);
    assert_eq!(get(&s.addr, "/api/games/..%2F..%2Fetc/record").status, 404);
    // Bad input is refused in words, not by falling over.
    let r = request(
        &s.addr,
        "POST",
        "/api/games",
        Some(("application/json", "{not json")),
    );
    assert_eq!(r.status, 400);
    let r = post(
        &s.addr,
        "/api/games",
        &json!({ "limit": { "kind": "depth", "value": 9999 } }),
    );
    assert_eq!(r.status, 400);
    let r = post(&s.addr, "/api/games", &json!({ "engine": 7 }));
    assert_eq!(r.status, 400);
    assert_eq!(get(&s.addr, "/api/info").status, 200);
}

/// A raw request with the Host header given, as the tests' owner.
fn with_host(addr: &str, host: &str) -> http::Reply {
    http::raw(
        addr,
        format!(
            "GET /api/info HTTP/1.1\r\nHost: {host}\r\nCookie: {}\r\n\r\n",
            http::OWNER
        )
        .as_bytes(),
    )
}

#[test]
fn a_game_answers_only_the_browser_that_created_it() {
    let s = Served::start(&[]);
    // The page's first API call gets the owner cookie.
    let r = http::request_as(
        None,
        &s.addr,
        "POST",
        "/api/games",
        Some(("application/json", r#"{"checkers": 2}"#)),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let set = r.header("set-cookie").expect("an owner cookie").to_string();
    for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.contains(part), "{set}");
    }
    let mine = set.split(';').next().unwrap().to_string();
    assert!(mine.starts_with("grasshopper_owner="), "{mine}");
    let game = id(&r.json());
    let path = format!("/api/games/{game}");
    let as_mine = |method: &str, path: &str, body: Option<&str>| {
        http::request_as(
            Some(&mine),
            &s.addr,
            method,
            path,
            body.map(|b| ("application/json", b)),
        )
    };
    let r = as_mine("GET", &path, None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.header("set-cookie").is_none(),
        "a known owner keeps its cookie"
    );

    // Another browser (the tests' usual cookie), and one without a cookie,
    // can neither read nor drive it.
    let move_body = json!({ "move": "bar/1" }).to_string();
    let settings = json!({ "white": "engine" }).to_string();
    for cookie in [Some(http::OWNER), None] {
        for (method, p, body) in [
            ("GET", path.clone(), None),
            ("POST", format!("{path}/move"), Some(move_body.as_str())),
            ("POST", format!("{path}/settings"), Some(settings.as_str())),
            ("POST", format!("{path}/go"), Some("{}")),
            ("GET", format!("{path}/record"), None),
            ("DELETE", path.clone(), None),
        ] {
            let r = http::request_as(
                cookie,
                &s.addr,
                method,
                &p,
                body.map(|b| ("application/json", b)),
            );
            assert_eq!(r.status, 403, "{method} {p} as {cookie:?}: {}", r.body);
        }
    }
    let r = as_mine("POST", &format!("{path}/move"), Some(&move_body));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["moves"], json!(["bar/1"]), "nobody else moved");
    assert_eq!(as_mine("DELETE", &path, None).status, 204);
}

#[test]
fn one_browser_cannot_take_every_game_or_search() {
    let s = serve_with(naive(&["--delay", "3000"]));
    let info = get(&s.addr, "/api/info").json();
    assert_eq!(info["max_games"], json!(8));
    assert_eq!(info["games_per_owner"], json!(4));
    assert_eq!(info["searches_per_owner"], json!(2));
    let games: Vec<String> = (0..4).map(|_| id(&new_game(&s, json!({})))).collect();
    let r = post(&s.addr, "/api/games", &json!({}));
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("4 games"));
    // Two searches at once; the third waits for one of them.
    for g in &games {
        assert_eq!(act(&s, g, "move", json!({ "move": "bar/1" })).status, 200);
    }
    assert_eq!(act(&s, &games[0], "go", json!({})).status, 200);
    assert_eq!(act(&s, &games[1], "go", json!({})).status, 200);
    let r = act(&s, &games[2], "go", json!({}));
    assert_eq!(r.status, 429, "{}", r.body);
    // Another browser still has games and searches of its own.
    let other = Some("grasshopper_owner=00000000000000000000000000000002");
    let r = http::request_as(
        other,
        &s.addr,
        "POST",
        "/api/games",
        Some(("application/json", "{}")),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let theirs = id(&r.json());
    let move_body = json!({ "move": "bar/1" }).to_string();
    for action in ["move", "go"] {
        let body = if action == "move" { &move_body } else { "{}" };
        let r = http::request_as(
            other,
            &s.addr,
            "POST",
            &format!("/api/games/{theirs}/{action}"),
            Some(("application/json", body)),
        );
        assert_eq!(r.status, 200, "{action}: {}", r.body);
    }
}

#[test]
fn host_names_are_checked_whatever_the_listening_address() {
    // Seen failing before: with --host 0.0.0.0 the check was off, and
    // "[::1]" without a port was refused.
    let s = Served::start(&["--host", "0.0.0.0", "--allow-host", "board.lan"]);
    let port = s.addr.rsplit_once(':').unwrap().1.to_string();
    let addr = format!("127.0.0.1:{port}");
    for host in ["evil.example", &format!("evil.example:{port}")] {
        assert_eq!(with_host(&addr, host).status, 403, "{host}");
    }
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        "[::1]".to_string(),
        format!("board.lan:{port}"),
    ] {
        assert_eq!(with_host(&addr, &host).status, 200, "{host}");
    }
    let local = Served::start(&[]);
    assert_eq!(with_host(&local.addr, "[::1]").status, 200);
    assert_eq!(with_host(&local.addr, "board.lan").status, 403);
}

#[test]
fn answers_forbid_framing_and_referrers_and_a_panic_is_answered_500() {
    // Seen failing before: no such headers; and with panic = "abort" in the
    // release profile the panic ended the whole server (no answer at all).
    let s = Served::start(&["--test-panic-route"]);
    let page = get(&s.addr, "/");
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    let r = get(&s.addr, "/api/panic");
    assert_eq!(r.status, 500, "{}", r.body);
    for _ in 0..3 {
        assert_eq!(get(&s.addr, "/api/info").status, 200);
    }
    // Without the hidden flag there is no such route.
    let plain = Served::start(&[]);
    assert_eq!(get(&plain.addr, "/api/panic").status, 404);
}
