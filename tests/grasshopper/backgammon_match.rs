//! Backgammon matches through the runner (`match --game backgammon`): this
//! binary's pubeval and random players, GNU Backgammon through
//! tools/gnubg-ubgi, and testkit's ubgi-fault relay misbehaving on
//! purpose. Every record replays in the runner, and every .mat file the
//! runner writes is imported into GNU Backgammon, which must see the same
//! games (the same positions, dice, cube actions and winners) and, asked to
//! export them again, write the very same file.

use backgammon_rules::{Board, Move, Point, Step};
use match_backgammon::{replay, Backgammon, Event};
use match_runner::{parse_records, GameResult, Side, Termination};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

type GameRecord = match_runner::GameRecord<Backgammon>;

/// These tests run one at a time: each keeps several engine processes busy,
/// and the other modules' tests have tight handshake timeouts.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("backgammon_match")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn engine(tokens: &[&str]) -> Vec<String> {
    let mut v = vec!["--engine".to_string()];
    v.extend(tokens.iter().map(|t| t.to_string()));
    v
}

fn pubeval(name: &str) -> Vec<String> {
    engine(&[
        &format!("cmd={}", crate::BIN),
        &format!("name={name}"),
        "arg=--player",
        "arg=pubeval",
    ])
}

fn gnubg() -> Vec<String> {
    engine(&[
        &format!("cmd={}", root().join("tools/gnubg-ubgi").display()),
        "name=gnubg",
    ])
}

/// The fault fixture over this binary's pubeval player, with `opts`.
fn faulty(name: &str, opts: &[&str]) -> Vec<String> {
    let mut t = vec![
        format!("cmd={}", testkit::ubgi_fault().display()),
        format!("name={name}"),
    ];
    t.extend(opts.iter().map(|o| format!("arg={o}")));
    for a in ["--", crate::BIN, "--player", "pubeval"] {
        t.push(format!("arg={a}"));
    }
    let t: Vec<&str> = t.iter().map(String::as_str).collect();
    engine(&t)
}

fn grasshopper(args: &[String]) -> Output {
    Command::new(crate::BIN).args(args).output().unwrap()
}

/// Plays `grasshopper match --game backgammon` with `args` into `dir`
/// (records, JSON summary, .mat files); the records, the summary, stdout.
fn play(dir: &Path, args: &[String]) -> (Vec<GameRecord>, Value, String) {
    let mut all: Vec<String> = ["match", "--game", "backgammon", "-q"]
        .map(String::from)
        .to_vec();
    all.extend(args.iter().cloned());
    for (flag, file) in [
        ("--pgn", "match.pgn"),
        ("--json", "match.json"),
        ("--mat", "mat"),
    ] {
        all.push(flag.to_string());
        all.push(dir.join(file).display().to_string());
    }
    let out = grasshopper(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(dir.join("match.json")).unwrap();
    (
        records(&dir.join("match.pgn")),
        serde_json::from_str(&json).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn records(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = parse_records::<Backgammon>(&text).unwrap();
    assert!(!parsed.truncated);
    for g in &parsed.games {
        g.replay()
            .unwrap_or_else(|e| panic!("game {}.{}: {e}\n{g}", g.pair + 1, g.game));
    }
    parsed.games
}

/// What GNU Backgammon made of .mat files: per file, its JSON lines.
fn gnubg_import(files: &[PathBuf]) -> BTreeMap<String, Vec<Value>> {
    let list: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let script = root().join("tools/gnubg-mat-dump.py");
    // The dump speaks on fd 3: point it at our pipe, GNU Backgammon's own
    // chatter at /dev/null.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 3>&1 >/dev/null </dev/null; exec /usr/games/gnubg -t -q -p {}",
            script.display()
        ))
        .env("MAT_FILES", list.join(" "))
        .env("REEXPORT_SUFFIX", ".gnubg")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut by_file: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v.get("error").is_none(), "{v}");
        let file = v["file"].as_str().unwrap().to_string();
        by_file.entry(file).or_default().push(v);
    }
    by_file
}

fn xo(side: Side) -> &'static str {
    match side {
        Side::White => "X",
        Side::Black => "O",
    }
}

