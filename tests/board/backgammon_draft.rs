//! An engine that speaks only the UBGI draft on the board: testkit's
//! ubgi-random reads `position gnubgid <PositionID>` (no Match ID),
//! `dice` and `go chequer`, and refuses the rest (the cube, our
//! `candidates` extension). It plays a whole cubeless game; the hint falls
//! back to its single choice; the review says it cannot rank moves.

use crate::{http, Served};
use serde_json::{json, Value};

/// The server with ubgi-random as its only engine and seeded dice.
fn serve(seed: &str) -> Served {
    let cmd = format!("cmd={}", testkit::ubgi_random().display());
    Served::start(&[
        "--seed",
        seed,
        "--engine",
        &cmd,
        "name=ubgi-random",
        "proto=ubgi",
    ])
}

fn game(a: &str, id: &str) -> Value {
    http::get(a, &format!("/api/games/{id}")).json()
}

#[test]
fn an_engine_that_reads_only_the_position_id_plays_a_whole_game() {
    let server = serve("7");
    let a = server.addr.as_str();
    let body = json!({"game": "backgammon", "white": "human", "black": "engine", "cube": false, "engine": 0});
    let r = http::post(a, "/api/games", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    let mut s = r.json();
    let id = s["id"].as_str().unwrap().to_string();
    let (mut mine, mut its) = (0, 0);
    while s["due"]["kind"] == json!("move") {
        assert!(s["error"].is_null(), "{}", s["error"]);
        let r = match s["due"]["side"].as_str().unwrap() {
            "white" => {
                mine += 1;
                let text = s["legal"][0]["text"].as_str().unwrap();
                http::post(
                    a,
                    &format!("/api/games/{id}/move"),
                    &json!({ "move": text }),
                )
            }
            _ => {
                its += 1;
                http::post(a, &format!("/api/games/{id}/go"), &json!({}))
            }
        };
        assert_eq!(r.status, 200, "{}", r.body);
        s = game(a, &id);
        assert!(mine + its < 1000, "the game ends");
    }
    assert!(s["error"].is_null(), "{}", s["error"]);
    assert_eq!(s["due"]["kind"], json!("over"), "{s}");
    assert!(its > 5, "the engine played {its} moves");
    // One process played them all (it is kept between decisions).
    let info = http::get(a, "/api/info").json();
    assert_eq!(info["engines_running"], json!(1), "{info}");
    eprintln!(
        "a cubeless game against ubgi-random: {mine} moves by the person, {its} by the engine"
    );
    // The review needs ranked candidates, which this engine does not give.
    let r = http::post(a, &format!("/api/games/{id}/review"), &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let error = game(a, &id)["error"].as_str().unwrap_or("").to_string();
    assert!(error.contains("cannot rank moves"), "{error}");
}

#[test]
fn the_hint_falls_back_to_the_engines_choice_without_equities() {
    let server = serve("8");
    let a = server.addr.as_str();
    let people = json!({"game": "backgammon", "white": "human", "black": "human", "engine": 0});
    let s = http::post(a, "/api/games", &people).json();
    let id = s["id"].as_str().unwrap();
    let r = http::post(a, &format!("/api/games/{id}/hint"), &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let after = game(a, id);
    assert!(after["error"].is_null(), "{}", after["error"]);
    let hint = after["hint"].as_str().unwrap();
    assert!(hint.starts_with("The engine would "), "{hint}");
    assert!(!hint.contains("Best moves"), "no equities: {hint}");
    eprintln!("the hint with ubgi-random: {hint}");
    // Its choice is a legal move: the person may play it.
    let choice = hint.trim_start_matches("The engine would ");
    let r = http::post(
        a,
        &format!("/api/games/{id}/move"),
        &json!({ "move": choice }),
    );
    assert_eq!(r.status, 200, "{choice}: {}", r.body);
}
