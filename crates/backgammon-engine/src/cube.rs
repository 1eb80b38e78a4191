//! Cube decisions: cubeful values from cubeless chances with Janowski's
//! model (a mix, by the cube's efficiency, of the dead-cube value and a
//! piecewise-linear fully live cube between the take and cash points), in
//! money points or, in a match, in match winning chances through the
//! Kazaross-XG2 match equity table (data/met-kazaross-xg2.txt).
//!
//! In a match the outcomes' values come from the table and are normalised
//! so that a single game won or lost at the cube value is ±1; Janowski's
//! money formulas then work on the normalised gammon values. A side whose
//! redouble could win it nothing more (its cube value already wins it the
//! match) holds a dead cube. The Crawford game has no cube; post-Crawford
//! scores use the table's post-Crawford row.

use crate::eval::{Class, Probs};
use std::sync::OnceLock;

/// Who may turn the cube, from the side of the player the values are for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Centred,
    Me,
    Opponent,
}

/// A match equity table: pre-Crawford and post-Crawford.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    /// `pre[i][j]`: chance of the player needing i + 1 against j + 1.
    pre: Vec<Vec<f64>>,
    /// `post[j]`: chance of the trailer needing j + 1 against a leader
    /// needing 1, post-Crawford.
    post: Vec<f64>,
}

impl Met {
    /// Reads the text form of `data/met-kazaross-xg2.txt`.
    pub fn parse(text: &str) -> Result<Met, String> {
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let mut section = "";
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line == "pre-crawford" || line == "post-crawford" {
                section = if line == "pre-crawford" {
                    "pre"
                } else {
                    "post"
                };
                continue;
            }
            let row = line
                .split_whitespace()
                .map(|w| w.parse::<f64>().map_err(|_| format!("MET: bad number {w}")))
                .collect::<Result<Vec<_>, _>>()?;
            match section {
                "pre" => pre.push(row),
                "post" => post = row,
                _ => return Err("MET: numbers before a section".to_string()),
            }
        }
        let n = pre.len();
        if n == 0 || pre.iter().any(|r| r.len() != n) || post.len() != n {
            return Err(format!("MET: expected {n}x{n} and {n} entries"));
        }
        Ok(Met { pre, post })
    }

    /// The Kazaross-XG2 table shipped in `data/`.
    pub fn kazaross_xg2() -> &'static Met {
        static MET: OnceLock<Met> = OnceLock::new();
        MET.get_or_init(|| {
            Met::parse(include_str!("../data/met-kazaross-xg2.txt")).expect("the shipped MET")
        })
    }

    /// Longest match the table covers (longer ones use its last row/column).
    pub fn length(&self) -> usize {
        self.pre.len()
    }

    /// The chance of winning the match of the player needing `a` points
    /// against one needing `b` (0 or less: that side has won);
    /// `post_crawford` when the Crawford game has been played.
    pub fn mwc(&self, a: i32, b: i32, post_crawford: bool) -> f64 {
        let n = self.pre.len() as i32;
        match (a, b) {
            (a, _) if a <= 0 => 1.0,
            (_, b) if b <= 0 => 0.0,
            (1, 1) => 0.5,
            (1, b) if post_crawford => 1.0 - self.post[(b.min(n) - 1) as usize],
            (a, 1) if post_crawford => self.post[(a.min(n) - 1) as usize],
            (a, b) => self.pre[(a.min(n) - 1) as usize][(b.min(n) - 1) as usize],
        }
    }
}

/// The score and cube, seen from the player the values are for.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CubeState {
    /// Points each side still needs (me, opponent); `None` in money play.
    pub away: Option<(u32, u32)>,
    /// The cube value.
    pub cube: u32,
    pub owner: Owner,
    /// Money play under the Jacoby rule (gammons count once the cube turns).
    pub jacoby: bool,
    /// This is the Crawford game (no cube).
    pub crawford: bool,
    /// A match after its Crawford game.
    pub post_crawford: bool,
}

impl CubeState {
    /// A money game with the cube centred at 1.
    pub fn money(jacoby: bool) -> CubeState {
        CubeState {
            away: None,
            cube: 1,
            owner: Owner::Centred,
            jacoby,
            crawford: false,
            post_crawford: false,
        }
    }

