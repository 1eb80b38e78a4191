//! The evaluation: cubeless chances of the player on roll from the neural
//! nets (contact, crashed and race) or, once both sides are home, the
//! bear-off database; and the 1-ply move choice on top of it.

use crate::bearoff::Bearoff;
use crate::features::{contact_inputs, race_inputs, CONTACT_INPUTS, CONTACT_WIDTHS, RACE_INPUTS};
use crate::net::{Net, NetError};
use crate::pubeval::is_race;
use backgammon_rules::{win_kind, Board, MoveList, Side, WinKind};
use std::path::{Path, PathBuf};

/// Chances of one side: win, win a gammon (backgammons included), win a
/// backgammon, lose a gammon (backgammons included), lose a backgammon.
pub type Probs = [f32; 5];

/// The same chances seen from the other side.
#[inline(always)]
pub fn flip(p: &Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless money equity: points won per game on average.
#[inline(always)]
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// The chances once the player on roll has borne off the last checker.
pub fn won(board: &Board) -> Probs {
    match win_kind(board) {
        WinKind::Single => [1.0, 0.0, 0.0, 0.0, 0.0],
        WinKind::Gammon => [1.0, 1.0, 0.0, 0.0, 0.0],
        WinKind::Backgammon => [1.0, 1.0, 1.0, 0.0, 0.0],
    }
}

/// Which evaluator a position goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Checkers can still meet.
    Contact,
    /// Checkers can still meet, and a side has crashed (few checkers left
    /// in play: [`crashed`]).
    Crashed,
    /// No contact, some checker outside its home board.
    Race,
    /// Both sides home: the bear-off database.
    Bearoff,
}

/// The class of a position.
#[inline]
pub fn classify(board: &Board) -> Class {
    if !is_race(board) {
        if crashed(board, Side::OnRoll) || crashed(board, Side::Opponent) {
            Class::Crashed
        } else {
            Class::Contact
        }
    } else if Bearoff::covers(board) {
        Class::Bearoff
    } else {
        Class::Race
    }
}

/// The inputs of the net that evaluates `class` for `board`, written into
/// `x` (which must be zero; the contact inputs fill it, the race inputs
/// take its head): the slice the net reads (`width` inputs, its
/// [`Net::inputs`]), empty for bear-offs.
pub fn net_inputs<'a>(
    class: Class,
    board: &Board,
    x: &'a mut [f32; CONTACT_INPUTS],
    width: usize,
) -> &'a [f32] {
    match class {
        Class::Contact | Class::Crashed => {
            contact_inputs(board, x, width);
            &x[..width]
        }
        Class::Race => {
            let r: &mut [f32; RACE_INPUTS] = (&mut x[..RACE_INPUTS]).try_into().unwrap();
            race_inputs(board, r);
            &x[..RACE_INPUTS]
        }
        Class::Bearoff => &x[..0],
    }
}

/// Checkers a side keeps on the board at most and still counts as crashed.
const CRASHED_CHECKERS: u32 = 6;

/// True when `side` has crashed: few checkers left in play, where checkers
/// piled deep on its ace point (beyond one) and on its two point (beyond
/// one, when the ace point holds a pile too) are out of play. This is
/// GNU Backgammon's idea of a crashed board, re-derived from its
/// description and checked against its classifier (the lab's
/// `rollout-data classes`).
pub fn crashed(board: &Board, side: Side) -> bool {
    let c = board.counts(side);
    let on_board: u32 = c.iter().map(|&n| n as u32).sum();
    let (ace, two) = (c[0] as u32, c[1] as u32);
    if on_board <= CRASHED_CHECKERS {
        return true;
    }
    if ace > 1 {
        on_board <= CRASHED_CHECKERS + ace
            || (two > 1 && 1 + on_board - ace - two <= CRASHED_CHECKERS)
    } else {
        on_board < CRASHED_CHECKERS + two
    }
}

/// The nets, with the process's bear-off tables (generated at their first
/// use, about a CPU-second: [`Bearoff::get`]). The crashed net reads the
/// contact net's inputs.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub contact: Net,
    pub crashed: Net,
    pub race: Net,
}

