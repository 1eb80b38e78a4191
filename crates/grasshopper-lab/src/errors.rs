//! Engine errors (`retro-quality --errors FILE`): each move of a retro-quality
//! run that loses value, explained from the tables and the engine itself.
//!
//! For every such move: the phase (its unit's counts and level), the value
//! given away (win to draw or loss, draw to loss), the kind of the engine's
//! move and of the moves that keep the value (enter, step, a wall build, a
//! bear-off), the engine's own score at the setting it erred at, the first
//! depth from which a deeper search of the engine picks a value-keeping move
//! at every further iteration (up to a depth and node cap), and, for a lost
//! win, the plies to the win under optimal play (the alpha-beta solver). The
//! analysis is written up in docs/engine-errors.md.

use grasshopper_engine::{Limits, Score, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::{Move, MoveKind, Position};
use grasshopper_solver::retro::{HalfKey, RetroTables};
use grasshopper_solver::{Solver, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;

/// What a move does, as a player would name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Enter,
    /// A step that leaves no new wall.
    Step,
    /// A step onto an own lone checker: a new wall (`D` when in quadrant D,
    /// ready to bear off).
    Build,
    BuildInD,
    BearOff,
    Pass,
}

impl Kind {
    /// The kind of `m` played in `pos`.
    pub fn of(pos: &Position, m: Move) -> Kind {
        match m.kind() {
            MoveKind::Enter(_) => Kind::Enter,
            MoveKind::BearOff(_) => Kind::BearOff,
            MoveKind::Pass => Kind::Pass,
            MoveKind::Step(_, to) => {
                let me = pos.side_to_move();
                let child = pos.play(m).expect("legal");
                let bit = 1u32 << to.index();
                if child.wall_mask(me) & bit == 0 {
                    Kind::Step
                } else if to.index() >= 18 {
                    Kind::BuildInD
                } else {
                    Kind::Build
                }
            }
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Enter => "enter",
            Kind::Step => "step",
            Kind::Build => "build",
            Kind::BuildInD => "build-in-D",
            Kind::BearOff => "bear-off",
            Kind::Pass => "pass",
        })
    }
}

/// One value-losing move, explained.
#[derive(Clone, Debug)]
pub struct Explained {
    pub pos: Position,
    pub setting: String,
    pub unit: Option<HalfKey>,
    /// The position's value for the mover (+1 win, 0 draw).
    pub value: i8,
    pub mv: Move,
    pub kind: Kind,
    /// What the engine's move keeps: 0 draw, -1 loss.
    pub kept: i8,
    /// The engine's score for its move at the setting.
    pub score: Score,
    /// The depth the engine's search finished at that setting.
    pub depth: u32,
    /// The moves that keep the value.
    pub right: Vec<Move>,
    pub right_kinds: Vec<Kind>,
    /// From this depth on, every iteration of a deeper search picks a
    /// value-keeping move (`None`: not within the cap).
    pub settles: Option<u32>,
    /// Plies to the win under optimal play, for a lost win.
    pub win_plies: Option<u32>,
}

/// Caps of the deeper search and the solver.
#[derive(Copy, Clone, Debug)]
pub struct Caps {
    pub depth: u32,
    pub nodes: u64,
    /// Solve lost wins for their distance (the alpha-beta solver) at
    /// phase levels up to this one: the late phases take it a second, a
    /// middle-game win of 20 plies and more out of its reach.
    pub solve_level: u8,
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
        Score::Draw => "draw".to_string(),
    }
}

/// The value move `m` keeps for the mover in `pos`: +1, 0, -1.
pub fn kept(tables: &RetroTables, pos: &Position, m: Move) -> i8 {
    let child = pos.play(m).expect("legal");
    if child.is_won() {
        1
    } else {
        -tables
            .probe(&child)
            .expect("children of a solved phase are solved")
    }
}

/// Explains the engine's move `mv` in `pos` at `limits` (`setting` names
/// them), which loses value by the tables.
pub fn explain(
    tables: &RetroTables,
    pos: &Position,
    setting: &str,
    limits: &Limits,
    mv: Move,
    caps: Caps,
) -> Explained {
    let value = tables.probe(pos).expect("covered");
    let right: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| kept(tables, pos, m) == value)
        .collect();
    let mut right_kinds: Vec<Kind> = right.iter().map(|&m| Kind::of(pos, m)).collect();
    right_kinds.sort();
    right_kinds.dedup();
    // The engine's own view at the setting (one thread, fresh hash: the
    // search that chose the move, repeated exactly at a node budget).
    let mut s = Searcher::new(SearchOptions::default());
    let (mut score, mut depth) = (Score::Cp(0), 0);
    let control = SearchControl::new(false);
    s.search(pos, limits, &control, &mut |r| {
        if r.multipv == 1 {
            (score, depth) = (r.score, r.depth);
        }
    });
    // A deeper search: the best move of every iteration.
    s.clear();
    let deep = Limits {
        depth: Some(caps.depth),
        nodes: Some(caps.nodes),
        ..Default::default()
    };
    let mut by_depth: Vec<(u32, bool)> = Vec::new();
    s.search(pos, &deep, &control, &mut |r| {
        if r.multipv == 1 {
            if let Some(&m) = r.pv.first() {
                by_depth.push((r.depth, right.contains(&m)));
            }
        }
    });
    let settles = match by_depth.iter().rposition(|&(_, ok)| !ok) {
        None => by_depth.first().map(|&(d, _)| d),
        Some(i) if i + 1 < by_depth.len() => Some(by_depth[i + 1].0),
        Some(_) => None,
    };
    let level = HalfKey::of(pos).map_or(0, |u| u.level());
    let win_plies = if value == 1 && level <= caps.solve_level {
        let mut solver = Solver::new(64);
        let sol = solver.solve(pos);
        debug_assert_eq!(sol.value, Value::Win);
        sol.plies
    } else {
        None
    };
    Explained {
        pos: *pos,
        setting: setting.to_string(),
        unit: HalfKey::of(pos),
        value,
        mv,
        kind: Kind::of(pos, mv),
        kept: kept(tables, pos, mv),
        score,
        depth,
        right,
        right_kinds,
        settles,
        win_plies,
    }
}

