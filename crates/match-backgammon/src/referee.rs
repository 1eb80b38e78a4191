//! The backgammon referee: plays one runner game (a money game or a whole
//! match) between two UBGI engines on a [`Table`], asking each decision of
//! the engine whose decision it is and checking the answer.

use crate::table::{Due, Table};
use crate::token::Turn;
use crate::{PositionForm, Setup};
use engine_client::conversation::Question;
use engine_client::Engine;
use match_runner::clock::Clocks;
use match_runner::game::GameSettings;
use match_runner::outcome::{Played, Side, Termination};
use match_runner::spec::TimeControl;
use match_runner::turn::{ask, Answer, Refusal};

/// One runner game in progress.
pub struct Referee<'a> {
    engines: [&'a mut Engine; 2],
    settings: &'a GameSettings,
    table: Table,
    /// How each engine reads a position (asked at the runner game's start).
    forms: [PositionForm; 2],
    clocks: Clocks,
    max_turns: u32,
    /// One note per complete turn, and the parts of the turn in progress.
    notes: Vec<String>,
    parts: Vec<String>,
}

impl<'a> Referee<'a> {
    pub fn new(
        engines: [&'a mut Engine; 2],
        setup: Setup,
        settings: &'a GameSettings,
        max_turns: u32,
    ) -> Self {
        Referee {
            engines,
            settings,
            table: Table::new(setup),
            forms: [PositionForm::WithMatchId; 2],
            clocks: Clocks::new(settings.tc),
            max_turns,
            notes: Vec::new(),
            parts: Vec::new(),
        }
    }

    /// Plays to the end: a result by the rules, or a forfeit.
    pub fn play(mut self) -> Played<Turn> {
        if let Err(forfeit) = self.new_game() {
            return forfeit;
        }
        loop {
            let due = self.table.due();
            let step = match due {
                Due::Over(result) => {
                    return Played::normal(result, self.table.turns().to_vec(), self.notes)
                }
                _ if self.table.turns_in_game() > self.max_turns => {
                    let side = due.side().expect("the game goes on");
                    let why = format!(
                        "is to act after {} turns of one game, the runner's bound",
                        self.max_turns
                    );
                    Err(self.forfeit(side, Termination::Stall, why))
                }
                Due::Cube(side) => self.cube(side),
                Due::Take(side) => self.take(side),
                Due::Move(side, _) => self.chequer(side),
            };
            if let Err(forfeit) = step {
                return Played {
                    notes: self.notes,
                    ..forfeit
                };
            }
            while self.notes.len() < self.table.turns().len() {
                self.notes.push(self.parts.join(", "));
                self.parts.clear();
            }
        }
    }

    /// Both engines are asked how they read a position, start a new game
    /// and are ready.
    fn new_game(&mut self) -> Result<(), Played<Turn>> {
        for side in Side::ALL {
            let e = &mut self.engines[side.index()];
            let word = self.settings.protos[side.index()].new_game();
            let timeout = self.settings.timeout;
            let form = PositionForm::probe(e, timeout);
            let started = form.and_then(|form| {
                self.forms[side.index()] = form;
                e.send(word).and_then(|_| e.sync(timeout))
            });
            if let Err(f) = started {
                return Err(Played {
                    result: self.table.forfeit_result(side),
                    ..Played::failure(side, &f, Vec::new())
                });
            }
        }
        Ok(())
    }

    /// The loss of `side` by `termination`, at the forfeit's value.
    fn forfeit(&self, side: Side, termination: Termination, why: String) -> Played<Turn> {
        Played {
            result: self.table.forfeit_result(side),
            ..Played::forfeit(side, termination, why, self.table.record().0)
        }
    }

    /// Asks `side`: the position (with the dice once rolled) in the form
    /// the engine reads, then `go`; waits for a reply starting with
    /// `reply`, and charges the clock.
    fn ask(&mut self, side: Side, go: &str, reply: &str) -> Result<Answer, Played<Turn>> {
        let s = self.settings;
        let setup = self.forms[side.index()].lines(&self.table.game().gnubg_id());
        let budget = self.clocks.budget(side, s.margin, s.move_timeout);
        let request = Question {
            // UBGI engines send no answer after an error line.
            errors_end: true,
            ..Question::new(&setup, go, reply, budget, s.timeout)
        };
        let tc = self.clocks.tc(side);
        let answer =
            ask(self.engines[side.index()], &request).map_err(|r| self.refused(side, r, tc))?;
        self.clocks.charge(side, answer.elapsed);
        Ok(answer)
    }

    /// The forfeit for a decision without a usable reply, scored as the
    /// table scores a forfeit (a match forfeit, or the money game's value).
    fn refused(&self, side: Side, refusal: Refusal, tc: TimeControl) -> Played<Turn> {
        let played = refusal.forfeit(side, tc, self.table.record().0);
        Played {
            result: self.table.forfeit_result(side),
            ..played
        }
    }

    /// The illegal-move forfeit.
    fn illegal(&self, side: Side, why: String) -> Played<Turn> {
        self.forfeit(side, Termination::IllegalMove, why)
    }

    /// `go cube`: double, or roll.
    fn cube(&mut self, side: Side) -> Result<(), Played<Turn>> {
        let answer = self.ask(side, "go cube", "bestcube")?;
        match word(&answer.line, 1) {
            "double" => {
                self.parts.push(format!("double {}", answer.note()));
                self.table
                    .double()
                    .map_err(|e| self.illegal(side, format!("doubled illegally: {e}")))
            }
            "nodouble" => {
                self.parts.push(format!("no double {}", answer.note()));
                self.table.roll();
                Ok(())
            }
            _ => Err(self.illegal(
                side,
                format!(
                    "sent an unreadable cube decision \"{}\" (expected bestcube double or nodouble)",
                    answer.line
                ),
            )),
        }
    }

    /// `go take`: take or drop.
    fn take(&mut self, side: Side) -> Result<(), Played<Turn>> {
        let answer = self.ask(side, "go take", "besttake")?;
        let done = match word(&answer.line, 1) {
            "take" => self.table.take(),
            "drop" => self.table.drop(),
            _ => {
                return Err(self.illegal(
                    side,
                    format!(
                        "sent an unreadable take decision \"{}\" (expected besttake take or drop)",
                        answer.line
                    ),
                ))
            }
        };
        self.parts
            .push(format!("{} {}", word(&answer.line, 1), answer.note()));
        done.map_err(|e| self.illegal(side, e.to_string()))
    }

    /// `dice`, `go chequer`: the checker play.
    fn chequer(&mut self, side: Side) -> Result<(), Played<Turn>> {
        let Some(dice) = self.table.game().state().dice else {
            unreachable!("a move is due only with dice rolled");
        };
        let answer = self.ask(side, "go chequer", "bestmove")?;
        let text = answer
            .line
            .split_once(char::is_whitespace)
            .map(|(_, rest)| rest.trim())
            .unwrap_or("");
        if text.is_empty() {
            return Err(self.illegal(side, "sent bestmove without a move".to_string()));
        }
        self.table.play(text).map_err(|e| {
            self.illegal(
                side,
                format!("played the illegal move \"{text}\" with {dice}: {e}"),
            )
        })?;
        self.parts.push(answer.note());
        Ok(())
    }
}

/// Word `i` of a line, or "".
fn word(line: &str, i: usize) -> &str {
    line.split_whitespace().nth(i).unwrap_or("")
}
