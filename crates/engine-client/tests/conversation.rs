//! One search asked of an engine (`engine_client::conversation`), as the
//! match runner and the board ask it, against testkit's fake engine: the
//! caller's stop is seen even while the engine floods `info`, a reply after
//! the budget is kept within the grace or refused without one, and a second
//! `bestmove` to an earlier search is named stale.

use engine_client::conversation::{ask, Question, Unanswered};
use engine_client::{Engine, Handshake, OptionStyle, Program};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const UGI: Handshake = Handshake {
    hello: "ugi",
    ok: "ugiok",
    set_option: OptionStyle::SetOption,
};

const PATIENCE: Duration = Duration::from_secs(20);

fn start(args: &[&str]) -> Engine {
    let program = Program {
        cmd: testkit::fake_engine().display().to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        name: "fake".into(),
    };
    Engine::start(&program, UGI, &[], PATIENCE)
        .expect("the fake engine starts")
        .0
}

fn setup() -> Vec<String> {
    vec!["uginewgame".into(), "position startpos".into()]
}

fn question<'a>(setup: &'a [String], go: &'a str, budget: Duration) -> Question<'a> {
    Question {
        setup,
        go,
        reply: "bestmove",
        budget,
        timeout: PATIENCE,
        grace: Duration::ZERO,
        errors_end: false,
        stop: None,
    }
}

#[test]
fn the_callers_stop_is_seen_while_the_engine_floods_info() {
    let mut e = start(&["--chatter", "info"]);
    let stop = Arc::new(AtomicBool::new(false));
    let setter = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::SeqCst);
        })
    };
    let lines = setup();
    // Without a stop the wait would end only at the budget, as out of time.
    let mut q = question(&lines, "go infinite", Duration::from_secs(60));
    q.stop = Some(&stop);
    let mut infos = 0;
    let result = ask(&mut e, &q, &mut |_| infos += 1);
    setter.join().unwrap();
    assert!(matches!(result, Err(Unanswered::Stopped)), "{result:?}");
    assert!(infos > 0, "the info lines reached the caller");
}

#[test]
fn a_reply_after_the_budget_is_kept_within_the_grace_and_marked_late() {
    let mut e = start(&[]);
    let lines = setup();
    let mut q = question(&lines, "go infinite", Duration::from_millis(50));
    q.grace = PATIENCE;
    let reply = ask(&mut e, &q, &mut |_| {}).expect("a reply after stop");
    assert!(reply.late);
    assert!(reply.line.starts_with("bestmove "), "{}", reply.line);
}

#[test]
fn without_a_grace_a_search_past_its_budget_is_out_of_time() {
    let mut e = start(&[]);
    let lines = setup();
    let q = question(&lines, "go infinite", Duration::from_millis(50));
    let result = ask(&mut e, &q, &mut |_| {});
    assert!(
        matches!(result, Err(Unanswered::OutOfTime(_))),
        "{result:?}"
    );
}

#[test]
fn a_second_bestmove_to_an_earlier_search_is_stale() {
    let mut e = start(&["--fail", "stale"]);
    let lines = setup();
    let q = question(&lines, "go depth 1", PATIENCE);
    let first = ask(&mut e, &q, &mut |_| {}).expect("the first answer");
    assert!(!first.late);
    let second = ask(&mut e, &q, &mut |_| {});
    match second {
        Err(Unanswered::Stale(line)) => assert!(line.starts_with("bestmove"), "{line}"),
        other => panic!("expected a stale answer, got {other:?}"),
    }
}
