//! For tests that drive a real engine binary: the binary as a child
//! process, and the transcript format of fixtures/sessions/ and protocol.md.
//!
//! A transcript is a list of lines:
//! - `> text`: send `text` to the engine;
//! - `< pattern`: the engine's next line matches `pattern`, where `*` stands
//!   for any run of characters (for content that varies, e.g. `info ...`)
//!   and `?` for exactly one word (a non-empty run without spaces, e.g. the
//!   move in `bestmove ?`, which a strict client reads as two words);
//! - `<* pattern`: any number (0 or more) of lines matching `pattern`,
//!   as few as let the next `<` line match;
//! - `# ...` and blank lines: comments.
//!
//! After the last line the engine's input is closed; it must exit with
//! status 0 and write nothing that the transcript did not expect.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long to wait for a line before calling the engine hung. Not a speed
/// requirement: only a bound that turns a hang into a failure.
pub const HANG: Duration = Duration::from_secs(30);

/// An engine binary, running the daemon.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and received so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts the program `bin` with `args`.
    pub fn start(bin: impl AsRef<Path>, args: &[&str]) -> Engine {
        let mut child = Command::new(bin.as_ref())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", bin.as_ref().display()));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        // Read output on a thread of our own, so that a test writing much
        // input never deadlocks against an engine writing much output.
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text =
                            String::from_utf8(buf.clone()).expect("the engine writes UTF-8 only");
                        let line = text.strip_suffix('\n').unwrap_or(&text).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (for invalid UTF-8, CRLF and the like).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// The next line, or `None` when the engine closed its output.
    pub fn try_recv(&mut self) -> Option<String> {
        match self.lines.recv_timeout(HANG) {
            Ok(l) => {
                self.log.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no line from the engine within {HANG:?}; session so far:\n{}",
                self.log.join("\n")
            ),
        }
    }

    /// The next line; fails when the engine has ended.
    pub fn recv(&mut self) -> String {
        match self.try_recv() {
            Some(l) => l,
            None => panic!(
                "the engine closed its output; session so far:\n{}",
                self.log.join("\n")
            ),
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn recv_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self.recv();
            let end = done(&l);
            got.push(l);
            if end {
                return got;
            }
        }
    }

    /// Asserts that the next line is exactly `expected`.
    pub fn expect(&mut self, expected: &str) {
        let l = self.recv();
        assert_eq!(l, expected, "session so far:\n{}", self.log.join("\n"));
    }

    /// Closes the input and waits for the exit; returns the status and any
    /// lines the engine still wrote.
    pub fn finish(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Some(l) = self.try_recv() {
            rest.push(l);
        }
        let status = self.child.wait().expect("the engine exits");
        (status, rest)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave an engine running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `*` matches any run of characters, `?` one word (one or more characters,
/// no space); everything else matches itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // ok[j]: pattern prefix so far matches text prefix of length j.
    let mut ok = vec![false; t.len() + 1];
    ok[0] = true;
    for &pc in &p {
        let mut next = vec![false; t.len() + 1];
        if pc == '*' {
            let mut any = false;
            for j in 0..=t.len() {
                any |= ok[j];
                next[j] = any;
            }
        } else if pc == '?' {
            // Some earlier prefix matched, and the text since is one word.
            let mut open = false;
            for j in 1..=t.len() {
                open = t[j - 1] != ' ' && (open || ok[j - 1]);
                next[j] = open;
            }
        } else {
            for j in 1..=t.len() {
                next[j] = ok[j - 1] && t[j - 1] == pc;
            }
        }
        ok = next;
    }
    ok[t.len()]
}

/// One step of a transcript.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Send(String),
    Expect(String),
    ExpectAny(String),
}

/// Reads a transcript; fails on a line of no known kind.
pub fn parse_transcript(text: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for (n, line) in text.lines().enumerate() {
        // Only a CR is dropped: trailing blanks of `>` lines are sent.
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("<* ") {
            steps.push(Step::ExpectAny(rest.to_string()));
        } else if let Some(rest) = line.strip_prefix("< ") {
            steps.push(Step::Expect(rest.to_string()));
        } else if line == "<" {
            steps.push(Step::Expect(String::new()));
        } else if let Some(rest) = line.strip_prefix("> ") {
            steps.push(Step::Send(rest.to_string()));
        } else {
            panic!(
                "transcript line {}: {line:?} is not '> ', '< ', '<* ' or '#'",
                n + 1
            );
        }
    }
    steps
}

/// Plays a transcript against a fresh engine (`bin` with no arguments) and
/// checks every reply.
pub fn play(bin: impl AsRef<Path>, name: &str, text: &str) {
    let steps = parse_transcript(text);
    assert!(
        steps.iter().any(|s| matches!(s, Step::Expect(_))),
        "{name}: a transcript must expect something"
    );
    let mut e = Engine::start(bin, &[]);
    let mut i = 0;
    while i < steps.len() {
        match &steps[i] {
            Step::Send(l) => e.send(l),
            Step::ExpectAny(_) => {}
            Step::Expect(pattern) => {
                // The `<*` patterns just before this line may absorb lines.
                let mut fillers = Vec::new();
                let mut k = i;
                while k > 0 {
                    match &steps[k - 1] {
                        Step::ExpectAny(p) => fillers.push(p.clone()),
                        _ => break,
                    }
                    k -= 1;
                }
                loop {
                    let l = e.recv();
                    if glob(pattern, &l) {
                        break;
                    }
                    if !fillers.iter().any(|f| glob(f, &l)) {
                        panic!(
                            "{name}: step {}: expected a line matching {pattern:?}, got {l:?}; \
                             session so far:\n{}",
                            i + 1,
                            e.log.join("\n")
                        );
                    }
                }
            }
        }
        i += 1;
    }
    let trailing: Vec<String> = steps
        .iter()
        .rev()
        .take_while(|s| matches!(s, Step::ExpectAny(_)))
        .filter_map(|s| match s {
            Step::ExpectAny(p) => Some(p.clone()),
            _ => None,
        })
        .collect();
    let log = e.log.clone();
    let (status, rest) = e.finish();
    let unexpected: Vec<&String> = rest
        .iter()
        .filter(|l| !trailing.iter().any(|p| glob(p, l)))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{name}: unexpected output at the end: {unexpected:?}; session:\n{}",
        log.join("\n")
    );
    assert!(status.success(), "{name}: exit status {status}");
}

