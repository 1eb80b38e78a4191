//! The engine's lines between the thread that reads its stdout and the
//! client, in a queue bounded in lines and in bytes, so an engine that
//! writes faster than it is read (or while nobody reads, as a board server
//! between searches) cannot take the client's memory.
//!
//! When the queue is full, the oldest complete `info` line waiting is
//! dropped (and counted): a client wants the latest search report, and
//! `info` answers no command. Any other line (`bestmove`, `readyok`, the
//! handshake, noise a checker must see) is never dropped: the reader waits
//! for room instead, the engine's stdout pipe fills, and the engine waits in
//! its write, which is a pipe's own back-pressure. A compliant engine writes
//! one such line per command, so only an engine flooding lines other than
//! `info` ever waits.

use crate::{RawLine, RawWait};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// A line waiting, and whether it may be dropped.
struct Entry {
    line: RawLine,
    droppable: bool,
}

#[derive(Default)]
struct State {
    entries: VecDeque<Entry>,
    /// Bytes of text waiting.
    bytes: usize,
    /// How many waiting entries may be dropped.
    droppable: usize,
    /// Lines dropped so far.
    dropped: u64,
    /// The engine's output has ended (nothing more will be pushed).
    closed: bool,
    /// The client has gone (nothing more will be popped).
    abandoned: bool,
}

/// The bounded queue (shared by the reader thread and the client).
pub(crate) struct Queue {
    state: Mutex<State>,
    /// Signalled when a line arrives or the output ends.
    arrived: Condvar,
    /// Signalled when a line leaves or the client goes.
    room: Condvar,
    max_lines: usize,
    max_bytes: usize,
}

impl State {
    /// Whether a line of `len` bytes may join now. An empty queue takes
    /// any line (one line is at most `MAX_LINE` bytes).
    fn fits(&self, len: usize, max_lines: usize, max_bytes: usize) -> bool {
        self.entries.is_empty() || (self.entries.len() < max_lines && self.bytes + len <= max_bytes)
    }

    /// Drops the oldest droppable line; false if there is none.
    fn drop_oldest(&mut self) -> bool {
        if self.droppable == 0 {
            return false;
        }
        let Some(i) = self.entries.iter().position(|e| e.droppable) else {
            return false;
        };
        let gone = self.entries.remove(i).expect("found");
        self.bytes -= gone.line.text.len();
        self.droppable -= 1;
        self.dropped += 1;
        true
    }
}

