//! The Grasshopper dialect of the engine protocol: UGI (UCI generalised to
//! any two-player game) with the UCI spellings accepted too, plus queries,
//! `d`, `perft` and `bench` for scripts. protocol.md is the reference; this
//! crate implements it on the daemon core ([`engine_daemon`]).
//!
//! The parts: [`command`] (the commands as values), [`parse`] (their nom
//! parsers), [`error`] (parse errors and their codes), [`options`] (the
//! option table), [`session`] (the dialect: state and what each command
//! does), [`board`] (the `d` drawing) and [`perft`] (the perft report).

pub mod board;
pub mod command;
pub mod error;
pub mod options;
pub mod parse;
pub mod perft;
pub mod session;

pub use command::{Command, Go, Query, Start};
pub use error::{CommandError, ErrorCode};
pub use options::EngineOptions;
pub use parse::parse_command;
pub use protocol_vocab::MAX_LINE;
pub use session::Ugi;

use grasshopper_engine::SearchOptions;
use std::io::{self, BufRead, Write};

/// Runs the Grasshopper daemon: reads commands from `input` until `quit` or
/// the end of input, writes replies to `output`. Returns `Ok` on `quit` and
/// end of input; an error only when `output` cannot be written.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    options: SearchOptions,
) -> io::Result<()> {
    engine_daemon::run(input, output, Ugi::new(options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

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

    #[test]
    fn the_end_of_input_lets_a_perft_finish_and_quit_abandons_it() {
        let out = session("perft 3\n");
        assert_eq!(out.last().map(String::as_str), Some("nodes 300"), "{out:?}");
        let out = session("position startpos\nperft 9\nquit\n");
        assert!(out.iter().all(|l| !l.starts_with("nodes")), "{out:?}");
    }
}
