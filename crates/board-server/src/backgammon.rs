//! Backgammon on the board: one money game or one N-point match, held on
//! the match runner's [`Table`] (the rules core's game with its dice, cube
//! and score; the dice come from a seed the server draws from the OS, or
//! `--seed`), with a person or the engine at each side. The engine is a
//! UBGI process driven as the match runner drives it (`position gnubgid`,
//! `dice`, `go chequer`, `go cube`, `go take`), one decision per `go`
//! request, every answer checked by the rules before it is played.

use crate::engine::{self, Ended, Permits, Process};
use crate::session::{plural, ApiError, Seat};
use backgammon_rules::{Board, Decision, Dice, GnubgId, Point, Side as BoardSide, WinKind};
use match_backgammon::{board_lines, mat, side_of, Backgammon, Due, Setup, Table, Turn};
use match_runner::records::today;
use match_runner::{EngineSpec, Proto, Side};
use match_runner::{GameRecord, Termination};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest match the page offers.
pub const MAX_LENGTH: u16 = 25;

/// Most step sequences sent to the page for one roll (a double can have
/// many orders; the page needs only enough to find the person's).
const MAX_PATHS: usize = 20_000;

/// A new backgammon game as the page asks for it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BgSettings {
    #[serde(default)]
    pub game: Option<String>,
    /// Points to win; 0 (the default) for a money game.
    #[serde(default)]
    pub length: Option<u16>,
    /// The doubling cube in play (default on).
    #[serde(default)]
    pub cube: Option<bool>,
    #[serde(default)]
    pub white: Option<Seat>,
    #[serde(default)]
    pub black: Option<Seat>,
    #[serde(default)]
    pub engine: Option<usize>,
    /// Start from this position: a GNU Backgammon `PositionID:MatchID`, a
    /// bare Position ID (money play) or an XGID. Its match state gives the
    /// length (a `length` given must agree), the score and the cube.
    #[serde(default)]
    pub position: Option<String>,
}

/// What is kept on disk: the setup (rules and dice seed) and the turns,
/// replayed through the rules at reopening.
#[derive(Debug, Serialize, Deserialize)]
pub struct BgSaved {
    setup: String,
    turns: Vec<String>,
    /// The player on roll has rolled (declined to double) and not moved yet.
    rolled: bool,
    seats: [Seat; 2],
    engine: usize,
    log: Vec<String>,
    version: u64,
    /// The position the game was set up from, if not the opening.
    #[serde(default)]
    start: Option<String>,
}

/// What must happen next, as the board sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    Cube(Side),
    Take(Side),
    Move(Side, Dice),
    /// A game of a match is over; the next starts when asked.
    GameOver,
    /// The money game or the match is over.
    Over,
}

impl Phase {
    fn side(self) -> Option<Side> {
        match self {
            Phase::Cube(s) | Phase::Take(s) | Phase::Move(s, _) => Some(s),
            _ => None,
        }
    }
}

/// One backgammon game (or match) on the board.
pub struct BgSession {
    pub id: String,
    setup: Setup,
    /// The position the game was set up from (none: the opening).
    start: Option<String>,
    table: Table,
    /// The player on roll declined to double and has dice (for the save).
    rolled: bool,
    seats: [Seat; 2],
    engine: usize,
    engine_names: Arc<Vec<String>>,
    process: Option<Process>,
    /// A decision of the engine is under way (the process is out).
    thinking: bool,
    stop: Arc<AtomicBool>,
    /// What happened, in words, newest last.
    log: Vec<String>,
    /// The engine's last action, for the page to show.
    last_engine: Option<String>,
    /// The engine's advice for a person, and the version it is for.
    hint: Option<(u64, String)>,
    /// The after-game review: the people's moves that lost more than
    /// [`REVIEW_THRESHOLD`], and how many moves were checked.
    review: Option<(Vec<Value>, usize)>,
    error: Option<String>,
    last_seen: Instant,
    version: u64,
    closed: bool,
}