impl Queue {
    pub(crate) fn new(max_lines: usize, max_bytes: usize) -> Queue {
        Queue {
            state: Mutex::new(State::default()),
            arrived: Condvar::new(),
            room: Condvar::new(),
            max_lines: max_lines.max(1),
            max_bytes,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere leaves the queue consistent (every change is
        // made whole under the lock), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a line, dropping old `info` lines or waiting for room when the
    /// queue is full; false once the client has gone (the reader stops).
    pub(crate) fn push(&self, line: RawLine, droppable: bool) -> bool {
        let len = line.text.len();
        let mut s = self.lock();
        loop {
            if s.abandoned {
                return false;
            }
            if s.fits(len, self.max_lines, self.max_bytes) || s.drop_oldest() {
                if s.fits(len, self.max_lines, self.max_bytes) {
                    break;
                }
                continue;
            }
            if droppable {
                // Full of lines that must stay: this report is the one to go.
                s.dropped += 1;
                return true;
            }
            s = self.room.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.bytes += len;
        s.droppable += usize::from(droppable);
        s.entries.push_back(Entry { line, droppable });
        self.arrived.notify_all();
        true
    }

    /// The engine's output has ended.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.arrived.notify_all();
    }

    /// The client has gone: the reader stops at its next line.
    pub(crate) fn abandon(&self) {
        let mut s = self.lock();
        s.abandoned = true;
        s.entries.clear();
        s.bytes = 0;
        s.droppable = 0;
        self.room.notify_all();
    }

    /// The next line, waiting until `deadline`. Past the deadline it is a
    /// timeout even with lines waiting: an engine writing without pause
    /// must not keep a wait alive for ever.
    pub(crate) fn pop(&self, deadline: Instant) -> RawWait {
        let mut s = self.lock();
        loop {
            let now = Instant::now();
            if now >= deadline {
                return RawWait::Timeout;
            }
            if let Some(e) = s.entries.pop_front() {
                s.bytes -= e.line.text.len();
                s.droppable -= usize::from(e.droppable);
                self.room.notify_all();
                return RawWait::Line(e.line);
            }
            if s.closed {
                return RawWait::Closed;
            }
            s = self
                .arrived
                .wait_timeout(s, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Lines waiting.
    pub(crate) fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Bytes of text waiting.
    pub(crate) fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// Lines dropped so far.
    pub(crate) fn dropped(&self) -> u64 {
        self.lock().dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::thread;
    use std::time::Duration;

    fn line(text: &str) -> RawLine {
        RawLine {
            text: text.to_string(),
            utf8: true,
            ended: true,
        }
    }

    fn text(w: RawWait) -> String {
        match w {
            RawWait::Line(l) => l.text,
            RawWait::Timeout => "<timeout>".into(),
            RawWait::Closed => "<closed>".into(),
        }
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn a_full_queue_drops_its_oldest_info_lines_and_keeps_the_answers() {
        let q = Queue::new(4, 1 << 20);
        assert!(q.push(line("info 1"), true));
        assert!(q.push(line("readyok"), false));
        for i in 2..=10 {
            assert!(q.push(line(&format!("info {i}")), true));
            assert!(q.len() <= 4);
        }
        assert!(q.push(line("bestmove bar/1"), false));
        assert_eq!(q.len(), 4);
        assert_eq!(q.dropped(), 8, "info 1 to info 8 went");
        let got: Vec<String> = (0..4).map(|_| text(q.pop(soon()))).collect();
        assert_eq!(got, ["readyok", "info 9", "info 10", "bestmove bar/1"]);
    }

    #[test]
    fn the_byte_bound_holds_as_well_as_the_line_bound() {
        let q = Queue::new(1000, 100);
        for i in 0..50 {
            q.push(line(&format!("info {i:030}")), true);
            assert!(q.bytes() <= 100, "{} bytes", q.bytes());
        }
        assert_eq!(q.len(), 2);
        assert_eq!(q.dropped(), 48);
    }

    #[test]
    fn lines_that_must_stay_wait_for_room_and_none_is_lost() {
        let q = Arc::new(Queue::new(3, 1 << 20));
        let writer = {
            let q = Arc::clone(&q);
            thread::spawn(move || {
                for i in 0..100 {
                    q.push(line(&format!("noise {i}")), false);
                }
                // A report finding the queue full of lines that must stay goes.
                q.push(line("info late"), true);
                q.close();
            })
        };
        let mut got = Vec::new();
        loop {
            assert!(q.len() <= 3, "{} lines waiting", q.len());
            match q.pop(soon()) {
                RawWait::Line(l) => got.push(l.text),
                RawWait::Closed => break,
                RawWait::Timeout => panic!("no line in 5 s"),
            }
        }
        writer.join().unwrap();
        let want: Vec<String> = (0..100).map(|i| format!("noise {i}")).collect();
        assert_eq!(got[..100], want[..]);
        assert_eq!(q.dropped() + got.len() as u64 - 100, 1);
    }

    #[test]
    fn a_wait_past_its_deadline_is_a_timeout_even_with_lines_waiting() {
        let q = Queue::new(10, 1 << 20);
        q.push(line("info 1"), true);
        assert_eq!(text(q.pop(Instant::now())), "<timeout>");
        assert_eq!(text(q.pop(soon())), "info 1");
        q.close();
        assert_eq!(text(q.pop(soon())), "<closed>");
    }

    #[test]
    fn a_reader_waiting_for_room_stops_when_the_client_goes() {
        let q = Arc::new(Queue::new(1, 1 << 20));
        q.push(line("noise 0"), false);
        let writer = {
            let q = Arc::clone(&q);
            thread::spawn(move || q.push(line("noise 1"), false))
        };
        q.abandon();
        assert!(!writer.join().unwrap(), "push reports the client gone");
    }
}
