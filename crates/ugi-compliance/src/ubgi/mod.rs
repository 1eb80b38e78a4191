//! The UBGI checker (`grasshopper compliance --ubgi`): drives any
//! backgammon engine that speaks UBGI (the bgci draft) through its
//! commands and reports each check in the draft's conformance level
//! (`level 0 (playable core)`, `level 1 (dueller-ready)`, `level 2
//! (analysis-friendly)`), or as optional. What the engine answers it does
//! not support (`error unsupported` to `go cube`, say) is skipped, never
//! failed; a level is met when all its checks and the lower levels' pass.

mod checks;
pub mod lines;
pub mod positions;
mod session;

use crate::report::{CheckResult, Level, Settings, Tier, Verdict};
use session::{Check, Session, Stop};

/// One check: its name, tier and body.
type Step = (&'static str, Tier, fn(&mut Session) -> Check);

const CORE: Tier = Tier::Ubgi(Level::PlayableCore);
const DUELLER: Tier = Tier::Ubgi(Level::DuellerReady);
const ANALYSIS: Tier = Tier::Ubgi(Level::AnalysisFriendly);
const OPTIONAL: Tier = Tier::UbgiOptional;

/// Every check, in order.
const STEPS: [Step; 23] = [
    ("handshake", CORE, checks::handshake),
    ("isready", CORE, checks::isready),
    ("newgame", CORE, checks::newgame),
    ("set", CORE, checks::set),
    ("get", CORE, checks::get),
    ("keys", CORE, checks::keys),
    ("setoption (v0.1 spelling)", OPTIONAL, checks::setoption),
    ("position gnubgid", CORE, checks::position_gnubgid),
    ("dice + go chequer", CORE, checks::go_chequer),
    ("go (bare)", CORE, checks::go_bare),
    ("go chequer: doubles", CORE, checks::go_doubles),
    ("go chequer: bar entry", CORE, checks::go_bar),
    ("go chequer: bear-off", CORE, checks::go_bear_off),
    ("go chequer: no legal move", CORE, checks::go_pass),
    ("go role chequer (v0.1)", OPTIONAL, checks::go_role_chequer),
    ("position xgid", OPTIONAL, checks::position_xgid),
    ("errors", CORE, checks::errors),
    ("go cube", DUELLER, checks::go_cube),
    ("go turn", DUELLER, checks::go_turn),
    ("go take", OPTIONAL, checks::go_take),
    ("stop without a decision", ANALYSIS, checks::stop_idle),
    ("no stray output", CORE, checks::no_stray_output),
    ("quit", CORE, checks::quit),
];

/// Runs every check against the engine, passing each result to `report`
/// as it is known; returns them all. The engine's processes are ended.
pub fn run(settings: &Settings, mut report: impl FnMut(&CheckResult)) -> Vec<CheckResult> {
    let mut session = Session::new(settings);
    let end: Step = ("end of input", CORE, checks::end_of_input);
    let mut results = Vec::new();
    for step in STEPS.iter().chain([&end]) {
        let result = judge(&mut session, step);
        report(&result);
        results.push(result);
    }
    session.end();
    results
}

fn judge(session: &mut Session, &(name, tier, body): &Step) -> CheckResult {
    let verdict = match &session.dead {
        Some(why) => Verdict::Fail(format!("not checked: {why}")),
        None => match body(session) {
            Ok(()) => Verdict::Pass,
            Err(Stop::NotOffered(why)) => Verdict::Skip(why),
            Err(stop) => Verdict::Fail(checks::describe(&stop)),
        },
    };
    if verdict != Verdict::Pass {
        session.end();
    }
    CheckResult {
        name: name.to_string(),
        tier,
        verdict,
    }
}
