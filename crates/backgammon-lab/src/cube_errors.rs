//! `backgammon cube-errors`: the error rate of our cube decisions (money
//! play), judged by GNU Backgammon's cubeful evaluation at 2-ply, beside
//! GNU Backgammon 0-ply's own decisions on the same positions.
//!
//! Each position (player on roll, before rolling, who may double) is one
//! double decision (the player on roll's) and one take decision (the
//! opponent's, were it doubled). The judge gives the no double, double
//! take and double pass equities; a double decision's error is the best of
//! no double and min(take, pass) less the value of the action chosen, a take
//! decision's the taker's best of take and pass less the chosen one's, in
//! thousandths of a point at cube 1. Positions count as cube decisions when
//! the judge calls doubling close (it costs at most [`CLOSE`]) or some player
//! judged would double: gnubg's analysis likewise counts only close or
//! actual doubles.

use crate::class::NetClass;
use crate::gnubg::{self, GnubgError, Job};
use crate::recorded::{self, RecordsError};
use crate::selfplay::positions;
use backgammon_engine::cube::{self, CubeDecision, CubeState, Owner};
use backgammon_engine::eval::Probs;
use backgammon_engine::player::{self, Kind, NetSettings, Player};
use backgammon_rules::{Board, Decision};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A double that costs at most this much (judge's equity, cube 1) is close.
pub const CLOSE: f64 = 0.16;

/// What `backgammon cube-errors` judges.
#[derive(Clone, Debug)]
pub struct CubeErrorsSettings {
    /// Cube decisions to judge.
    pub decisions: usize,
    /// Seed of the self-play games the positions come from.
    pub seed: u64,
    /// Take the positions from these money match records instead (the
    /// positions where the player on roll could double, 6 a decision
    /// wanted at most, spread evenly over the file).
    pub records: Option<PathBuf>,
    /// Our plies to judge (1 = the net's own chances).
    pub plies: Vec<u8>,
    /// GNU Backgammon's binary.
    pub gnubg: PathBuf,
    /// The judge's plies in GNU Backgammon's counting (2 = its 2-ply).
    pub judge_plies: u8,
    /// Money play under the Jacoby rule.
    pub jacoby: bool,
    /// List this many of the deepest player's worst decisions (position,
    /// cube, the judge's and our equities), to look at on a board.
    pub worst: usize,
}

/// Why `backgammon cube-errors` stopped.
#[derive(Debug, thiserror::Error)]
pub enum CubeErrorsError {
    /// The records file cannot be read or is not records of backgammon
    /// games.
    #[error(transparent)]
    Records(#[from] RecordsError),
    #[error(transparent)]
    Gnubg(#[from] GnubgError),
    /// The judge's file is missing.
    #[error("gnubg ({status}) wrote no judgements: {source}")]
    NoJudgements {
        status: std::process::ExitStatus,
        source: std::io::Error,
    },
    /// The judge's file has a line per position.
    #[error("gnubg judged {judged} of {wanted} positions")]
    Count { judged: usize, wanted: usize },
    /// A line of the judge's file that is not a class and 11 numbers.
    #[error("bad gnubg line \"{0}\": expected a class and 11 numbers")]
    Line(String),
    /// Writing the report failed.
    #[error("output error: {0}")]
    Output(#[from] std::io::Error),
}

/// No double, double take, double pass: equities per cube 1 for the
/// player on roll.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Verdict {
    pub nd: f64,
    pub dt: f64,
    pub dp: f64,
}

impl Verdict {
    /// The doubler's value of doubling (the opponent answers best).
    fn doubled(&self) -> f64 {
        self.dt.min(self.dp)
    }

    /// The cost of `double` (or not) to the player on roll.
    pub fn double_error(&self, double: bool) -> f64 {
        let best = self.nd.max(self.doubled());
        best - if double { self.doubled() } else { self.nd }
    }

    /// The cost of `take` (or pass) to the taker.
    pub fn take_error(&self, take: bool) -> f64 {
        let best = (-self.dt).max(-self.dp);
        best - if take { -self.dt } else { -self.dp }
    }

    /// The judge's name for the position: no double, double/take,
    /// double/pass or too good.
    fn name(&self) -> &'static str {
        match (self.doubled() > self.nd, self.dt <= self.dp) {
            (false, true) => "no double/take",
            (false, false) => "too good/pass",
            (true, true) => "double/take",
            (true, false) => "double/pass",
        }
    }
}

/// One judged position.
struct Judged {
    /// gnubg's class; its bear-offs count as races, as its benchmarks
    /// split them.
    class: NetClass,
    /// gnubg 0-ply's cubeless chances.
    chances: Probs,
    zero: Verdict,
    judge: Verdict,
}

/// A player's double and take choices on one position, and the equities
/// they come from.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Choice {
    double: bool,
    take: bool,
    values: Verdict,
}

impl From<CubeDecision> for Choice {
    fn from(d: CubeDecision) -> Choice {
        Choice {
            double: d.double(),
            take: d.take(),
            values: Verdict {
                nd: d.no_double,
                dt: d.double_take,
                dp: d.double_pass,
            },
        }
    }
}

/// Runs `backgammon cube-errors`.
pub fn run(a: &CubeErrorsSettings, out: &mut impl Write) -> Result<(), CubeErrorsError> {
    let (candidates, origin) = candidate_positions(a)?;
    let judged = judge(a, &candidates)?;
    let mut players: Vec<(String, Vec<Choice>)> = vec![(
        "gnubg 0-ply".into(),
        judged.iter().map(|j| verdict_choice(&j.zero)).collect(),
    )];
    for &plies in &a.plies {
        let mut p = Player::with_net(
            Kind::Net,
            None,
            NetSettings {
                plies,
                movetime: None,
            },
        );
        let choices = candidates
            .iter()
            .map(|(b, s)| p.cube_decision(b, s).into())
            .collect();
        players.push((format!("grasshopper {plies}-ply"), choices));
    }
    players.push((
        "our formulas on gnubg 0-ply's chances".into(),
        candidates
            .iter()
            .zip(&judged)
            .map(|((b, s), j)| cube::decide(s, &j.chances, player::efficiency(b)).into())
            .collect(),
    ));
    let keep: Vec<usize> = (0..judged.len())
        .filter(|&i| {
            judged[i].judge.double_error(true) <= CLOSE || players.iter().any(|p| p.1[i].double)
        })
        .take(a.decisions)
        .collect();
    writeln!(
        out,
        "{} cube decisions (of {} positions) from {origin}, money, Jacoby {}, judged by gnubg {}-ply cubeful",
        keep.len(),
        candidates.len(),
        if a.jacoby { "on" } else { "off" },
        a.judge_plies
    )?;
    writeln!(
        out,
        "errors in thousandths of a point (cube 1) a decision, ± a 95% interval; agree: the judge's choice"
    )?;
    report(out, &judged, &players, &keep)?;
    chance_bias(out, &candidates, &judged, &keep)?;
    let deepest = players.len() - 2;
    if a.worst > 0 && deepest > 0 {
        worst(out, &candidates, &judged, &players[deepest], &keep, a.worst)?;
    }
    Ok(())
}

/// The `n` decisions where `player` errs most (its double or its take
/// error, whichever is larger), worst first: the position (gnubg position
/// ID), the cube, the class, the judge's equities and the player's.
fn worst(
    out: &mut impl Write,
    candidates: &[(Board, CubeState)],
    judged: &[Judged],
    player: &(String, Vec<Choice>),
    keep: &[usize],
    n: usize,
) -> Result<(), CubeErrorsError> {
    let (name, choices) = player;
    let cost = |i: usize| {
        let j = &judged[i].judge;
        let c = &choices[i];
        (j.double_error(c.double), j.take_error(c.take))
    };
    let mut idx: Vec<usize> = keep.to_vec();
    idx.sort_by(|&x, &y| {
        let (a, b) = (cost(x), cost(y));
        (b.0.max(b.1)).total_cmp(&a.0.max(a.1))
    });
    writeln!(
        out,
        "worst decisions of {name} (nd, dt, dp: cube-1 equities of the player on roll)"
    )?;
    for &i in idx
        .iter()
        .take(n)
        .filter(|&&i| cost(i).0.max(cost(i).1) > 0.0)
    {
        let (double, take) = cost(i);
        let (b, s) = &candidates[i];
        let c = &choices[i];
        writeln!(
            out,
            "  {b} cube {} {:8} judge {} {:15} ours {} {} {}: double error {:.1}, take error {:.1}",
            cube_field(s),
            judged[i].class,
            values(&judged[i].judge),
            judged[i].judge.name(),
            values(&per_cube(&c.values, s.cube)),
            if c.double { "double" } else { "no double" },
            if c.take { "take" } else { "pass" },
            1000.0 * double,
            1000.0 * take
        )?;
    }
    Ok(())
}

/// Equities at cube `cube` per cube 1, as the judge gives them.
fn per_cube(v: &Verdict, cube: u32) -> Verdict {
    let c = cube as f64;
    Verdict {
        nd: v.nd / c,
        dt: v.dt / c,
        dp: v.dp / c,
    }
}

/// A verdict's three equities.
fn values(v: &Verdict) -> String {
    format!("nd {:+.3} dt {:+.3} dp {:+.3}", v.nd, v.dt, v.dp)
}

/// How our 1-ply chances differ from gnubg 0-ply's on the decisions, per
/// class: the mean difference of the win, gammon win and gammon loss
/// chances (what moves a cube decision), in percentage points.
fn chance_bias(
    out: &mut impl Write,
    candidates: &[(Board, CubeState)],
    judged: &[Judged],
    keep: &[usize],
) -> Result<(), CubeErrorsError> {
    let eval = player::cube_nets();
    writeln!(
        out,
        "our 1-ply chances less gnubg 0-ply's (mean, points of %): win, gammon win, gammon loss"
    )?;
    for class in NetClass::ALL {
        let idx: Vec<usize> = keep
            .iter()
            .copied()
            .filter(|&i| judged[i].class == class)
            .collect();
        let mut sum = [0.0f64; 3];
        let mut gammons = [0.0f64; 2];
        for &i in &idx {
            let ours = eval.evaluate(&candidates[i].0);
            let theirs = judged[i].chances;
            for (s, k) in sum.iter_mut().zip([0, 1, 3]) {
                *s += (ours[k] - theirs[k]) as f64;
            }
            gammons[0] += ours[1] as f64;
            gammons[1] += theirs[1] as f64;
        }
        let n = idx.len().max(1) as f64;
        writeln!(
            out,
            "  {:8} {:+.1} {:+.1} {:+.1} (gammon win: ours {:.1}, gnubg's {:.1})",
            class,
            100.0 * sum[0] / n,
            100.0 * sum[1] / n,
            100.0 * sum[2] / n,
            100.0 * gammons[0] / n,
            100.0 * gammons[1] / n
        )?;
    }
    Ok(())
}

/// The choice a verdict makes (gnubg 0-ply's).
fn verdict_choice(v: &Verdict) -> Choice {
    Choice {
        double: v.doubled() > v.nd,
        take: v.dt <= v.dp,
        values: *v,
    }
}

/// The table: per player, per class, the double and take decisions; then
/// the double errors by the judge's verdict.
fn report(
    out: &mut impl Write,
    judged: &[Judged],
    players: &[(String, Vec<Choice>)],
    keep: &[usize],
) -> Result<(), CubeErrorsError> {
    let classes: [(&str, Option<NetClass>); 4] = [
        ("all", None),
        ("contact", Some(NetClass::Contact)),
        ("crashed", Some(NetClass::Crashed)),
        ("race", Some(NetClass::Race)),
    ];
    for (name, choices) in players {
        writeln!(out, "{name}")?;
        for (cname, class) in classes {
            let idx: Vec<usize> = keep
                .iter()
                .copied()
                .filter(|&i| class.is_none_or(|c| judged[i].class == c))
                .collect();
            let doubles: Vec<f64> = idx
                .iter()
                .map(|&i| judged[i].judge.double_error(choices[i].double))
                .collect();
            let takes: Vec<f64> = idx
                .iter()
                .map(|&i| judged[i].judge.take_error(choices[i].take))
                .collect();
            writeln!(
                out,
                "  {cname:8} doubles {}   takes {}",
                stat(&doubles),
                stat(&takes)
            )?;
        }
    }
    writeln!(out, "double decisions by the judge's verdict")?;
    for verdict in [
        "no double/take",
        "double/take",
        "double/pass",
        "too good/pass",
    ] {
        let idx: Vec<usize> = keep
            .iter()
            .copied()
            .filter(|&i| judged[i].judge.name() == verdict)
            .collect();
        let line: Vec<String> = players
            .iter()
            .map(|(name, c)| {
                let e: Vec<f64> = idx
                    .iter()
                    .map(|&i| judged[i].judge.double_error(c[i].double))
                    .collect();
                format!("{}: {}", short(name), stat(&e))
            })
            .collect();
        writeln!(out, "  {verdict:15} {}", line.join("; "))?;
    }
    let count = |c: NetClass| keep.iter().filter(|&&i| judged[i].class == c).count();
    writeln!(
        out,
        "positions: {} contact, {} crashed, {} race",
        count(NetClass::Contact),
        count(NetClass::Crashed),
        count(NetClass::Race)
    )?;
    Ok(())
}

/// A player's short name for the verdict lines.
fn short(name: &str) -> String {
    name.replace("grasshopper ", "")
        .replace(" on gnubg 0-ply's chances", "")
}

/// `n`, the mean error in thousandths with its 95% interval, the share of
/// decisions the judge agrees with.
fn stat(errors: &[f64]) -> String {
    let n = errors.len() as f64;
    if errors.is_empty() {
        return format!("{:>4} {:>16} {:>11}", 0, "-", "-");
    }
    let mean = errors.iter().sum::<f64>() / n;
    let var = errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let agree = errors.iter().filter(|&&e| e <= 1e-9).count() as f64 / n;
    format!(
        "{:>4} {:>7.1} ± {:>5.1} {:>5.1}% agree",
        errors.len(),
        1000.0 * mean,
        1000.0 * 1.96 * (var / n).sqrt(),
        100.0 * agree
    )
}

/// Positions of seeded self-play where the player on roll may double:
/// every third, alternately with the cube centred and owned by the player
/// on roll at 2, up to `n`.
fn self_play_positions(seed: u64, n: usize) -> Vec<(Board, CubeState)> {
    let eval = player::nets();
    let mut out = Vec::new();
    let mut games = (n as u32 / 10).max(1);
    while out.len() < n {
        out.clear();
        let boards = positions(eval, games, seed);
        for (k, board) in boards.into_iter().step_by(3).take(n).enumerate() {
            let mut state = CubeState::money(true);
            if k % 2 == 1 {
                state.cube = 2;
                state.owner = Owner::Me;
            }
            out.push((board, state));
        }
        games *= 2;
    }
    out
}

/// The positions to judge and where they come from. Each is judged, ours
/// and gnubg's alike, under the Jacoby rule as `--jacoby` says, whatever
/// rule the recorded games had: a cubeless match records no Jacoby rule,
/// and our side's cube left without it (gammons counting at a centred
/// cube, so a position "too good to double") against a judge with it
/// made 17 thousandths a decision of errors that were nobody's.
fn candidate_positions(
    a: &CubeErrorsSettings,
) -> Result<(Vec<(Board, CubeState)>, String), CubeErrorsError> {
    let (all, origin) = match &a.records {
        Some(path) => (
            spread(record_positions(path)?, 6 * a.decisions),
            format!("the records of {}", path.display()),
        ),
        None => (
            self_play_positions(a.seed, 6 * a.decisions),
            format!("seeded self-play of the net (seed {})", a.seed),
        ),
    };
    let under_rule = |(b, s): (Board, CubeState)| {
        (
            b,
            CubeState {
                jacoby: a.jacoby,
                ..s
            },
        )
    };
    Ok((all.into_iter().map(under_rule).collect(), origin))
}

/// The positions of money records where the player on roll could double,
/// with the cube as it was.
fn record_positions(path: &Path) -> Result<Vec<(Board, CubeState)>, CubeErrorsError> {
    let mut all = Vec::new();
    recorded::replay(path, |game, _| {
        let may = matches!(
            game.decision(),
            Decision::RollOrDouble {
                may_double: true,
                ..
            }
        );
        if may && game.state().is_money() {
            all.push((*game.board(), player::cube_state(game.state())));
        }
    })?;
    Ok(all)
}

/// Up to `n` of `all`, spread evenly.
fn spread<T: Copy>(all: Vec<T>, n: usize) -> Vec<T> {
    if all.len() <= n {
        return all;
    }
    let step = all.len() as f64 / n as f64;
    (0..n).map(|k| all[(k as f64 * step) as usize]).collect()
}

/// The cube field of the judge's input line.
fn cube_field(s: &CubeState) -> String {
    let owner = if s.owner == Owner::Centred { "c" } else { "m" };
    format!("{} {owner}", s.cube)
}

/// gnubg's class, 0-ply chances and verdicts of each position.
fn judge(
    a: &CubeErrorsSettings,
    candidates: &[(Board, CubeState)],
) -> Result<Vec<Judged>, CubeErrorsError> {
    let ids: String = candidates
        .iter()
        .map(|(b, s)| format!("{b} {}\n", cube_field(s)))
        .collect();
    let job = Job {
        inputs: vec![("BG_IDS", ids)],
        outputs: vec!["BG_OUT"],
        vars: vec![
            ("BG_PLIES", a.judge_plies.to_string()),
            ("BG_JACOBY", if a.jacoby { "on" } else { "off" }.to_string()),
        ],
    };
    let mut ran = gnubg::run(&a.gnubg, gnubg::CUBE_JUDGE, &job)?;
    let status = ran.status;
    let text = ran
        .outputs
        .remove(0)
        .map_err(|source| CubeErrorsError::NoJudgements { status, source })?;
    let judged = text
        .lines()
        .map(parse_line)
        .collect::<Result<Vec<_>, _>>()?;
    if judged.len() != candidates.len() {
        return Err(CubeErrorsError::Count {
            judged: judged.len(),
            wanted: candidates.len(),
        });
    }
    Ok(judged)
}

/// A line of the judge's file: class, five chances, three 0-ply and three
/// judge equities.
fn parse_line(line: &str) -> Result<Judged, CubeErrorsError> {
    let bad = || CubeErrorsError::Line(line.to_string());
    let mut words = line.split_whitespace();
    let class: u8 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
    let v: Vec<f64> = words
        .map(|w| w.parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if v.len() != 11 {
        return Err(bad());
    }
    let verdict = |k: usize| Verdict {
        nd: v[k],
        dt: v[k + 1],
        dp: v[k + 2],
    };
    Ok(Judged {
        class: NetClass::from_gnubg(u32::from(class)).unwrap_or(NetClass::Race),
        chances: [
            v[0] as f32,
            v[1] as f32,
            v[2] as f32,
            v[3] as f32,
            v[4] as f32,
        ],
        zero: verdict(5),
        judge: verdict(8),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_the_judges_best_less_the_choice() {
        // Double/take: doubling gains 0.1; passing costs the taker 0.3.
        let v = Verdict {
            nd: 0.5,
            dt: 0.6,
            dp: 1.0,
        };
        assert_eq!(v.name(), "double/take");
        assert!((v.double_error(false) - 0.1).abs() < 1e-12);
        assert_eq!(v.double_error(true), 0.0);
        assert_eq!(v.take_error(true), 0.0);
        assert!((v.take_error(false) - 0.4).abs() < 1e-12);
        // Too good: playing on (1.2) beats cashing (1.0).
        let tg = Verdict {
            nd: 1.2,
            dt: 1.5,
            dp: 1.0,
        };
        assert_eq!(tg.name(), "too good/pass");
        assert!((tg.double_error(true) - 0.2).abs() < 1e-12);
        assert!((tg.take_error(true) - 0.5).abs() < 1e-12);
        assert_eq!(
            verdict_choice(&tg),
            Choice {
                double: false,
                take: false,
                values: tg
            }
        );
    }

    #[test]
    fn judge_lines_read_or_are_refused() {
        let j = parse_line("9 0.7 0.2 0.01 0.05 0.0 0.5 0.6 1 0.51 0.62 1").unwrap();
        assert_eq!(j.class, NetClass::Crashed);
        assert_eq!(j.chances[0], 0.7);
        assert_eq!(j.judge.dt, 0.62);
        assert_eq!(j.zero.nd, 0.5);
        assert!(parse_line("10 0.5 0.2").is_err());
        let e = parse_line("x 1").err().unwrap().to_string();
        assert!(e.contains("\"x 1\""), "{e}");
        assert!(stat(&[0.0, 0.002]).contains("50.0% agree"));
    }

    /// A random home board of 1 to 6 checkers (the cubeful bear-off
    /// table's reach), as 25 counts.
    fn small_home(rng: &mut backgammon_rules::SplitMix) -> [u8; 25] {
        let mut c = [0u8; 25];
        for _ in 0..1 + rng.below(6) {
            c[rng.below(6) as usize] += 1;
        }
        c
    }

    #[test]
    fn the_cubeful_bear_off_table_agrees_with_gnubgs_two_sided_database() {
        use backgammon_engine::bearoff_cube::CubefulBearoff;
        let mut rng = backgammon_rules::SplitMix::new(5);
        let candidates: Vec<(Board, CubeState)> = (0..300)
            .map(|k| {
                let b = Board::from_counts(&small_home(&mut rng), &small_home(&mut rng)).unwrap();
                let mut s = CubeState::money(true);
                if k % 2 == 1 {
                    (s.cube, s.owner) = (2, Owner::Me);
                }
                (b, s)
            })
            .collect();
        let settings = CubeErrorsSettings {
            decisions: 0,
            seed: 0,
            records: None,
            plies: vec![],
            gnubg: "/usr/games/gnubg".into(),
            judge_plies: 0,
            jacoby: true,
            worst: 0,
        };
        let judged = judge(&settings, &candidates).expect("gnubg judges");
        let table = CubefulBearoff::get();
        let mut worst = 0.0f64;
        for ((b, s), j) in candidates.iter().zip(&judged) {
            assert!(CubefulBearoff::covers(b));
            let ours = table.decide(b, s);
            let v = s.cube as f64;
            let diffs = [
                ours.no_double / v - j.zero.nd,
                ours.double_take / v - j.zero.dt,
            ];
            for d in diffs {
                worst = worst.max(d.abs());
            }
            assert!(
                diffs.iter().all(|d| d.abs() < 1e-3),
                "{b} cube {}: ours {ours:?} (per cube {v}), gnubg's {:?}",
                cube_field(s),
                j.zero
            );
        }
        eprintln!("largest difference from gnubg's cubeful bear-off equities: {worst:.6}");
    }

    #[test]
    fn self_play_positions_alternate_the_cube_and_repeat() {
        let a = self_play_positions(3, 20);
        assert_eq!(a.len(), 20);
        assert_eq!(a, self_play_positions(3, 20));
        assert_eq!(cube_field(&a[0].1), "1 c");
        assert_eq!(cube_field(&a[1].1), "2 m");
        assert!(a.iter().all(|(_, s)| s.may_double()));
    }

    #[test]
    fn every_position_is_judged_under_the_rule_the_judge_is_told() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for jacoby in [false, true] {
            let settings = CubeErrorsSettings {
                decisions: 4,
                seed: 3,
                records: Some(root.join("fixtures/backgammon-money.pgn")),
                plies: vec![],
                gnubg: "/usr/games/gnubg".into(),
                judge_plies: 0,
                jacoby,
                worst: 0,
            };
            let (records, _) = candidate_positions(&settings).unwrap();
            let (self_play, _) = candidate_positions(&CubeErrorsSettings {
                records: None,
                ..settings
            })
            .unwrap();
            for (_, s) in records.iter().chain(&self_play) {
                assert_eq!(s.jacoby, jacoby);
            }
            assert_eq!(records.len(), 24);
        }
    }

    #[test]
    fn record_positions_are_money_turns_with_cube_access() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let all = record_positions(&root.join("fixtures/backgammon-money.pgn")).unwrap();
        // Not the opening roll: nobody may double before it.
        assert!(!all.is_empty());
        assert!(all.iter().all(|(b, _)| *b != Board::START));
        assert!(all.iter().all(|(_, s)| s.may_double() && s.away.is_none()));
        assert_eq!(spread(vec![1, 2, 3, 4, 5, 6], 3), vec![1, 3, 5]);
        assert_eq!(spread(vec![1, 2], 3), vec![1, 2]);
    }
}
