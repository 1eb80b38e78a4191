//! The protocol daemon: a UGI/UCI-style text protocol on a pair of byte
//! streams (stdin/stdout for the `grasshopper` binary). protocol.md is the
//! reference; this module implements it.
//!
//! Three kinds of thread: a reader that turns input bytes into lines, the
//! session (the caller's thread) that runs commands one at a time, and a
//! worker per `go` or `perft`. The session never blocks on a search, so
//! `isready`, `stop` and queries are answered while one runs; it alone writes
//! `bestmove`, after the search thread has handed the searcher back, so a
//! client that reads `bestmove` may send its next `position` at once.

mod board;
mod command;
mod options;
mod session;

pub use board::draw;
pub use command::{parse_command, Command, CommandError, ErrorCode, Go, Query, Start};
pub use options::{EngineOptions, OptionError};

use crate::search::{SearchOptions, SearchResult, Searcher};
use session::Session;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};

/// The longest line the engine reads (bytes, without the line break). Longer
/// lines are answered with `error syntax` and otherwise ignored; the limit
/// keeps a client that never sends a line break from filling memory.
pub const MAX_LINE: usize = 65_536;

/// Runs the daemon: reads commands from `input` until `quit` or the end of
/// input, writes replies to `output`. Returns `Ok` on `quit` and end of
/// input; an error only when `output` cannot be written.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    options: SearchOptions,
) -> io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    std::thread::Builder::new()
        .name("reader".to_string())
        .spawn(move || read_lines(input, reader_events))?;
    let mut session = Session::new(Output::new(output), events, options);
    let mut inbox = Inbox {
        receiver: inbox,
        backlog: VecDeque::new(),
    };
    let end_of_input = loop {
        match inbox.next() {
            Event::Line(read_at, Ok(text)) => {
                log::debug!("<< {text}");
                match parse_command(&text) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => break false,
                    Ok(Some(command)) => session.execute(command, read_at, &mut inbox)?,
                    Err(e) => session.error(e.code(), &e.to_string())?,
                }
            }
            Event::Line(_, Err(e)) => session.error(e.code(), &e.to_string())?,
            Event::Eof => break true,
            Event::SearchDone { searcher, result } => session.search_done(searcher, result)?,
            Event::CountDone(last) => session.count_done(last)?,
        }
    };
    session.shutdown(&mut inbox, end_of_input)
}

/// What the session waits for.
pub(crate) enum Event {
    /// A line of input (without its line break), or why it is unreadable,
    /// and when the reader got it (a `go`'s time counts from then).
    Line(std::time::Instant, Result<String, CommandError>),
    /// The input has ended (or failed).
    Eof,
    /// A search thread finished and hands the searcher back.
    SearchDone {
        searcher: Box<Searcher>,
        result: SearchResult,
    },
    /// A perft or bench thread finished; its last line is still to be written.
    CountDone(Option<String>),
}

/// The session's queue: events from the channel, after any that were put
/// aside while waiting for a particular one.
pub(crate) struct Inbox {
    receiver: Receiver<Event>,
    backlog: VecDeque<Event>,
}

impl Inbox {
    fn next(&mut self) -> Event {
        // The session holds a sender itself, so the channel never closes
        // while we wait; a closed channel would still end the loop cleanly.
        self.backlog
            .pop_front()
            .unwrap_or_else(|| self.receiver.recv().unwrap_or(Event::Eof))
    }

    /// Waits for the end of the running search, keeping every other event
    /// for later; `None` if it does not come within `timeout`.
    fn wait_for_search(
        &mut self,
        timeout: std::time::Duration,
    ) -> Option<(Box<Searcher>, SearchResult)> {
        let deadline = std::time::Instant::now() + timeout;
        if let Some(i) = self
            .backlog
            .iter()
            .position(|e| matches!(e, Event::SearchDone { .. }))
        {
            if let Some(Event::SearchDone { searcher, result }) = self.backlog.remove(i) {
                return Some((searcher, result));
            }
        }
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.receiver.recv_timeout(left) {
                Ok(Event::SearchDone { searcher, result }) => return Some((searcher, result)),
                Ok(other) => self.backlog.push_back(other),
                Err(_) => return None,
            }
        }
    }
}

/// Reads lines until the end of input, each at most [`MAX_LINE`] bytes kept.
fn read_lines(mut input: impl BufRead, events: Sender<Event>) {
    loop {
        let mut line = Vec::new();
        let mut len = 0usize;
        let mut ended = false;
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("reading input failed: {e}");
                    ended = true;
                    break;
                }
            };
            if chunk.is_empty() {
                ended = true;
                break;
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            // Keep one byte past the limit at most: enough to know it was passed.
            let room = (MAX_LINE + 1).saturating_sub(line.len());
            line.extend_from_slice(&chunk[..take.min(room)]);
            len += take;
            input.consume(take + usize::from(done));
            if done {
                break;
            }
        }
        if ended && len == 0 {
            let _ = events.send(Event::Eof);
            return;
        }
        let event = if len > MAX_LINE {
            Err(CommandError::LineTooLong {
                len,
                limit: MAX_LINE,
            })
        } else {
            String::from_utf8(line).map_err(|e| CommandError::NotUtf8 {
                valid_up_to: e.utf8_error().valid_up_to(),
            })
        };
        if events
            .send(Event::Line(std::time::Instant::now(), event))
            .is_err()
        {
            return;
        }
        if ended {
            let _ = events.send(Event::Eof);
            return;
        }
    }
}

