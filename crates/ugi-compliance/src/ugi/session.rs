//! The session with the engine under check: a process started on demand
//! with a handshake, the options it declared, and the ways of talking to it
//! (send, read a line, expect silence, `isready`, `query`) that every check
//! shares. A failed check ends the process; the next check starts another.

use crate::grammar::{answer, Answer, Line, OptionKind, Question};
use crate::positions::Positions;
use crate::report::Settings;
use crate::strict::{Fault, Said, StrictEngine};
use engine_client::EngineFailure;
use grasshopper_rules::{Color, Position};
use std::time::{Duration, Instant};

/// A check's outcome: `Ok` passes.
pub type Check = Result<(), Fault>;

/// A failure said in words.
pub fn wrong(why: impl Into<String>) -> Fault {
    Fault::Wrong(why.into())
}

/// An option name as setoption compares it.
pub fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The engine under check and what the checker knows of it.
pub struct Session<'a> {
    pub settings: &'a Settings,
    engine: Option<StrictEngine>,
    /// Why no session can be started (the handshake failed on a fresh process).
    pub dead: Option<String>,
    /// The options of the first handshake: name and kind.
    pub options: Vec<(String, OptionKind)>,
    /// Whether the Ponder option is true now.
    pub ponder: bool,
    /// MultiPV's value now.
    pub multipv: u64,
    /// What the engine offers beyond the core (probed once).
    pub offers: Offers,
    pub positions: Positions,
}

impl<'a> Session<'a> {
    pub fn new(settings: &'a Settings) -> Session<'a> {
        Session {
            settings,
            engine: None,
            dead: None,
            options: Vec::new(),
            ponder: false,
            multipv: 1,
            offers: Offers::default(),
            positions: Positions::new(),
        }
    }

    /// Ends the process (its state is unknown after a failure).
    pub fn end(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.kill();
        }
        self.ponder = false;
        self.multipv = 1;
    }

    pub fn deadline(&self) -> Instant {
        Instant::now() + self.settings.timeout
    }

