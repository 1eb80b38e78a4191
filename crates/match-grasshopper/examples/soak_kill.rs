//! `soak_kill`: kills `grasshopper match --resume` with SIGKILL at random
//! instants, again and again on one records file, and counts the finished
//! games in the file before and after each kill: none may be lost (a game
//! in the file before a kill, or after the previous one, missing after it),
//! duplicated (a game recorded twice) or changed. A soak benchmark, not a
//! test: run it through `tools/soak-kill.sh`, which builds what it needs.
//!
//! Each cycle starts the runner with `--resume` on the file left by the last
//! kill, waits a random time, reads the file, kills the runner and reads the
//! file again. Half of the waits are drawn up to the time the last resume
//! took to replace the file (measured by watching the file's inode), so
//! they land while the runner starts, reads and rewrites the records; the
//! other half that time plus up to `--play-ms`, while games are appended.
//!
//! Options: `--grasshopper PATH`, `--fake-engine PATH` (default: the
//! test-opt builds in the workspace's target), `--kills N` (200), `--seed S`,
//! `--dir DIR` (where the records go, default a directory under target),
//! `--play-ms MS` (300), `--checkers N` (14), `--concurrency N` (2),
//! `--resume-ms MS` (a fixed resume time instead of the measured one: for a
//! runner that rewrites the file in place, whose inode never changes).

use match_grasshopper::Grasshopper;
use match_runner::parse_record_bytes;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The finished games of a records file: (pair, game) -> the record's text.
type Games = BTreeMap<(usize, u8), String>;

struct Options {
    grasshopper: PathBuf,
    fake: PathBuf,
    kills: usize,
    seed: u64,
    dir: PathBuf,
    play_ms: u64,
    checkers: u32,
    concurrency: u32,
    resume_ms: Option<u64>,
}

fn options() -> Options {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let mut o = Options {
        grasshopper: target.join("test-opt/grasshopper"),
        fake: target.join("test-opt/fake-engine"),
        kills: 200,
        seed: 1,
        dir: target.join("soak-kill"),
        play_ms: 300,
        checkers: 14,
        concurrency: 2,
        resume_ms: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || -> u64 {
            value
                .parse()
                .unwrap_or_else(|_| panic!("{flag}: {value:?} is not a number"))
        };
        match flag.as_str() {
            "--grasshopper" => o.grasshopper = value.into(),
            "--fake-engine" => o.fake = value.into(),
            "--kills" => o.kills = number() as usize,
            "--seed" => o.seed = number(),
            "--dir" => o.dir = value.into(),
            "--play-ms" => o.play_ms = number(),
            "--checkers" => o.checkers = number() as u32,
            "--concurrency" => o.concurrency = number() as u32,
            "--resume-ms" => o.resume_ms = Some(number()),
            other => panic!("unknown option {other:?}"),
        }
    }
    o
}

/// The finished games in `path` (a cut-off last record is not one), and how
/// many records appear more than once.
fn read_games(path: &Path) -> (Games, usize) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let parsed = parse_record_bytes::<Grasshopper>(&bytes)
        .unwrap_or_else(|e| panic!("{}: unreadable after a kill: {e}", path.display()));
    let mut games = Games::new();
    let mut twice = 0;
    for g in parsed.games {
        if games.insert((g.pair, g.game), g.to_string()).is_some() {
            twice += 1;
        }
    }
    (games, twice)
}

