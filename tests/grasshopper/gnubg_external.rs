//! GNU Backgammon plays our engine as its external player: `grasshopper
//! external` listens, gnubg connects to it for one of its two players (the
//! other is gnubg at 0-ply) and plays money games with the cube off and on
//! (tools/gnubg-external-play.py), saves the match and loads it back. Every
//! game of the saved match is replayed here with the rules crate from the
//! start: every roll, cube action and move (ours and gnubg's) must be
//! legal, every position the one gnubg recorded, and every game must end
//! with the winner and points gnubg scored.

use backgammon_rules::{Decision, Dice, Game, Move, Player, Point, Rules, Step, WinKind};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// Our engine's fastest player that still makes its own cube decisions:
/// the net at one ply (GNU Backgammon's 0-ply). GNUBG_EXTERNAL_PLY and
/// GNUBG_EXTERNAL_GAMES (at least 10) make the bigger measured runs of
/// docs/results/gnubg-external-2026-12-02.md.
const ENGINE: [&str; 4] = ["external", "--port", "0", "--ply"];

fn setting(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `grasshopper external` on a free port, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(dir: &std::path::Path) -> Server {
        let log = dir.join("external.log");
        let mut child = Command::new(crate::BIN)
            .args(ENGINE)
            .arg(setting("GNUBG_EXTERNAL_PLY", 1).to_string())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server { child, port }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("gnubg_external")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays `games` games with the cube `cube` and returns what gnubg read
/// back from the saved match, one JSON value a line.
fn play(name: &str, games: u32, cube: &str, ours: Player) -> (Vec<Value>, String) {
    let dir = scratch(name);
    let server = Server::start(&dir);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/gnubg-external-play.py");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 3>&1 >/dev/null </dev/null; exec timeout 600 /usr/games/gnubg -t -q -p {}",
            script.display()
        ))
        .env("PORT", server.port.to_string())
        .env("GAMES", games.to_string())
        .env("CUBE", cube)
        .env("SIDE", ours.index().to_string())
        .env("SEED", setting("GNUBG_EXTERNAL_SEED", 1).to_string())
        .env("SGF", dir.join("match.sgf"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(server);
    let log = std::fs::read_to_string(dir.join("external.log")).unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, log)
}

fn player(v: &Value) -> Player {
    match v["player"].as_str() {
        Some("X") => Player::Zero,
        Some("O") => Player::One,
        other => panic!("no player in {v}: {other:?}"),
    }
}

/// The move of a record: steps [from, to] with the bar 25 and off 0.
fn record_move(v: &Value) -> Move {
    let steps: Vec<Step> = v["move"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let point = |i: usize| Point::from_index(s[i].as_u64().unwrap() as u8).unwrap();
            Step::new(point(0), point(1)).unwrap()
        })
        .collect();
    Move::new(&steps).unwrap_or_else(|| panic!("not a move: {v}"))
}