    /// The same state seen from the other player.
    pub fn swapped(&self) -> CubeState {
        CubeState {
            away: self.away.map(|(a, b)| (b, a)),
            owner: match self.owner {
                Owner::Centred => Owner::Centred,
                Owner::Me => Owner::Opponent,
                Owner::Opponent => Owner::Me,
            },
            ..*self
        }
    }

    /// The value to me of winning (`points` > 0) or losing `points` at the
    /// end of this game: points in money play, match winning chance in a match.
    pub fn value(&self, points: i32) -> f64 {
        match self.away {
            None => points as f64,
            Some((a, b)) => {
                let post = self.post_crawford || self.crawford;
                let met = Met::kazaross_xg2();
                if points >= 0 {
                    met.mwc(a as i32 - points, b as i32, post)
                } else {
                    met.mwc(a as i32, b as i32 + points, post)
                }
            }
        }
    }

    /// Whether the player may double now (cube access, no Crawford game).
    pub fn may_double(&self) -> bool {
        self.owner != Owner::Opponent && !self.crawford && self.cube < 1 << 15
    }
}

/// Cube efficiency: how live the cube is (Janowski's x), by the position's
/// class as GNU Backgammon sets it (its `show cube efficiency`): contact
/// (crashed included) 0.68; races 0.55 + pips / 800 of the player on roll,
/// kept within 0.6 (40 pips or fewer) and 0.7 (120 or more); both sides
/// home 0.6.
pub fn efficiency(class: Class, pips: u32) -> f64 {
    match class {
        Class::Contact | Class::Crashed => 0.68,
        Class::Race => (0.55 + 0.00125 * pips as f64).clamp(0.6, 0.7),
        Class::Bearoff => 0.6,
    }
}

/// The cubeful value of a position at one cube level.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Level {
    /// Value of a single win and loss at this cube (normalisation).
    pub win: f64,
    pub loss: f64,
    /// Average normalised win and loss values (gammons included).
    pub w: f64,
    pub l: f64,
}

/// The outcome values of `p` (six outcomes) at cube `v`: for me,
/// `[single, gammon, backgammon]` won and lost, normalised.
fn level(state: &CubeState, p: &Probs, v: u32, gammons: bool) -> Level {
    let v = v as i32;
    let win = state.value(v);
    let loss = state.value(-v);
    let mid = 0.5 * (win + loss);
    let half = (0.5 * (win - loss)).max(1e-9);
    let norm = |x: f64| (x - mid) / half;
    let (g, b) = if gammons { (2, 3) } else { (1, 1) };
    let (p0, p1, p2, p3, p4) = (
        p[0] as f64,
        p[1] as f64,
        p[2] as f64,
        p[3] as f64,
        p[4] as f64,
    );
    let win_sum = (p0 - p1) * norm(win)
        + (p1 - p2) * norm(state.value(g * v))
        + p2 * norm(state.value(b * v));
    let loss_sum = (1.0 - p0 - p3) * norm(loss)
        + (p3 - p4) * norm(state.value(-g * v))
        + p4 * norm(state.value(-b * v));
    Level {
        win,
        loss,
        w: if p0 > 1e-9 { win_sum / p0 } else { 1.0 },
        l: if p0 < 1.0 - 1e-9 {
            -loss_sum / (1.0 - p0)
        } else {
            1.0
        },
    }
}

/// Janowski's cubeful equity (normalised: ±1 a single game at the cube
/// value), with win chance `p`, average win and loss values `w`, `l`,
/// ownership and cube efficiency `x`: the mix by `x` of the dead cube's
/// value and the fully live cube's ([`live`]).
pub fn janowski(p: f64, w: f64, l: f64, owner: Owner, x: f64) -> f64 {
    x * live(p, w, l, owner) + (1.0 - x) * dead(p, w, l)
}

/// The dead cube's value: the cubeless equity.
fn dead(p: f64, w: f64, l: f64) -> f64 {
    p * (w + l) - l
}