/// The output stream, shared by the session and the worker threads; every
/// line is written whole and flushed, so lines never interleave.
#[derive(Clone)]
pub(crate) struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes lines as one block (nothing from another thread in between).
    pub(crate) fn lines<S: AsRef<str>>(&self, lines: &[S]) -> io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for l in lines {
            log::debug!(">> {}", l.as_ref());
            w.write_all(l.as_ref().as_bytes())?;
            w.write_all(b"\n")?;
        }
        w.flush()
    }

    /// Writes one line.
    pub(crate) fn line(&self, line: &str) -> io::Result<()> {
        self.lines(&[line])
    }
}

/// A `Write` that passes whole lines to an [`Output`] as they complete (for
/// perft, which writes as it counts), except the last one, which it holds:
/// the session writes that one once the job is over, so a client that reads
/// it may send its next command at once.
pub(crate) struct LineOut {
    out: Output,
    pending: Vec<u8>,
    held: Option<String>,
}

impl LineOut {
    pub(crate) fn new(out: Output) -> LineOut {
        LineOut {
            out,
            pending: Vec::new(),
            held: None,
        }
    }

    /// The last complete line, not written yet.
    pub(crate) fn into_last_line(self) -> Option<String> {
        self.held
    }
}

impl Write for LineOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=i).collect();
            let line = String::from_utf8_lossy(&line[..i]).into_owned();
            if let Some(previous) = self.held.replace(line) {
                self.out.line(&previous)?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Makes client-supplied text safe to echo on one line: control characters
/// are written as escapes, and the whole is cut to a sane length.
pub(crate) fn sanitise(text: &str) -> String {
    const MAX: usize = 1000;
    let mut s = String::with_capacity(text.len().min(MAX));
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            s.push_str("...");
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output the test can read after `run` returns.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Runs a whole session in-process: all of `input`, then its end.
    fn session(input: &str) -> Vec<String> {
        let out = Shared::default();
        run(
            io::Cursor::new(input.as_bytes().to_vec()),
            out.clone(),
            SearchOptions::default(),
        )
        .unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn moves_after_a_finished_game_are_refused_and_the_position_kept() {
        let won = "....../....../....../W..... w 0 4 1-0 w1";
        let out = session(&format!(
            "position fen {won} moves 19/off\n\
             position fen {won} moves 19/off bar/1\n\
             query fen\n"
        ));
        assert_eq!(
            out,
            vec![
                "error illegal_move position: move 2 (bar/1): game is over: white has won"
                    .to_string(),
                "response ....../....../....../...... b 0 4 2-0 w2".to_string(),
            ]
        );
    }

    #[test]
    fn quit_ends_the_session_before_the_lines_after_it() {
        assert_eq!(session("isready\nquit\nisready\n"), vec!["readyok"]);
    }

    #[test]
    fn the_end_of_input_stops_a_search_with_one_bestmove() {
        let out = session("go infinite\n");
        assert_eq!(
            out.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1,
            "{out:?}"
        );
        assert!(out.last().unwrap().starts_with("bestmove bar/"), "{out:?}");
    }

    fn lines_of(bytes: &[u8]) -> Vec<Result<String, CommandError>> {
        let (tx, rx) = mpsc::channel();
        read_lines(io::BufReader::with_capacity(7, bytes), tx);
        let mut v = Vec::new();
        for e in rx {
            match e {
                Event::Line(_, l) => v.push(l),
                Event::Eof => break,
                _ => unreachable!(),
            }
        }
        v
    }

    #[test]
    fn the_reader_splits_lines_across_buffer_boundaries() {
        assert_eq!(
            lines_of(b"uci\r\nisready\n\ngo depth 3"),
            vec![
                Ok("uci\r".to_string()),
                Ok("isready".to_string()),
                Ok(String::new()),
                Ok("go depth 3".to_string())
            ]
        );
        assert!(lines_of(b"").is_empty());
    }

    #[test]
    fn the_reader_refuses_overlong_and_non_utf8_lines_and_goes_on() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\n\xff\xfe\nquit\n");
        let got = lines_of(&input);
        assert_eq!(
            got[0],
            Err(CommandError::LineTooLong {
                len: MAX_LINE + 10,
                limit: MAX_LINE
            })
        );
        assert_eq!(got[1], Err(CommandError::NotUtf8 { valid_up_to: 0 }));
        assert_eq!(got[2], Ok("quit".to_string()));
        // Exactly at the limit is still a line.
        let mut input = vec![b'y'; MAX_LINE];
        input.push(b'\n');
        assert_eq!(lines_of(&input), vec![Ok("y".repeat(MAX_LINE))]);
    }

    #[test]
    fn sanitise_escapes_control_characters() {
        assert_eq!(sanitise("a\rb\u{1}c"), "a\\rb\\u{1}c");
        assert!(sanitise(&"z".repeat(5000)).len() < 1100);
    }
}