/// The nets' file names in a nets directory, in [`Evaluator::nets`]'s
/// order: the one home of these names.
pub const NET_FILES: [&str; 3] = ["contact.net", "crashed.net", "race.net"];

/// Nets of a directory that cannot be used ([`Evaluator::read_dir`]).
#[derive(Debug, thiserror::Error)]
pub enum NetsError {
    /// `contact.net` or `race.net` cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The files are not nets of the evaluation.
    #[error("{}: {source}", dir.display())]
    Bad { dir: PathBuf, source: NetError },
}

/// The nets shipped in `data/`, compiled into the binary.
static CONTACT_NET: &[u8] = include_bytes!("../data/contact.net");
static CRASHED_NET: &[u8] = include_bytes!("../data/crashed.net");
static RACE_NET: &[u8] = include_bytes!("../data/race.net");
static CRASHED_CUBE_NET: &[u8] = include_bytes!("../data/crashed-cube.net");

/// The file of a nets directory's crashed net for cube decisions
/// ([`Evaluator::cube_in_dir`]).
pub const CUBE_NET_FILE: &str = "crashed-cube.net";

/// Keeps the chances consistent: a gammon is a win, a backgammon a gammon.
#[inline(always)]
pub(crate) fn sane(mut p: Probs) -> Probs {
    p[1] = p[1].min(p[0]);
    p[2] = p[2].min(p[1]);
    p[3] = p[3].min(1.0 - p[0]);
    p[4] = p[4].min(p[3]);
    p
}

impl Evaluator {
    /// An evaluator with these nets.
    pub fn new(contact: Net, crashed: Net, race: Net) -> Evaluator {
        assert!(CONTACT_WIDTHS.contains(&contact.inputs()));
        assert!(CONTACT_WIDTHS.contains(&crashed.inputs()));
        assert_eq!(race.inputs(), RACE_INPUTS);
        Evaluator {
            contact,
            crashed,
            race,
        }
    }

    /// The nets trained here and shipped with the program.
    pub fn shipped() -> Evaluator {
        Evaluator::from_bytes(CONTACT_NET, Some(CRASHED_NET), RACE_NET)
            .expect("the shipped nets read")
    }

    /// The shipped nets for cube decisions: the shipped ones with the
    /// crashed net fitted to our rollouts' level
    /// (`data/crashed-cube.net`). A crashed net fitted to the level of
    /// rollouts is within 0.04 of GNU Backgammon 2-ply's equities where the
    /// checker player's is 0.11-0.14 off, but it ranks moves worse
    /// (docs/results/backgammon-cube-net-2026-12-05.md): the level decides
    /// a double, the differences a move.
    pub fn shipped_cube() -> Evaluator {
        Evaluator::shipped()
            .with_crashed(CRASHED_CUBE_NET)
            .expect("the shipped cube net reads")
    }

    /// The cube's nets of a nets directory whose nets these are
    /// ([`Evaluator::read_dir`]): these with the crashed net of the
    /// directory's [`CUBE_NET_FILE`] if it has one (a directory without
    /// decides its cube on its own nets).
    pub fn cube_in_dir(&self, dir: &Path) -> Result<Evaluator, NetsError> {
        let path = dir.join(CUBE_NET_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => self.with_crashed(&bytes).map_err(|source| NetsError::Bad {
                dir: dir.to_path_buf(),
                source,
            }),
            Err(source) if source.kind() == std::io::ErrorKind::NotFound => Ok(self.clone()),
            Err(source) => Err(NetsError::Read { path, source }),
        }
    }

    /// These nets with the crashed net of a net file's `bytes`.
    fn with_crashed(&self, bytes: &[u8]) -> Result<Evaluator, NetError> {
        Ok(Evaluator {
            crashed: Net::from_bytes(bytes, &CONTACT_WIDTHS)?,
            ..self.clone()
        })
    }