    /// The running process, started (with a handshake) if there is none.
    pub fn engine(&mut self) -> Result<&mut StrictEngine, Fault> {
        if self.engine.is_none() {
            match self.start() {
                Ok(engine) => self.engine = Some(engine),
                Err(f) => {
                    let why = format!("a fresh process did not complete the handshake: {f}");
                    self.dead = Some(why.clone());
                    return Err(wrong(why));
                }
            }
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    /// Hands the running process to a check that needs it alone (the
    /// handshake, quit); [`Session::adopt`] gives it back.
    pub fn take_engine(&mut self) -> Result<StrictEngine, Fault> {
        self.engine()?;
        Ok(self.engine.take().expect("started"))
    }

    pub fn adopt(&mut self, engine: StrictEngine) {
        self.engine = Some(engine);
    }

    pub fn spawn(&self) -> Result<StrictEngine, Fault> {
        StrictEngine::spawn(&self.settings.program).map_err(|err| {
            Fault::Closed(match err {
                EngineFailure::Spawn(io) => format!("cannot be started: {io}"),
                other => other.to_string(),
            })
        })
    }

    /// A fresh process after `ugi` and `ugiok`. Bad lines are skipped here:
    /// the handshake check reports them. The options it lists are kept if
    /// the handshake check could not learn them.
    fn start(&mut self) -> Result<StrictEngine, Fault> {
        let mut engine = self.spawn()?;
        engine.send("ugi")?;
        let deadline = self.deadline();
        let mut options = Vec::new();
        loop {
            match engine.next(deadline, "ugiok after ugi") {
                Ok(Said {
                    line: Line::UgiOk, ..
                }) => break,
                Ok(Said {
                    line: Line::Option(o),
                    ..
                }) => options.push((o.name, o.kind)),
                Ok(_) | Err(Fault::BadLine { .. }) => {}
                Err(f) => {
                    engine.kill();
                    return Err(f);
                }
            }
        }
        if self.options.is_empty() {
            self.options = options;
        }
        Ok(engine)
    }

    /// The next line (`what` names it for the timeout message).
    pub fn next_line(&mut self, what: &str) -> Result<Said, Fault> {
        let deadline = self.deadline();
        self.engine()?.next(deadline, what)
    }

    /// The next line by `until`; a timeout there is `Ok(None)`.
    pub fn line_by(&mut self, until: Instant) -> Result<Option<Said>, Fault> {
        match self.engine()?.next(until, "") {
            Ok(said) => Ok(Some(said)),
            Err(Fault::Timeout { .. }) => Ok(None),
            Err(f) => Err(f),
        }
    }

    /// Nothing may come for a short while.
    pub fn quiet(&mut self, after: &str) -> Check {
        self.engine()?.quiet(Duration::from_millis(50), after)
    }

    /// `isready` and nothing but `readyok`.
    pub fn sync(&mut self) -> Check {
        let timeout = self.settings.timeout;
        self.engine()?.sync(timeout)
    }

    pub fn send(&mut self, line: &str) -> Check {
        self.engine()?.send(line)
    }

    /// `query <q>` and its one `response` line, read as `question` answers.
    pub fn ask(&mut self, q: &str, question: Question) -> Result<Answer, Fault> {
        self.send(&format!("query {q}"))?;
        let said = self.next_line(&format!("response to query {q}"))?;
        match &said.line {
            Line::Response(rest) => {
                answer(question, rest.as_deref()).map_err(|refusal| Fault::BadLine {
                    text: said.text.clone(),
                    refusal: refusal.to_string(),
                })
            }
            _ => Err(Fault::Unexpected {
                text: said.text,
                expected: format!("a response line after query {q}"),
            }),
        }
    }

    /// Sets the position and makes sure it took.
    pub fn set(&mut self, pos: &Position) -> Check {
        self.send(&format!("position fen {pos}"))?;
        self.expect_position(pos, "position fen")
    }

    /// That the engine holds `want`: by `query fen` where offered, else by
    /// UGI's own `query p1turn` and `query gameover`.
    pub fn expect_position(&mut self, want: &Position, after: &str) -> Check {
        if self.offers.fen {
            return self.expect_fen(want, after);
        }
        let p1turn = want.side_to_move() == Color::White;
        self.expect_answer("p1turn", Question::P1Turn, Answer::Bool(p1turn), after)?;
        let over = Answer::Bool(want.is_game_over());
        self.expect_answer("gameover", Question::GameOver, over, after)
    }

    fn expect_answer(&mut self, q: &str, question: Question, want: Answer, after: &str) -> Check {
        let got = self.ask(q, question)?;
        if got != want {
            return Err(wrong(format!(
                "after {after}, query {q} answers {got:?}, expected {want:?}"
            )));
        }
        Ok(())
    }

    pub fn expect_fen(&mut self, want: &Position, after: &str) -> Check {
        match self.ask("fen", Question::Fen)? {
            Answer::Fen(got) if got == *want => Ok(()),
            Answer::Fen(got) => Err(wrong(format!(
                "after {after} the position is {got}, expected {want}"
            ))),
            _ => unreachable!("a fen answer"),
        }
    }

    pub fn option_named(&self, name: &str) -> Option<&OptionKind> {
        self.options
            .iter()
            .find(|(n, _)| normalise(n) == normalise(name))
            .map(|(_, k)| k)
    }

    /// The start position with the Checkers option's default (14 without one).
    pub fn start_position(&self) -> Position {
        let n = match self.option_named("Checkers") {
            Some(OptionKind::Spin { default, .. }) => u8::try_from(*default).unwrap_or(14),
            _ => 14,
        };
        Position::start(n).unwrap_or_else(|| Position::start(14).expect("14 checkers"))
    }
}

/// The extensions an engine offers (learned by `offers`' probe; kept in the
/// session that every check reads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// `uci` answered by `uciok`.
    pub uci: bool,
    /// `query fen` answered.
    pub fen: bool,
    /// `query legal <move>` answered.
    pub legal: bool,
    /// `query moves` answered.
    pub moves: bool,
    /// An unknown command answered by an `error` line.
    pub errors: bool,
    /// `perft <depth>` answered.
    pub perft: bool,
    /// The check option `Ponder`.
    pub ponder: bool,
    /// The spin option `MultiPV`.
    pub multipv: bool,
}