/// An action's kind and player, as GNU Backgammon names them.
fn act(t: &Value) -> (&str, &str) {
    (
        t["action"].as_str().unwrap_or(""),
        t["player"].as_str().unwrap_or(""),
    )
}

/// The board after `steps` (GNU Backgammon's `[from, to]` pairs, any order).
fn after_steps(before: &Board, steps: &Value) -> Board {
    let mut s: Vec<(u8, u8)> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as u8, p[1].as_u64().unwrap() as u8))
        .collect();
    // From the highest start: a checker arrives before it moves on.
    s.sort_by(|a, b| b.cmp(a));
    let steps: Vec<Step> = s
        .iter()
        .map(|&(f, t)| {
            Step::new(Point::from_index(f).unwrap(), Point::from_index(t).unwrap()).unwrap()
        })
        .collect();
    before.apply_unchecked(Move::new(&steps).unwrap())
}

/// One backgammon game as the runner saw it: its actions, and the winner
/// with the points when it ended.
type OurGame<'a> = (Vec<&'a Event>, Option<(Side, u32)>);

/// Checks that GNU Backgammon imports each record's .mat file as the game
/// the runner played, and exports it again byte for byte (below the header).
fn check_gnubg_sees_the_same_games(records: &[GameRecord], mat: &Path) {
    let files: Vec<PathBuf> = records
        .iter()
        .map(|g| mat.join(format!("pair-{:05}-{}.mat", g.pair + 1, g.game)))
        .collect();
    let seen = gnubg_import(&files);
    for (g, file) in records.iter().zip(&files) {
        let name = file.display().to_string();
        let lines = &seen[&name];
        let (table, _) = replay(&g.opening, &g.moves).unwrap();
        // Ours, game by game: the actions and the winners.
        let mut games: Vec<OurGame> = Vec::new();
        for e in table.events() {
            match e {
                Event::GameStart { .. } => games.push((Vec::new(), None)),
                Event::GameEnd { winner, points, .. } => {
                    games.last_mut().unwrap().1 = Some((*winner, *points))
                }
                e => games.last_mut().unwrap().0.push(e),
            }
        }
        let infos: Vec<&Value> = lines.iter().filter(|l| l.get("info").is_some()).collect();
        assert_eq!(infos.len(), games.len(), "{name}: games");
        for (n, (actions, end)) in games.iter().enumerate() {
            let theirs: Vec<&Value> = lines
                .iter()
                .filter(|l| l["game"] == n + 1 && l.get("action").is_some())
                .collect();
            assert_eq!(theirs.len(), actions.len(), "{name} game {}", n + 1);
            for (i, (ours, t)) in actions.iter().zip(&theirs).enumerate() {
                let at = format!("{name} game {} action {}: {t}", n + 1, i + 1);
                match ours {
                    Event::Move {
                        side,
                        dice,
                        before,
                        play,
                    } => {
                        assert_eq!(t["action"], "move", "{at}");
                        assert_eq!(t["player"], xo(*side), "{at}");
                        let (a, b) = dice.values();
                        assert_eq!(t["dice"], serde_json::json!([a, b]), "{at}");
                        assert_eq!(t["board"], before.position_id(), "{at}");
                        assert_eq!(
                            after_steps(before, &t["move"]),
                            before.apply_unchecked(*play),
                            "{at}"
                        );
                    }
                    Event::Double { side, .. } => assert_eq!(act(t), ("double", xo(*side)), "{at}"),
                    Event::Take { side } => assert_eq!(act(t), ("take", xo(*side)), "{at}"),
                    Event::Drop { side } => assert_eq!(act(t), ("drop", xo(*side)), "{at}"),
                    e => panic!("{at}: unexpected {e:?}"),
                }
            }
            if let Some((winner, points)) = end {
                let info = &infos[n]["info"];
                assert_eq!(info["winner"], xo(*winner), "{name} game {}", n + 1);
                if g.opening.length > 0 {
                    // Money points depend on GNU Backgammon's own Jacoby setting.
                    assert_eq!(info["points-won"], *points, "{name} game {}", n + 1);
                }
            }
        }
        // Exported again by GNU Backgammon itself: the same file below its
        // own header (the `;` lines and the blank line after them).
        let body = |text: &str| -> String {
            let start = text.find(" point match").expect("a match line");
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            text[line_start..].to_string()
        };
        let ours = std::fs::read_to_string(file).unwrap();
        let again = std::fs::read_to_string(format!("{name}.gnubg")).unwrap();
        assert_eq!(
            body(&again),
            body(&ours),
            "{name}: GNU Backgammon writes it otherwise"
        );
    }
}

