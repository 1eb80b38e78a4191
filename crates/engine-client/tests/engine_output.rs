//! The client against engines that misbehave with their output or their
//! processes (testkit's fake engine): an engine writing without pause costs
//! a bounded queue, never lines that answer commands; a wait ends at its
//! deadline however fast lines come; and ending an engine ends what it
//! started.

use engine_client::{
    Engine, EngineFailure, Handshake, OptionStyle, Program, RawWait, MAX_LINE, QUEUE_BYTES,
    QUEUE_LINES,
};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const UGI: Handshake = Handshake {
    hello: "ugi",
    ok: "ugiok",
    set_option: OptionStyle::SetOption,
};

const PATIENCE: Duration = Duration::from_secs(20);

fn fake(args: &[&str]) -> Program {
    Program {
        cmd: testkit::fake_engine().display().to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        name: "fake".into(),
    }
}

fn start(args: &[&str]) -> Engine {
    Engine::start(&fake(args), UGI, &[], PATIENCE)
        .expect("the fake engine starts")
        .0
}

/// Waits (reading nothing) until `enough` holds, then a little longer,
/// checking the queue's bounds all along.
fn let_it_write(e: &Engine, enough: impl Fn(&Engine) -> bool) {
    let until = Instant::now() + PATIENCE;
    let mut after = 0;
    while after < 50 && Instant::now() < until {
        let (queued, bytes) = (e.queued(), e.queued_bytes());
        assert!(queued <= QUEUE_LINES, "{queued} lines waiting");
        assert!(bytes <= QUEUE_BYTES, "{bytes} bytes waiting");
        after += usize::from(after > 0 || enough(e));
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(enough(e), "the engine wrote too little in {PATIENCE:?}");
}

/// The number N of a `--chatter` line (`... chatter N ---`, `noise N ---`).
fn number(line: &str) -> u64 {
    line.split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"))
}

#[test]
fn info_lines_written_without_pause_fill_a_bounded_queue_and_the_oldest_go() {
    let mut e = start(&["--chatter", "info"]);
    // Twenty times what the queue holds.
    let_it_write(&e, |e| e.dropped() >= 19 * QUEUE_LINES as u64);
    // What waits is the newest: the oldest lines went.
    let deadline = Instant::now() + PATIENCE;
    let first = loop {
        let RawWait::Line(line) = e.recv_raw(deadline) else {
            panic!("no line")
        };
        if line.text.starts_with("info string chatter") {
            break number(&line.text);
        }
    };
    assert!(
        first > QUEUE_LINES as u64,
        "the first line waiting is {first}"
    );
    // An answer to a command is never dropped, however much info comes.
    e.sync(PATIENCE).expect("readyok comes through the flood");
}

#[test]
fn other_lines_are_never_dropped_the_engine_waits_for_room_instead() {
    let mut e = Engine::spawn(&fake(&["--chatter", "noise"])).expect("spawns");
    let_it_write(&e, |e| e.queued() == QUEUE_LINES);
    assert_eq!(e.queued(), QUEUE_LINES, "full, and no fuller");
    assert_eq!(e.dropped(), 0);
    // Every line comes, in order: the engine waited while the queue was full.
    let deadline = Instant::now() + PATIENCE;
    for want in 1..=(3 * QUEUE_LINES as u64) {
        let RawWait::Line(line) = e.recv_raw(deadline) else {
            panic!("no line {want}")
        };
        assert_eq!(number(&line.text), want, "{:?}", line.text);
        assert!(e.queued() <= QUEUE_LINES);
    }
    assert_eq!(e.dropped(), 0);
}

#[test]
fn an_over_long_line_comes_in_pieces_and_the_queue_holds_a_megabyte_of_them() {
    // `--fail flood`: a line of 3 MB without a break, then a bestmove.
    let mut e = start(&["--fail", "flood"]);
    e.send("position startpos").unwrap();
    e.send("go depth 1").unwrap();
    let_it_write(&e, |e| e.queued_bytes() > QUEUE_BYTES - MAX_LINE);
    let deadline = Instant::now() + PATIENCE;
    let mut total = 0;
    loop {
        assert!(e.queued_bytes() <= QUEUE_BYTES);
        let RawWait::Line(piece) = e.recv_raw(deadline) else {
            panic!("no line")
        };
        assert!(piece.text.len() <= MAX_LINE);
        if piece.text.starts_with("bestmove") {
            break;
        }
        total += piece.text.len();
        assert_eq!(piece.ended, total == 3_000_000, "after {total} bytes");
    }
    assert_eq!(total, 3_000_000, "nothing of the line is lost");
    assert_eq!(e.dropped(), 0, "pieces of a line are never dropped");
}

#[test]
fn a_wait_ends_at_its_deadline_however_many_lines_wait() {
    let mut e = start(&["--chatter", "info"]);
    let_it_write(&e, |e| e.queued() > QUEUE_LINES / 2);
    // No `go` was sent: no bestmove will come, only info lines, without end.
    let now = Instant::now();
    assert!(matches!(e.recv_raw(now), RawWait::Timeout));
    let got = e.expect("bestmove", "go", now);
    assert!(matches!(got, Err(EngineFailure::Silent(_))), "{got:?}");
    assert!(e.queued() > 0, "lines were waiting all along");
}

/// A wrapper script that starts a child (`sleep`) and then becomes the
/// fake engine, and the child's pid.
fn wrapped(tag: &str) -> (Engine, u32) {
    let pidfile =
        std::env::temp_dir().join(format!("engine-client-{}-{tag}.pid", std::process::id()));
    let _ = std::fs::remove_file(&pidfile);
    let script = format!(
        "sleep 1000 & echo $! > '{}'; exec '{}'",
        pidfile.display(),
        testkit::fake_engine().display()
    );
    let program = Program {
        cmd: "sh".into(),
        args: vec!["-c".into(), script],
        name: "wrapped".into(),
    };
    let (e, _) = Engine::start(&program, UGI, &[], PATIENCE).expect("the wrapper starts");
    let pid = std::fs::read_to_string(&pidfile)
        .expect("the script wrote its child's pid before the handshake")
        .trim()
        .parse()
        .expect("a pid");
    let _ = std::fs::remove_file(&pidfile);
    assert!(running(pid), "the child runs");
    (e, pid)
}

/// Whether process `pid` exists and is not a zombie.
fn running(pid: u32) -> bool {
    let stat = proc_stat(pid);
    stat.is_some_and(|s| {
        let state = s.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !state.is_some_and(|r| r.starts_with('Z') || r.starts_with('X'))
    })
}

fn proc_stat(pid: u32) -> Option<String> {
    std::fs::read_to_string(PathBuf::from(format!("/proc/{pid}/stat"))).ok()
}

/// Waits for `pid` to be gone; whether it went.
fn gone(pid: u32) -> bool {
    let until = Instant::now() + PATIENCE;
    while running(pid) {
        if Instant::now() > until {
            // Do not leave it behind for the next run.
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[test]
fn killing_an_engine_ends_the_children_it_started() {
    let (e, child) = wrapped("kill");
    e.kill();
    assert!(gone(child), "the wrapper's child {child} still runs");
}

#[test]
fn dropping_an_engine_ends_the_children_it_started() {
    let (e, child) = wrapped("drop");
    drop(e);
    assert!(gone(child), "the wrapper's child {child} still runs");
}

#[test]
fn an_engine_that_quits_leaves_no_child_behind() {
    // The engine itself obeys quit; its child would not have.
    let (e, child) = wrapped("quit");
    let leader = e.id();
    e.quit(Duration::from_secs(5));
    assert!(gone(leader));
    assert!(gone(child), "the wrapper's child {child} still runs");
}
