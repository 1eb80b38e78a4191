//! Lines in and out: the reader that turns input bytes into bounded lines,
//! and the shared output that writes whole lines and flushes each.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// The longest line the engine reads: the protocol's limit. Longer lines are
/// answered with an error and otherwise ignored.
pub use protocol_vocab::MAX_LINE;

/// Why an input line cannot be read as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Longer than [`MAX_LINE`].
    #[error("line of {len} bytes is longer than the {limit} bytes a command may have")]
    TooLong { len: usize, limit: usize },
    /// Not UTF-8.
    #[error("line is not UTF-8 text (bad byte at offset {valid_up_to})")]
    NotUtf8 { valid_up_to: usize },
}

/// Reads lines until the end of input, each at most [`MAX_LINE`] bytes kept,
/// passing each (with the moment it was read) to `sink` until it returns
/// false. Returns at the end of input.
pub fn read_lines(
    mut input: impl BufRead,
    mut sink: impl FnMut(Instant, Result<String, LineError>) -> bool,
) {
    loop {
        let (line, len, ended) = read_one(&mut input);
        if ended && len == 0 {
            return;
        }
        let event = if len > MAX_LINE {
            Err(LineError::TooLong {
                len,
                limit: MAX_LINE,
            })
        } else {
            String::from_utf8(line).map_err(|e| LineError::NotUtf8 {
                valid_up_to: e.utf8_error().valid_up_to(),
            })
        };
        if !sink(Instant::now(), event) || ended {
            return;
        }
    }
}

/// One line: its first bytes (one past the limit at most), its full length,
/// and whether the input ended.
fn read_one(input: &mut impl BufRead) -> (Vec<u8>, usize, bool) {
    let mut line = Vec::new();
    let mut len = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input failed: {e}");
                return (line, len, true);
            }
        };
        if chunk.is_empty() {
            return (line, len, true);
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
            return (line, len, false);
        }
    }
}

/// The output stream, shared by the session and the worker threads; every
/// line is written whole and flushed, so lines never interleave.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes lines as one block (nothing from another thread in between).
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) -> io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for l in lines {
            log::debug!(">> {}", l.as_ref());
            w.write_all(l.as_ref().as_bytes())?;
            w.write_all(b"\n")?;
        }
        w.flush()
    }

    /// Writes one line.
    pub fn line(&self, line: &str) -> io::Result<()> {
        self.lines(&[line])
    }
}

/// A `Write` that passes whole lines to an [`Output`] as they complete (for
/// a job that writes as it goes, such as perft), except the last one, which
/// it holds: the dialect writes that one once the job is over, so a client
/// that reads it may send its next command at once.
pub struct LineOut {
    out: Output,
    pending: Vec<u8>,
    held: Option<String>,
}

impl LineOut {
    /// Lines for `out`.
    pub fn new(out: Output) -> LineOut {
        LineOut {
            out,
            pending: Vec::new(),
            held: None,
        }
    }

    /// The last complete line, not written yet.
    pub fn into_last_line(self) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<Result<String, LineError>> {
        let mut v = Vec::new();
        read_lines(io::BufReader::with_capacity(7, bytes), |_, l| {
            v.push(l);
            true
        });
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
            Err(LineError::TooLong {
                len: MAX_LINE + 10,
                limit: MAX_LINE
            })
        );
        assert_eq!(got[1], Err(LineError::NotUtf8 { valid_up_to: 0 }));
        assert_eq!(got[2], Ok("quit".to_string()));
        // Exactly at the limit is still a line.
        let mut input = vec![b'y'; MAX_LINE];
        input.push(b'\n');
        assert_eq!(lines_of(&input), vec![Ok("y".repeat(MAX_LINE))]);
    }
}