#[test]
fn gnubg_plays_money_with_the_cube_and_imports_every_game_as_played() {
    let _turn = one_at_a_time();
    // GNU Backgammon (0-ply) against a pubeval that doubles whenever it may
    // and drops every double: doubles, takes, redoubles and drops under the
    // Jacoby rule.
    let dir = scratch("money");
    let mut args = gnubg();
    args.extend(faulty("doubler", &["--double", "--drop"]));
    args.extend(["--pairs", "2", "--seed", "3"].map(String::from));
    let (games, json, report) = play(&dir, &args);
    assert_eq!(games.len(), 4);
    let moves: Vec<String> = games
        .iter()
        .flat_map(|g| g.moves.iter().map(|m| m.to_string()))
        .collect();
    assert!(
        moves.iter().any(|m| m.starts_with("double+take+")),
        "{moves:?}"
    );
    assert!(moves.iter().any(|m| m == "double+drop"), "{moves:?}");
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g}");
        assert!(g
            .opening
            .to_string()
            .starts_with("money cube=on jacoby=on dice="));
        // The second game of a pair rolls the first game's dice.
        let first = games
            .iter()
            .find(|h| h.pair == g.pair && h.game == 1)
            .unwrap();
        assert_eq!(first.opening, g.opening);
    }
    assert!(report.contains("Points per game"), "{report}");
    let p = &json["pairings"][0];
    assert_eq!(json["scoring"], "points");
    assert_eq!(p["points_per_game"]["games"], 4);
    let net: f64 = games
        .iter()
        .map(|g| {
            let gnubg = if g.white == "gnubg" {
                Side::White
            } else {
                Side::Black
            };
            g.result.score_of(gnubg) - g.result.score_of(gnubg.opposite())
        })
        .sum();
    assert_eq!(p["first"], "gnubg");
    assert_eq!(p["points_per_game"]["net"].as_f64().unwrap(), net);
    check_gnubg_sees_the_same_games(&games, &dir.join("mat"));
}

#[test]
fn a_three_point_match_against_gnubg_keeps_the_crawford_rule() {
    let _turn = one_at_a_time();
    let dir = scratch("match");
    let mut args = pubeval("pubeval");
    args.extend(gnubg());
    args.extend(["--pairs", "1", "--length", "3", "--seed", "5"].map(String::from));
    let (games, json, report) = play(&dir, &args);
    assert!(
        report.starts_with("Matches: 2, complete pairs: 1"),
        "{report}"
    );
    assert_eq!(json["scoring"], "matches");
    for g in &games {
        let GameResult::Score { white, black } = g.result else {
            panic!("{}: a match ends with a score", g.result)
        };
        assert!(white.max(black) >= 3 && white.min(black) < 3, "{g}");
        // No double in the Crawford game: the game that starts with a
        // player 1-away for the first time.
        let (table, _) = replay(&g.opening, &g.moves).unwrap();
        let mut crawford = false;
        let mut seen_one_away = false;
        for e in table.events() {
            match e {
                Event::GameStart { score } => {
                    crawford = !seen_one_away && score.contains(&2);
                    seen_one_away |= score.contains(&2);
                }
                Event::Double { .. } => assert!(!crawford, "a double in the Crawford game: {g}"),
                _ => {}
            }
        }
    }
    check_gnubg_sees_the_same_games(&games, &dir.join("mat"));
}