/// The runner: a long match between the fake engine's two deterministic
/// modes, resumed from `pgn`.
fn runner(o: &Options, pgn: &Path) -> Command {
    let fake = format!("cmd={}", o.fake.display());
    let mut c = Command::new(&o.grasshopper);
    c.args(["match", "--engine", &fake, "name=first", "--engine", &fake])
        .args([
            "name=random",
            "arg=--mode",
            "arg=random",
            "arg=--seed",
            "arg=11",
        ])
        .args([
            "--tc",
            "depth=1",
            "--random-plies",
            "3",
            "--seed",
            "5",
            "-q",
        ])
        .args(["--pairs", "1000000", "--resume"])
        .arg("--checkers")
        .arg(o.checkers.to_string())
        .arg("--concurrency")
        .arg(o.concurrency.to_string())
        .arg("--pgn")
        .arg(pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

#[cfg(unix)]
fn inode(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| m.ino())
}

#[cfg(not(unix))]
fn inode(_path: &Path) -> Option<u64> {
    None
}

/// The temporary files in `dir` (a rewrite's, before its rename).
fn temps(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count()
}

#[derive(Default)]
struct Figures {
    kills: usize,
    /// Kills before the runner had replaced the file (start, read, rewrite).
    early: usize,
    /// Kills that left a rewrite's temporary file: between its creation
    /// and its rename (the next resume removes it).
    mid_rewrite: usize,
    /// Finished games counted in the file before the kills, summed.
    counted_before: usize,
    lost: usize,
    duplicated: usize,
    changed: usize,
    /// Runs that ended by themselves before the kill (errors).
    failed: usize,
}

fn main() {
    let o = options();
    std::fs::create_dir_all(&o.dir).unwrap();
    let pgn = o.dir.join("soak.pgn");
    let _ = std::fs::remove_file(&pgn);
    for e in std::fs::read_dir(&o.dir).unwrap().flatten() {
        if e.file_name().to_string_lossy().ends_with(".tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let mut rng = Pcg64::seed_from_u64(o.seed);
    let mut f = Figures::default();
    let mut last = Games::new();
    let mut resume_ms = o.resume_ms.unwrap_or(50);
    let started = Instant::now();
    while f.kills < o.kills {
        let wait = match rng.random_bool(0.5) {
            true => rng.random_range(0..=resume_ms + resume_ms / 5),
            false => resume_ms + rng.random_range(0..=o.play_ms),
        };
        let wait = Duration::from_millis(wait);
        let old = inode(&pgn);
        let mut child = runner(&o, &pgn).spawn().expect("grasshopper starts");
        let t0 = Instant::now();
        let mut replaced = false;
        while t0.elapsed() < wait {
            if !replaced && inode(&pgn) != old && inode(&pgn).is_some() {
                replaced = true;
                resume_ms = o.resume_ms.unwrap_or(t0.elapsed().as_millis() as u64);
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        if !replaced && o.resume_ms.is_none() && wait.as_millis() as u64 > resume_ms {
            // The resume takes longer now (the file grew): wait longer.
            resume_ms += resume_ms / 2;
        }
        let (before, _) = read_games(&pgn);
        child.kill().expect("kill -9");
        let status = child.wait().unwrap();
        if status.code().is_some() {
            // It ended by itself (an error): not a kill.
            f.failed += 1;
            eprintln!("the runner ended by itself: {status}");
            assert!(f.failed < 10, "the runner keeps failing");
            continue;
        }
        f.kills += 1;
        f.early += usize::from(!replaced);
        f.mid_rewrite += usize::from(temps(&o.dir) > 0);
        f.counted_before += before.len();
        let (after, twice) = read_games(&pgn);
        f.duplicated += twice;
        // Every game the file held after the last kill or just before this one.
        let mut held = last.clone();
        held.extend(before.iter().map(|(k, t)| (*k, t.clone())));
        let mut gone = 0;
        for (key, text) in &held {
            match after.get(key) {
                None => gone += 1,
                Some(t) if t != text => f.changed += 1,
                Some(_) => {}
            }
        }
        f.lost += gone;
        if gone > 0 || twice > 0 {
            eprintln!(
                "kill {}: {} games before, {} after: {gone} lost, {twice} duplicated",
                f.kills,
                before.len(),
                after.len()
            );
        }
        last = after;
        if f.kills % 25 == 0 {
            eprintln!(
                "{} kills, {} games, resume {resume_ms} ms, {} lost, {} duplicated, {:.0} s",
                f.kills,
                last.len(),
                f.lost,
                f.duplicated,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let leftovers = temps(&o.dir);
    let bytes = std::fs::metadata(&pgn).map(|m| m.len()).unwrap_or(0);
    println!("kills:                      {}", f.kills);
    println!(
        "  before the file was replaced (start, read, rewrite): {}",
        f.early
    );
    println!(
        "    of which between the temporary file's creation and its rename: {}",
        f.mid_rewrite
    );
    println!("  while games were appended: {}", f.kills - f.early);
    println!(
        "games in the file at the end: {} ({bytes} bytes)",
        last.len()
    );
    println!(
        "finished games counted before the kills (summed): {}",
        f.counted_before
    );
    println!("lost:                        {}", f.lost);
    println!("duplicated:                  {}", f.duplicated);
    println!("changed:                     {}", f.changed);
    println!("runner errors:               {}", f.failed);
    println!("temporary files left:        {leftovers}");
    println!("last resume took:            {resume_ms} ms");
    println!(
        "time:                        {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if f.lost + f.duplicated + f.changed + f.failed > 0 {
        std::process::exit(1);
    }
}
