//! `grasshopper serve`, spawned as a person runs it: the JSON API and its
//! limits over plain HTTP (crashing, hanging and abandoned engines
//! included), and the page in a real headless Chromium driven over
//! WebDriver, playing whole games by clicks. One test binary.

mod api;
mod browser;
mod http;
mod webdriver;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_grasshopper");

/// A running `grasshopper serve`, killed on drop.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Served {
    /// Starts the server on a free port with extra arguments.
    pub fn start(args: &[&str]) -> Served {
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
        Served { child, addr, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
