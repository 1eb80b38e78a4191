//! The running tally of a match: per pairing of engines the game results, the
//! pentanomial of completed pairs and the statistics derived from them; the
//! progress line, the final report and the JSON summary.

use super::game::Scoring;
use super::outcome::{GameResult, Side, Termination};
use super::stats::{
    EloEstimate, EloModel, Pentanomial, PointsEstimate, PointsTally, Sprt, SprtDecision, Trinomial,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;

/// What the tally needs of one game: which pair and game, who played it
/// and how it ended (records and in-process matches both give this).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scored<'a> {
    /// The game pair's number, from 0.
    pub pair: usize,
    /// 1 or 2: the game within its pair (the first engine has White in game 1).
    pub game: u8,
    pub white: &'a str,
    pub black: &'a str,
    pub result: GameResult,
    pub termination: Termination,
}

/// Two engines' results against each other, from the first engine's side
/// (the one that has White in game 1 of their pairs).
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub games: Trinomial,
    pub penta: Pentanomial,
    /// The first engine's net points per game (its points minus the
    /// other's), by game and by complete pair.
    pub net: PointsTally,
    /// Pairs with one game seen so far: pair number -> first's half points
    /// and net points.
    pending: HashMap<usize, (u8, f64)>,
}

impl PairingStats {
    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        self.games.points()
    }
}

/// Everything counted so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// How results count (what the report and JSON show).
    pub scoring: Scoring,
    pub pairings: Vec<PairingStats>,
    /// Per engine: name, points, games, in order of first appearance.
    pub engines: Vec<(String, f64, u64)>,
    pub terminations: [u64; Termination::ALL.len()],
    pub games: u64,
}

impl Tally {
    /// An empty tally for results that count as `scoring` says.
    pub fn new(scoring: Scoring) -> Tally {
        Tally {
            scoring,
            ..Tally::default()
        }
    }

    /// What one unit of the match is called: a game, or a whole match.
    fn unit(&self) -> &'static str {
        match self.scoring {
            Scoring::Matches => "Matches",
            _ => "Games",
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &Scored<'_>) {
        self.games += 1;
        let t = Termination::ALL
            .iter()
            .position(|&t| t == r.termination)
            .expect("every termination is listed");
        self.terminations[t] += 1;
        for (name, c) in [(r.white, Side::White), (r.black, Side::Black)] {
            let half = match self.scoring {
                Scoring::Points => r.result.score_of(c),
                _ => r.result.half_points(c) as f64 / 2.0,
            };
            match self.engines.iter_mut().find(|e| e.0 == name) {
                Some(e) => {
                    e.1 += half;
                    e.2 += 1;
                }
                None => self.engines.push((name.to_string(), half, 1)),
            }
        }
        let (first, second, first_color) = if r.game == 1 {
            (r.white, r.black, Side::White)
        } else {
            (r.black, r.white, Side::Black)
        };
        let idx = match self
            .pairings
            .iter()
            .position(|p| p.first == first && p.second == second)
        {
            Some(i) => i,
            None => {
                self.pairings.push(PairingStats {
                    first: first.to_string(),
                    second: second.to_string(),
                    ..PairingStats::default()
                });
                self.pairings.len() - 1
            }
        };
        let p = &mut self.pairings[idx];
        let half = r.result.half_points(first_color);
        let net = r.result.score_of(first_color) - r.result.score_of(first_color.opposite());
        p.games.add(half);
        p.net.add_game(net);
        match p.pending.remove(&r.pair) {
            Some((other, other_net)) => {
                p.penta.add(other + half);
                p.net.add_pair(other_net + net);
            }
            None => {
                p.pending.insert(r.pair, (half, net));
            }
        }
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pairings.iter().map(|p| p.penta.pairs()).sum()
    }

