//! What the match tests share: scratch files, records read back and
//! replayed, the fake engine's `cmd=` setting.

use match_grasshopper::Grasshopper;
use match_runner::parse_records;
use std::path::{Path, PathBuf};

/// A Grasshopper game record.
pub type GameRecord = match_runner::GameRecord<Grasshopper>;

/// A fresh path `name` in the scratch directory of the test module `dir`.
pub fn scratch(dir: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The records of a file, complete (not cut off), each replayed by the rules.
pub fn records(pgn: &Path) -> Vec<GameRecord> {
    let parsed = parse_records::<Grasshopper>(&std::fs::read_to_string(pgn).unwrap()).unwrap();
    assert!(!parsed.truncated, "{}: a record is cut off", pgn.display());
    for g in &parsed.games {
        g.replay()
            .unwrap_or_else(|e| panic!("{} {}.{}: {e}", pgn.display(), g.pair + 1, g.game));
    }
    parsed.games
}

/// `cmd=<the fake engine>` (testkit's fake-engine binary).
pub fn fake_cmd() -> String {
    format!("cmd={}", testkit::fake_engine().display())
}

/// Whether process `pid` exists and is not a zombie (Linux: /proc).
pub fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
    !state.is_some_and(|r| r.starts_with('Z') || r.starts_with('X'))
}