/// The fully live cube's value (Janowski, "Take-points in money games",
/// 1993): piecewise linear in `p` through (0, -L), the take point TP =
/// (L - 1/2) / (W + L + 1/2) at -1 where the opponent can cash, the cash
/// point CP = (L + 1) / (W + L + 1/2) at +1, and (1, W). A cube owned by
/// the player on roll has no TP corner (the line runs from (0, -L) to the
/// cash), one owned by the opponent no CP corner; past its owner's cash
/// point a cube goes on to (1, W): the owner may play on for the gammon.
pub fn live(p: f64, w: f64, l: f64, owner: Owner) -> f64 {
    let tp = ((l - 0.5) / (w + l + 0.5)).clamp(0.0, 1.0);
    let cp = ((l + 1.0) / (w + l + 0.5)).clamp(0.0, 1.0);
    let lerp = |x0: f64, y0: f64, x1: f64, y1: f64| {
        if x1 - x0 < 1e-12 {
            y1
        } else {
            y0 + (y1 - y0) * (p - x0) / (x1 - x0)
        }
    };
    // The corners of the line, from (0, -L) to (1, W).
    let corners: &[(f64, f64)] = match owner {
        Owner::Me => &[(cp, 1.0)],
        Owner::Opponent => &[(tp, -1.0)],
        Owner::Centred => &[(tp, -1.0), (cp, 1.0)],
    };
    let mut from = (0.0, -l);
    for &corner in corners.iter().chain([(1.0, w)].iter()) {
        if p < corner.0 {
            return lerp(from.0, from.1, corner.0, corner.1);
        }
        from = corner;
    }
    w
}

/// A cube decision's values, for the player on roll (points or MWC).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CubeDecision {
    /// No double.
    pub no_double: f64,
    /// Double, take.
    pub double_take: f64,
    /// Double, pass.
    pub double_pass: f64,
}

impl CubeDecision {
    /// The player on roll should double (false when too good: playing on
    /// is worth more than the cash).
    pub fn double(&self) -> bool {
        self.may_double_value() > self.no_double + 1e-9
    }

    fn may_double_value(&self) -> f64 {
        self.double_take.min(self.double_pass)
    }

    /// The opponent should take a double.
    pub fn take(&self) -> bool {
        self.double_take <= self.double_pass
    }

    /// The best value of the position for the player on roll: the no-double
    /// value, or the double's (take or pass, as the opponent chooses).
    pub fn optimal(&self) -> f64 {
        if self.double() {
            self.may_double_value()
        } else {
            self.no_double
        }
    }
}

/// Whether a cube owned by `owner` at value `v` is live: its owner could
/// still gain by redoubling (money: always).
fn cube_is_live(state: &CubeState, owner: Owner, v: u32) -> bool {
    match (state.away, owner) {
        (None, _) => true,
        (Some(_), _) if state.crawford => false,
        (Some((a, b)), Owner::Centred) => v < a && v < b,
        (Some((a, _)), Owner::Me) => v < a,
        (Some((_, b)), Owner::Opponent) => v < b,
    }
}

/// The cubeful value (points or MWC) of a position with cubeless chances
/// `p` for the player on roll, cube as `state` says, efficiency `x`.
///
/// Under the Jacoby rule with the cube centred, gammons count nothing
/// while the cube stays there (the dead cube's part), but they count once
/// it is turned, which the live cube's part supposes it will be: its W and
/// L keep the gammons (as GNU Backgammon's money evaluation does). Past
/// either side's cash point the centred cube's value is the cash, ±1: no
/// playing on for a gammon that would not count.
pub fn cubeful_value(state: &CubeState, p: &Probs, x: f64) -> f64 {
    let v = state.cube;
    let jacoby_dead = state.away.is_none() && state.jacoby && state.owner == Owner::Centred;
    let with_gammons = level(state, p, v, true);
    let dead_level = if jacoby_dead {
        level(state, p, v, false)
    } else {
        with_gammons
    };
    let x = if cube_is_live(state, state.owner, v) {
        x
    } else {
        0.0
    };
    let p0 = p[0] as f64;
    let mut live_value = live(p0, with_gammons.w, with_gammons.l, state.owner);
    if jacoby_dead {
        live_value = live_value.clamp(-1.0, 1.0);
    }
    let e = x * live_value + (1.0 - x) * dead(p0, dead_level.w, dead_level.l);
    0.5 * (with_gammons.win + with_gammons.loss) + 0.5 * (with_gammons.win - with_gammons.loss) * e
}