/// Rolls the dice of a move record: the opening roll (the mover had the
/// higher die) or an ordinary roll by the player on roll.
fn roll(game: &mut Game, v: &Value, who: Player) {
    let d: Vec<u8> = v["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as u8)
        .collect();
    let (hi, lo) = (d[0].max(d[1]), d[0].min(d[1]));
    match game.decision() {
        Decision::OpeningRoll => {
            let (d0, d1) = if who == Player::Zero {
                (hi, lo)
            } else {
                (lo, hi)
            };
            assert_eq!(game.roll_opening(d0, d1).unwrap(), Some(who), "{v}");
        }
        Decision::RollOrDouble { player, .. } => {
            assert_eq!(player, who, "{v}");
            game.roll(Dice::new(d[0], d[1]).unwrap()).unwrap();
        }
        other => panic!("{v}: a roll when {other} is due"),
    }
}

/// Replays one game's records; returns the points `ours` won (negative: lost).
fn replay_game(info: &Value, records: &[&Value], ours: Player) -> i64 {
    let mut game = Game::money(Rules::default());
    for &v in records {
        let who = player(v);
        let action = v["action"].as_str().unwrap();
        if let Decision::AnswerResignation { .. } = game.decision() {
            // Play went on: the resignation was declined.
            game.decline_resignation().unwrap();
        }
        let done = match action {
            "move" => {
                roll(&mut game, v, who);
                assert_eq!(
                    v["board"].as_str(),
                    Some(game.board().position_id().as_str()),
                    "{v}"
                );
                game.play(&record_move(v))
            }
            "double" => game.double(),
            "take" => game.take(),
            "drop" => game.drop(),
            "resign" => game.resign(match v["points"].as_u64() {
                Some(1) => WinKind::Single,
                Some(2) => WinKind::Gammon,
                _ => WinKind::Backgammon,
            }),
            other => panic!("unknown action {other}: {v}"),
        };
        done.unwrap_or_else(|e| panic!("{v}: refused by the rules: {e}"));
    }
    if let Decision::AnswerResignation { .. } = game.decision() {
        game.accept_resignation().unwrap();
    }
    let result = game
        .result()
        .unwrap_or_else(|| panic!("game not finished: {info}"));
    let winner = if result.winner == Player::Zero {
        "X"
    } else {
        "O"
    };
    assert_eq!(info["winner"].as_str(), Some(winner), "{info}");
    assert_eq!(
        info["points-won"].as_u64(),
        Some(result.points as u64),
        "{info}"
    );
    let points = result.points as i64;
    if result.winner == ours {
        points
    } else {
        -points
    }
}

/// The two games tests run one at a time: each keeps gnubg and our engine
/// busy, and other modules' tests have tight handshake timeouts.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Plays and replays, our engine as gnubg's player `ours`; returns our
/// engine's points per game.
fn played_and_replayed(name: &str, cube: &str, ours: Player) -> Vec<i64> {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let games = setting("GNUBG_EXTERNAL_GAMES", 10).max(10);
    let start = std::time::Instant::now();
    let (lines, log) = play(name, games, cube, ours);
    // Nothing gnubg sent was refused, and none of our answers was.
    assert!(!log.contains("ERROR") && !log.contains("WARN"), "{log}");
    let infos: Vec<&Value> = lines.iter().filter(|v| v.get("info").is_some()).collect();
    assert_eq!(infos.len(), games as usize, "{lines:?}");
    let mut cube_actions = 0;
    let points = infos
        .iter()
        .map(|info| {
            let n = &info["game"];
            let records: Vec<&Value> = lines
                .iter()
                .filter(|v| &v["game"] == n && v.get("action").is_some())
                .collect();
            cube_actions += records.iter().filter(|v| v["action"] == "double").count();
            replay_game(&info["info"], &records, ours)
        })
        .collect::<Vec<_>>();
    if cube == "off" {
        assert_eq!(cube_actions, 0);
    }
    let total: i64 = points.iter().sum();
    let mean = total as f64 / games as f64;
    let var = points
        .iter()
        .map(|&p| (p as f64 - mean).powi(2))
        .sum::<f64>()
        / games as f64;
    eprintln!(
        "{name}: {games} games complete, our engine {total:+} points, {mean:+.3} +- {:.3} \
         (standard error) per game, {cube_actions} doubles by either side, {:.1} s",
        (var / games as f64).sqrt(),
        start.elapsed().as_secs_f64()
    );
    points
}

/// Our engine in gnubg's player 1 seat (O).
#[test]
fn gnubg_plays_ten_money_games_with_the_cube_off_against_our_engine() {
    let points = played_and_replayed("cube_off", "off", Player::One);
    assert!(points.len() >= 10);
}

/// Our engine in gnubg's player 0 seat (X): the seat of gnubg's own bot in
/// a new installation, where a person playing our engine puts it.
#[test]
fn gnubg_plays_ten_money_games_with_the_cube_on_against_our_engine() {
    let points = played_and_replayed("cube_on", "on", Player::Zero);
    assert!(points.len() >= 10);
}

#[test]
fn a_search_depth_the_engine_has_not_is_refused_at_the_command_line() {
    for ply in ["0", "5", "x"] {
        let out = Command::new(crate::BIN)
            .args(["external", "--port", "0", "--ply", ply])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--ply {ply}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--ply"), "{err}");
    }
}