fn word(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The engines a backgammon game may use: those speaking UBGI.
pub fn is_ubgi(spec: &EngineSpec) -> bool {
    spec.proto == Proto::Ubgi
}

impl BgSession {
    /// A new game from the page's settings and the dice seed.
    pub fn new(
        id: String,
        s: &BgSettings,
        seed: u64,
        engines: &[EngineSpec],
        engine_names: Arc<Vec<String>>,
    ) -> Result<BgSession, ApiError> {
        let start = match &s.position {
            Some(text) => Some(start_position(text)?),
            None => None,
        };
        let length = match (&start, s.length) {
            (Some((_, _, state)), None) => state.match_length,
            (_, length) => length.unwrap_or(0),
        };
        if length > MAX_LENGTH {
            return Err(ApiError::new(
                400,
                format!("a {length}-point match: expected 0 (money) to {MAX_LENGTH}"),
            ));
        }
        let engine = match s.engine {
            Some(i) => i,
            None => engines.iter().position(is_ubgi).unwrap_or(0),
        };
        let seats = [
            s.white.unwrap_or(Seat::Human),
            s.black.unwrap_or(Seat::Engine),
        ];
        check_engine(engines, engine, seats)?;
        let setup = Setup {
            length,
            cube: s.cube.unwrap_or(true),
            jacoby: start
                .as_ref()
                .is_none_or(|(_, _, st)| st.jacoby || length > 0),
            crawford: true,
            holland: false,
            dice: seed,
        };
        let table = match &start {
            None => Table::new(setup),
            Some((_, board, state)) => Table::from_position(setup, *board, *state)
                .map_err(|e| ApiError::new(422, e.to_string()))?,
        };
        let mut session = BgSession {
            id,
            setup,
            start: start.map(|(text, _, _)| text),
            table,
            rolled: false,
            seats,
            engine,
            engine_names,
            process: None,
            thinking: false,
            stop: Arc::new(AtomicBool::new(false)),
            log: Vec::new(),
            last_engine: None,
            hint: None,
            review: None,
            error: None,
            last_seen: Instant::now(),
            version: 1,
            closed: false,
        };
        session.opening_note();
        session.pass_if_forced();
        Ok(session)
    }

    /// A game kept on disk, its turns replayed through the rules.
    pub fn restore(
        id: String,
        saved: BgSaved,
        engines: &[EngineSpec],
        engine_names: Arc<Vec<String>>,
    ) -> Result<BgSession, ApiError> {
        let bad = |why: String| ApiError::new(500, format!("the saved game {id}: {why}"));
        let setup: Setup = saved.setup.parse().map_err(|e: String| bad(e))?;
        check_engine(engines, saved.engine, saved.seats)?;
        let mut table = match &saved.start {
            None => Table::new(setup),
            Some(text) => {
                let (_, board, state) = start_position(text).map_err(|e| bad(e.message))?;
                Table::from_position(setup, board, state).map_err(|e| bad(e.to_string()))?
            }
        };
        for t in &saved.turns {
            let turn: Turn = t.parse().map_err(|e: String| bad(e))?;
            table.apply(&turn).map_err(|e| bad(e.to_string()))?;
        }
        let mut session = BgSession {
            id: id.clone(),
            setup,
            start: saved.start,
            table,
            rolled: false,
            seats: saved.seats,
            engine: saved.engine,
            engine_names,
            process: None,
            thinking: false,
            stop: Arc::new(AtomicBool::new(false)),
            log: saved.log,
            last_engine: None,
            hint: None,
            review: None,
            error: None,
            last_seen: Instant::now(),
            version: saved.version,
            closed: false,
        };
        if saved.rolled && matches!(session.phase(), Phase::Cube(_)) {
            session.roll_dice();
        }
        Ok(session)
    }

    /// What to keep on disk, and the version it is of.
    pub fn saved(&self) -> (u64, BgSaved) {
        let (turns, _) = self.table.record();
        let saved = BgSaved {
            setup: self.setup.to_string(),
            turns: turns.iter().map(Turn::to_string).collect(),
            rolled: self.rolled,
            seats: self.seats,
            engine: self.engine,
            log: self.log.clone(),
            version: self.version,
            start: self.start.clone(),
        };
        (self.version, saved)
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    pub fn touch(&mut self) {
        self.last_seen = Instant::now();
    }

    pub fn idle_for(&self) -> Duration {
        self.last_seen.elapsed()
    }

    pub fn searching(&self) -> bool {
        self.thinking
    }

    pub fn close(&mut self) {
        self.closed = true;
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(p) = self.process.take() {
            p.retire();
        }
    }

    /// What is due; a finished game of a match waits for [`Self::next_game`].
    fn phase(&mut self) -> Phase {
        let game = self.table.game();
        if let Decision::GameOver(_) = game.decision() {
            if self.setup.length > 0 {
                return Phase::GameOver;
            }
        }
        match self.table.due() {
            Due::Cube(s) => Phase::Cube(s),
            Due::Take(s) => Phase::Take(s),
            Due::Move(s, d) => Phase::Move(s, d),
            Due::Over(_) => Phase::Over,
        }
    }

    fn opening_note(&mut self) {
        if let Some(text) = self.start.as_ref().filter(|_| self.log.is_empty()) {
            let note = format!("Set up from {text}");
            self.log.push(note);
            return;
        }
        if let Phase::Move(side, dice) = self.phase() {
            let who = self.who(side);
            self.log
                .push(format!("{who} wins the opening roll: {dice}"));
        }
    }

    /// "White (you)", "Black (engine)".
    fn who(&self, side: Side) -> String {
        let seat = match self.seats[side.index()] {
            Seat::Human if self.seats == [Seat::Human, Seat::Human] => "",
            Seat::Human => " (you)",
            Seat::Engine => " (engine)",
        };
        format!("{}{seat}", side.capitalised())
    }

    /// The dice of the player on roll, declining to double.
    fn roll_dice(&mut self) {
        self.table.roll();
        self.rolled = true;
    }

    /// Plays the pass of a side that cannot move (nobody is asked).
    fn pass_if_forced(&mut self) {
        while let Phase::Move(side, dice) = self.phase() {
            let board = *self.table.game().board();
            let legal = board.legal_moves(dice);
            if !legal.moves()[0].is_pass() {
                return;
            }
            let text = board.move_text(&legal.moves()[0]);
            if self.table.play(&text).is_err() {
                return;
            }
            self.rolled = false;
            let who = self.who(side);
            self.log.push(format!("{who} rolls {dice} and cannot move"));
            self.after_action();
        }
    }

    /// Notes the end of a game after an action.
    fn after_action(&mut self) {
        let game = self.table.game();
        if let Some(r) = game.result() {
            if matches!(
                game.decision(),
                Decision::GameOver(_) | Decision::MatchOver { .. }
            ) {
                let text = result_text(
                    side_of(r.winner),
                    r.kind,
                    r.points,
                    r.ending,
                    &self.seats,
                    self,
                );
                if self.log.last() != Some(&text) {
                    self.log.push(text);
                }
            }
        }
    }

    fn check_version(&self, seen: Option<u64>) -> Result<(), ApiError> {
        match seen {
            Some(v) if v != self.version => Err(ApiError::new(
                409,
                "the game changed meanwhile (another tab?): it is shown as it is now",
            )),
            _ => Ok(()),
        }
    }

    /// A person's action: `move` (with its text), `double`, `roll`, `take`,
    /// `drop`, `next` (the next game of a match).
    pub fn act(&mut self, action: &str, body: &Value) -> Result<(), ApiError> {
        self.touch();
        if self.thinking {
            return Err(ApiError::new(409, "the engine is deciding; wait a moment"));
        }
        self.check_version(body.get("version").and_then(Value::as_u64))?;
        let phase = self.phase();
        if action == "next" {
            if phase != Phase::GameOver {
                return Err(ApiError::new(409, "no game of a match has just ended"));
            }
            self.table.due();
            self.rolled = false;
            self.opening_note();
            self.changed();
            self.pass_if_forced();
            return Ok(());
        }
        let side = phase
            .side()
            .ok_or_else(|| ApiError::new(409, "the game is over"))?;
        if self.seats[side.index()] != Seat::Human {
            return Err(ApiError::new(409, "it is the engine's decision"));
        }
        let refused = |e: backgammon_rules::GameError| ApiError::new(422, e.to_string());
        let who = self.who(side);
        match (action, phase) {
            ("roll", Phase::Cube(_)) => {
                self.roll_dice();
            }
            ("double", Phase::Cube(_)) => {
                self.table.double().map_err(refused)?;
                let cube = 2 * self.table.game().state().cube_value();
                self.log.push(format!("{who} doubles to {cube}"));
            }
            ("take", Phase::Take(_)) => {
                self.table.take().map_err(refused)?;
                self.log.push(format!("{who} takes"));
            }
            ("drop", Phase::Take(_)) => {
                self.table.drop().map_err(refused)?;
                self.log.push(format!("{who} drops"));
            }
            ("move", Phase::Move(_, dice)) => {
                let text = body
                    .get("move")
                    .and_then(Value::as_str)
                    .ok_or_else(|| ApiError::new(400, "expected {\"move\": \"<move>\"}"))?;
                let board = *self.table.game().board();
                let m = self.table.play(text).map_err(refused)?;
                self.rolled = false;
                self.log
                    .push(format!("{who} rolls {dice}: {}", board.move_text(&m)));
            }
            (other, phase) => {
                return Err(ApiError::new(
                    409,
                    format!("cannot {other} now: {}", phase_text(phase)),
                ))
            }
        }
        self.after_action();
        self.changed();
        self.pass_if_forced();
        Ok(())
    }

    /// The engine's next decision: the job (its position lines are
    /// written once the process, and the form of position it reads, is
    /// known), the game's ID for them, and for a hint the plain `go` to
    /// fall back on when the engine refuses to rank candidates.
    /// `hint`: the decision is a person's, the answer advice.
    fn engine_job(
        &mut self,
        ctx_timeout: Duration,
        budget: Duration,
        hint: bool,
    ) -> Result<(engine::Job, GnubgId, Option<String>), ApiError> {
        if self.thinking {
            return Err(ApiError::new(409, "the engine is already deciding"));
        }
        let phase = self.phase();
        let side = phase
            .side()
            .ok_or_else(|| ApiError::new(409, "the game is over"))?;
        match (self.seats[side.index()], hint) {
            (Seat::Human, false) => return Err(ApiError::new(409, "it is a person's decision")),
            (Seat::Engine, true) => return Err(ApiError::new(409, "a hint is for a person")),
            _ => {}
        }
        let (go, reply) = match phase {
            Phase::Cube(_) => ("go cube", "bestcube"),
            Phase::Take(_) => ("go take", "besttake"),
            Phase::Move(..) => ("go chequer", "bestmove"),
            _ => unreachable!("a side is due"),
        };
        // Advice lists the engine's ranked candidates (our UBGI extension).
        let (go, plain) = match (hint, phase) {
            (true, Phase::Move(..)) => (format!("{go} candidates {HINT_MOVES}"), Some(go)),
            (true, _) => (format!("{go} candidates 1"), Some(go)),
            (false, _) => (go.to_string(), None),
        };
        self.stop = Arc::new(AtomicBool::new(false));
        let job = engine::Job {
            setup: Vec::new(),
            go,
            reply,
            errors_end: true,
            new_game: Proto::Ubgi.new_game(),
            mover: side,
            budget,
            timeout: ctx_timeout,
            stop: Arc::clone(&self.stop),
        };
        Ok((job, self.table.game().gnubg_id(), plain.map(String::from)))
    }

    /// The engine's answer as advice for the person, checked by the rules,
    /// with its ranked candidates or cube equities when it gave them.
    fn hint_answer(&mut self, reply: &str, text: &str, ranked: &[String]) -> Result<(), String> {
        let advice = match (reply, text, self.phase()) {
            ("bestcube", "double", Phase::Cube(_)) => "double".to_string(),
            ("bestcube", "nodouble", Phase::Cube(_)) => "no double: roll".to_string(),
            ("besttake", "take" | "drop", Phase::Take(_)) => text.to_string(),
            ("bestmove", m, Phase::Move(_, dice)) => {
                let board = *self.table.game().board();
                let (played, _) = board
                    .play_text(dice, m)
                    .map_err(|e| format!("the engine's move \"{m}\" with {dice}: {e}"))?;
                board.move_text(&played)
            }
            _ => return Err(format!("the engine answered \"{reply} {text}\"")),
        };
        let mut hint = format!("The engine would {advice}");
        if let Some(figures) = self.hint_figures(ranked)? {
            hint.push_str(&format!(". {figures}"));
        }
        self.hint = Some((self.version, hint));
        Ok(())
    }

    /// The ranked lines in words: "Best moves: 13/10 6/5 (+0.123), ..." or
    /// "No double +0.123, double/take +0.050, double/drop +1.000"; each
    /// candidate move checked by the rules.
    fn hint_figures(&mut self, ranked: &[String]) -> Result<Option<String>, String> {
        let mut moves = Vec::new();
        for line in ranked {
            if let Ok(c) = line.parse::<CubeLine>() {
                return Ok(Some(c.words()));
            }
            let r: RankLine = line.parse()?;
            if let Phase::Move(_, dice) = self.phase() {
                let board = *self.table.game().board();
                let (m, _) = board
                    .play_text(dice, &r.play)
                    .map_err(|e| format!("the engine's candidate \"{}\": {e}", r.play))?;
                moves.push(format!("{} ({:+.3})", board.move_text(&m), r.equity));
            }
        }
        Ok((!moves.is_empty()).then(|| format!("Best moves: {}", moves.join(", "))))
    }

    /// Plays the engine's answer, checked by the rules.
    fn engine_answer(&mut self, reply: &str, text: &str) -> Result<(), String> {
        let phase = self.phase();
        let Some(side) = phase.side() else {
            return Err("the game ended meanwhile".into());
        };
        let who = self.who(side);
        let bad = |e: backgammon_rules::GameError| e.to_string();
        let said = match (reply, text, phase) {
            ("bestcube", "double", Phase::Cube(_)) => {
                self.table.double().map_err(bad)?;
                let cube = 2 * self.table.game().state().cube_value();
                format!("{who} doubles to {cube}")
            }
            ("bestcube", "nodouble", Phase::Cube(_)) => {
                self.roll_dice();
                self.last_engine = Some(format!("{who} does not double"));
                return Ok(());
            }
            ("besttake", "take", Phase::Take(_)) => {
                self.table.take().map_err(bad)?;
                format!("{who} takes")
            }
            ("besttake", "drop", Phase::Take(_)) => {
                self.table.drop().map_err(bad)?;
                format!("{who} drops")
            }
            ("bestmove", m, Phase::Move(_, dice)) => {
                let board = *self.table.game().board();
                let played = self
                    .table
                    .play(m)
                    .map_err(|e| format!("the engine's move \"{m}\" with {dice}: {e}"))?;
                self.rolled = false;
                format!("{who} rolls {dice}: {}", board.move_text(&played))
            }
            _ => {
                return Err(format!(
                    "the engine answered \"{reply} {text}\" to {}",
                    phase_text(phase)
                ))
            }
        };
        self.last_engine = Some(said.clone());
        self.log.push(said);
        self.after_action();
        self.pass_if_forced();
        Ok(())
    }

    /// The match (or money game) as a GNU Backgammon `.mat` file, once it is over.
    pub fn mat(&mut self) -> Result<String, ApiError> {
        if self.start.is_some() {
            return Err(ApiError::new(
                409,
                "a game set up from a position has no .mat file: a .mat match starts from the opening",
            ));
        }
        let Due::Over(result) = self.table.due() else {
            return Err(ApiError::new(
                409,
                "the .mat file is offered once the match (or money game) is over",
            ));
        };
        let name = |side: Side| match self.seats[side.index()] {
            Seat::Human => "You".to_string(),
            Seat::Engine => self
                .engine_names
                .get(self.engine)
                .cloned()
                .unwrap_or_else(|| "engine".into()),
        };
        let record = GameRecord::<Backgammon> {
            event: "grasshopper board".into(),
            date: today(),
            pair: 0,
            game: 1,
            white: name(Side::White),
            black: name(Side::Black),
            opening: self.setup,
            tc: "-".into(),
            result,
            termination: Termination::Normal,
            detail: None,
            moves: self.table.turns().to_vec(),
            notes: Vec::new(),
        };
        mat::write(&record)
            .map_err(|e| ApiError::new(500, format!("the match does not replay: {e}")))
    }

    /// The game for the page.
    pub fn state(&mut self) -> Value {
        let phase = self.phase();
        let game = self.table.game();
        let st = *game.state();
        let board = *game.board();
        let on_roll = side_of(st.on_roll);
        let cube_owner = match st.cube_owner {
            backgammon_rules::CubeOwner::Centred => Value::Null,
            backgammon_rules::CubeOwner::Owned(p) => json!(word(side_of(p))),
        };
        let (due, legal) = match phase {
            Phase::Cube(s) => (json!({ "kind": "cube", "side": word(s) }), Value::Null),
            Phase::Take(s) => (json!({ "kind": "take", "side": word(s) }), Value::Null),
            Phase::Move(s, d) => {
                let (a, b) = d.values();
                let legal = if self.seats[s.index()] == Seat::Human {
                    json!(paths(&board, d))
                } else {
                    Value::Null
                };
                (
                    json!({ "kind": "move", "side": word(s), "dice": [a, b] }),
                    legal,
                )
            }
            Phase::GameOver => (json!({ "kind": "game_over" }), Value::Null),
            Phase::Over => (json!({ "kind": "over" }), Value::Null),
        };
        let result = game.result().map(|r| {
            json!({
                "winner": word(side_of(r.winner)),
                "kind": r.kind.name(),
                "points": r.points,
                "cube": r.cube,
                "ending": format!("{:?}", r.ending).to_lowercase(),
                "text": result_text(side_of(r.winner), r.kind, r.points, r.ending, &self.seats, self),
            })
        });
        let match_winner = match game.decision() {
            Decision::MatchOver { winner } => Some(word(side_of(winner))),
            _ => None,
        };
        let dice = st.dice.map(|d| {
            let (a, b) = d.values();
            [a, b]
        });
        json!({
            "game": "backgammon",
            "id": self.id,
            "version": self.version,
            "length": self.setup.length,
            "cube_in_play": self.setup.cube,
            "score": { "white": st.score[0], "black": st.score[1] },
            "crawford": st.crawford,
            "cube": { "value": st.cube_value(), "owner": cube_owner, "offered": st.doubled },
            "on_roll": word(on_roll),
            "dice": dice,
            "board": board_json(&board, on_roll),
            "due": due,
            "legal": legal,
            "result": result,
            "match_winner": match_winner,
            "seats": { "white": self.seats[0], "black": self.seats[1] },
            "engine": self.engine,
            "engine_name": self.engine_names.get(self.engine),
            "thinking": self.thinking,
            "last_engine": self.last_engine,
            "hint": self.hint.as_ref().filter(|(v, _)| *v == self.version).map(|(_, h)| h),
            "review": self.review.as_ref().map(|(marked, checked)| json!({
                "threshold": REVIEW_THRESHOLD,
                "checked": checked,
                "marked": marked,
            })),
            "log": self.log,
            "error": self.error,
            "position": game.gnubg_id().to_string(),
            "set_up_from": self.start,
        })
    }
}

/// A position text read by the rules (`parse_position`), kept trimmed as
/// given; bad text is refused with the rules' reason.
fn start_position(text: &str) -> Result<(String, Board, backgammon_rules::MatchState), ApiError> {
    let text = text.trim();
    let (board, state) = backgammon_rules::parse_position(text)
        .map_err(|e| ApiError::new(422, format!("the position: {e}")))?;
    Ok((text.to_string(), board, state))
}

/// A person's move is marked in the review when the engine's best
/// candidate is worth more than this (cubeless equity, money points).
pub const REVIEW_THRESHOLD: f64 = 0.04;

/// The candidates asked for each reviewed move (UBGI's most): a move not
/// among them lost at least the best's equity minus the last's.
const REVIEW_CANDIDATES: u8 = 32;

/// How many moves a hint lists.
const HINT_MOVES: u8 = 5;

/// One `info rank <r> ply <p> equity <e> move <m>` line of our UBGI
/// extension (`go chequer candidates K`, protocol.md).
#[derive(Clone, Debug, PartialEq)]
pub struct RankLine {
    pub rank: u32,
    pub ply: u8,
    /// The mover's cubeless equity after the move.
    pub equity: f64,
    pub play: String,
}

impl FromStr for RankLine {
    type Err = String;
    fn from_str(line: &str) -> Result<RankLine, String> {
        let bad = || format!("\"{line}\": expected info rank <r> ply <p> equity <e> move <m>");
        let rest = line.strip_prefix("info rank ").ok_or_else(bad)?;
        let (head, play) = rest.split_once(" move ").ok_or_else(bad)?;
        let w: Vec<&str> = head.split(' ').collect();
        match w[..] {
            [rank, "ply", ply, "equity", equity] if !play.trim().is_empty() => Ok(RankLine {
                rank: rank.parse().map_err(|_| bad())?,
                ply: ply.parse().map_err(|_| bad())?,
                equity: equity.parse().map_err(|_| bad())?,
                play: play.trim().to_string(),
            }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for RankLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info rank {} ply {} equity {:.4} move {}",
            self.rank, self.ply, self.equity, self.play
        )
    }
}

/// The `info cube nodouble <e> take <e> drop <e>` line of our UBGI
/// extension (`go cube|take candidates 1`): the doubler's values.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CubeLine {
    pub no_double: f64,
    pub take: f64,
    pub drop: f64,
}

impl CubeLine {
    fn words(&self) -> String {
        format!(
            "Equities of the player on roll: no double {:+.3}, double/take {:+.3}, double/drop {:+.3}",
            self.no_double, self.take, self.drop
        )
    }
}

impl FromStr for CubeLine {
    type Err = String;
    fn from_str(line: &str) -> Result<CubeLine, String> {
        let bad = || format!("\"{line}\": expected info cube nodouble <e> take <e> drop <e>");
        let w: Vec<&str> = line.split(' ').collect();
        let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
        match w[..] {
            ["info", "cube", "nodouble", n, "take", t, "drop", d] => Ok(CubeLine {
                no_double: num(n)?,
                take: num(t)?,
                drop: num(d)?,
            }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for CubeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info cube nodouble {:.4} take {:.4} drop {:.4}",
            self.no_double, self.take, self.drop
        )
    }
}

/// The engine index must name a UBGI engine when a seat is the engine's.
fn check_engine(engines: &[EngineSpec], engine: usize, seats: [Seat; 2]) -> Result<(), ApiError> {
    let spec = engines
        .get(engine)
        .ok_or_else(|| ApiError::new(400, format!("no engine {engine}")))?;
    if seats.contains(&Seat::Engine) && !is_ubgi(spec) {
        return Err(ApiError::new(
            400,
            format!(
                "engine {} does not speak UBGI: backgammon needs an engine given with proto=ubgi",
                spec.name
            ),
        ));
    }
    Ok(())
}

fn phase_text(p: Phase) -> String {
    match p {
        Phase::Cube(s) => format!("{} is to double or roll", s.capitalised()),
        Phase::Take(s) => format!("{} is to take or drop", s.capitalised()),
        Phase::Move(s, d) => format!("{} is to move {d}", s.capitalised()),
        Phase::GameOver => "the game is over: start the next".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// "Black (engine) wins a gammon: 2 points".
fn result_text(
    winner: Side,
    kind: WinKind,
    points: u32,
    ending: backgammon_rules::Ending,
    _seats: &[Seat; 2],
    s: &BgSession,
) -> String {
    let points = plural(points as usize, "point");
    let loser = winner.opposite().capitalised();
    match ending {
        backgammon_rules::Ending::Dropped => {
            format!("{} wins {points}: {loser} drops the double", s.who(winner))
        }
        backgammon_rules::Ending::Resigned => {
            format!("{} wins {points}: {loser} resigns", s.who(winner))
        }
        backgammon_rules::Ending::BorneOff => {
            format!("{} wins a {}: {points}", s.who(winner), kind.name())
        }
    }
}

/// The checkers for the page: per colour, 26 counts in that colour's own
/// numbering (0 off, 1..=24 points, 25 the bar), and the pip counts.
fn board_json(board: &Board, on_roll: Side) -> Value {
    let counts = |s: BoardSide| -> Vec<u8> {
        (0..=25u8)
            .map(|i| board.count(s, Point::from_index(i).expect("0..=25")))
            .collect()
    };
    let (mine, theirs) = (counts(BoardSide::OnRoll), counts(BoardSide::Opponent));
    let (white, black) = match on_roll {
        Side::White => (mine, theirs),
        Side::Black => (theirs, mine),
    };
    let pips = |s: BoardSide| board.pips(s);
    let (wp, bp) = match on_roll {
        Side::White => (pips(BoardSide::OnRoll), pips(BoardSide::Opponent)),
        Side::Black => (pips(BoardSide::Opponent), pips(BoardSide::OnRoll)),
    };
    json!({
        "white": white,
        "black": black,
        "pips": { "white": wp, "black": bp },
    })
}

/// A `.mat` file for the page to step through (`POST /api/mat {"text":
/// ...}`): read and replayed by the rules (match-backgammon's reader), each
/// game's actions with the position before each, drawn as a game's state
/// draws it, and the position after the last.
pub fn mat_replay(body: &Value) -> Result<Value, ApiError> {
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::new(400, "expected {\"text\": \"<the .mat file>\"}"))?;
    let file = mat::parse(text).map_err(|e| ApiError::new(422, format!("the .mat file: {e}")))?;
    let name = |side: Side| format!("{} ({})", capital(word(side)), file.names[side.index()]);
    let games: Vec<Value> = file
        .games
        .iter()
        .map(|g| {
            let mut steps: Vec<Value> = g
                .steps
                .iter()
                .map(|s| position_view(&s.before, format!("{} {}", name(s.side), s.action)))
                .collect();
            let end = match g.winner {
                Some((side, n)) => format!("{} wins {}", name(side), plural(n as usize, "point")),
                None => "The game was not finished".to_string(),
            };
            steps.push(position_view(&g.end, end));
            json!({ "score": { "white": g.score[0], "black": g.score[1] }, "steps": steps })
        })
        .collect();
    Ok(json!({
        "length": file.length,
        "names": { "white": file.names[0], "black": file.names[1] },
        "games": games,
    }))
}

/// A position of a replayed match as the page draws it, and whether a
/// game can be set up from it (it is being played).
fn position_view(id: &GnubgId, text: String) -> Value {
    let st = id.state;
    let on_roll = side_of(st.on_roll);
    let owner = match st.cube_owner {
        backgammon_rules::CubeOwner::Centred => Value::Null,
        backgammon_rules::CubeOwner::Owned(p) => json!(word(side_of(p))),
    };
    json!({
        "text": text,
        "position": id.to_string(),
        "playable": st.game_state == backgammon_rules::GameState::Playing,
        "length": st.match_length,
        "score": { "white": st.score[0], "black": st.score[1] },
        "crawford": st.crawford,
        "cube": { "value": st.cube_value(), "owner": owner, "offered": st.doubled },
        "on_roll": word(on_roll),
        "dice": st.dice.map(|d| { let (a, b) = d.values(); [a, b] }),
        "board": board_json(&id.board, on_roll),
    })
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// Every order in which the checkers of a legal move can be moved one die
/// at a time (in the mover's numbering: 25 the bar, 0 off), each with the
/// move's text: the page offers a checker's targets from these and sends
/// the steps the person chose. The rules core decides which sequences are
/// legal (`Board::apply`); this only lists single-die steps to try.
fn paths(board: &Board, dice: Dice) -> Vec<Value> {
    let legal = board.legal_moves(dice);
    if legal.moves()[0].is_pass() {
        return Vec::new();
    }
    let want = legal.moves()[0].len();
    let (a, b) = dice.values();
    let dice_left: Vec<u8> = if a == b { vec![a; 4] } else { vec![a, b] };
    let mut mine = [0i8; 26];
    let mut theirs = [0i8; 26];
    for i in 0..=25u8 {
        let p = Point::from_index(i).expect("0..=25");
        mine[i as usize] = board.count(BoardSide::OnRoll, p) as i8;
        theirs[i as usize] = board.count(BoardSide::Opponent, p) as i8;
    }
    let mut found: Vec<Vec<(u8, u8)>> = Vec::new();
    let mut path = Vec::new();
    walk(
        &mut mine,
        &mut theirs,
        &dice_left,
        want,
        &mut path,
        &mut found,
    );
    let mut out = Vec::new();
    for steps in found {
        let m = backgammon_rules::Move::new(
            &steps
                .iter()
                .filter_map(|&(f, t)| {
                    backgammon_rules::Step::new(Point::from_index(f)?, Point::from_index(t)?)
                })
                .collect::<Vec<_>>(),
        );
        let Some(m) = m else { continue };
        if board.apply(dice, &m).is_ok() {
            out.push(json!({
                "steps": steps.iter().map(|&(f, t)| [f, t]).collect::<Vec<_>>(),
                "text": steps.iter().map(|&(f, t)| format!("{}/{}", place(f), place(t))).collect::<Vec<_>>().join(" "),
            }));
            if out.len() >= MAX_PATHS {
                break;
            }
        }
    }
    out
}

fn place(i: u8) -> String {
    match i {
        0 => "off".into(),
        25 => "bar".into(),
        n => n.to_string(),
    }
}

/// Single-die steps in every order, `want` of them (the rules core then
/// keeps the legal sequences).
fn walk(
    mine: &mut [i8; 26],
    theirs: &mut [i8; 26],
    dice: &[u8],
    want: usize,
    path: &mut Vec<(u8, u8)>,
    found: &mut Vec<Vec<(u8, u8)>>,
) {
    if path.len() == want {
        found.push(path.clone());
        return;
    }
    if found.len() > 4 * MAX_PATHS {
        return;
    }
    let mut tried = Vec::new();
    for (k, &d) in dice.iter().enumerate() {
        if tried.contains(&d) {
            continue;
        }
        tried.push(d);
        let rest: Vec<u8> = dice
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, &x)| x)
            .collect();
        for from in (1..=25u8).rev() {
            if mine[from as usize] == 0 || (mine[25] > 0 && from != 25) {
                continue;
            }
            let to = from.saturating_sub(d);
            if to == 0 {
                let home = (7..=25).all(|p| mine[p] == 0);
                let exact = from == d;
                let highest = ((from + 1)..=6).all(|p| mine[p as usize] == 0);
                if !home || !(exact || highest) {
                    continue;
                }
            } else if theirs[25 - to as usize] >= 2 {
                continue;
            }
            let hit = to > 0 && theirs[25 - to as usize] == 1;
            mine[from as usize] -= 1;
            mine[to as usize] += 1;
            if hit {
                theirs[25 - to as usize] = 0;
                theirs[25] += 1;
            }
            path.push((from, to));
            walk(mine, theirs, &rest, want, path, found);
            path.pop();
            if hit {
                theirs[25] -= 1;
                theirs[25 - to as usize] = 1;
            }
            mine[to as usize] -= 1;
            mine[from as usize] += 1;
        }
    }
}

/// A backgammon game shared between requests.
pub struct BgShared {
    inner: Arc<Mutex<BgSession>>,
}

impl BgShared {
    /// The after-game review: the engine ranks the candidates of each of
    /// the people's checker plays (`go chequer candidates 32`), and the
    /// plays that lost more than [`REVIEW_THRESHOLD`] are marked with the
    /// better move. The process is lent out meanwhile, as for a decision.
    pub fn review(
        &self,
        engines: &[EngineSpec],
        permits: &Arc<Permits>,
        timeout: Duration,
        budget: Duration,
    ) -> Result<(), ApiError> {
        let (moves, process, spec, stop) = {
            let mut s = self.lock();
            s.touch();
            let moves = s.moves_to_review()?;
            s.thinking = true;
            s.error = None;
            s.stop = Arc::new(AtomicBool::new(false));
            (
                moves,
                s.process.take(),
                engines[s.engine].clone(),
                Arc::clone(&s.stop),
            )
        };
        let mut process = match process {
            Some(p) => Ok(p),
            None => Process::start(&spec, permits, timeout).map_err(|e| e.to_string()),
        };
        let mut marked = Vec::new();
        let mut failed = None;
        for m in &moves {
            let Ok(p) = process else { break };
            let job = engine::Job {
                // The board alone: the review ranks by money equity.
                setup: board_lines(&m.before, Some(m.dice)),
                go: format!("go chequer candidates {REVIEW_CANDIDATES}"),
                reply: "bestmove",
                errors_end: true,
                new_game: Proto::Ubgi.new_game(),
                mover: m.side,
                budget,
                timeout,
                stop: Arc::clone(&stop),
            };
            let (ended, back) = engine::search(p, &job, &mut |_| {});
            process = back.ok_or_else(|| "the engine is gone".to_string());
            match ended {
                Ended::Move { ranked, .. } => match BgSession::judge(m, &ranked) {
                    Ok(Some(v)) => marked.push(v),
                    Ok(None) => {}
                    Err(why) => failed = Some(why),
                },
                Ended::Stopped => failed = Some("the review was stopped".into()),
                Ended::Refused(why) => {
                    failed = Some(format!(
                        "this engine cannot rank moves ({why}): the review needs an engine \
                         that lists its candidates (go chequer candidates K), such as grasshopper"
                    ))
                }
                Ended::Failed(why) => failed = Some(why),
            }
            if failed.is_some() {
                break;
            }
        }
        let mut s = self.lock();
        s.thinking = false;
        let back = process.ok();
        if s.closed {
            if let Some(p) = back {
                p.retire();
            }
            return Ok(());
        }
        s.process = back;
        match failed {
            Some(why) => s.error = Some(format!("the review: {why}")),
            None => s.review = Some((marked, moves.len())),
        }
        s.changed();
        Ok(())
    }

    pub fn new(s: BgSession) -> BgShared {
        BgShared {
            inner: Arc::new(Mutex::new(s)),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, BgSession> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// One decision of the engine, made in this request (a backgammon
    /// decision takes milliseconds to a second): the process is lent out
    /// while it decides, so the page can still ask about the game.
    pub fn go(
        &self,
        engines: &[EngineSpec],
        permits: &Arc<Permits>,
        timeout: Duration,
        budget: Duration,
        hint: bool,
    ) -> Result<(), ApiError> {
        let (mut job, id, plain, process, spec) = {
            let mut s = self.lock();
            s.touch();
            let (job, id, plain) = s.engine_job(timeout, budget, hint)?;
            s.thinking = true;
            s.error = None;
            (job, id, plain, s.process.take(), engines[s.engine].clone())
        };
        let process = match process {
            Some(p) => Ok(p),
            None => Process::start(&spec, permits, timeout).map_err(|e| e.to_string()),
        };
        let (mut ended, mut back) = match process {
            Ok(p) => {
                job.setup = p.position_form().lines(&id);
                engine::search(p, &job, &mut |_| {})
            }
            Err(why) => (Ended::Failed(why), None),
        };
        // An engine that does not rank candidates is asked for its choice.
        if let (Ended::Refused(_), Some(plain)) = (&ended, plain) {
            if let Some(p) = back.take() {
                job.go = plain;
                (ended, back) = engine::search(p, &job, &mut |_| {});
            }
        }
        let mut s = self.lock();
        s.thinking = false;
        if s.closed {
            if let Some(p) = back {
                p.retire();
            }
            return Ok(());
        }
        s.process = back;
        match ended {
            Ended::Stopped => {}
            Ended::Failed(why) | Ended::Refused(why) => s.error = Some(why),
            Ended::Move { text, ranked, .. } if hint => {
                if let Err(why) = s.hint_answer(job.reply, &text, &ranked) {
                    s.error = Some(why);
                }
                // Advice changes nothing: the page keeps the steps chosen.
                return Ok(());
            }
            Ended::Move { text, .. } => {
                let (reply, answer) = (job.reply, text);
                if let Err(why) = s.engine_answer(reply, &answer) {
                    s.error = Some(why);
                    // A process that answers wrongly is not trusted further.
                    if let Some(p) = s.process.take() {
                        p.retire();
                    }
                }
            }
        }
        s.changed();
        Ok(())
    }
}

/// One person's move to review: its number in the game's list, the side,
/// the dice, the position before it (seen from the mover) and the play.
struct ToReview {
    number: usize,
    side: Side,
    dice: Dice,
    before: Board,
    play: backgammon_rules::Move,
}

impl BgSession {
    /// The people's checker plays with a choice (more than one legal
    /// move), for the review; refused while the game goes on.
    fn moves_to_review(&mut self) -> Result<Vec<ToReview>, ApiError> {
        if !matches!(self.phase(), Phase::GameOver | Phase::Over) {
            return Err(ApiError::new(409, "the review comes after the game"));
        }
        if self.thinking {
            return Err(ApiError::new(409, "the engine is already deciding"));
        }
        let mut out = Vec::new();
        for (number, e) in self.table.events().iter().enumerate() {
            let match_backgammon::Event::Move {
                side,
                dice,
                before,
                play,
            } = *e
            else {
                continue;
            };
            let choice = before.legal_moves(dice).len() > 1;
            if self.seats[side.index()] == Seat::Human && choice {
                out.push(ToReview {
                    number,
                    side,
                    dice,
                    before,
                    play,
                });
            }
        }
        Ok(out)
    }

    /// The equity the person's play lost against the best candidate, and
    /// the best's text: `None` when within the threshold. `at_least`: the
    /// play was not among the candidates.
    fn judge(m: &ToReview, ranked: &[String]) -> Result<Option<Value>, String> {
        let lines: Vec<RankLine> = ranked
            .iter()
            .map(|l| l.parse())
            .collect::<Result<_, String>>()?;
        let (best, last) = match (lines.first(), lines.last()) {
            (Some(b), Some(l)) => (b, l),
            _ => return Err("the engine gave no candidates".into()),
        };
        let after = |text: &str| m.before.play_text(m.dice, text).map(|(_, a)| a);
        let played = m.before.apply_unchecked(m.play);
        let mine = lines
            .iter()
            .find(|r| after(&r.play).is_ok_and(|a| a == played));
        let (loss, at_least) = match mine {
            Some(r) => (best.equity - r.equity, false),
            None => (best.equity - last.equity, true),
        };
        if loss <= REVIEW_THRESHOLD {
            return Ok(None);
        }
        let (best_move, _) = m
            .before
            .play_text(m.dice, &best.play)
            .map_err(|e| format!("the engine's candidate \"{}\": {e}", best.play))?;
        let (a, b) = m.dice.values();
        Ok(Some(json!({
            "event": m.number,
            "side": word(m.side),
            "dice": [a, b],
            "played": m.before.move_text(&m.play),
            "best": m.before.move_text(&best_move),
            "loss": (loss * 1000.0).round() / 1000.0,
            "at_least": at_least,
        })))
    }

    /// Whose decision it is, for the server's routing.
    pub fn engine_to_act(&mut self) -> bool {
        self.phase()
            .side()
            .is_some_and(|s| self.seats[s.index()] == Seat::Engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(board: &Board, dice: &str) -> Vec<String> {
        paths(board, dice.parse().unwrap())
            .iter()
            .map(|p| p["text"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn every_order_of_the_steps_of_a_legal_move_is_listed_and_nothing_else() {
        let start = Board::START;
        let t = texts(&start, "64");
        // One checker all the way, by either die first.
        assert!(t.contains(&"24/18 18/14".to_string()), "{t:?}");
        assert!(t.contains(&"24/20 20/14".to_string()), "{t:?}");
        // Two checkers, in either order.
        assert!(t.contains(&"13/7 13/9".to_string()) && t.contains(&"13/9 13/7".to_string()));
        // Each is a legal move the rules read back.
        let dice: Dice = "64".parse().unwrap();
        for text in &t {
            start
                .play_text(dice, text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        // 6-5: the 5 from 24 lands on Black's 6-point (our 19): never offered.
        let t = texts(&start, "65");
        assert!(t.contains(&"24/18 18/13".to_string()), "{t:?}");
        assert!(!t.iter().any(|p| p.contains("/19")), "{t:?}");
        // 6-6: four steps each.
        let sixes = texts(&start, "66");
        assert!(
            !sixes.is_empty() && sixes.iter().all(|p| p.split(' ').count() == 4),
            "{sixes:?}"
        );
        // Doubles have many orders, but few enough to send (245 for 1-1).
        assert!(texts(&start, "11").len() < 1000);
    }

    #[test]
    fn the_ranked_lines_round_trip_and_bad_ones_are_quoted() {
        let line = "info rank 2 ply 2 equity -0.0123 move 24/23 13/10";
        let r: RankLine = line.parse().unwrap();
        assert_eq!((r.rank, r.ply, r.play.as_str()), (2, 2, "24/23 13/10"));
        assert_eq!(r.to_string(), line);
        let cube = "info cube nodouble 0.0640 take -0.1000 drop 1.0000";
        let c: CubeLine = cube.parse().unwrap();
        assert_eq!(c.drop, 1.0);
        assert_eq!(c.to_string(), cube);
        let e = "info rank x ply 2 equity 0.1 move 8/5"
            .parse::<RankLine>()
            .unwrap_err();
        assert!(e.contains("\"info rank x ply 2"), "{e}");
        assert!("info rank 1 ply 1 equity 0.1 move "
            .parse::<RankLine>()
            .is_err());
        assert!("info cube nodouble 1 take 2".parse::<CubeLine>().is_err());
    }

    #[test]
    fn a_checker_on_the_bar_enters_first_and_no_move_lists_nothing() {
        // The player on roll has a checker on the bar; Black's home board
        // holds points 1 and 2 (from the mover's side: 24 and 23).
        let mut mine = [0u8; 25];
        mine[24] = 1; // the bar
        mine[5] = 14; // the 6-point
        let mut theirs = [0u8; 25];
        theirs[0] = 8; // their 1-point = our 24
        theirs[1] = 7; // their 2-point = our 23
        let board = Board::from_counts(&mine, &theirs).unwrap();
        let t = texts(&board, "31");
        assert!(
            !t.is_empty() && t.iter().all(|p| p.starts_with("bar/")),
            "{t:?}"
        );
        // Both entry points closed by 1-2: no move at all.
        assert!(texts(&board, "21").is_empty());
    }
}