/// The header of an errors file.
pub const HEADER: &str = "# grasshopper retro-quality errors: position\tsetting\tunit\tlevel\tlost\tmove\tkind\tscore\tdepth\tright moves\tright kinds\tsettles at depth\twin plies";

fn unit_text(u: Option<HalfKey>) -> (String, String) {
    match u {
        Some(u) => (
            format!("{}-{}-{}-{}-{}", u.tm, u.bm, u.to, u.bo, u.r),
            u.level().to_string(),
        ),
        None => ("-".to_string(), "-".to_string()),
    }
}

fn lost_text(value: i8, kept: i8) -> &'static str {
    match (value, kept) {
        (1, 0) => "win->draw",
        (1, _) => "win->loss",
        _ => "draw->loss",
    }
}

fn list<T: fmt::Display>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn opt<T: fmt::Display>(x: Option<T>) -> String {
    x.map_or("-".to_string(), |x| x.to_string())
}

impl fmt::Display for Explained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (unit, level) = unit_text(self.unit);
        write!(
            f,
            "{}\t{}\t{unit}\t{level}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.pos,
            self.setting,
            lost_text(self.value, self.kept),
            self.mv,
            self.kind,
            score_text(self.score),
            self.depth,
            list(&self.right),
            list(&self.right_kinds),
            opt(self.settles),
            opt(self.win_plies),
        )
    }
}

/// Counts of the explained errors of one setting, by class: what a summary
/// table of docs/engine-errors.md reads.
pub fn summarize(errs: &[Explained], out: &mut impl Write) -> std::io::Result<()> {
    let mut settings: Vec<&str> = errs.iter().map(|e| e.setting.as_str()).collect();
    settings.dedup();
    for setting in settings {
        let es: Vec<&Explained> = errs.iter().filter(|e| e.setting == setting).collect();
        let mut tallies: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
        for e in &es {
            let mut add = |what: &'static str, key: String| {
                *tallies.entry(what).or_default().entry(key).or_default() += 1;
            };
            add("lost", lost_text(e.value, e.kept).to_string());
            add("level", format!("{:>2}", unit_text(e.unit).1));
            add("engine move", e.kind.to_string());
            add("right kinds", list(&e.right_kinds));
            let said = match e.score {
                Score::Mate(n) if n > 0 => "mate (a proved win)".to_string(),
                Score::Mate(_) => "mated (a proved loss)".to_string(),
                Score::Draw => "draw (proved)".to_string(),
                Score::Cp(v) if e.value == 1 && v > 100 => "cp > 100 (thinks it wins)".into(),
                Score::Cp(v) if v < -100 => "cp < -100 (thinks it loses)".into(),
                Score::Cp(_) => "cp within +-100".into(),
            };
            add("engine said", said);
            let settle = match e.settles {
                None => "not within the cap".to_string(),
                Some(d) if d <= e.depth + 2 => "at most 2 plies deeper".into(),
                Some(d) if d <= e.depth + 6 => "3 to 6 plies deeper".into(),
                Some(_) => "more than 6 plies deeper".into(),
            };
            add("deeper search", settle);
            if let Some(p) = e.win_plies {
                add("win plies", format!("{:>2}", p));
            }
        }
        writeln!(out, "errors at {setting}: {}", es.len())?;
        for (what, t) in tallies {
            let items: Vec<String> = t
                .iter()
                .map(|(k, n)| format!("{}: {n}", k.trim()))
                .collect();
            writeln!(out, "  {what}: {}", items.join(", "))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_onto_an_own_lone_checker_is_a_build_and_in_d_ready_to_bear_off() {
        // White lone checkers on 3 and 9, on 15 and 21.
        let pos: Position = "..w.../..w.../..w.../..w... w 2 6 0-0 -".parse().unwrap();
        let m = |s: &str| s.parse::<Move>().unwrap();
        assert_eq!(Kind::of(&pos, m("3/9")), Kind::Build);
        assert_eq!(Kind::of(&pos, m("15/21")), Kind::BuildInD);
        assert_eq!(Kind::of(&pos, m("3/8")), Kind::Step);
        assert_eq!(Kind::of(&pos, m("bar/1")), Kind::Enter);
    }
}
