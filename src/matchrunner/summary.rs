//! The running tally of a match: per pairing of engines the game results, the
//! pentanomial of completed pairs and the statistics derived from them; the
//! progress line, the final report and the JSON summary.

use super::game::Termination;
use super::records::GameRecord;
use super::stats::{EloEstimate, Pentanomial, Sprt, SprtDecision, Trinomial};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Two engines' results against each other, from the first engine's side
/// (the one that has White in game 1 of their pairs).
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub games: Trinomial,
    pub penta: Pentanomial,
    /// Pairs with one game seen so far: pair number -> first's half points.
    pending: HashMap<usize, u8>,
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
    pub pairings: Vec<PairingStats>,
    /// Per engine: name, points, games, in order of first appearance.
    pub engines: Vec<(String, f64, u64)>,
    pub terminations: [u64; 5],
    pub games: u64,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        use crate::rules::Color;
        self.games += 1;
        let t = Termination::ALL
            .iter()
            .position(|&t| t == r.termination)
            .expect("every termination is listed");
        self.terminations[t] += 1;
        for (name, c) in [(&r.white, Color::White), (&r.black, Color::Black)] {
            let half = r.result.half_points(c) as f64 / 2.0;
            match self.engines.iter_mut().find(|e| &e.0 == name) {
                Some(e) => {
                    e.1 += half;
                    e.2 += 1;
                }
                None => self.engines.push((name.clone(), half, 1)),
            }
        }
        let (first, second, first_color) = if r.game == 1 {
            (&r.white, &r.black, Color::White)
        } else {
            (&r.black, &r.white, Color::Black)
        };
        let idx = match self
            .pairings
            .iter()
            .position(|p| &p.first == first && &p.second == second)
        {
            Some(i) => i,
            None => {
                self.pairings.push(PairingStats {
                    first: first.clone(),
                    second: second.clone(),
                    ..PairingStats::default()
                });
                self.pairings.len() - 1
            }
        };
        let p = &mut self.pairings[idx];
        let half = r.result.half_points(first_color);
        p.games.add(half);
        match p.pending.remove(&r.pair) {
            Some(other) => p.penta.add(other + half),
            None => {
                p.pending.insert(r.pair, half);
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
            if let Some(e) = p.penta.elo().or_else(|| p.games.elo()) {
                let _ = write!(s, "  Elo {} +- {}", num(e.elo, 1), num(e.error(), 1));
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
        let _ = writeln!(s, "Games: {}, complete pairs: {}", self.games, self.pairs());
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
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"games\": {},", self.games);
        let _ = writeln!(s, "  \"pairs\": {},", self.pairs());
        let terms: Vec<String> = Termination::ALL
            .iter()
            .zip(self.terminations)
            .map(|(t, n)| format!("{}: {n}", json_str(&t.to_string())))
            .collect();
        let _ = writeln!(s, "  \"terminations\": {{{}}},", terms.join(", "));
        let engines: Vec<String> = self
            .engines
            .iter()
            .map(|(n, p, g)| {
                format!(
                    "{{\"name\": {}, \"points\": {p}, \"games\": {g}}}",
                    json_str(n)
                )
            })
            .collect();
        let _ = writeln!(s, "  \"engines\": [{}],", engines.join(", "));
        s.push_str("  \"pairings\": [");
        for (i, p) in self.pairings.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let g = p.games;
            let _ = write!(
                s,
                "\n    {{\"first\": {}, \"second\": {}, \"games\": {}, \"wins\": {}, \"losses\": {}, \"draws\": {}, \"points\": {}, \"pentanomial\": [{}]",
                json_str(&p.first),
                json_str(&p.second),
                g.games(),
                g.wins,
                g.losses,
                g.draws,
                p.points(),
                p.penta.0.map(|c| c.to_string()).join(", ")
            );
            let est = |name: &str, e: Option<EloEstimate>| -> String {
                match e {
                    None => format!(", \"{name}\": null"),
                    Some(e) => format!(
                        ", \"{name}\": {{\"score\": {}, \"elo\": {}, \"lower\": {}, \"upper\": {}, \"los\": {}, \"nelo\": {}}}",
                        json_num(e.score),
                        json_num(e.elo),
                        json_num(e.lower),
                        json_num(e.upper),
                        json_num(e.los),
                        json_num(e.nelo)
                    ),
                }
            };
            s.push_str(&est("pentanomial_elo", p.penta.elo()));
            s.push_str(&est("trinomial_elo", g.elo()));
            if let (Some(sprt), true) = (sprt, self.pairings.len() == 1) {
                let llr = sprt.llr(&p.penta);
                let (lo, hi) = sprt.bounds();
                let _ = write!(
                    s,
                    ", \"sprt\": {{\"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \"model\": {}, \"llr\": {}, \"lower\": {}, \"upper\": {}, \"decision\": {}}}",
                    json_num(sprt.elo0),
                    json_num(sprt.elo1),
                    json_num(sprt.alpha),
                    json_num(sprt.beta),
                    json_str(match sprt.model {
                        super::stats::EloModel::Logistic => "logistic",
                        super::stats::EloModel::Normalized => "normalized",
                    }),
                    json_num(llr),
                    json_num(lo),
                    json_num(hi),
                    json_str(&sprt.decide(llr).to_string())
                );
            }
            s.push('}');
        }
        s.push_str("\n  ]\n}\n");
        s
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
fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::super::game::GameResult;
    use super::*;
    use crate::rules::Position;

    fn game(pair: usize, n: u8, white: &str, black: &str, result: GameResult) -> GameRecord {
        GameRecord {
            event: "t".into(),
            date: "2026.11.29".into(),
            pair,
            game: n,
            white: white.into(),
            black: black.into(),
            opening: Position::start(2).unwrap(),
            tc: "depth=1".into(),
            result,
            termination: Termination::Normal,
            detail: None,
            moves: Vec::new(),
            notes: Vec::new(),
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
        let json = t.to_json(None);
        assert!(json.contains("\"pentanomial\": [1, 0, 0, 1, 0]"), "{json}");
        assert!(json.contains("\"wins\": 2"), "{json}");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
        assert_eq!(json_num(f64::INFINITY), "null");
    }
}
