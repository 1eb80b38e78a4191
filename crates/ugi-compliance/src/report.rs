//! What a run reports: one [`CheckResult`] per check (`PASS`, `FAIL` or
//! `SKIP`), each in a [`Tier`], and the [`Summary`] line that counts them and
//! says which tiers the engine meets.

use engine_client::Program;
use std::fmt;
use std::time::Duration;

/// How to check.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine.
    pub program: Program,
    /// Patience for every answer that no time limit bounds (handshake,
    /// `isready`, queries, a `depth`/`nodes` search, `bestmove` after `stop`,
    /// every UBGI decision).
    pub timeout: Duration,
    /// How far past a time limit (`movetime`, the mover's clock) a
    /// `bestmove` may come.
    pub margin: Duration,
}

impl Settings {
    /// Defaults: 5 s timeout, 100 ms margin.
    pub fn new(program: Program) -> Settings {
        Settings {
            program,
            timeout: Duration::from_secs(5),
            margin: Duration::from_millis(100),
        }
    }
}

/// The verdict of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// Why it failed.
    Fail(String),
    /// Why it was not run: the engine does not offer what it checks.
    Skip(String),
}

/// The group a check belongs to: what an engine must do to claim it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// What UGI itself requires of every engine.
    UgiCore,
    /// Our extensions to UGI (protocol.md), probed once, skipped where not offered.
    UgiExtension,
    /// A conformance level of the UBGI draft.
    Ubgi(Level),
    /// UBGI commands outside the levels (v0.1 spellings, XGID, `go take`).
    UbgiOptional,
}

/// The UBGI draft's conformance levels (v0.1, "Compliance Levels"; level
/// 0's commands as v0.2's "Required v0.2 Playable Core" lists them).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    PlayableCore,
    DuellerReady,
    AnalysisFriendly,
}

impl Level {
    pub const ALL: [Level; 3] = [
        Level::PlayableCore,
        Level::DuellerReady,
        Level::AnalysisFriendly,
    ];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::PlayableCore => "level 0 (playable core)",
            Level::DuellerReady => "level 1 (dueller-ready)",
            Level::AnalysisFriendly => "level 2 (analysis-friendly)",
        })
    }
}

/// One check's name, tier and verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    pub name: String,
    pub tier: Tier,
    pub verdict: Verdict,
}

impl CheckResult {
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Pass
    }

    pub fn failed(&self) -> bool {
        matches!(self.verdict, Verdict::Fail(_))
    }

    pub fn skipped(&self) -> bool {
        matches!(self.verdict, Verdict::Skip(_))
    }
}

impl fmt::Display for CheckResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            Verdict::Pass => write!(f, "PASS {}", self.name),
            Verdict::Fail(why) => write!(f, "FAIL {}: {why}", self.name),
            Verdict::Skip(why) => write!(f, "SKIP {}: {why}", self.name),
        }
    }
}

/// The counts of a run and the tiers it meets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Each tier checked, and whether every one of its checks passed (for
    /// a UBGI level: and every lower level's).
    pub tiers: Vec<(Tier, bool)>,
}

impl Summary {
    pub fn of(results: &[CheckResult]) -> Summary {
        let count = |f: fn(&CheckResult) -> bool| results.iter().filter(|r| f(r)).count();
        let mut tiers: Vec<Tier> = results.iter().map(|r| r.tier).collect();
        tiers.sort();
        tiers.dedup();
        let met = |tier: Tier| {
            results
                .iter()
                .filter(|r| r.tier == tier || lower_level(r.tier, tier))
                .all(CheckResult::passed)
        };
        Summary {
            passed: count(CheckResult::passed),
            failed: count(CheckResult::failed),
            skipped: count(CheckResult::skipped),
            tiers: tiers
                .into_iter()
                .filter(|t| *t != Tier::UbgiOptional)
                .map(|t| (t, met(t)))
                .collect(),
        }
    }
}

/// A UBGI level below `tier`'s (met only if those are met too).
fn lower_level(check: Tier, tier: Tier) -> bool {
    matches!((check, tier), (Tier::Ubgi(a), Tier::Ubgi(b)) if a < b)
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "summary: {} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )?;
        for (tier, met) in &self.tiers {
            let name = match tier {
                Tier::UgiCore => "the UGI core".to_string(),
                Tier::UgiExtension => "the extensions".to_string(),
                Tier::Ubgi(level) => format!("UBGI {level}"),
                Tier::UbgiOptional => continue,
            };
            let verb = match (tier, met) {
                (Tier::UgiExtension, true) => "offers all of",
                (Tier::UgiExtension, false) => "does not offer all of",
                (_, true) => "compliant with",
                (_, false) => "not compliant with",
            };
            write!(f, "; {verb} {name}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(tier: Tier, verdict: Verdict) -> CheckResult {
        CheckResult {
            name: "x".into(),
            tier,
            verdict,
        }
    }

    #[test]
    fn a_level_is_met_only_with_every_lower_level() {
        let results = [
            result(Tier::Ubgi(Level::PlayableCore), Verdict::Fail("no".into())),
            result(Tier::Ubgi(Level::DuellerReady), Verdict::Pass),
        ];
        let summary = Summary::of(&results);
        assert_eq!(
            summary.to_string(),
            "summary: 1 passed, 1 failed, 0 skipped; not compliant with UBGI level 0 \
             (playable core); not compliant with UBGI level 1 (dueller-ready)"
        );
    }

    #[test]
    fn skipped_extensions_leave_the_core_compliant() {
        let results = [
            result(Tier::UgiCore, Verdict::Pass),
            result(Tier::UgiExtension, Verdict::Skip("not offered".into())),
        ];
        assert_eq!(
            Summary::of(&results).to_string(),
            "summary: 1 passed, 0 failed, 1 skipped; compliant with the UGI core; \
             does not offer all of the extensions"
        );
        assert_eq!(results[1].to_string(), "SKIP x: not offered");
    }
}
