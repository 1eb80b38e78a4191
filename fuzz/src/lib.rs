//! The checks behind the fuzz targets: one function per target, taking the
//! fuzzer's bytes. Each runs a parser of outside input on them (a panic is a
//! crash) and, where the parsed value has a text form, checks that the text
//! reads back to the same value (`parse(write(x)) == x`). The fuzz targets in
//! `fuzz_targets/` call these; `tests/seeds.rs` runs them over the seed
//! corpora without libFuzzer, as a cheap smoke test.

use backgammon_rules::{
    parse_position, Board, Dice, GnubgId, MatchState, Move as BgMove, TypedMove, Xgid,
};
use grasshopper_rules::{Move, Position};
use match_backgammon::{mat, Backgammon};
use match_grasshopper::Grasshopper;
use match_runner::{parse_records, Game};
use std::fmt::Debug;
use std::str::FromStr;

/// A target's check.
pub type Check = fn(&[u8]);

/// Every target, by name, for the seed test.
pub const TARGETS: &[(&str, Check)] = &[
    ("ugi_command", ugi_command),
    ("ubgi_command", ubgi_command),
    ("grasshopper_position", grasshopper_position),
    ("grasshopper_move", grasshopper_move),
    ("gnubg_id", gnubg_id),
    ("xgid", xgid),
    ("bg_move_notation", bg_move_notation),
    ("records_grasshopper", records_grasshopper),
    ("records_backgammon", records_backgammon),
    ("transport_lines", transport_lines),
    ("http_request", http_request),
    ("json_api", json_api),
];

/// The input as text; the parsers all take `&str` (the transport has made
/// sure of UTF-8 before them).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// `x` written with `Display` reads back as `x`.
fn round_trips<T>(x: &T)
where
    T: FromStr + ToString + PartialEq + Debug,
    T::Err: Debug,
{
    let written = x.to_string();
    match written.parse::<T>() {
        Ok(back) => assert_eq!(&back, x, "{written:?} reads back differently"),
        Err(e) => panic!("{x:?} is written as {written:?}, which does not read: {e:?}"),
    }
}

/// A UGI command line: the parser, the round trip of what it reads, the
/// position and moves of `position` played out, `setoption` applied.
pub fn ugi_command(data: &[u8]) {
    use grasshopper_ugi::{Command, EngineOptions, Query, Start};
    let Some(line) = text(data) else { return };
    let Ok(Some(cmd)) = grasshopper_ugi::parse_command(line) else {
        return;
    };
    round_trips(&cmd);
    match &cmd {
        Command::Position { start, moves } => {
            let mut pos = match start {
                Start::StartPos => {
                    Position::start(grasshopper_rules::MAX_CHECKERS).expect("the start position")
                }
                Start::Fen(p) => {
                    round_trips(p);
                    *p
                }
            };
            for &m in moves {
                match pos.play(m) {
                    Ok(next) => pos = next,
                    Err(_) => break,
                }
            }
            let _ = pos.legal_moves();
            let _ = pos.outcome();
        }
        Command::SetOption { name, value } => {
            let mut o = EngineOptions::new(grasshopper_engine::SearchOptions::default());
            let _ = o.set(name, value.as_deref());
        }
        Command::Query(Query::Legal(m)) => {
            if let Ok(m) = m.parse::<Move>() {
                let start = Position::start(grasshopper_rules::MAX_CHECKERS).expect("start");
                let _ = start.check(m);
            }
        }
        _ => {}
    }
}

/// A UBGI command line: the parser, the round trip, the position text read
/// as the session reads it, `set` applied to the keys, `play` and
/// `query legal` moves read and resolved against the position.
pub fn ubgi_command(data: &[u8]) {
    use backgammon_ubgi::{Command, PositionText, Query, Settings};
    let Some(line) = text(data) else { return };
    let Ok(Some(cmd)) = backgammon_ubgi::parse_command(line) else {
        return;
    };
    let written = cmd.to_string();
    assert_eq!(
        backgammon_ubgi::parse_command(&written),
        Ok(Some(cmd.clone())),
        "{cmd:?} is written as {written:?}"
    );
    match &cmd {
        Command::Position(PositionText::Gnubg(t)) => position_text(t),
        Command::Position(PositionText::Xgid(t)) if t.starts_with("XGID=") => position_text(t),
        Command::Position(PositionText::Xgid(t)) => position_text(&format!("XGID={t}")),
        Command::Set { key, value } => {
            let _ = Settings::default().set(key, value);
        }
        Command::Play(m) | Command::Query(Query::Legal(m)) => {
            for dice in ["65", "11", "21"] {
                let _ = Board::START.play_text(dice.parse().expect("dice"), m);
            }
        }
        _ => {}
    }
}