    /// The progress line.
    pub fn progress(&self, total_games: usize, sprt: Option<&Sprt>) -> String {
        let mut s = format!("games {}/{}", self.games, total_games);
        if let [p] = self.pairings.as_slice() {
            let _ = write!(
                s,
                "  {} vs {}: {}-{}-{} ({:.1}%)",
                p.first,
                p.second,
                p.games.wins,
                p.games.losses,
                p.games.draws,
                100.0 * p.points() / p.games.games().max(1) as f64
            );
            match (self.scoring, p.net.estimate()) {
                (Scoring::Points, Some(e)) => {
                    let _ = write!(
                        s,
                        "  points/game {} +- {}",
                        signed(e.mean, 3),
                        num(e.error(), 3)
                    );
                }
                (Scoring::Points, None) => {}
                _ => {
                    if let Some(e) = p.penta.elo().or_else(|| p.games.elo()) {
                        let _ = write!(s, "  Elo {} +- {}", num(e.elo, 1), num(e.error(), 1));
                    }
                }
            }
            if let Some(sprt) = sprt {
                let (lo, hi) = sprt.bounds();
                let _ = write!(s, "  LLR {:.2} ({:.2}, {:.2})", sprt.llr(&p.penta), lo, hi);
            }
        } else {
            for (name, points, games) in &self.engines {
                let _ = write!(s, "  {name} {points}/{games}");
            }
        }
        s
    }

    /// The final report, for people.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {}, complete pairs: {}",
            self.unit(),
            self.games,
            self.pairs()
        );
        let terms: Vec<String> = Termination::ALL
            .iter()
            .zip(self.terminations)
            .filter(|&(_, n)| n > 0)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let _ = writeln!(s, "Terminations: {}", terms.join(", "));
        for p in &self.pairings {
            let g = p.games;
            let _ = writeln!(
                s,
                "{} vs {}: {} - {} (+{} -{} ={}), score {:.1}%",
                p.first,
                p.second,
                p.points(),
                g.games() as f64 - p.points(),
                g.wins,
                g.losses,
                g.draws,
                100.0 * p.points() / g.games().max(1) as f64
            );
            let _ = writeln!(
                s,
                "  Pentanomial {} (pairs scoring 0, 1/2, 1, 3/2, 2)",
                p.penta
            );
            if self.scoring == Scoring::Points {
                if let Some(e) = p.net.estimate() {
                    let _ = writeln!(
                        s,
                        "  Points per game {} +- {} [{}, {}] (95%, pairs), +- {} (games as \
                         independent); net {} in {} games",
                        signed(e.mean, 3),
                        num(e.error(), 3),
                        signed(e.lower, 3),
                        signed(e.upper, 3),
                        num(e.game_error, 3),
                        signed(p.net.sum, 0),
                        p.net.games
                    );
                }
                continue;
            }
            if let Some(e) = p.penta.elo() {
                let _ = writeln!(
                    s,
                    "  Elo {} +- {} [{}, {}] (95%, pentanomial), nElo {}, LOS {}",
                    num(e.elo, 1),
                    num(e.error(), 1),
                    num(e.lower, 1),
                    num(e.upper, 1),
                    num(e.nelo, 1),
                    percent(e.los)
                );
            }
            if let Some(e) = g.elo() {
                let _ = writeln!(
                    s,
                    "  Elo {} +- {} [{}, {}] (95%, games as independent), LOS {}",
                    num(e.elo, 1),
                    num(e.error(), 1),
                    num(e.lower, 1),
                    num(e.upper, 1),
                    percent(e.los)
                );
            }
            if let (Some(sprt), true) = (sprt, self.pairings.len() == 1) {
                let llr = sprt.llr(&p.penta);
                let (lo, hi) = sprt.bounds();
                let _ = writeln!(
                    s,
                    "  SPRT {sprt}: LLR {llr:.2} ({lo:.2}, {hi:.2}): {}",
                    sprt.decide(llr)
                );
            }
        }
        if self.engines.len() > 2 {
            let mut standings = self.engines.clone();
            standings.sort_by(|a, b| (b.1 / b.2 as f64).total_cmp(&(a.1 / a.2 as f64)));
            let _ = writeln!(s, "Standings:");
            for (name, points, games) in standings {
                let _ = writeln!(s, "  {name}: {points}/{games}");
            }
        }
        s
    }

    /// The SPRT's decision for a two-engine match.
    pub fn sprt_decision(&self, sprt: &Sprt) -> SprtDecision {
        match self.pairings.as_slice() {
            [p] => sprt.decide(sprt.llr(&p.penta)),
            _ => SprtDecision::Continue,
        }
    }

    /// The summary as JSON, for scripts.
    pub fn to_json(&self, sprt: Option<&Sprt>) -> String {
        let terminations: serde_json::Map<String, Value> = Termination::ALL
            .iter()
            .zip(self.terminations)
            .map(|(t, n)| (t.to_string(), json!(n)))
            .collect();
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|(name, points, games)| json!({"name": name, "points": points, "games": games}))
            .collect();
        let one_pairing = self.pairings.len() == 1;
        let pairings: Vec<Value> = self
            .pairings
            .iter()
            .map(|p| {
                let mut v = p.to_json(sprt.filter(|_| one_pairing));
                if self.scoring == Scoring::Points {
                    v["points_per_game"] = points_json(&p.net);
                }
                v
            })
            .collect();
        let mut summary = json!({
            "games": self.games,
            "pairs": self.pairs(),
            "terminations": terminations,
            "engines": engines,
            "pairings": pairings,
        });
        if self.scoring != Scoring::Wins {
            summary["scoring"] = json!(match self.scoring {
                Scoring::Points => "points",
                _ => "matches",
            });
        }
        let mut text = serde_json::to_string_pretty(&summary).expect("JSON values serialise");
        text.push('\n');
        text
    }
}