#[test]
fn misbehaving_engines_forfeit_with_the_reason_and_their_records_replay() {
    let _turn = one_at_a_time();
    let dir = scratch("faults");
    let cases: [(&str, Vec<&str>, Termination, &str); 6] = [
        (
            "illegal",
            vec!["--fail", "illegal", "--fail-on", "chequer"],
            Termination::IllegalMove,
            "played the illegal move \"24/1\"",
        ),
        (
            "cube",
            vec!["--fail", "garbage", "--fail-on", "cube"],
            Termination::IllegalMove,
            "unreadable cube decision \"bestcube maybe\"",
        ),
        (
            "crash",
            vec!["--fail", "crash", "--fail-at", "4"],
            Termination::Crash,
            "engine crashed",
        ),
        (
            "silent",
            vec!["--fail", "silent", "--fail-at", "2"],
            Termination::TimeForfeit,
            "gave no move",
        ),
        (
            "error",
            vec!["--fail", "error", "--fail-at", "2"],
            Termination::Protocol,
            "with \"error bad_state I will not\"",
        ),
        (
            "take",
            vec!["--fail", "garbage", "--fail-on", "take"],
            Termination::IllegalMove,
            "unreadable take decision",
        ),
    ];
    for (name, opts, termination, detail) in cases {
        let sub = dir.join(name);
        std::fs::create_dir_all(&sub).unwrap();
        let mut args = faulty(name, &opts);
        if name == "take" {
            // Only a double makes a take decision.
            args.extend(faulty("doubler", &["--double"]));
        } else {
            args.extend(pubeval("pubeval"));
        }
        args.extend(["--pairs", "1"].map(String::from));
        if name == "silent" {
            args.extend(["--tc", "movetime=300"].map(String::from));
        }
        let (games, _, _) = play(&sub, &args);
        for g in &games {
            let offender = if g.white == name {
                Side::White
            } else {
                Side::Black
            };
            assert_eq!(g.termination, termination, "{name}: {g}");
            assert!(
                g.detail.as_deref().unwrap_or("").contains(detail),
                "{name}: {g}"
            );
            // Money with the Jacoby rule and an unturned cube: a single game.
            assert_eq!(
                g.result,
                GameResult::win_for(offender.opposite()),
                "{name}: {g}"
            );
        }
        if name == "take" {
            // The doubled engine failed: the record ends with the double.
            for g in &games {
                assert_eq!(g.moves.last().unwrap().to_string(), "double", "{g}");
            }
        }
    }
    // In a match a forfeit loses the match; the safety bound on turns is a
    // stall of the side to act.
    let sub = dir.join("match");
    std::fs::create_dir_all(&sub).unwrap();
    let mut args = faulty("crash", &["--fail", "crash", "--fail-at", "6"]);
    args.extend(pubeval("pubeval"));
    args.extend(["--pairs", "1", "--length", "5"].map(String::from));
    let (games, _, _) = play(&sub, &args);
    for g in &games {
        assert_eq!(g.termination, Termination::Crash);
        let pubeval = if g.white == "pubeval" {
            Side::White
        } else {
            Side::Black
        };
        assert_eq!(g.result.score_of(pubeval), 5.0, "{g}");
    }
    let sub = dir.join("stall");
    std::fs::create_dir_all(&sub).unwrap();
    let mut args = pubeval("a");
    args.extend(pubeval("b"));
    args.extend(["--pairs", "1", "--cube", "off", "--max-turns", "6"].map(String::from));
    let (games, json, _) = play(&sub, &args);
    for g in &games {
        assert_eq!(g.termination, Termination::Stall, "{g}");
        assert!(
            g.detail.as_deref().unwrap().contains("after 6 turns"),
            "{g}"
        );
        // Cubeless money counts gammons: a forfeit costs a backgammon.
        assert_eq!(g.result.score_of(g.result.winner().unwrap()), 3.0, "{g}");
        assert!(g
            .opening
            .to_string()
            .starts_with("money cube=off jacoby=off"));
    }
    assert_eq!(json["terminations"]["stall"], 2);
}