/// Position text as `position` and `--position` read it, and the board
/// and match state written back as IDs.
fn position_text(t: &str) {
    if let Ok((board, state)) = parse_position(t) {
        round_trips(&board);
        match_id_round_trips(&state);
        if let Ok(x) = Xgid::from_state(&board, &state) {
            round_trips(&x);
        }
    }
}

/// `state` written as a Match ID reads back the same, but for the order of
/// the dice: the Match ID holds them larger first (as GNU Backgammon writes
/// it), while an XGID keeps the order it was given.
fn match_id_round_trips(state: &MatchState) {
    let mut want = *state;
    want.dice = want.dice.and_then(|d| Dice::new(d.high(), d.low()));
    assert_eq!(
        state.to_string().parse::<MatchState>(),
        Ok(want),
        "{state:?}"
    );
}

/// A Grasshopper position string: the round trip, and the moves of the
/// position generated and played.
pub fn grasshopper_position(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(pos) = t.parse::<Position>() else {
        return;
    };
    round_trips(&pos);
    for m in pos.legal_moves().as_slice() {
        round_trips(m);
        let next = pos.play(*m).expect("a generated move is legal");
        round_trips(&next);
    }
    let _ = pos.outcome();
}

/// A Grasshopper move: the round trip, and the move checked on the start.
pub fn grasshopper_move(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(m) = t.parse::<Move>() else { return };
    round_trips(&m);
    for n in [1, 2, grasshopper_rules::MAX_CHECKERS] {
        if let Some(p) = Position::start(n) {
            let _ = p.play(m);
        }
    }
}

/// GNU Backgammon's Position ID, Match ID and `PositionID:MatchID`: each
/// round-trips, and the pair converts to an XGID that round-trips too.
pub fn gnubg_id(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(b) = t.parse::<Board>() {
        round_trips(&b);
    }
    if let Ok(s) = t.parse::<MatchState>() {
        round_trips(&s);
    }
    if let Ok(id) = t.parse::<GnubgId>() {
        round_trips(&id);
        if let Ok(x) = Xgid::from_state(&id.board, &id.state) {
            round_trips(&x);
            // An XGID has no Jacoby flag in a match (the rule is for money
            // play only), so a Match ID's flag there is not carried.
            let mut want = id.state;
            want.jacoby &= want.match_length == 0;
            assert_eq!(x.to_state(), Ok((id.board, want)), "{t:?} via {x}");
        }
    }
    position_text(t);
}

/// An XGID: the round trip, and the board and match state it means, which
/// written back as an XGID mean the same board and state.
pub fn xgid(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(x) = t.parse::<Xgid>() else { return };
    round_trips(&x);
    let Ok((board, state)) = x.to_state() else {
        return;
    };
    round_trips(&board);
    match_id_round_trips(&state);
    let again = Xgid::from_state(&board, &state).expect("a state read from an XGID");
    assert_eq!(again.to_state(), Ok((board, state)), "{t:?} via {again}");
}

