//! Judges of the engine's moves: the retrograde tables themselves, or a
//! truth file, the exact values of a fixed set of positions and of every
//! move in them, read from the tables once and kept.
//!
//! The N = 6 tables take two hours of both cores to build and 13.8 GB to
//! keep, and have been lost with their machine more than once; the
//! measurement's 10,000 positions and a fit's training positions need only
//! a few megabytes of their values. With a truth file, `retro-quality
//! --truth` scores a record and `tune --truth` fits the weights without the
//! tables; `retro-quality --retro DIR --export-truth FILE` writes one.
//!
//! The file is text, one position a line:
//! `position<TAB>value<TAB>move:kept move:kept ...`, values for the side to
//! move (1 win, 0 draw, -1 loss), every legal move once with the value it
//! keeps. Reading checks what it can without the tables: the moves are the
//! position's legal moves, and the value is the best a move keeps.

use crate::datalines::data_lines;
use crate::errors;
use grasshopper_rules::{Move, ParseMoveError, ParsePositionError, Position};
use grasshopper_solver::retro::RetroTables;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// What knows the exact value of positions and of their moves.
pub trait Judge {
    /// Whether the value of `p` and of each of its moves is known.
    fn covers(&self, p: &Position) -> bool;
    /// The value of a covered `p` for its side to move: 1 win, 0 draw, -1 loss.
    fn value(&self, p: &Position) -> i8;
    /// The value that move `m` keeps for the side to move of a covered `p`.
    fn kept(&self, p: &Position, m: Move) -> i8;
}

impl Judge for RetroTables {
    fn covers(&self, p: &Position) -> bool {
        RetroTables::covers(self, p)
    }

    fn value(&self, p: &Position) -> i8 {
        self.probe(p).expect("covered")
    }

    fn kept(&self, p: &Position, m: Move) -> i8 {
        errors::kept(self, p, m)
    }
}

/// One position's truth: its value and each legal move's.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    value: i8,
    moves: Vec<(Move, i8)>,
}

/// The truth of a fixed set of positions (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Truth {
    positions: Vec<Position>,
    entries: HashMap<Position, Entry>,
}

/// The first line of a truth file.
pub const HEADER: &str =
    "# grasshopper truth: position<TAB>value<TAB>move:kept ... (1 win, 0 draw, -1 loss for the side to move)";

impl Truth {
    /// The truth of those of `positions` that `judge` covers, in their order
    /// (each once).
    pub fn from_judge(judge: &dyn Judge, positions: &[Position]) -> Truth {
        let mut t = Truth::default();
        for p in positions.iter().filter(|p| judge.covers(p)) {
            let moves = p
                .legal_moves()
                .iter()
                .map(|&m| (m, judge.kept(p, m)))
                .collect();
            t.insert(
                *p,
                Entry {
                    value: judge.value(p),
                    moves,
                },
            );
        }
        t
    }

    fn insert(&mut self, p: Position, e: Entry) -> bool {
        let fresh = self.entries.insert(p, e).is_none();
        if fresh {
            self.positions.push(p);
        }
        fresh
    }

    /// The positions, in the file's order.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Writes the truth file.
    pub fn write(&self, w: &mut impl Write) -> std::io::Result<()> {
        writeln!(w, "{HEADER}")?;
        for p in &self.positions {
            let e = &self.entries[p];
            let moves: Vec<String> = e.moves.iter().map(|(m, v)| format!("{m}:{v}")).collect();
            writeln!(w, "{p}\t{}\t{}", e.value, moves.join(" "))?;
        }
        Ok(())
    }

    /// Reads a truth file written by [`Truth::write`].
    pub fn read(path: &Path, r: impl BufRead) -> Result<Truth, TruthError> {
        let mut t = Truth::default();
        for (line, text) in data_lines(r) {
            let text = text.map_err(|e| TruthError::Io(path.to_path_buf(), e))?;
            let bad = |why: TruthFault| TruthError::Line {
                path: path.to_path_buf(),
                line,
                text: text.clone(),
                why,
            };
            let (p, e) = parse_line(&text).map_err(bad)?;
            if !t.insert(p, e) {
                return Err(bad(TruthFault::Repeated));
            }
        }
        Ok(t)
    }

    /// Reads the truth file at `path`.
    pub fn open(path: &Path) -> Result<Truth, TruthError> {
        let f = std::fs::File::open(path).map_err(|e| TruthError::Io(path.to_path_buf(), e))?;
        Truth::read(path, std::io::BufReader::new(f))
    }
}

impl Judge for Truth {
    fn covers(&self, p: &Position) -> bool {
        self.entries.contains_key(p)
    }

    fn value(&self, p: &Position) -> i8 {
        self.entries[p].value
    }

    fn kept(&self, p: &Position, m: Move) -> i8 {
        let e = &self.entries[p];
        let found = e.moves.iter().find(|(x, _)| *x == m);
        found.expect("a legal move of a covered position").1
    }
}

/// A truth file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TruthError {
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{path}:{line}: {why} in {text:?}")]
    Line {
        path: PathBuf,
        line: usize,
        text: String,
        why: TruthFault,
    },
}

/// What is wrong with one line of a truth file.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TruthFault {
    #[error("{0} fields, expected 3 (position, value, moves)")]
    Fields(usize),
    #[error("position: {0}")]
    Position(ParsePositionError),
    #[error("value {0:?}: expected 1, 0 or -1")]
    Value(String),
    #[error("move {0:?}: expected MOVE:VALUE")]
    Pair(String),
    #[error("move: {0}")]
    Move(ParseMoveError),
    #[error("move {0:?}: not legal in the position")]
    Illegal(String),
    #[error("moves {given}: the position has {legal} legal moves, each to be given once")]
    Moves { given: String, legal: usize },
    #[error("value {value}, but the best move keeps {best}")]
    Inconsistent { value: i8, best: i8 },
    #[error("the position is given twice")]
    Repeated,
}