#[test]
fn shards_merge_and_resume_reproduce_an_uninterrupted_match() {
    let _turn = one_at_a_time();
    let dir = scratch("shards");
    let mut base = pubeval("a");
    base.extend(engine(&[
        &format!("cmd={}", crate::BIN),
        "name=b",
        "arg=--player",
        "arg=random",
        "option.engine.seed=7",
    ]));
    base.extend(["--pairs", "4", "--length", "3", "--seed", "9"].map(String::from));
    let whole = dir.join("whole");
    std::fs::create_dir_all(&whole).unwrap();
    let key = |g: &GameRecord| (g.pair, g.game, g.result, g.termination, g.moves.clone());
    // The random player runs on from game to game within a process: compare
    // pubeval's side only where both runs start fresh processes alike.
    let (all, json, _) = play(&whole, &base);
    assert_eq!(all.len(), 8);
    let mut shards = Vec::new();
    for i in 1..=2 {
        let sub = dir.join(format!("shard{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        let mut args = base.clone();
        args.extend(["--shard".to_string(), format!("{i}/2")]);
        let (games, _, _) = play(&sub, &args);
        assert!(games.iter().all(|g| g.pair % 2 == i - 1));
        shards.push(sub.join("match.pgn"));
    }
    let merged = dir.join("merged.pgn");
    let mut args: Vec<String> = ["match", "merge", "--game", "backgammon"]
        .map(String::from)
        .to_vec();
    args.extend(shards.iter().map(|p| p.display().to_string()));
    args.extend([
        "--pgn".to_string(),
        merged.display().to_string(),
        "--json".to_string(),
        dir.join("merged.json").display().to_string(),
        "--mat".to_string(),
        dir.join("merged-mat").display().to_string(),
    ]);
    let out = grasshopper(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged_games = records(&merged);
    assert_eq!(merged_games.len(), 8);
    assert!(dir.join("merged-mat/pair-00004-2.mat").exists());
    // The random mover's stream differs between one process per shard and
    // one for the whole match, so only the dice are sure to agree.
    for (m, w) in merged_games.iter().zip(&all) {
        assert_eq!((m.pair, m.game, m.opening), (w.pair, w.game, w.opening));
    }
    let merged_json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("merged.json")).unwrap()).unwrap();
    assert_eq!(merged_json["games"], json["games"]);

    // Resume: pubeval against itself is deterministic; cut the records
    // inside the third pair and go on.
    let mut det = pubeval("a");
    det.extend(pubeval("b"));
    det.extend(["--pairs", "3", "--seed", "4"].map(String::from));
    let full = dir.join("full");
    std::fs::create_dir_all(&full).unwrap();
    let (want, _, _) = play(&full, &det);
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let text = std::fs::read_to_string(full.join("match.pgn")).unwrap();
    let at = text.find("[Round \"3.1\"]").unwrap() + 200;
    std::fs::write(cut.join("match.pgn"), &text[..at]).unwrap();
    let mut args = det.clone();
    args.push("--resume".to_string());
    let (got, _, _) = play(&cut, &args);
    assert_eq!(
        got.iter().map(key).collect::<Vec<_>>(),
        want.iter().map(key).collect::<Vec<_>>()
    );
}

#[test]
fn settings_that_do_not_fit_the_game_are_refused() {
    let _turn = one_at_a_time();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "--game",
                "backgammon",
                "--engine",
                "cmd=x",
                "proto=ugi",
                "--engine",
                "cmd=y",
            ],
            "speaks proto=ugi",
        ),
        (
            &[
                "--game",
                "backgammon",
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--sprt",
                "elo0=0",
                "elo1=5",
            ],
            "points per game",
        ),
        (
            &["--engine", "cmd=x", "--engine", "cmd=y", "--length", "7"],
            "add --game backgammon",
        ),
        (
            &[
                "--game",
                "backgammon",
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--openings",
                "o.txt",
            ],
            "Grasshopper's",
        ),
        (
            &[
                "--game",
                "backgammon",
                "--engine",
                "cmd=x",
                "--engine",
                "cmd=y",
                "--holland",
                "on",
            ],
            "give --length N",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["match".to_string()];
        all.extend(args.iter().map(|a| a.to_string()));
        let out = grasshopper(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn the_gnubg_adapter_answers_garbage_with_error_lines_and_goes_on() {
    let _turn = one_at_a_time();
    use std::io::{Read, Write};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(root().join("tools/gnubg-ubgi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input: Vec<u8> = Vec::new();
    for line in [
        "ubgi",
        "go chequer",
        "hello there",
        "position gnubgid !!!!!!!!!!!!!!",
        "position gnubgid 4HPwATDgc/ABMA:zzzzzzzzzzzz",
        "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
        "dice 7 1",
        "set engine.ply 9",
        "set no.such.key 1",
        "go sideways",
        "position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "go chequer",
        "dice 5 2",
        "go role chequer",
        "setoption name engine.ply value 2",
        "get engine.ply",
        "go cube",
        "go turn",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe\x00 binary\n");
    input.extend(std::iter::repeat_n(b'x', 100_000));
    input.extend_from_slice(b"\nisready\nquit\n");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = String::new();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let _ = stdout.read_to_string(&mut out);
        out
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the adapter hangs");
        std::thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    let out = reader.join().unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let want = [
        "error bad_state missing position",
        "error bad_command hello is not a command",
        "error bad_value position: bad Position ID",
        "error bad_value position: bad Match ID",
        "error unsupported position xgid",
        "error bad_value dice: expected two numbers 1-6",
        "error bad_value engine.ply 9",
        "error unsupported key no.such.key",
        "error bad_command go: expected chequer, cube, turn or take",
        "error bad_state missing dice",
        "bestmove 13/8 24/22",
        "value engine.ply 2",
        "bestcube nodouble",
        "bestturn cube=nodouble move=13/8 24/22",
        "error bad_command ",
        "error bad_command line longer than 65536 bytes",
        "readyok",
    ];
    let after_ok = lines.iter().position(|l| *l == "ubgiok").expect("ubgiok");
    let mut rest = lines[after_ok + 1..].iter();
    for w in want {
        assert!(
            rest.any(|l| l.starts_with(w)),
            "no \"{w}\" in order in:\n{out}"
        );
    }
}

#[test]
fn an_engine_that_fails_to_start_forfeits_the_match_game_at_its_value() {
    // Given a 3-point match where one engine never answers `ubgi`,
    let dir = scratch("bg_mute");
    let mut args = faulty("mute", &["--mute"]);
    args.extend(pubeval("pubeval"));
    args.extend(["--pairs", "1", "--length", "3", "--timeout", "2000"].map(String::from));
    // when the match is played (the records replay, or play() fails),
    let (games, _, _) = play(&dir, &args);
    // then each game is a stall before the first move that gives the other
    // engine the whole match, as a forfeit mid-match would.
    assert_eq!(games.len(), 2);
    for g in &games {
        let offender = if g.white == "mute" {
            Side::White
        } else {
            Side::Black
        };
        assert_eq!(g.termination, Termination::Stall, "{g}");
        assert!(g.moves.is_empty(), "{g}");
        let want = match offender {
            Side::White => GameResult::points(0, 3),
            Side::Black => GameResult::points(3, 0),
        };
        assert_eq!(g.result, want, "{g}");
    }
}

/// An engine that speaks only the UBGI draft (testkit's ubgi-random: a
/// Position ID, `dice`, `go chequer`; no Match ID) plays a cubeless
/// 3-point match against our pubeval: the runner finds out at the start
/// that it reads the Position ID alone and sends it that, so every game is
/// played to the end by the rules and no game is forfeited.
#[test]
fn an_engine_that_reads_only_the_drafts_position_id_plays_a_match_to_the_end() {
    let _turn = one_at_a_time();
    let dir = scratch("draft");
    let mut args = pubeval("pubeval");
    args.extend(engine(&[
        &format!("cmd={}", testkit::ubgi_random().display()),
        "name=ubgi-random",
    ]));
    args.extend(
        [
            "--pairs", "1", "--seed", "5", "--length", "3", "--cube", "off",
        ]
        .map(String::from),
    );
    let (games, _, report) = play(&dir, &args);
    assert_eq!(games.len(), 2, "{report}");
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g}");
        assert!(g.moves.len() > 10, "{g}");
        let score = [
            g.result.score_of(Side::White),
            g.result.score_of(Side::Black),
        ];
        assert!(score.iter().any(|&p| p >= 3.0), "a match to 3 points: {g}");
        eprintln!(
            "{} (White) v {} (Black): {} turns, {}",
            g.white,
            g.black,
            g.moves.len(),
            g.result
        );
    }
}
