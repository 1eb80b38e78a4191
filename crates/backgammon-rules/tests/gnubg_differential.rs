//! Differential test against GNU Backgammon 1.07 (`apt-get install -y gnubg`).
//!
//! GNU Backgammon lists every legal move of tens of thousands of (position,
//! dice) pairs (`hint` at 0 plies with pruning off gives one move per
//! resulting position); the sets of resulting positions must be identical,
//! its move strings must be ours, and ours must read its strings back. It
//! also writes Match IDs for many match states, built directly and reached by
//! commands, and reads XGIDs we write; every ID must read back and write out
//! identically. The work is batched into nine gnubg runs: four at once for
//! each of the two move tests (gnubg's `hint` waits about 10 ms for its
//! worker thread, so parallel runs overlap the waits) and one for the IDs.
//! About 25 s on the shared 2-core machine.

mod support;

use backgammon_rules::{
    Board, CubeOwner, Dice, GameState, GnubgId, MatchState, Player, Side, WinKind, XgDice, Xgid,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;
use support::{board_pairs, game_pairs, random_board, Rng};

const INSTALL: &str = "GNU Backgammon is needed for this test: install it with \
                       `apt-get install -y gnubg` (it runs /usr/games/gnubg)";

/// The gnubg program: `/usr/games/gnubg`, or `$BG_GNUBG` when set.
fn gnubg() -> PathBuf {
    let path = std::env::var_os("BG_GNUBG").map_or("/usr/games/gnubg".into(), PathBuf::from);
    assert!(
        path.exists(),
        "{INSTALL}; {} does not exist",
        path.display()
    );
    path
}

/// Runs the jobs through `shards` gnubg processes at once and returns the
/// answer lines in order.
fn run_gnubg(name: &str, jobs: &[String], shards: usize) -> Vec<String> {
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gnubg_driver.py");
    let dir = std::env::temp_dir().join(format!("bg-diff-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chunk = jobs.len().div_ceil(shards).max(1);
    let runs: Vec<_> = jobs
        .chunks(chunk)
        .enumerate()
        .map(|(i, part)| {
            let (jobs_path, answers_path) = (
                dir.join(format!("jobs{i}")),
                dir.join(format!("answers{i}")),
            );
            std::fs::write(&jobs_path, part.join("\n") + "\n").unwrap();
            let child = Command::new(gnubg())
                .args(["-t", "-q", "-p"])
                .arg(&driver)
                .env("BG_JOBS", &jobs_path)
                .env("BG_ANSWERS", &answers_path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{INSTALL}: running it failed: {e}"));
            (child, answers_path)
        })
        .collect();
    let mut answers = Vec::new();
    for (mut child, path) in runs {
        let status = child.wait().unwrap();
        assert!(status.success(), "gnubg exited with {status}");
        let text = std::fs::read_to_string(&path).expect("gnubg wrote no answers");
        answers.extend(text.lines().map(str::to_string));
    }
    std::fs::remove_dir_all(&dir).ok();
    answers
}

/// What the move comparison met, to show the corners were covered.
#[derive(Default, Debug)]
struct Coverage {
    pairs: usize,
    moves: usize,
    passes: usize,
    bar: usize,
    bear_off: usize,
    one_die_only: usize,
    larger_die_only: usize,
    partial_doubles: usize,
    hits: usize,
}

fn compare_moves(pairs: &[(Board, Dice)], answers: &[String]) -> (Coverage, Vec<String>) {
    let mut cov = Coverage::default();
    let mut bad = Vec::new();
    let mut lines = answers.iter();
    for &(board, dice) in pairs {
        let head = lines.next().expect("an answer per pair");
        let f: Vec<&str> = head.split(' ').collect();
        let at = format!("{board} {dice}");
        if f[0] != "M" || f.len() != 3 {
            bad.push(format!("{at}: gnubg answered {head}"));
            continue;
        }
        if f[1] != board.position_id() {
            bad.push(format!("{at}: gnubg set the board as {}", f[1]));
        }
        let n: usize = f[2].parse().unwrap();
        let theirs: HashMap<String, String> = (0..n)
            .map(|_| {
                let (m, pid) = lines.next().unwrap().split_once('\t').unwrap();
                (pid.to_string(), m.to_string())
            })
            .collect();
        let list = board.legal_moves(dice);
        let ours: HashMap<String, String> = list
            .iter()
            .filter(|(m, _)| !m.is_pass())
            .map(|(m, b)| (b.position_id(), board.move_text(&m)))
            .collect();
        tally(&mut cov, &board, dice, &list, n);
        for (pid, m) in &theirs {
            let read = pid.parse::<Board>().map(|b| b.to_string());
            if read.as_deref() != Ok(pid.as_str()) {
                bad.push(format!(
                    "{at}: gnubg's Position ID {pid} reads back as {read:?}"
                ));
            }
            match ours.get(pid) {
                None => bad.push(format!("{at}: we lack gnubg's {m} (to {pid})")),
                Some(ours) if ours != m => bad.push(format!("{at}: we write {ours}, gnubg {m}")),
                Some(_) => {}
            }
            match board.play_text(dice, m) {
                Ok((_, b)) if b.position_id() == *pid => {}
                other => bad.push(format!("{at}: gnubg's {m} reads as {other:?}")),
            }
        }
        for (pid, m) in &ours {
            if !theirs.contains_key(pid) {
                bad.push(format!("{at}: gnubg lacks our {m} (to {pid})"));
            }
        }
        for (m, b) in list.iter() {
            if board.apply(dice, &m) != Ok(b) {
                bad.push(format!("{at}: checked play refuses {:?}", m));
            }
        }
    }
    (cov, bad)
}

fn tally(
    cov: &mut Coverage,
    board: &Board,
    dice: Dice,
    list: &backgammon_rules::MoveList,
    n: usize,
) {
    cov.pairs += 1;
    cov.moves += n;
    let longest = list.moves()[0].len();
    cov.passes += (longest == 0) as usize;
    cov.bar += (board.bar(Side::OnRoll) > 0) as usize;
    cov.bear_off += board.all_home(Side::OnRoll) as usize;
    if !dice.is_double() && longest == 1 {
        cov.one_die_only += 1;
        let high = list.moves()[0].steps()[0].pips() >= dice.high()
            || list.moves()[0].steps()[0].to().is_off();
        let low_alone = !board
            .legal_moves(Dice::new(dice.low(), dice.low()).unwrap())
            .moves()[0]
            .is_pass();
        cov.larger_die_only += (high && low_alone) as usize;
    }
    cov.partial_doubles += (dice.is_double() && (1..4).contains(&longest)) as usize;
    cov.hits += list
        .boards()
        .iter()
        .any(|b| b.bar(Side::Opponent) > board.bar(Side::Opponent)) as usize;
}

fn check_pairs(name: &str, pairs: Vec<(Board, Dice)>) {
    let started = Instant::now();
    let jobs: Vec<String> = pairs
        .iter()
        .map(|(b, d)| format!("M {b} {} {}", d.values().0, d.values().1))
        .collect();
    let answers = run_gnubg(name, &jobs, 4);
    let gnubg_time = started.elapsed();
    let (cov, bad) = compare_moves(&pairs, &answers);
    println!(
        "{name}: {cov:?}; gnubg {gnubg_time:.1?}, total {:.1?}",
        started.elapsed()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements with gnubg, first ones:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
    assert!(cov.passes > 0 && cov.larger_die_only > 0 && cov.partial_doubles > 0);
}

#[test]
fn moves_of_random_games_match_gnubg() {
    let pairs = game_pairs(&mut Rng::new(1), 60);
    assert!(pairs.len() > 10_000, "{}", pairs.len());
    check_pairs("games", pairs);
}

#[test]
fn moves_of_random_boards_match_gnubg() {
    check_pairs("boards", board_pairs(&mut Rng::new(2), 10_000));
}

/// A random match state to build with gnubg.matchid(cubeinfo, posinfo).
fn random_state(rng: &mut Rng) -> (String, MatchState) {
    let length = [0, 0, 1, 3, 5, 7, 9, 11, 17, 25, 64][rng.below(11) as usize];
    let money = length == 0;
    let jacoby = rng.chance(50);
    let score = if money {
        [rng.below(40) as u16, rng.below(40) as u16]
    } else {
        [rng.below(length) as u16, rng.below(length) as u16]
    };
    let cube_log2 = rng.below(7) as u8;
    let owner = rng.below(3) as i64 - 1;
    let on_roll = rng.below(2);
    let crawford = !money && rng.chance(30);
    let turn = rng.below(2);
    let resigned = if rng.chance(25) { rng.below(4) } else { 0 };
    let doubled = rng.chance(20);
    let state = rng.below(5);
    let (d0, d1) = if rng.chance(50) {
        (rng.below(6) + 1, rng.below(6) + 1)
    } else {
        (0, 0)
    };
    let job = format!(
        "S {} {} {owner} {on_roll} {length} {} {} {} {turn} {resigned} {} {state} {d0} {d1}",
        jacoby as u8,
        1 << cube_log2,
        score[0],
        score[1],
        crawford as u8,
        doubled as u8
    );
    let player = |b: u64| if b == 0 { Player::Zero } else { Player::One };
    let expect = MatchState {
        cube_log2,
        cube_owner: match owner {
            -1 => CubeOwner::Centred,
            p => CubeOwner::Owned(player(p as u64)),
        },
        on_roll: player(on_roll),
        crawford,
        game_state: [
            GameState::NoGame,
            GameState::Playing,
            GameState::Over,
            GameState::Resigned,
            GameState::Dropped,
        ][state as usize],
        turn: player(turn),
        doubled,
        resigned: [
            None,
            Some(WinKind::Single),
            Some(WinKind::Gammon),
            Some(WinKind::Backgammon),
        ][resigned as usize],
        // gnubg writes the larger die first, and no score in money play.
        dice: Dice::new(d0.max(d1) as u8, d0.min(d1) as u8),
        match_length: length as u16,
        score: if money { [0, 0] } else { score },
        // A cube info built from arguments has the Jacoby rule off; the
        // live states below cover it.
        jacoby: false,
    };
    (job, expect)
}

/// A random sequence of gnubg commands reaching a live match state.
fn random_commands(rng: &mut Rng) -> String {
    let mut c = vec![
        "set player 0 human".to_string(),
        "set player 1 human".to_string(),
        // The opening roll of a new game comes from gnubg's dice: seed them.
        format!("set seed {}", rng.below(1 << 20)),
    ];
    let on = |b: bool| if b { "on" } else { "off" };
    c.push(format!("set jacoby {}", on(rng.chance(50))));
    let length = [0, 0, 3, 5, 7, 9, 15][rng.below(7) as usize];
    if length == 0 {
        c.push("new session".into());
    } else {
        c.push(format!("new match {length}"));
        let (a, b) = (rng.below(length), rng.below(length));
        c.push(format!("set score {a} {b}"));
        if (a == length - 1 || b == length - 1) && rng.chance(50) {
            c.push(format!("set crawford {}", on(rng.chance(50))));
        }
    }
    c.push(format!("set turn {}", rng.below(2)));
    if rng.chance(60) {
        c.push(format!("set cube value {}", 1 << rng.below(6)));
        match rng.below(3) {
            0 => c.push("set cube centre".into()),
            n => c.push(format!("set cube owner {}", n - 1)),
        }
    }
    match rng.below(5) {
        0 => c.push(format!(
            "set dice {} {}",
            rng.below(6) + 1,
            rng.below(6) + 1
        )),
        1 => c.push("double".into()),
        2 => c.extend(["double".to_string(), "take".to_string()]),
        3 => c.push(
            ["resign single", "resign gammon", "resign backgammon"][rng.below(3) as usize].into(),
        ),
        _ => {}
    }
    format!("C {}", c.join(";"))
}

/// A random game in play as an XGID, and the IDs gnubg should show after
/// `set xgid` (it swaps the players when the top player is on roll).
fn random_xgid(rng: &mut Rng) -> (String, String) {
    let kind = support::KINDS[rng.below(5) as usize];
    let board = random_board(rng, kind);
    let length = [0, 0, 3, 5, 7, 11, 25][rng.below(7) as usize];
    let mut state = if length == 0 {
        MatchState::money(rng.chance(50))
    } else {
        let mut s = MatchState::new_match(length as u16);
        s.score = [rng.below(length) as u16, rng.below(length) as u16];
        if rng.chance(30) {
            s.score[rng.below(2) as usize] = length as u16 - 1;
        }
        s
    };
    state.cube_log2 = rng.below(7) as u8;
    state.cube_owner = match rng.below(3) {
        0 => CubeOwner::Centred,
        1 => CubeOwner::Owned(Player::Zero),
        _ => CubeOwner::Owned(Player::One),
    };
    // gnubg keeps a Crawford flag only when a player is 1-away, and then
    // with the cube at 1 (nobody may double in the Crawford game).
    let one_away = state.score.contains(&(length as u16).wrapping_sub(1));
    if !state.is_money() && one_away && rng.chance(50) {
        state.crawford = true;
        state.cube_log2 = 0;
        state.cube_owner = CubeOwner::Centred;
    }
    state.on_roll = if rng.chance(50) {
        Player::Zero
    } else {
        Player::One
    };
    state.turn = state.on_roll;
    state.dice = rng.chance(70).then(|| rng.dice());
    let xgid = Xgid::from_state(&board, &state).unwrap();
    assert_eq!(xgid.to_state().unwrap(), (board, state));
    let seen = if state.on_roll == Player::Zero {
        state.swap_players()
    } else {
        state
    };
    (xgid.to_string(), format!("{board}:{seen}"))
}

#[test]
fn match_ids_and_xgids_match_gnubg() {
    let started = Instant::now();
    let mut rng = Rng::new(3);
    let built: Vec<(String, MatchState)> = (0..3000).map(|_| random_state(&mut rng)).collect();
    let live: Vec<String> = (0..1500).map(|_| random_commands(&mut rng)).collect();
    let xgids: Vec<(String, String)> = (0..1500).map(|_| random_xgid(&mut rng)).collect();
    let jobs: Vec<String> = built
        .iter()
        .map(|(j, _)| j.clone())
        .chain(live.iter().cloned())
        .chain(xgids.iter().map(|(x, _)| format!("X {x}")))
        .collect();
    let answers = run_gnubg("ids", &jobs, 1);
    assert_eq!(
        answers.len(),
        jobs.len(),
        "{:?}",
        answers.iter().find(|a| a.starts_with('E'))
    );
    let mut bad = Vec::new();
    let mut answers = answers.iter();
    for (job, expect) in &built {
        let a = answers.next().unwrap();
        let id = a.strip_prefix("S ").unwrap_or(a);
        match id.parse::<MatchState>() {
            Ok(m) if m.to_string() != id => bad.push(format!("{job}: {id} writes back as {m}")),
            Ok(m) if m != *expect => bad.push(format!("{job}: {id} reads as {m:?}")),
            Ok(_) => {}
            Err(e) => bad.push(format!("{job}: {e}")),
        }
    }
    let mut states = std::collections::HashSet::new();
    for job in &live {
        let a = answers.next().unwrap();
        let f: Vec<&str> = a.split(' ').collect();
        match check_live(&f) {
            Ok(s) => {
                states.insert(s.match_id());
            }
            Err(e) => bad.push(format!("{job}: {a}: {e}")),
        }
    }
    for (x, expect) in &xgids {
        let a = answers.next().unwrap();
        if a.strip_prefix("X ") != Some(expect.as_str()) {
            bad.push(format!("{x}: gnubg shows {a}, we expect {expect}"));
        }
        let id: GnubgId = expect.parse().unwrap();
        assert_eq!(id.to_string(), *expect);
    }
    println!(
        "ids: {} built, {} live ({} distinct), {} XGIDs in {:.1?}",
        built.len(),
        live.len(),
        states.len(),
        xgids.len(),
        started.elapsed()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements with gnubg, first ones:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// Checks a live answer: the IDs round-trip and the Match ID says what
/// gnubg's cube and position infos say.
fn check_live(f: &[&str]) -> Result<MatchState, String> {
    let id: GnubgId = f[1].parse().map_err(|e| format!("{e}"))?;
    if id.to_string() != f[1] {
        return Err(format!("writes back as {id}"));
    }
    let n: Vec<i64> = f[2..].iter().map(|v| v.parse().unwrap()).collect();
    let s = id.state;
    let owner = match s.cube_owner {
        CubeOwner::Centred => -1,
        CubeOwner::Owned(p) => p.index() as i64,
    };
    let (d0, d1) = s
        .dice
        .map_or((0, 0), |d| (d.values().0 as i64, d.values().1 as i64));
    let ours = [
        s.cube_value() as i64,
        owner,
        s.on_roll.index() as i64,
        s.match_length as i64,
        s.score[0] as i64,
        s.score[1] as i64,
        s.crawford as i64,
        s.jacoby as i64,
        s.turn.index() as i64,
        s.resigned.map_or(0, |r| r as i64),
        s.doubled as i64,
        s.game_state as i64,
    ];
    let same_dice = (d0, d1) == (n[12], n[13]) || (d1, d0) == (n[12], n[13]);
    if ours[..] != n[..12] || !same_dice {
        return Err(format!("we read {s:?}"));
    }
    Ok(s)
}

#[test]
fn xgid_dice_field_spellings() {
    // 'D' (doubled) is ours to read and write even though gnubg 1.07 drops it.
    let x: Xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:4:2:0:7:10"
        .parse()
        .unwrap();
    assert_eq!(x.dice, XgDice::Doubled);
    let (_, s) = x.to_state().unwrap();
    assert!(s.doubled && s.turn == Player::Zero && s.on_roll == Player::One);
}