/// The ```` ```session ```` blocks of a Markdown text.
pub fn session_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match current.as_mut() {
            None if line.trim() == "```session" => current = Some(String::new()),
            None => {}
            Some(_) if line.trim() == "```" => blocks.push(current.take().unwrap()),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
        }
    }
    blocks
}

/// The first fenced block in `markdown` with the given info string.
pub fn fenced_block(markdown: &str, info: &str) -> Option<String> {
    let mut inside = false;
    let mut block = String::new();
    for line in markdown.lines() {
        if !inside && line.trim() == format!("```{info}") {
            inside = true;
        } else if inside && line.trim() == "```" {
            return Some(block);
        } else if inside {
            block.push_str(line);
            block.push('\n');
        }
    }
    None
}

#[cfg(test)]
#[test]
fn glob_matches_stars_and_literals() {
    assert!(glob("bestmove *", "bestmove bar/1"));
    assert!(glob("info * pv *", "info depth 1 score cp 0 pv bar/1"));
    assert!(glob("readyok", "readyok"));
    assert!(!glob("readyok", "readyok "));
    assert!(!glob("bestmove *", "info bestmove"));
    assert!(glob("*", ""));
    assert!(glob("bestmove ?", "bestmove bar/1"));
    assert!(!glob("bestmove ?", "bestmove bar/1 ponder bar/2"));
    assert!(!glob("bestmove ?", "bestmove "));
    assert!(glob("bestmove ? ponder ?", "bestmove bar/1 ponder bar/2"));
    assert!(glob("a?c", "abbc"));
    assert!(!glob("a?c", "ac"));
}