    /// Nets from their files' bytes; without a crashed net, the contact
    /// net evaluates crashed positions too (as it did before there was one).
    pub fn from_bytes(
        contact: &[u8],
        crashed: Option<&[u8]>,
        race: &[u8],
    ) -> Result<Evaluator, NetError> {
        let contact = Net::from_bytes(contact, &CONTACT_WIDTHS)?;
        let crashed = match crashed {
            Some(bytes) => Net::from_bytes(bytes, &CONTACT_WIDTHS)?,
            None => contact.clone(),
        };
        Ok(Evaluator::new(
            contact,
            crashed,
            Net::from_bytes(race, &[RACE_INPUTS])?,
        ))
    }

    /// Reads the nets of a nets directory ([`NET_FILES`]: `contact.net`,
    /// `race.net` and, if there, `crashed.net`: without it the contact net
    /// judges crashed positions, as before there was one).
    pub fn read_dir(dir: &Path) -> Result<Evaluator, NetsError> {
        let read = |f: &str| {
            let path = dir.join(f);
            std::fs::read(&path).map_err(|source| NetsError::Read { path, source })
        };
        let [contact, crashed, race] = NET_FILES;
        let crashed = match read(crashed) {
            Ok(bytes) => Some(bytes),
            Err(NetsError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                None
            }
            Err(e) => return Err(e),
        };
        Evaluator::from_bytes(&read(contact)?, crashed.as_deref(), &read(race)?).map_err(|source| {
            NetsError::Bad {
                dir: dir.to_path_buf(),
                source,
            }
        })
    }

    /// Writes the nets as a nets directory that [`Evaluator::read_dir`]
    /// reads (each file atomically), creating the directory.
    pub fn write_dir(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (file, net) in NET_FILES.iter().zip(self.nets()) {
            crate::files::write_atomic(&dir.join(file), &net.to_bytes())?;
        }
        Ok(())
    }

    /// A digest of the nets (FNV-1a of their files' bytes in
    /// [`NET_FILES`]' order): names them where a file's contents depend
    /// on them.
    pub fn digest(&self) -> u64 {
        let bytes: Vec<u8> = self.nets().iter().flat_map(|n| n.to_bytes()).collect();
        fnv1a::fnv1a(&bytes)
    }

    /// The nets in [`NET_FILES`]' order.
    pub fn nets(&self) -> [&Net; 3] {
        [&self.contact, &self.crashed, &self.race]
    }

    /// The net that evaluates positions of `class` (none for bear-offs).
    #[inline]
    pub fn net(&self, class: Class) -> Option<&Net> {
        match class {
            Class::Contact => Some(&self.contact),
            Class::Crashed => Some(&self.crashed),
            Class::Race => Some(&self.race),
            Class::Bearoff => None,
        }
    }

    /// [`Evaluator::net`], to train it.
    pub fn net_mut(&mut self, class: Class) -> Option<&mut Net> {
        match class {
            Class::Contact => Some(&mut self.contact),
            Class::Crashed => Some(&mut self.crashed),
            Class::Race => Some(&mut self.race),
            Class::Bearoff => None,
        }
    }

    /// The bear-off tables.
    pub fn bearoff(&self) -> &'static Bearoff {
        Bearoff::get()
    }

    /// The chances of the player on roll of `board` (before rolling), which
    /// must not be over.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> Probs {
        let class = classify(board);
        match self.net(class) {
            Some(net) => {
                let mut x = [0.0f32; CONTACT_INPUTS];
                sane(net.forward(net_inputs(class, board, &mut x, net.inputs())))
            }
            None => Bearoff::get().probs(board),
        }
    }

    /// The chances of the player who just moved, for the board `after`
    /// their move (still seen from their side).
    #[inline]
    pub fn after_move(&self, after: &Board) -> Probs {
        if after.has_won(Side::OnRoll) {
            won(after)
        } else {
            flip(&self.evaluate(&after.swapped()))
        }
    }

    /// The index in `moves` (generated from a position) of the move with
    /// the highest cubeless equity at 1-ply, with its chances.
    pub fn best_move(&self, moves: &MoveList) -> (usize, Probs) {
        let mut best = (f32::NEG_INFINITY, 0usize, [0.0; 5]);
        for (i, after) in moves.boards().iter().enumerate() {
            let p = self.after_move(after);
            let e = equity(&p);
            if e > best.0 {
                best = (e, i, p);
            }
        }
        (best.1, best.2)
    }
}
