//! Shared by the tests of every crate, and by no shipped code: oracles
//! independent of the code under test (a naive model of the rules written
//! from RULES.md, a plain minimax), readable position builders, the seeded
//! generator, and the harness that drives a real engine binary through
//! transcripts. Its `fake-engine` binary plays the engine's protocol badly
//! on purpose for the match runner's and the compliance checker's tests.

pub mod given;
pub mod naive;
pub mod oracle;
pub mod rng;
pub mod transcript;

use grasshopper_rules::Position;
use std::path::PathBuf;

/// The repository's root (for fixtures).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// A file under `fixtures/`.
pub fn fixture(path: &str) -> PathBuf {
    repo_root().join("fixtures").join(path)
}

/// One line of `fixtures/perft.txt`.
pub struct PerftCase {
    /// The comment above it: what it exercises.
    pub about: String,
    pub fen: String,
    pub pos: Position,
    /// `counts[d - 1]` is perft at depth d.
    pub counts: Vec<u64>,
}

/// The cases of `fixtures/perft.txt`: a position and its perft counts by depth.
pub fn perft_cases() -> Vec<PerftCase> {
    let file = fixture("perft.txt");
    let path = file.display();
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let mut about = String::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{path}:{}", i + 1);
        if let Some(comment) = line.strip_prefix('#') {
            about = comment.trim().to_string();
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(" ; ");
        let fen = parts.next().unwrap().to_string();
        let pos: Position = fen
            .parse()
            .unwrap_or_else(|e| panic!("{at}: position refused: {e}"));
        let counts = parts
            .enumerate()
            .map(|(k, part)| {
                let want = format!("D{} ", k + 1);
                let n = part
                    .strip_prefix(&want)
                    .unwrap_or_else(|| panic!("{at}: expected \"{want}<count>\", found {part:?}"));
                n.parse()
                    .unwrap_or_else(|_| panic!("{at}: {n:?} is not a count"))
            })
            .collect::<Vec<u64>>();
        assert!(!counts.is_empty(), "{at}: no counts");
        cases.push(PerftCase {
            about: std::mem::take(&mut about),
            fen,
            pos,
            counts,
        });
    }
    cases
}
