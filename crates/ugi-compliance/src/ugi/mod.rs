//! The UGI checker: drives any engine that speaks UGI through every
//! command, judging each line it writes by the grammar, each answer by what
//! the command calls for, and each move by the rules crate. The core checks
//! use only what UGI offers; our extensions are probed once after the
//! handshake and their checks are skipped (`SKIP <check>: not offered`)
//! where the engine does not offer them.
//!
//! A failed check ends its engine process (its state is unknown); the next
//! check starts a fresh one. If a fresh process cannot even complete the
//! handshake, the remaining checks fail at once as not checked, so a dead or
//! silent engine costs one timeout, not one per check.

mod core;
mod extensions;
pub mod offers;
mod search;
mod session;

use crate::grammar::{ErrorCode, Question};
use crate::report::{CheckResult, Settings, Tier, Verdict};
use session::Offers;
use session::{Check, Session};

/// A check: its name, its tier, what it needs offered, and its body.
struct Step {
    name: String,
    tier: Tier,
    offered: fn(&Offers) -> bool,
    body: Box<dyn Fn(&mut Session) -> Check>,
}

fn core(name: &str, body: impl Fn(&mut Session) -> Check + 'static) -> Step {
    Step {
        name: name.to_string(),
        tier: Tier::UgiCore,
        offered: |_| true,
        body: Box::new(body),
    }
}

fn extension(
    name: &str,
    offered: fn(&Offers) -> bool,
    body: impl Fn(&mut Session) -> Check + 'static,
) -> Step {
    Step {
        name: name.to_string(),
        tier: Tier::UgiExtension,
        offered,
        body: Box::new(body),
    }
}

/// Every check after the handshake, in order.
fn steps() -> Vec<Step> {
    let mut steps = vec![
        extension("handshake uci", |o| o.uci, extensions::handshake_uci),
        core("isready", core::isready),
        core("setoption", core::setoption),
        core("position startpos", core::position_startpos),
        core("position fen ... moves ...", core::position_fen),
        core("uginewgame", core::uginewgame),
        core("query gameover", |s| {
            core::query_each(s, "gameover", Question::GameOver)
        }),
        core("query p1turn", |s| {
            core::query_each(s, "p1turn", Question::P1Turn)
        }),
        core("query result", |s| {
            core::query_each(s, "result", Question::Result)
        }),
        extension("query legal", |o| o.legal, extensions::query_legal),
        extension(
            "query moves",
            |o| o.moves,
            |s| core::query_each(s, "moves", Question::Moves),
        ),
        extension(
            "query fen",
            |o| o.fen,
            |s| core::query_each(s, "fen", Question::Fen),
        ),
        core("go depth", core::go_depth),
        core("go nodes", core::go_nodes),
        core("go movetime", core::go_movetime),
        core("go p1time p2time p1inc p2inc", core::go_clocks),
        core("go movestogo", core::go_movestogo),
        core("go wtime btime winc binc", core::go_uci_clocks),
        core("go searchmoves", core::go_searchmoves),
        core("go infinite + stop", core::go_infinite),
        core("go (no limit)", core::go_no_limit),
        core("isready during go infinite", core::isready_while_searching),
        core("stop without a search", core::stop_idle),
        extension(
            "go ponder + ponderhit",
            |o| o.ponder,
            extensions::go_ponder_hit,
        ),
        extension("go ponder + stop", |o| o.ponder, extensions::go_ponder_stop),
        extension(
            "Ponder true: bestmove ponder",
            |o| o.ponder,
            extensions::ponder_on,
        ),
        extension("MultiPV", |o| o.multipv, extensions::multipv),
        extension("perft", |o| o.perft, extensions::perft),
        core("go at game end", core::game_end),
        core("go infinite at game end", core::game_end_infinite),
        core("unknown commands", core::unknown_commands),
    ];
    for code in ErrorCode::ALL {
        let offered = |o: &Offers| o.errors;
        let body = move |s: &mut Session| extensions::error(s, code);
        steps.push(extension(&format!("error {code}"), offered, body));
    }
    steps.push(core("no stray output", core::no_stray_output));
    steps.push(core("quit", core::quit));
    steps.push(core("end of input", core::end_of_input));
    steps
}

/// Runs every check against the engine, passing each result to `report`
/// as it is known; returns them all. The engine's processes are ended.
pub fn run(settings: &Settings, mut report: impl FnMut(&CheckResult)) -> Vec<CheckResult> {
    let mut session = Session::new(settings);
    let mut results = Vec::new();
    let mut record = |result: CheckResult| {
        report(&result);
        results.push(result);
    };
    let handshake = core("handshake", core::handshake);
    record(judge(&mut session, &handshake));
    if session.dead.is_none() {
        session.offers = Offers::probe(&mut session);
        session.end();
    }
    for step in steps() {
        record(judge(&mut session, &step));
    }
    session.end();
    results
}

/// Runs one check (or skips it, or fails it at once on a dead engine).
fn judge(session: &mut Session, step: &Step) -> CheckResult {
    let verdict = if let Some(why) = &session.dead {
        Verdict::Fail(format!("not checked: {why}"))
    } else if !(step.offered)(&session.offers) {
        Verdict::Skip("not offered".to_string())
    } else {
        match (step.body)(session) {
            Ok(()) => Verdict::Pass,
            Err(fault) => Verdict::Fail(fault.to_string()),
        }
    };
    if verdict != Verdict::Pass {
        session.end();
    }
    CheckResult {
        name: step.name.clone(),
        tier: step.tier,
        verdict,
    }
}
