//! Shared by the tests of every crate, and by no shipped code: oracles
//! independent of the code under test (a naive model of the rules written
//! from docs/rules/RULES.md, a plain minimax), readable position builders, the seeded
//! generator, and the harness that drives a real engine binary through
//! transcripts. Its `fake-engine` binary plays the engine's protocol badly
//! on purpose for the match runner's and the compliance checker's tests.

pub mod given;
pub mod naive;
pub mod oracle;
pub mod rng;
pub mod transcript;

use grasshopper_rules::Position;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

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

/// The `fake-engine` binary (`src/bin/fake-engine.rs`), for tests that
/// need an engine that plays by the naive model or misbehaves on purpose.
pub fn fake_engine() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| test_bin("fake-engine")).clone()
}

/// The `ubgi-fault` binary (`src/bin/ubgi-fault.rs`): a relay to a real
/// UBGI engine that misbehaves on request, for the backgammon match tests.
pub fn ubgi_fault() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| test_bin("ubgi-fault")).clone()
}

/// The `ugi-random` binary (`src/bin/ugi-random.rs`): a UGI random mover
/// written as a foreign author would, implementing only the UGI core.
pub fn ugi_random() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| test_bin("ugi-random")).clone()
}

/// The `ubgi-random` binary (`src/bin/ubgi-random.rs`): a UBGI random mover
/// written as a foreign author would, checker play only (it refuses the cube).
pub fn ubgi_random() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| test_bin("ubgi-random")).clone()
}

/// One of testkit's binaries: `target/<profile>/<name>`, beside the running
/// test executable (`target/<profile>/deps/...`). `cargo test --workspace`
/// builds them (testkit's own test asks for them); this runs `cargo build
/// --profile <the same profile> -p testkit --bin <name>` once per test
/// process all the same, which builds it when the tests of one package run
/// alone (`cargo test -p grasshopper`) and brings an old build up to date
/// (a fraction of a second when there is nothing to do).
fn test_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    let mut dir = exe.parent().expect("a directory").to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let bin = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    build_bin(&dir, name);
    assert!(bin.exists(), "{} was not built", bin.display());
    bin
}

/// `cargo build` of a testkit binary into the profile directory `dir`
/// (`target/<profile>`).
fn build_bin(dir: &Path, name: &str) {
    let profile = match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev",
        Some(name) => name,
        None => panic!("no profile directory in {}", dir.display()),
    };
    let target = dir.parent().expect("the target directory");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--profile", profile, "-p", "testkit"])
        .args(["--bin", name, "--manifest-path"])
        .arg(repo_root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build of {name} failed");
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