/// The cube decision of the player on roll with cubeless chances `p`.
pub fn decide(state: &CubeState, p: &Probs, x: f64) -> CubeDecision {
    let no_double = cubeful_value(state, p, x);
    let doubled = CubeState {
        cube: state.cube * 2,
        owner: Owner::Opponent,
        ..*state
    };
    CubeDecision {
        no_double,
        double_take: cubeful_value(&doubled, p, x),
        double_pass: state.value(state.cube as i32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(p: f32, wg: f32, lg: f32) -> Probs {
        [p, wg, 0.0, lg, 0.0]
    }

    #[test]
    fn the_table_reads_and_is_consistent() {
        let m = Met::kazaross_xg2();
        assert_eq!(m.length(), 25);
        assert_eq!(m.mwc(1, 2, false), 0.67736);
        assert_eq!(m.mwc(2, 1, false), 0.32264);
        assert_eq!(m.mwc(2, 1, true), 0.48803);
        assert_eq!(m.mwc(1, 2, true), 1.0 - 0.48803);
        assert_eq!(m.mwc(0, 3, false), 1.0);
        for a in 1..=25 {
            for b in 1..=25 {
                let s = m.mwc(a, b, false) + m.mwc(b, a, false);
                assert!((s - 1.0).abs() < 2e-3, "{a} {b} {s}");
            }
        }
    }

    #[test]
    fn money_take_points_and_doubles() {
        // Without gammons the live-cube take point is 20%, the dead one 25%.
        assert!((janowski(0.2, 1.0, 1.0, Owner::Opponent, 1.0) + 1.0).abs() < 1e-9);
        assert!((janowski(0.25, 1.0, 1.0, Owner::Opponent, 0.0) + 0.5).abs() < 1e-9);
        let s = CubeState::money(false);
        // 50%: no double; 72% (no gammons): double and take; 85%: double, pass.
        let even = decide(&s, &probs(0.5, 0.0, 0.0), 0.68);
        assert!(!even.double());
        let strong = decide(&s, &probs(0.72, 0.0, 0.0), 0.68);
        assert!(strong.double() && strong.take(), "{strong:?}");
        let crushing = decide(&s, &probs(0.85, 0.0, 0.0), 0.68);
        assert!(crushing.double() && !crushing.take(), "{crushing:?}");
        // Too good: 88% with many gammons: play on.
        let too_good = decide(&s, &probs(0.88, 0.6, 0.0), 0.68);
        assert!(!too_good.double() && !too_good.take(), "{too_good:?}");
        // The opponent's view of the same position sums to zero.
        let me = cubeful_value(&s, &probs(0.6, 0.2, 0.1), 0.68);
        let them = cubeful_value(&s.swapped(), &[0.4, 0.1, 0.0, 0.2, 0.0], 0.68);
        assert!((me + them).abs() < 1e-6, "{me} {them}");
    }

    #[test]
    fn match_cube_decisions_follow_the_score() {
        // Post-Crawford, the trailer doubles at once (the leader's cube is dead).
        let trailer = CubeState {
            away: Some((4, 1)),
            cube: 1,
            owner: Owner::Centred,
            jacoby: false,
            crawford: false,
            post_crawford: true,
        };
        let d = decide(&trailer, &probs(0.5, 0.13, 0.13), 0.68);
        assert!(d.double() && d.take(), "{d:?}");
        // 2-away 2-away: a strong position is a double; the cube in a match
        // is worth MWC, between 0 and 1.
        let s = CubeState {
            away: Some((2, 2)),
            ..trailer
        };
        let s = CubeState {
            post_crawford: false,
            ..s
        };
        let d = decide(&s, &probs(0.7, 0.1, 0.05), 0.68);
        assert!(d.double(), "{d:?}");
        assert!((0.0..=1.0).contains(&d.no_double));
        // The Crawford game: no doubling.
        let c = CubeState {
            away: Some((1, 3)),
            crawford: true,
            ..s
        };
        assert!(!c.may_double());
    }
    #[test]
    fn live_cube_lines_go_on_past_the_window() {
        // Janowski's live cube owned by the player on roll, past the cash
        // point (2/3 here: W 1.5, L 1): playing on is worth the line from
        // (CP, 1) to (1, W), not the cash alone (1.35 at 90%).
        assert!((janowski(0.9, 1.5, 1.0, Owner::Me, 1.0) - 1.35).abs() < 1e-9);
        // Owned by the opponent, below the take point (1/3: W 1, L 1.5):
        // the line from (0, -L) to (TP, -1), -1.35 at 10%.
        assert!((janowski(0.1, 1.0, 1.5, Owner::Opponent, 1.0) + 1.35).abs() < 1e-9);
    }

    #[test]
    fn take_and_double_points_without_gammons() {
        let s = CubeState::money(false);
        let at = |p: f32, x: f64| decide(&s, &probs(p, 0.0, 0.0), x);
        // Dead cube: double above 50%, take up to 25% (doubler's 75%).
        assert!(!at(0.49, 0.0).double() && at(0.51, 0.0).double());
        assert!(at(0.74, 0.0).take() && !at(0.76, 0.0).take());
        // Fully live cube: take up to 20%; doubling gains nothing before
        // the cash point, 80% (no market to lose), where it cashes 1.
        assert!(at(0.79, 1.0).take() && !at(0.81, 1.0).take());
        assert!(!at(0.78, 1.0).double() && !at(0.7, 1.0).double());
        assert!((at(0.85, 1.0).optimal() - 1.0).abs() < 1e-9);
        // Between them, the drop point of a centred cube at efficiency x:
        // the double/take value 2 (x (2.5 p - 1.5) + (1 - x) (2 p - 1))
        // reaches the cash, 1, at p = (1.5 + 0.5 x) / (2 + 0.5 x): 78.6%
        // at x = 0.68.
        let x = 0.68;
        let drop = (1.5 + 0.5 * x) / (2.0 + 0.5 * x);
        assert!(at(drop as f32 - 1e-3, x).take() && !at(drop as f32 + 1e-3, x).take());
    }

    #[test]
    fn jacoby_counts_gammons_once_the_cube_is_live() {
        // Cube centred under the Jacoby rule: gammons do not count in the
        // dead-cube part (2p - 1 = 0.2), but the live cube part counts them
        // (they count once the cube turns): W 4/3, L 1.25, TP 0.2432, CP
        // 0.7297, live -1 + 2 (0.6 - TP) / (CP - TP) = 0.4667;
        // 0.68 * 0.4667 + 0.32 * 0.2 = 0.3813 (gnubg 0-ply gives this).
        let s = CubeState::money(true);
        let v = cubeful_value(&s, &probs(0.6, 0.2, 0.1), 0.68);
        assert!((v - 0.38133).abs() < 1e-4, "{v}");
        // Past the cash point (0.7297), the Jacoby rule's centred cube is
        // worth the cash, 1, not a gammon that would not count: 90% with
        // half of the wins gammons, 0.68 * 1 + 0.32 * 0.8 = 0.936 (and
        // more without the rule: too good to double).
        let v = cubeful_value(&s, &probs(0.9, 0.45, 0.0), 0.68);
        assert!((v - 0.936).abs() < 1e-4, "{v}");
        let v = cubeful_value(&CubeState::money(false), &probs(0.9, 0.45, 0.0), 0.68);
        assert!(v > 1.2, "{v}");
    }

    #[test]
    fn efficiency_by_class_and_pips_as_gnubg() {
        assert_eq!(efficiency(Class::Contact, 160), 0.68);
        // Races: 0.55 + pips / 800, from 0.6 (40 pips) to 0.7 (120).
        assert!((efficiency(Class::Race, 60) - 0.625).abs() < 1e-12);
        assert!((efficiency(Class::Race, 30) - 0.6).abs() < 1e-12);
        assert!((efficiency(Class::Race, 150) - 0.7).abs() < 1e-12);
        // Both sides home (gnubg's one-sided bear-off class): 0.6.
        assert_eq!(efficiency(Class::Bearoff, 50), 0.6);
    }
}
