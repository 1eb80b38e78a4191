//! `go rollout` (UBGI extension) with the real binary: `info rollout` lines
//! as the trials go, a line per candidate, then `bestrollout`; the same
//! seed gives the same lines; `stop` ends it early with what it has.

use testkit::transcript::Engine;

fn session() -> Engine {
    let mut e = Engine::start(crate::BIN, &[]);
    e.send("ubgi");
    e.recv_until(|l| l == "ubgiok");
    e.send("set engine.seed 3");
    e
}

/// The lines of one `go rollout`, checked for their grammar.
fn rollout(e: &mut Engine, go: &str) -> Vec<String> {
    e.send(go);
    let lines = e.recv_until(|l| l.starts_with("bestrollout ") || l.starts_with("error "));
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("info rollout "), "{l:?}");
        assert!(
            l.contains(" cubeless ") && l.contains(" cubeful ") && l.contains(" move "),
            "{l:?}"
        );
    }
    lines
}

#[test]
fn go_rollout_streams_info_and_ends_with_bestrollout() {
    let mut e = session();
    // A race, each move of 6-5: fast trials.
    e.send("position gnubgid 326BAQC7AAAAAA");
    e.send("dice 6 5");
    e.send("query moves");
    let moves = e.recv();
    let count = moves.split(" | ").count();
    let lines = rollout(&mut e, "go rollout trials 72");
    let progress: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info rollout trials "))
        .collect();
    assert_eq!(progress.len(), 2, "{lines:?}");
    assert!(
        progress[0].starts_with("info rollout trials 36 72 "),
        "{}",
        progress[0]
    );
    let ranks = lines
        .iter()
        .filter(|l| l.starts_with("info rollout rank "))
        .count();
    assert_eq!(ranks, count);
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestrollout trials 72 cubeless "),
        "{best}"
    );
    let best_move = best.split(" move ").nth(1).unwrap();
    e.send(&format!("query legal {best_move}"));
    e.expect("response true");
    // The same seed again: the same lines, bit for bit.
    assert_eq!(rollout(&mut e, "go rollout trials 72"), lines);
    // Before the roll: the position itself, at ply 2.
    e.send("position gnubgid 326BAQC7AAAAAA");
    let lines = rollout(&mut e, "go rollout trials 36 ply 2");
    assert!(lines.last().unwrap().ends_with(" move none"), "{lines:?}");
    // Bad arguments are answered and the session goes on.
    e.send("go rollout trials 0");
    let l = e.recv();
    assert!(l.starts_with("error bad_value "), "{l}");
    e.send("isready");
    e.expect("readyok");
}

#[test]
fn stop_ends_a_rollout_with_the_trials_done() {
    let mut e = session();
    e.send("position gnubgid 4HPwATDgc/ABMA");
    // At ply 1: the first 36 trials come at once even on a loaded machine.
    e.send("go rollout trials 1000000 ply 1");
    let first = e.recv();
    assert!(
        first.starts_with("info rollout trials 36 1000000 "),
        "{first}"
    );
    e.send("stop");
    let lines = e.recv_until(|l| l.starts_with("bestrollout "));
    let best = lines.last().unwrap();
    let done: u32 = best.split(' ').nth(2).unwrap().parse().unwrap();
    assert!((36..1_000_000).contains(&done), "{best}");
    e.send("isready");
    e.expect("readyok");
}