fn parse_value(s: &str) -> Result<i8, TruthFault> {
    match s {
        "1" => Ok(1),
        "0" => Ok(0),
        "-1" => Ok(-1),
        _ => Err(TruthFault::Value(s.to_string())),
    }
}

fn parse_move(p: &Position, s: &str) -> Result<(Move, i8), TruthFault> {
    let (m, v) = s
        .rsplit_once(':')
        .ok_or_else(|| TruthFault::Pair(s.to_string()))?;
    let m: Move = m.parse().map_err(TruthFault::Move)?;
    if p.play(m).is_err() {
        return Err(TruthFault::Illegal(s.to_string()));
    }
    Ok((m, parse_value(v)?))
}

/// `position<TAB>value<TAB>moves`, every legal move once, the value the best.
fn parse_line(text: &str) -> Result<(Position, Entry), TruthFault> {
    let f: Vec<&str> = text.split('\t').collect();
    let [p, value, moves] = f[..] else {
        return Err(TruthFault::Fields(f.len()));
    };
    let p: Position = p.parse().map_err(TruthFault::Position)?;
    let value = parse_value(value)?;
    let moves = moves
        .split_whitespace()
        .map(|s| parse_move(&p, s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut given: Vec<Move> = moves.iter().map(|&(m, _)| m).collect();
    given.sort();
    given.dedup();
    let legal = p.legal_moves().len();
    if given.len() != moves.len() || given.len() != legal {
        let given = format!("{} given", moves.len());
        return Err(TruthFault::Moves { given, legal });
    }
    let best = moves.iter().map(|&(_, v)| v).max().unwrap_or(-1);
    if best != value {
        return Err(TruthFault::Inconsistent { value, best });
    }
    Ok((p, Entry { value, moves }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A judge by plain minimax to a depth cap (a draw at the cap): not
    /// the game's truth, but like the tables a judge whose value of a
    /// position is the best value of its moves, as a truth file's must be.
    struct Naive;

    impl Naive {
        fn solve(p: &Position, depth: u32) -> i8 {
            if p.is_won() {
                return -1;
            }
            if p.is_game_over() || depth == 0 {
                return 0;
            }
            let moves = p.legal_moves();
            let kept = moves.iter().map(|&m| Naive::after(p, m, depth));
            kept.max().unwrap_or(0)
        }

        fn after(p: &Position, m: Move, depth: u32) -> i8 {
            let c = p.play(m).expect("legal");
            -Naive::solve(&c, depth - 1)
        }
    }

    impl Judge for Naive {
        fn covers(&self, p: &Position) -> bool {
            !p.is_game_over() && p.legal_moves().len() >= 2
        }
        fn value(&self, p: &Position) -> i8 {
            Naive::solve(p, 4)
        }
        fn kept(&self, p: &Position, m: Move) -> i8 {
            Naive::after(p, m, 4)
        }
    }

    fn sample() -> Truth {
        let start = Position::start(2).expect("2 checkers");
        let mut ps = vec![start];
        for &m in start.legal_moves().iter() {
            ps.push(start.play(m).expect("legal"));
        }
        Truth::from_judge(&Naive, &ps)
    }

    fn text_of(t: &Truth) -> String {
        let mut buf = Vec::new();
        t.write(&mut buf).expect("in memory");
        String::from_utf8(buf).expect("text")
    }

    #[test]
    fn a_truth_file_reads_back_as_written_and_judges_as_its_source() {
        let t = sample();
        assert!(t.positions().len() >= 2);
        let text = text_of(&t);
        let back = Truth::read(Path::new("t"), text.as_bytes()).expect("reads");
        assert_eq!(back, t);
        for p in t.positions() {
            assert_eq!(back.value(p), Naive.value(p));
            for &m in p.legal_moves().iter() {
                assert_eq!(back.kept(p, m), Naive.kept(p, m));
            }
        }
    }

    fn fault(text: &str) -> TruthFault {
        match Truth::read(Path::new("t"), text.as_bytes()) {
            Err(TruthError::Line { why, .. }) => why,
            other => panic!("expected a line fault, got {other:?}"),
        }
    }

    #[test]
    fn a_bad_line_is_refused_with_the_reason() {
        let t = sample();
        let line = text_of(&t).lines().nth(1).expect("a line").to_string();
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(fault(&format!("{}\t{}", f[0], f[1])), TruthFault::Fields(2));
        assert_eq!(
            fault(&format!("{}\t2\t{}", f[0], f[2])),
            TruthFault::Value("2".into())
        );
        // A move left out,
        let fewer = f[2].split(' ').skip(1).collect::<Vec<_>>().join(" ");
        assert!(matches!(
            fault(&format!("{}\t{}\t{fewer}", f[0], f[1])),
            TruthFault::Moves { .. } | TruthFault::Inconsistent { .. }
        ));
        // a value the moves do not give,
        let other = if f[1] == "1" { "-1" } else { "1" };
        assert!(matches!(
            fault(&format!("{}\t{other}\t{}", f[0], f[2])),
            TruthFault::Inconsistent { .. }
        ));
        // and a position given twice are refused.
        assert_eq!(fault(&format!("{line}\n{line}")), TruthFault::Repeated);
    }
}
