//! The players of the lab's commands as they are named on the command line
//! (`net[:DIR][@PLIES]`, `pubeval`, `random`), the nets of a run directory,
//! and `backgammon duel`: a match between two named players.

use crate::duel::{duel, Chooser, DuelResult, PubevalChooser, RandomChooser};
use crate::train::cpu_seconds;
use backgammon_engine::player;
use backgammon_engine::search::{Searcher, MAX_PLY};
use backgammon_engine::{Evaluator, Pubeval};
use backgammon_rules::{Board, Dice, MoveList, SplitMix};
use std::path::Path;
use std::str::FromStr;

/// The nets of generation 0 (the TD-trained nets shipped until 2026-12-02,
/// kept in `data/nets/gen0`): the benchmark's judge and the player of the
/// committed rollout data, so that both repeat bit for bit whatever nets
/// the engine ships.
pub fn gen0() -> &'static Evaluator {
    static NETS: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
    NETS.get_or_init(|| {
        let contact = include_bytes!("../data/nets/gen0/contact.net");
        let race = include_bytes!("../data/nets/gen0/race.net");
        Evaluator::from_bytes(contact, None, race).expect("the gen0 nets read")
    })
}

/// A player name that names no player.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// Not of the form `net[:DIR][@PLIES]`, `pubeval` or `random`.
    #[error(
        "bad player \"{0}\": expected net[:DIR][@PLIES] (plies 1 to {MAX_PLY}), pubeval or random"
    )]
    Syntax(String),
    /// `net:DIR` with nets that cannot be used.
    #[error(transparent)]
    Nets(#[from] backgammon_engine::eval::NetsError),
}

/// What a player name names, ready to be made once per thread.
#[derive(Clone)]
pub enum Spec {
    /// Nets (the process's or a run directory's) searched to these plies.
    Net(Box<Evaluator>, u8),
    Pubeval,
    Random,
}

impl FromStr for Spec {
    type Err = PlayerError;

    fn from_str(text: &str) -> Result<Spec, PlayerError> {
        let bad = || PlayerError::Syntax(text.to_string());
        let (s, plies) = match text.rsplit_once('@') {
            Some((s, p)) => (
                s,
                p.parse::<u8>()
                    .ok()
                    .filter(|p| (1..=MAX_PLY).contains(p))
                    .ok_or_else(bad)?,
            ),
            None => (text, 1),
        };
        match s.split_once(':') {
            None if s == "net" => Ok(Spec::Net(Box::new(player::nets().clone()), plies)),
            None if s == "pubeval" => Ok(Spec::Pubeval),
            None if s == "random" => Ok(Spec::Random),
            Some(("net", dir)) => Ok(Spec::Net(
                Box::new(Evaluator::read_dir(Path::new(dir))?),
                plies,
            )),
            _ => Err(bad()),
        }
    }
}

impl Spec {
    /// A player of this kind; `seed` seeds the random player's choices.
    pub fn make(&self, seed: u64) -> Duelist {
        match self {
            Spec::Net(e, plies) => Duelist::Net(e.clone(), *plies, Box::default()),
            Spec::Pubeval => Duelist::Pubeval(Box::new(PubevalChooser(Pubeval::published()))),
            Spec::Random => Duelist::Random(RandomChooser(SplitMix::new(seed))),
        }
    }
}

/// A player of a duel.
pub enum Duelist {
    /// Nets, searched to the plies, with the search's move list.
    Net(Box<Evaluator>, u8, Box<MoveList>),
    Pubeval(Box<PubevalChooser>),
    Random(RandomChooser),
}

impl Chooser for Duelist {
    fn choose(&mut self, board: &Board, dice: Dice, moves: &MoveList) -> usize {
        match self {
            Duelist::Net(e, 1, _) => e.choose(board, dice, moves),
            Duelist::Net(e, plies, list) => {
                let c = Searcher::new(e).choose(board, dice, *plies, None, list);
                c.index
            }
            Duelist::Pubeval(p) => p.choose(board, dice, moves),
            Duelist::Random(r) => r.choose(board, dice, moves),
        }
    }
}

/// What `backgammon duel` plays.
#[derive(Clone, Debug)]
pub struct DuelSettings {
    /// The first player's name.
    pub a: String,
    /// The second player's name.
    pub b: String,
    /// Mirrored game pairs.
    pub pairs: u64,
    /// Seed of the dice.
    pub seed: u64,
    pub threads: usize,
}

/// Plays `backgammon duel` and returns its line: the first player's points
/// per game with a 95% interval, the games, the seed, the time spent.
pub fn run_duel(s: &DuelSettings) -> Result<String, PlayerError> {
    let (sa, sb): (Spec, Spec) = (s.a.parse()?, s.b.parse()?);
    let t0 = std::time::Instant::now();
    let c0 = cpu_seconds();
    let r: DuelResult = duel(
        || sa.make(s.seed ^ 1),
        || sb.make(s.seed ^ 2),
        s.pairs,
        s.seed,
        s.threads,
    );
    Ok(format!(
        "{} vs {}: {:+.4} ± {:.4} points per game ({} games in mirrored pairs, seed {}; {:.0} s, {:.0} cpu-s)",
        s.a,
        s.b,
        r.ppg(),
        r.ci95(),
        r.games(),
        s.seed,
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - c0
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_names_are_read_or_refused_with_the_name() {
        assert!(matches!("net".parse(), Ok(Spec::Net(_, 1))));
        assert!(matches!("net@3".parse(), Ok(Spec::Net(_, 3))));
        assert!(matches!("pubeval".parse(), Ok(Spec::Pubeval)));
        assert!(matches!("random".parse(), Ok(Spec::Random)));
        for bad in ["net@5", "gnubg", "pubeval@2x", ""] {
            let e = bad.parse::<Spec>().err().expect(bad);
            assert!(e.to_string().contains(&format!("\"{bad}\"")), "{e}");
        }
        let e = "net:/no/such/dir".parse::<Spec>().err().expect("no nets");
        assert!(
            matches!(
                e,
                PlayerError::Nets(backgammon_engine::eval::NetsError::Read { .. })
            ),
            "{e}"
        );
    }
}