impl PairingStats {
    /// This pairing's figures as JSON (with the SPRT when it applies).
    fn to_json(&self, sprt: Option<&Sprt>) -> Value {
        let g = self.games;
        let mut v = json!({
            "first": self.first,
            "second": self.second,
            "games": g.games(),
            "wins": g.wins,
            "losses": g.losses,
            "draws": g.draws,
            "points": self.points(),
            "pentanomial": self.penta.0,
            "pentanomial_elo": estimate_json(self.penta.elo()),
            "trinomial_elo": estimate_json(g.elo()),
        });
        if let Some(sprt) = sprt {
            let llr = sprt.llr(&self.penta);
            let (lo, hi) = sprt.bounds();
            v["sprt"] = json!({
                "elo0": finite(sprt.elo0),
                "elo1": finite(sprt.elo1),
                "alpha": finite(sprt.alpha),
                "beta": finite(sprt.beta),
                "model": match sprt.model {
                    EloModel::Logistic => "logistic",
                    EloModel::Normalized => "normalized",
                },
                "llr": finite(llr),
                "lower": finite(lo),
                "upper": finite(hi),
                "decision": sprt.decide(llr).to_string(),
            });
        }
        v
    }
}

/// The net points per game as JSON.
fn points_json(t: &PointsTally) -> Value {
    let e: Option<PointsEstimate> = t.estimate();
    json!({
        "net": finite(t.sum),
        "games": t.games,
        "pairs": t.pairs,
        "mean": e.map_or(Value::Null, |e| finite(e.mean)),
        "lower": e.map_or(Value::Null, |e| finite(e.lower)),
        "upper": e.map_or(Value::Null, |e| finite(e.upper)),
        "game_error": e.map_or(Value::Null, |e| finite(e.game_error)),
    })
}

/// A number with its sign, `+0.125` or `-2`.
fn signed(x: f64, decimals: usize) -> String {
    let x = x + 0.0;
    if x.is_finite() && x >= 0.0 {
        format!("+{x:.decimals$}")
    } else {
        num(x, decimals)
    }
}

/// An Elo estimate as JSON, `null` when there is none.
fn estimate_json(e: Option<EloEstimate>) -> Value {
    match e {
        None => Value::Null,
        Some(e) => json!({
            "score": finite(e.score),
            "elo": finite(e.elo),
            "lower": finite(e.lower),
            "upper": finite(e.upper),
            "los": finite(e.los),
            "nelo": finite(e.nelo),
        }),
    }
}

/// A number for people: `inf`, `-inf` or `n/a` where there is no finite value.
fn num(x: f64, decimals: usize) -> String {
    // Adding zero turns -0.0 into 0.0, so an even score does not print as "-0.0".
    let x = x + 0.0;
    if x.is_nan() {
        "n/a".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.decimals$}")
    }
}