/// Typed backgammon moves, as `<move>[|<dice>[|<position>]]`: the typed
/// move round-trips, resolves against the position (the start, or any the
/// position text reads as) with the dice (65 unless given), and every
/// legal move's canonical text and single-die text resolve back to it.
pub fn bg_move_notation(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let mut parts = t.splitn(3, '|');
    let typed_text = parts.next().unwrap_or_default();
    let dice: Dice = match parts.next() {
        Some(d) => match d.parse() {
            Ok(d) => d,
            Err(_) => return,
        },
        None => Dice::new(6, 5).expect("dice"),
    };
    let board = match parts.next() {
        Some(p) => match parse_position(p) {
            Ok((b, _)) => b,
            Err(_) => return,
        },
        None => Board::START,
    };
    if let Ok(typed) = typed_text.parse::<TypedMove>() {
        round_trips(&typed);
        if let Ok(m) = board.resolve_move(dice, &typed) {
            board.apply(dice, &m).expect("a resolved move is legal");
        }
    }
    for &m in board.legal_moves(dice).moves() {
        resolves_back(&board, dice, &m, &board.move_text(&m));
        resolves_back(&board, dice, &m, &board.move_steps_text(&m, true));
    }
}

/// `text` written for the legal move `m` resolves to a move with the same
/// result.
fn resolves_back(board: &Board, dice: Dice, m: &BgMove, text: &str) {
    let typed: TypedMove = text
        .parse()
        .unwrap_or_else(|e| panic!("{board} {dice}: {text:?} does not read: {e}"));
    let back = board
        .resolve_move(dice, &typed)
        .unwrap_or_else(|e| panic!("{board} {dice}: {text:?} does not resolve: {e}"));
    assert_eq!(
        board.apply_unchecked(back),
        board.apply_unchecked(*m),
        "{board} {dice}: {text:?} resolves to another move"
    );
}

/// A records file of Grasshopper games; see [`records`].
pub fn records_grasshopper(data: &[u8]) {
    records::<Grasshopper>(data, |_| {});
}

/// A records file of backgammon games; see [`records`]. Each record is also
/// written as a `.mat` match file.
pub fn records_backgammon(data: &[u8]) {
    records::<Backgammon>(data, |r| {
        let _ = mat::write(r);
    });
}

/// The records parser (as `--resume` and `match merge` read files), each
/// record replayed, and every record written reads back the same.
fn records<G: Game>(data: &[u8], also: impl Fn(&match_runner::GameRecord<G>))
where
    match_runner::GameRecord<G>: PartialEq + Debug,
{
    let Some(t) = text(data) else { return };
    let Ok(parsed) = parse_records::<G>(t) else {
        return;
    };
    for g in &parsed.games {
        let _ = g.replay();
        also(g);
    }
    let written: String = parsed.games.iter().map(|g| g.to_string()).collect();
    let back = parse_records::<G>(&written)
        .unwrap_or_else(|e| panic!("the records written as {written:?} do not read: {e}"));
    assert!(!back.truncated, "{written:?} reads as truncated");
    assert_eq!(back.games, parsed.games, "written as {written:?}");
}

/// The daemon's line reader on arbitrary bytes, through a small buffer: the
/// lines are the input's, split at line feeds, each one too long or not
/// UTF-8 answered as such.
pub fn transport_lines(data: &[u8]) {
    use engine_daemon::{read_lines, LineError, MAX_LINE};
    let cap = usize::from(data.first().copied().unwrap_or(1).max(1));
    let mut got = Vec::new();
    read_lines(std::io::BufReader::with_capacity(cap, data), |_, l| {
        got.push(l);
        true
    });
    let mut want: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if want.last().is_some_and(|l| l.is_empty()) {
        want.pop();
    }
    assert_eq!(got.len(), want.len(), "line count");
    for (g, w) in got.iter().zip(want) {
        match g {
            Ok(s) => assert_eq!(s.as_bytes(), w),
            Err(LineError::TooLong { len, .. }) => {
                assert_eq!(*len, w.len());
                assert!(w.len() > MAX_LINE);
            }
            Err(LineError::NotUtf8 { valid_up_to }) => {
                let e = std::str::from_utf8(w).expect_err("a bad line");
                assert_eq!(*valid_up_to, e.valid_up_to());
            }
        }
    }
}

