//! `grasshopper serve`, spawned as a person runs it: the JSON API and its
//! limits over plain HTTP (crashing, hanging and abandoned engines
//! included), and the page in a real headless Chromium driven over
//! WebDriver, playing whole games by clicks. One test binary.

mod api;
mod backgammon;
mod backgammon_draft;
mod backgammon_help;
mod backgammon_mat;
mod browser;
mod defects;
mod features;
mod http;
mod webdriver;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_grasshopper");

/// A running `grasshopper serve`, killed on drop.
pub struct Served {
    child: Child,
    /// Its data directory (removed on drop when the server made it).
    dir: Option<PathBuf>,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Served {
    /// Starts the server on a free port with extra arguments, keeping its
    /// games in a fresh temporary directory unless they name one.
    pub fn start(args: &[&str]) -> Served {
        if args.contains(&"--data-dir") {
            return Served::launch(args);
        }
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "grasshopper-board-games-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let mut served = Served::start_in(&dir, args);
        served.dir = Some(dir);
        served
    }

    /// Starts the server keeping its games in `dir` (left in place).
    pub fn start_in(dir: &Path, args: &[&str]) -> Served {
        let dir = dir.display().to_string();
        let mut all = vec!["--data-dir", &dir];
        all.extend_from_slice(args);
        Served::launch(&all)
    }

    fn launch(args: &[&str]) -> Served {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("grasshopper serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .last()
            .filter(|u| u.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Served {
            child,
            dir: None,
            addr,
            url,
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
