//! A UBGI engine that misbehaves on purpose, for the backgammon match
//! tests. It relays every line to a real UBGI engine (the command after
//! `--`) and the engine's answers back, except:
//!
//! - `--double`: answers every `go cube` with `bestcube double` itself;
//! - `--drop`: answers every `go take` with `besttake drop` itself;
//! - `--fail KIND` from the `go` numbered `--fail-at N` on (counting every
//!   `go` from 1), or from the first `go WHAT` of `--fail-on WHAT`
//!   (chequer, cube or take), misbehaves as KIND says: `illegal`
//!   (`bestmove 24/1`, `bestcube maybe`, `besttake maybe`), `garbage` (an
//!   unreadable answer), `crash` (exits at once), `silent` (never answers a
//!   `go`, still answers `isready`), `error` (an error line);
//! - `--mute`: never answers anything, not even `ubgi` (a failed start).

use std::io::{self, BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

/// The settings from the command line.
#[derive(Default)]
struct Opts {
    double: bool,
    drop: bool,
    mute: bool,
    fail_at: Option<u32>,
    fail_on: Option<String>,
    fail: Option<String>,
}

fn parse(args: &[String]) -> (Opts, Vec<String>) {
    let cut = args
        .iter()
        .position(|a| a == "--")
        .expect("-- before the engine command");
    let (mut o, mut it) = (Opts::default(), args[..cut].iter());
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().expect("a value after the flag");
        match a.as_str() {
            "--double" => o.double = true,
            "--drop" => o.drop = true,
            "--mute" => o.mute = true,
            "--fail-at" => o.fail_at = Some(value().parse().expect("a number after --fail-at")),
            "--fail-on" => o.fail_on = Some(value()),
            "--fail" => o.fail = Some(value()),
            other => panic!("unknown flag {other}"),
        }
    }
    (o, args[cut + 1..].to_vec())
}

/// The engine behind the relay.
struct Relay {
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Relay {
    /// Sends `line`; with `until`, copies the engine's lines back up to and
    /// including the first whose first word is `until`.
    fn relay(&mut self, line: &str, until: Option<&str>, out: &mut impl Write) -> io::Result<()> {
        writeln!(self.to, "{line}")?;
        self.to.flush()?;
        let Some(until) = until else { return Ok(()) };
        let mut answer = String::new();
        loop {
            answer.clear();
            if self.from.read_line(&mut answer)? == 0 {
                std::process::exit(3);
            }
            out.write_all(answer.as_bytes())?;
            out.flush()?;
            if answer.split_whitespace().next() == Some(until) {
                return Ok(());
            }
        }
    }
}

/// The reply word of a `go` line and what it asks for.
fn decision(words: &[&str]) -> (&'static str, String) {
    let what = words
        .last()
        .filter(|_| words.len() > 1)
        .map_or("chequer", |w| w)
        .to_string();
    let reply = match what.as_str() {
        "cube" => "bestcube",
        "take" => "besttake",
        "turn" => "bestturn",
        _ => "bestmove",
    };
    (reply, what)
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (o, engine) = parse(&args);
    if o.mute {
        // Reads everything, answers nothing, until its input ends.
        return io::stdin().lock().lines().try_for_each(|l| l.map(drop));
    }
    let mut child = Command::new(&engine[0])
        .args(&engine[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut relay = Relay {
        to: child.stdin.take().expect("piped"),
        from: BufReader::new(child.stdout.take().expect("piped")),
    };
    let mut out = io::stdout().lock();
    let (mut gos, mut failing) = (0u32, false);
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            None => {}
            Some("go") => {
                gos += 1;
                let (reply, what) = decision(&words);
                failing |=
                    o.fail_at.is_some_and(|n| gos >= n) || o.fail_on.as_deref() == Some(&*what);
                match (failing, o.fail.as_deref()) {
                    (true, Some("crash")) => std::process::exit(1),
                    (true, Some("silent")) => {}
                    (true, Some("error")) => writeln!(out, "error bad_state I will not")?,
                    (true, Some(kind)) => {
                        let bad = match (reply, kind) {
                            ("bestmove", "illegal") => "24/1",
                            ("bestmove", _) => "??",
                            _ => "maybe",
                        };
                        writeln!(out, "{reply} {bad}")?
                    }
                    _ if o.double && what == "cube" => writeln!(out, "bestcube double")?,
                    _ if o.drop && what == "take" => writeln!(out, "besttake drop")?,
                    _ => relay.relay(&line, Some(reply), &mut out)?,
                }
                out.flush()?;
            }
            Some("ubgi") => relay.relay(&line, Some("ubgiok"), &mut out)?,
            Some("isready") => relay.relay(&line, Some("readyok"), &mut out)?,
            Some("quit") => {
                relay.relay(&line, None, &mut out)?;
                break;
            }
            Some(_) => relay.relay(&line, None, &mut out)?,
        }
    }
    drop(relay);
    child.wait()?;
    Ok(())
}