/// An HTTP request as the board's server reads it off a connection: every
/// prefix the server may hold while the bytes arrive is read too (a
/// complete-looking prefix must not read differently from the whole), and a
/// request read whole keeps within the limits.
pub fn http_request(data: &[u8]) {
    use board_server::http::{parse_request, MAX_BODY, MAX_HEAD};
    let whole = parse_request(data);
    if let Ok(Some(r)) = &whole {
        assert!(r.body.len() <= MAX_BODY, "a body of {} bytes", r.body.len());
        assert!(!r.method.is_empty(), "a request without a method");
    }
    if let Err((status, _)) = whole {
        assert!((400..600).contains(&status), "refused with {status}");
    }
    // The server reads in pieces: a prefix that already reads as a whole
    // request must be the request the whole bytes give.
    for cut in [data.len() / 3, data.len() / 2, data.len().min(MAX_HEAD)] {
        let Ok(Some(early)) = parse_request(&data[..cut]) else {
            continue;
        };
        let Ok(Some(late)) = parse_request(data) else {
            panic!("a prefix of {cut} bytes reads as a request, the whole does not");
        };
        let key = |r: &board_server::http::Request| {
            let mut headers: Vec<_> = r.headers.iter().collect();
            headers.sort();
            (
                r.method.clone(),
                r.path.clone(),
                format!("{headers:?}"),
                r.body.clone(),
            )
        };
        assert_eq!(
            key(&early),
            key(&late),
            "a prefix of {cut} bytes reads differently"
        );
    }
}

/// The board's JSON API with the fuzzer's body: the first byte picks the
/// action (a new game from the body, or a move, undo, seek or settings on a
/// fresh human-against-human game), the rest is the body. No answer may be
/// an internal error (`500`), and a handler's panic is a crash.
pub fn json_api(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let (app, cookie) = api_app();
    let call = |method: &str, path: &str, body: &[u8]| {
        let r = api_request(method, path, body, cookie);
        let answer = app.handle(&r);
        assert_ne!(
            answer.status,
            500,
            "{method} {path}: {:?}",
            String::from_utf8_lossy(&answer.body)
        );
        answer
    };
    const ACTIONS: [&str; 5] = ["new", "move", "undo", "seek", "settings"];
    let action = ACTIONS[usize::from(pick) % ACTIONS.len()];
    let fresh: &[u8] = br#"{"checkers": 4, "white": "human", "black": "human"}"#;
    let created = call(
        "POST",
        "/api/games",
        if action == "new" { body } else { fresh },
    );
    let Some(id) = game_id(&created.body) else {
        return;
    };
    if action != "new" {
        call("POST", &format!("/api/games/{id}/{action}"), body);
    }
    call("GET", &format!("/api/games/{id}"), b"");
    call("DELETE", &format!("/api/games/{id}"), b"");
}

/// One server for every run of `json_api`, and its owner cookie. Its engine
/// is a program that does not exist: a game given to the engine fails to
/// start it, quickly, instead of starting processes.
fn api_app() -> &'static (std::sync::Arc<board_server::App>, String) {
    static APP: std::sync::OnceLock<(std::sync::Arc<board_server::App>, String)> =
        std::sync::OnceLock::new();
    APP.get_or_init(|| {
        let engine =
            match_runner::EngineSpec::from_tokens(&["cmd=/nonexistent/engine", "name=none"])
                .expect("an engine specification");
        let app = board_server::App::new(board_server::Config::new(vec![engine]));
        let first = app.handle(&api_request("GET", "/api/info", b"", ""));
        let cookie = first
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("set-cookie"))
            .and_then(|(_, v)| v.split(';').next())
            .expect("the first API answer sets the owner cookie")
            .to_string();
        (app, cookie)
    })
}

fn api_request(method: &str, path: &str, body: &[u8], cookie: &str) -> board_server::http::Request {
    let mut headers = std::collections::HashMap::new();
    headers.insert("host".to_string(), "localhost".to_string());
    headers.insert("content-type".to_string(), "application/json".to_string());
    if !cookie.is_empty() {
        headers.insert("cookie".to_string(), cookie.to_string());
    }
    board_server::http::Request {
        method: method.to_string(),
        path: path.to_string(),
        query: Default::default(),
        headers,
        body: body.to_vec(),
    }
}

/// The `id` of a created game's answer.
fn game_id(body: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    Some(v.get("id")?.as_str()?.to_string())
}
