//! What `grasshopper backgammon rollout` prints: the position and dice read
//! from the command line's text, rolled out by backgammon-engine's
//! [`rollout`](backgammon_engine::rollout), and the result as a table
//! (candidates best first); progress lines go to a callback (stderr).

use backgammon_engine::player::{cube_state, decide_cube, nets};
use backgammon_engine::rollout::{
    rollout, CheckpointFile, Outcome, Progress, RolloutError, Settings, Target,
};
use backgammon_rules::{parse_position, Board, Dice, ParseDiceError, PositionTextError};
use std::path::PathBuf;

/// A rollout asked for on the command line.
#[derive(Clone, Debug)]
pub struct RolloutRequest {
    /// GNU Backgammon's PositionID[:MatchID], or an XGID.
    pub position: String,
    /// Dice to roll out each move of (empty: the dice rolled in the
    /// position, else the position itself).
    pub dice: String,
    pub settings: Settings,
    pub checkpoint: Option<PathBuf>,
}

/// Bad input to a rollout, named by its option, or a rollout that failed.
#[derive(Debug, thiserror::Error)]
pub enum RolloutReportError {
    #[error("--position: {0}")]
    Position(PositionTextError),
    #[error("--dice: {0}")]
    Dice(ParseDiceError),
    #[error(transparent)]
    Rollout(#[from] RolloutError),
}

/// The target a request names.
pub fn target_of(position: &str, dice: &str) -> Result<Target, RolloutReportError> {
    let (board, state) = parse_position(position).map_err(RolloutReportError::Position)?;
    let dice = if dice.trim().is_empty() {
        state.dice
    } else {
        Some(
            dice.trim()
                .parse::<Dice>()
                .map_err(RolloutReportError::Dice)?,
        )
    };
    Ok(Target {
        board,
        dice,
        cube: cube_state(&state),
    })
}

/// A candidate's name: its move in GNU Backgammon's notation, or `position`.
pub fn candidate_name(target: &Target, o: &Outcome) -> String {
    match (o.index, target.dice) {
        (Some(i), Some(d)) => {
            let list = target.board.legal_moves(d);
            target.board.move_text(&list.moves()[i])
        }
        _ => "position".to_string(),
    }
}

/// The outcomes best first (by cubeful value, then cubeless).
pub fn ranked(p: &Progress) -> Vec<&Outcome> {
    let mut v: Vec<&Outcome> = p.outcomes.iter().collect();
    v.sort_by(|a, b| {
        b.cubeful
            .total_cmp(&a.cubeful)
            .then(b.cubeless.total_cmp(&a.cubeless))
    });
    v
}

/// One progress line: trials done and the leader.
pub fn progress_line(target: &Target, p: &Progress) -> String {
    let best = ranked(p)[0];
    format!(
        "rollout: {}/{} trials, best {} cubeless {:+.3} ± {:.3}, cubeful {:+.3} ± {:.3}",
        p.done,
        p.trials,
        candidate_name(target, best),
        best.cubeless,
        best.cubeless_error,
        best.cubeful,
        best.cubeful_error
    )
}

/// The result table.
pub fn table(target: &Target, s: &Settings, p: &Progress) -> Vec<String> {
    let mut out = vec![
        format!(
            "rollout of {} {}: {} trials, ply {}, {}, seed {}, variance reduction {}, {} dice",
            target.board.position_id(),
            target
                .dice
                .map_or("before the roll".to_string(), |d| format!("dice {d}")),
            p.done,
            s.ply,
            s.truncate
                .map_or("played to the end".to_string(), |k| format!(
                    "truncated after {k} rolls"
                )),
            s.seed,
            if s.variance_reduction { "on" } else { "off" },
            if s.stratified { "stratified" } else { "random" },
        ),
        format!(
            "{:>3}  {:<22} {:>6} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>9} {:>6}",
            "#",
            "move",
            "win",
            "wg",
            "wbg",
            "lg",
            "lbg",
            "cubeless",
            "±",
            // In a match the cubeful value is a match winning chance.
            if target.cube.away.is_some() {
                "mwc"
            } else {
                "cubeful"
            },
            "±"
        ),
    ];
    for (rank, o) in ranked(p).iter().enumerate() {
        let q = o.probs;
        out.push(format!(
            "{:>3}  {:<22} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>6.3} {:>+9.4} {:>6.4} {:>+9.4} {:>6.4}",
            rank + 1,
            candidate_name(target, o),
            q[0],
            q[1],
            q[2],
            q[3],
            q[4],
            o.cubeless,
            o.cubeless_error,
            o.cubeful,
            o.cubeful_error
        ));
    }
    if target.dice.is_none() {
        out.push(cube_line(&target.board, target, &p.outcomes[0]));
    }
    out
}

/// The cube decision the rolled-out chances give.
fn cube_line(board: &Board, target: &Target, o: &Outcome) -> String {
    let d = decide_cube(board, &target.cube, || o.probs);
    let action = match (target.cube.may_double(), d.double(), d.take()) {
        (false, _, _) => "no cube access",
        (true, false, true) => "no double, take",
        (true, false, false) => "too good, pass",
        (true, true, true) => "double, take",
        (true, true, false) => "double, pass",
    };
    format!(
        "cube: no double {:+.4}, double/take {:+.4}, double/pass {:+.4}: {action}",
        d.no_double, d.double_take, d.double_pass
    )
}

/// Runs a request: `progress` hears a line after each block of trials;
/// returns the result table.
pub fn run(
    req: &RolloutRequest,
    mut progress: impl FnMut(&str),
) -> Result<Vec<String>, RolloutReportError> {
    let target = target_of(&req.position, &req.dice)?;
    let file = req.checkpoint.as_deref().map(|path| CheckpointFile {
        path,
        every: 36 * req.settings.threads.max(1) as u32,
    });
    let result = rollout(nets(), &target, &req.settings, file.as_ref(), |p| {
        progress(&progress_line(&target, p));
        true
    })?;
    Ok(table(&target, &req.settings, &result))
}
