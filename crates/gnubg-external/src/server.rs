//! The TCP side: one connection after another, one answer line per board
//! line. gnubg ends each board with `\n` and a NUL byte (it writes the C
//! string's terminator too), so NULs and a `\r` are dropped from a line
//! before it is read.

use crate::{Bot, Settings};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The longest line read (a FIBS board is about 200 bytes; the names
/// make it longer); the rest of a longer line is skipped and answered
/// as an error.
pub const MAX_LINE: usize = 4096;

/// Serves the connections to `listener` one after another, each with a
/// fresh bot; a connection that fails is logged and the next one served.
pub fn serve(listener: &TcpListener, settings: Settings) -> io::Result<()> {
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                log::warn!("accept failed: {e}");
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        log::info!("gnubg connected from {peer}");
        let reader = BufReader::new(stream.try_clone()?);
        match serve_connection(reader, stream, &mut Bot::new(settings)) {
            Ok(n) => log::info!("{peer} closed after {n} decisions"),
            Err(e) => log::warn!("{peer}: {e}"),
        }
    }
    Ok(())
}

/// Answers the board lines of one connection until it closes; returns the
/// number of lines answered. A line that gets no decision is logged and
/// answered `Error: <why>`, which gnubg prints before it stops the game.
pub fn serve_connection(
    mut input: impl BufRead,
    mut output: impl Write,
    bot: &mut Bot,
) -> io::Result<u64> {
    let mut answered = 0;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut raw)?;
        if n == 0 {
            return Ok(answered);
        }
        let complete = raw.ends_with(b"\n");
        if !complete && n == MAX_LINE {
            skip_line(&mut input)?;
        }
        let text: String = String::from_utf8_lossy(&raw)
            .chars()
            .filter(|&c| c != '\0')
            .collect();
        let line = text.trim();
        if line.is_empty() {
            continue;
        }
        let reply = if !complete && n == MAX_LINE {
            log::error!("a line longer than {MAX_LINE} bytes");
            format!("Error: a line longer than {MAX_LINE} bytes")
        } else {
            log::debug!("< {line}");
            // A panic in the engine ends this answer, not the server.
            match catch_unwind(AssertUnwindSafe(|| bot.answer(line))) {
                Ok(Ok(r)) => r.to_string(),
                Ok(Err(e)) => {
                    log::error!("{e}: {line}");
                    format!("Error: {e}")
                }
                Err(_) => {
                    log::error!("the engine failed on: {line}");
                    "Error: the engine failed on this position".to_string()
                }
            }
        };
        log::debug!("> {reply}");
        output.write_all(format!("{reply}\n").as_bytes())?;
        output.flush()?;
        answered += 1;
    }
}

/// Reads and drops the rest of an overlong line.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut sink)?;
        if n == 0 || sink.ends_with(b"\n") {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;
    use backgammon_engine::Kind;
    use std::io::Cursor;

    const OPENING: &str = "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:1:6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    fn run(input: Vec<u8>) -> String {
        let mut bot = Bot::new(Settings {
            player: Kind::Pubeval,
            ply: 1,
            seed: Some(1),
            jacoby: true,
        });
        let mut out = Vec::new();
        serve_connection(Cursor::new(input), &mut out, &mut bot).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn each_board_gets_one_line_and_gnubgs_nul_bytes_are_dropped() {
        let input = format!("{OPENING}\n\0{OPENING}\r\n\0");
        let out = run(input.into_bytes());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(lines[0], lines[1]);
        assert!(lines[0].contains('/'));
    }

    #[test]
    fn garbage_gets_an_error_line_and_the_connection_goes_on() {
        let mut input = b"nonsense\n\xff\xfe\n".to_vec();
        input.extend(vec![b'x'; 3 * MAX_LINE]);
        input.extend(format!("\n{OPENING}\n").into_bytes());
        let out = run(input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[..3].iter().all(|l| l.starts_with("Error: ")), "{out}");
        assert!(lines[2].contains("longer than"), "{out}");
        assert!(lines[3].contains('/'), "{out}");
    }
}