/// A probability as a percentage, `n/a` when undefined.
fn percent(p: f64) -> String {
    if p.is_nan() {
        "n/a".to_string()
    } else {
        format!("{:.1}%", 100.0 * p)
    }
}

/// A JSON number, `null` where there is no finite value.
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        pair: usize,
        n: u8,
        white: &'static str,
        black: &'static str,
        result: GameResult,
    ) -> Scored<'static> {
        Scored {
            pair,
            game: n,
            white,
            black,
            result,
            termination: Termination::Normal,
        }
    }

    #[test]
    fn pairs_are_scored_from_the_first_engines_side() {
        use GameResult::*;
        let mut t = Tally::default();
        // Pair 0: a wins with White, draws with Black: 3 half points.
        t.add(&game(0, 1, "a", "b", WhiteWins));
        t.add(&game(0, 2, "b", "a", Draw));
        // Pair 1: a loses both: 0; pair 2 half played (a wins as White).
        t.add(&game(1, 2, "b", "a", WhiteWins));
        t.add(&game(1, 1, "a", "b", BlackWins));
        t.add(&game(2, 1, "a", "b", WhiteWins));
        assert_eq!(t.pairings.len(), 1);
        let p = &t.pairings[0];
        assert_eq!((p.first.as_str(), p.second.as_str()), ("a", "b"));
        assert_eq!(
            p.games,
            Trinomial {
                wins: 2,
                losses: 2,
                draws: 1
            }
        );
        assert_eq!(p.penta, Pentanomial([1, 0, 0, 1, 0]));
        assert_eq!(t.engines, [("a".into(), 2.5, 5), ("b".into(), 2.5, 5)]);
        let json: Value = serde_json::from_str(&t.to_json(None)).unwrap();
        assert_eq!(json["pairings"][0]["pentanomial"], json!([1, 0, 0, 1, 0]));
        assert_eq!(json["pairings"][0]["wins"], json!(2));
        assert_eq!(json["terminations"]["normal"], json!(5));
    }

    #[test]
    fn money_play_is_reported_in_points_per_game() {
        let mut t = Tally::new(Scoring::Points);
        // a wins a gammon with White and loses a single with Black; then
        // wins twice (a backgammon and a single).
        t.add(&game(0, 1, "a", "b", GameResult::points(2, 0)));
        t.add(&game(0, 2, "b", "a", GameResult::WhiteWins));
        t.add(&game(1, 1, "a", "b", GameResult::points(3, 0)));
        t.add(&game(1, 2, "b", "a", GameResult::BlackWins));
        let p = &t.pairings[0];
        assert_eq!((p.net.sum, p.net.pairs, p.net.pair_sum), (5.0, 2, 5.0));
        let report = t.report(None);
        assert!(
            report.starts_with("Games: 4, complete pairs: 2"),
            "{report}"
        );
        // Pairs +1 and +4: mean 1.25 a game, +- 1.96 * 1.5 / sqrt 2 / 2.
        assert!(
            report.contains("Points per game +1.250 +- 1.039 [+0.211, +2.289] (95%, pairs)"),
            "{report}"
        );
        assert!(!report.contains("Elo"), "{report}");
        assert_eq!(t.engines[0], ("a".into(), 6.0, 4));
        let json: Value = serde_json::from_str(&t.to_json(None)).unwrap();
        assert_eq!(json["scoring"], "points");
        assert_eq!(json["pairings"][0]["points_per_game"]["mean"], json!(1.25));
        assert!(t.progress(4, None).contains("points/game +1.250 +- 1.039"));
        let matches = Tally::new(Scoring::Matches);
        assert!(matches.report(None).starts_with("Matches: 0"));
    }

    #[test]
    fn numbers_without_a_finite_value_are_null_in_json() {
        assert_eq!(finite(f64::INFINITY), Value::Null);
        assert_eq!(finite(f64::NAN), Value::Null);
        assert_eq!(finite(1.5), json!(1.5));
    }
}
