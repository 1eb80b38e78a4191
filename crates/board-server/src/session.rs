//! One game on the board: its start, the moves played (each refereed by the
//! rules core), a cursor for undo and for replaying a loaded record, who
//! sits at each side (a person or the engine), the engine's strength, and
//! the engine process of this game with its search in progress.

use crate::engine::{self, Ended, Info, Job, Permits, Process};
use crate::game::{side_word, BoardGame};
use match_runner::records::today;
use match_runner::{EngineSpec, GameRecord, GameResult, Side, Termination, TimeControl};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The pass move's word.
const PASS: &str = "pass";
/// The note of a pass played for a side that had no other move.
pub const FORCED: &str = "forced pass";

/// An error for the page: an HTTP status and a message in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    Human,
    Engine,
}

/// The engine's strength: a depth or a time per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Limit {
    Depth(u32),
    Movetime(u64),
}

impl Limit {
    /// Deepest search the page may ask for.
    pub const MAX_DEPTH: u32 = 64;
    /// Longest move time the page may ask for, in ms.
    pub const MAX_MOVETIME: u64 = 60_000;

    pub fn check(self) -> Result<Limit, ApiError> {
        match self {
            Limit::Depth(d) if (1..=Limit::MAX_DEPTH).contains(&d) => Ok(self),
            Limit::Movetime(t) if (10..=Limit::MAX_MOVETIME).contains(&t) => Ok(self),
            Limit::Depth(d) => Err(ApiError::new(
                400,
                format!("depth {d}: expected 1 to {}", Limit::MAX_DEPTH),
            )),
            Limit::Movetime(t) => Err(ApiError::new(
                400,
                format!("movetime {t} ms: expected 10 to {}", Limit::MAX_MOVETIME),
            )),
        }
    }

    fn time_control(self) -> TimeControl {
        match self {
            Limit::Depth(d) => TimeControl::Depth(d),
            Limit::Movetime(t) => TimeControl::MoveTime(Duration::from_millis(t)),
        }
    }
}

/// The server-wide things a game needs to run its engine.
#[derive(Clone)]
pub struct EngineContext {
    pub engines: Arc<Vec<EngineSpec>>,
    pub permits: Arc<Permits>,
    /// Patience for the handshake and `readyok`.
    pub timeout: Duration,
    /// How long a depth search may take before the engine counts as hung.
    pub move_timeout: Duration,
}

/// What a loaded record said about its game.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Loaded {
    white: String,
    black: String,
    event: String,
    date: String,
    result: String,
    termination: String,
    detail: Option<String>,
}

/// A game as it is kept on disk (see [`crate::store`]): enough to set it
/// up again, every move refereed anew.
#[derive(Debug, Serialize, Deserialize)]
pub struct Saved {
    start: String,
    moves: Vec<String>,
    notes: Vec<String>,
    cursor: usize,
    seats: [Seat; 2],
    limit: Limit,
    engine: usize,
    loaded: Option<Loaded>,
    diverged: bool,
    /// "white" or "black": the side that resigned.
    #[serde(default)]
    resigned: Option<String>,
    /// The version the game had: a page that saw it can go on playing.
    #[serde(default)]
    version: u64,
}

/// A search lent the process to a thread.
struct Running {
    id: u64,
    stop: Arc<AtomicBool>,
    /// The ply the search is for.
    ply: usize,
    /// What the search is for.
    purpose: Purpose,
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move, played.
    Play,
    /// A hint for the person to move: shown, not played.
    Hint,
    /// The value of the position after `ply` moves, for the analysis of
    /// the game, searched to `depth`.
    Analyse { ply: usize, depth: u32 },
}

/// One game.
pub struct Session<G: BoardGame> {
    pub id: String,
    /// Positions: `positions[k]` is the position after `k` moves.
    positions: Vec<G::Opening>,
    moves: Vec<G::Move>,
    notes: Vec<String>,
    /// Plies shown (and played from): `0..=moves.len()`.
    cursor: usize,
    seats: [Seat; 2],
    limit: Limit,
    engine: usize,
    /// The names of the engines the server offers.
    engine_names: Arc<Vec<String>>,
    process: Option<Process>,
    /// The process is out with a search thread (running or stopping).
    lent: bool,
    /// The engine (index) whose process is out.
    lent_for: usize,
    running: Option<Running>,
    next_search: u64,
    /// The engine's latest report and the ply it is about.
    info: Option<(usize, Info)>,
    error: Option<String>,
    /// Something to tell about the engine's last move (a search cut short).
    warning: Option<String>,
    /// The side that resigned at the end of the moves.
    resigned: Option<Side>,
    /// The engine's suggestion for a person, and the ply it is for.
    hint: Option<(usize, String)>,
    /// The analysis: the engine's best move and its score, by ply.
    analysis: std::collections::BTreeMap<usize, (String, Info)>,
    restarts: u32,
    loaded: Option<Loaded>,
    /// A move was made or taken back since the record was loaded.
    diverged: bool,
    last_seen: Instant,
    version: u64,
    closed: bool,
}

/// Settings of a new game or a change of settings.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default)]
    pub game: Option<String>,
    #[serde(default)]
    pub checkers: Option<u8>,
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub record: Option<String>,
    #[serde(default)]
    pub white: Option<Seat>,
    #[serde(default)]
    pub black: Option<Seat>,
    #[serde(default)]
    pub engine: Option<usize>,
    #[serde(default)]
    pub limit: Option<Limit>,
}

impl<G: BoardGame> Session<G> {
    /// A new game from the settings: a start position of a size, a position
    /// string, or a record to replay.
    pub fn new(
        id: String,
        s: &Settings,
        engine_names: Arc<Vec<String>>,
    ) -> Result<Session<G>, ApiError> {
        let (lo, hi, default) = G::SIZES;
        let mut loaded = None;
        let mut moves = Vec::new();
        let mut notes = Vec::new();
        let start = if let Some(text) = &s.record {
            let parsed = match_runner::parse_records::<G>(text)
                .map_err(|e| ApiError::new(422, format!("cannot read the record: {e}")))?;
            let Some(rec) = parsed.games.into_iter().next() else {
                return Err(ApiError::new(422, "the text holds no complete game record"));
            };
            rec.replay()
                .map_err(|e| ApiError::new(422, format!("the record does not replay: {e}")))?;
            loaded = Some(Loaded {
                white: rec.white.clone(),
                black: rec.black.clone(),
                event: rec.event.clone(),
                date: rec.date.clone(),
                result: rec.result.to_string(),
                termination: rec.termination.to_string(),
                detail: rec.detail.clone(),
            });
            notes = if rec.notes.len() == rec.moves.len() {
                rec.notes.clone()
            } else {
                vec![String::new(); rec.moves.len()]
            };
            moves = rec.moves;
            rec.opening
        } else if let Some(fen) = &s.fen {
            fen.trim()
                .parse::<G::Opening>()
                .map_err(|e| ApiError::new(422, format!("bad position string: {e}")))?
        } else {
            let n = s.checkers.unwrap_or(default);
            if !(lo..=hi).contains(&n) {
                return Err(ApiError::new(
                    400,
                    format!("{n} checkers: expected {lo} to {hi}"),
                ));
            }
            G::start(n).ok_or_else(|| {
                ApiError::new(
                    400,
                    format!("{n} checkers: expected an even number from {lo} to {hi}"),
                )
            })?
        };
        let mut positions = vec![start];
        for m in &moves {
            let next = G::play_checked(positions.last().expect("start"), *m)
                .map_err(|e| ApiError::new(422, format!("the record's move {m}: {e}")))?;
            positions.push(next);
        }
        let mut session = Session {
            id,
            positions,
            cursor: if loaded.is_some() { 0 } else { moves.len() },
            moves,
            notes,
            seats: [Seat::Human, Seat::Engine],
            limit: Limit::Movetime(1000),
            engine: 0,
            engine_names,
            process: None,
            lent: false,
            lent_for: 0,
            running: None,
            next_search: 1,
            info: None,
            error: None,
            warning: None,
            resigned: None,
            hint: None,
            analysis: Default::default(),
            restarts: 0,
            loaded,
            diverged: false,
            last_seen: Instant::now(),
            version: 1,
            closed: false,
        };
        session.apply(s)?;
        if session.loaded.is_none() {
            session.pass_if_forced();
        }
        if session.loaded.is_some() {
            // A record is for watching: nobody moves until a person takes a side.
            session.seats = [
                s.white.unwrap_or(Seat::Human),
                s.black.unwrap_or(Seat::Human),
            ];
        }
        Ok(session)
    }

    /// What to keep on disk, and the version it describes.
    pub fn saved(&self) -> (u64, Saved) {
        let saved = Saved {
            start: self.positions[0].to_string(),
            moves: self.moves.iter().map(|m| m.to_string()).collect(),
            notes: self.notes.clone(),
            cursor: self.cursor,
            seats: self.seats,
            limit: self.limit,
            engine: self.engine,
            loaded: self.loaded.clone(),
            diverged: self.diverged,
            resigned: self.resigned.map(|s| side_word(s).to_string()),
            version: self.version,
        };
        (self.version, saved)
    }

    /// A saved game set up again (its moves refereed anew).
    pub fn restore(
        id: String,
        saved: Saved,
        engine_names: Arc<Vec<String>>,
    ) -> Result<Session<G>, ApiError> {
        let bad = |what: String| ApiError::new(500, format!("the saved game {id}: {what}"));
        let mut session = Session::<G>::new(
            id.clone(),
            &Settings {
                fen: Some(saved.start.clone()),
                ..Default::default()
            },
            Arc::clone(&engine_names),
        )
        .map_err(|e| bad(e.message))?;
        // `new` may have played a forced pass: the saved moves say what was played.
        session.truncate(0);
        session.cursor = 0;
        for word in &saved.moves {
            let m: G::Move = word.parse().map_err(|e| bad(format!("{word}: {e}")))?;
            session
                .push(m, String::new())
                .map_err(|e| bad(format!("{word}: {e}")))?;
        }
        if saved.notes.len() == saved.moves.len() {
            session.notes = saved.notes;
        }
        session.cursor = saved.cursor.min(session.moves.len());
        session.seats = saved.seats;
        session.limit = saved.limit.check().unwrap_or(session.limit);
        session.engine = saved.engine.min(engine_names.len().saturating_sub(1));
        session.loaded = saved.loaded;
        session.diverged = saved.diverged;
        session.version = session.version.max(saved.version);
        session.resigned = match saved.resigned.as_deref() {
            Some("white") => Some(Side::White),
            Some("black") => Some(Side::Black),
            _ => None,
        };
        Ok(session)
    }

    /// Changes seats, engine and strength (the rest of `s` must be empty).
    pub fn apply(&mut self, s: &Settings) -> Result<(), ApiError> {
        let engines = self.engine_names.len();
        if let Some(l) = s.limit {
            self.limit = l.check()?;
        }
        if let Some(e) = s.engine {
            if e >= engines {
                return Err(ApiError::new(
                    400,
                    format!(
                        "engine {e}: the server has {} (0 to {})",
                        plural(engines, "engine"),
                        engines - 1
                    ),
                ));
            }
            if e != self.engine {
                self.stop_search();
                if let Some(p) = self.process.take() {
                    p.retire();
                }
                self.engine = e;
            }
        }
        if let Some(w) = s.white {
            self.seats[0] = w;
        }
        if let Some(b) = s.black {
            self.seats[1] = b;
        }
        self.touch();
        Ok(())
    }

    /// Notes that the page is still there.
    pub fn touch(&mut self) {
        self.last_seen = Instant::now();
    }

    pub fn idle_for(&self) -> Duration {
        self.last_seen.elapsed()
    }

    /// A search runs, or a stopped one is still finishing.
    pub fn searching(&self) -> bool {
        self.running.is_some() || self.lent
    }

    fn changed(&mut self) {
        self.version += 1;
        self.touch();
    }

    fn here(&self) -> &G::Opening {
        &self.positions[self.cursor]
    }

    /// How the game shown has ended: by the rules, or by a resignation at
    /// the end of the moves.
    fn outcome(&self) -> Option<(GameResult, String)> {
        if let Some(r) = G::outcome(self.here()) {
            return Some(r);
        }
        let side = self.resigned.filter(|_| self.cursor == self.moves.len())?;
        let word = |s: Side| {
            let w = side_word(s);
            w[..1].to_uppercase() + &w[1..]
        };
        Some((
            GameResult::win_for(side.opposite()),
            format!("{} resigns: {} wins", word(side), word(side.opposite())),
        ))
    }

    /// The side to move gives the game up (only at the end of the moves).
    pub fn resign(&mut self) -> Result<(), ApiError> {
        if let Some((_, why)) = self.outcome() {
            return Err(ApiError::new(409, format!("the game is over: {why}")));
        }
        if self.cursor != self.moves.len() {
            return Err(ApiError::new(
                409,
                "resign at the end of the game, not while looking at an earlier move",
            ));
        }
        self.stop_search();
        self.resigned = Some(G::to_move(self.here()));
        self.changed();
        Ok(())
    }

    /// Plays a person's move at the cursor (dropping any moves after it).
    /// With `seen`, the version of the game the page showed: a page that
    /// missed a change (another tab moved) is refused, not obeyed.
    pub fn play(&mut self, word: &str, seen: Option<u64>) -> Result<(), ApiError> {
        if self.running.is_some() {
            return Err(ApiError::new(409, "the engine is thinking"));
        }
        if let Some((_, why)) = self.outcome() {
            return Err(ApiError::new(409, format!("the game is over: {why}")));
        }
        if seen.is_some_and(|v| v != self.version) {
            return Err(ApiError::new(
                409,
                "the game changed since this page last saw it (in another tab?): \
                 here it is now; play again",
            ));
        }
        let m: G::Move = word
            .trim()
            .parse()
            .map_err(|e| ApiError::new(422, format!("{e}")))?;
        self.push(m, String::new())
            .map_err(|why| ApiError::new(422, why.to_string()))?;
        self.pass_if_forced();
        Ok(())
    }

    /// Plays the pass for whoever must pass (their only legal move), so
    /// nobody clicks Pass and no engine is asked; the note says it was forced.
    fn pass_if_forced(&mut self) {
        while self.cursor == self.moves.len() && G::outcome(self.here()).is_none() {
            let legal = G::legal_moves(self.here());
            // The rules list a lone pass when the side to move has no action.
            let [only] = legal.as_slice() else { return };
            if only.to_string() != PASS || self.push(*only, FORCED.to_string()).is_err() {
                return;
            }
        }
    }

    fn push(&mut self, m: G::Move, note: String) -> Result<(), G::IllegalMove> {
        let next = G::play_checked(self.here(), m)?;
        self.truncate(self.cursor);
        self.resigned = None;
        self.positions.push(next);
        self.moves.push(m);
        self.notes.push(note);
        self.cursor += 1;
        self.error = None;
        self.changed();
        Ok(())
    }

    fn truncate(&mut self, plies: usize) {
        if plies < self.moves.len() {
            self.analysis.retain(|ply, _| *ply <= plies);
            self.moves.truncate(plies);
            self.notes.truncate(plies);
            self.positions.truncate(plies + 1);
            self.diverged = true;
        }
    }

    /// Takes back moves: the last `plies` before the cursor, for good.
    pub fn undo(&mut self, plies: usize) -> Result<(), ApiError> {
        self.stop_search();
        let to = self.cursor.saturating_sub(plies);
        self.resigned = None;
        self.truncate(to);
        self.cursor = to;
        self.error = None;
        self.changed();
        Ok(())
    }

    /// Shows the position after `ply` moves (for replaying); moves after it stay.
    pub fn seek(&mut self, ply: usize) -> Result<(), ApiError> {
        if ply > self.moves.len() {
            return Err(ApiError::new(
                400,
                format!(
                    "ply {ply}: the game has {}",
                    plural(self.moves.len(), "move")
                ),
            ));
        }
        self.stop_search();
        self.cursor = ply;
        self.changed();
        Ok(())
    }

    /// Ends a running search; its answer will be thrown away.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            self.changed();
        }
    }

    /// Prepares a search for the side to move at the cursor.
    fn begin_search(
        &mut self,
        ctx: &EngineContext,
        purpose: Purpose,
    ) -> Result<(u64, Job, Option<Process>, EngineSpec), ApiError> {
        let (ply, limit) = match purpose {
            Purpose::Analyse { ply, depth } => {
                if ply > self.moves.len() {
                    return Err(ApiError::new(
                        400,
                        format!(
                            "ply {ply}: the game has {}",
                            plural(self.moves.len(), "move")
                        ),
                    ));
                }
                (ply, Limit::Depth(depth).check()?)
            }
            _ => (self.cursor, self.limit),
        };
        if self.running.is_some() {
            return Err(ApiError::new(409, "the engine is already thinking"));
        }
        if self.lent {
            return Err(ApiError::new(
                409,
                "the engine is still finishing a stopped search; try again in a moment",
            ));
        }
        let over = match purpose {
            Purpose::Analyse { .. } => G::outcome(&self.positions[ply]),
            _ => self.outcome(),
        };
        if let Some((_, why)) = over {
            return Err(ApiError::new(409, format!("the game is over: {why}")));
        }
        let spec = ctx.engines[self.engine].clone();
        let id = self.next_search;
        self.next_search += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let budget = match limit {
            Limit::Depth(_) => ctx.move_timeout,
            Limit::Movetime(t) => Duration::from_millis(t) + Duration::from_secs(2),
        };
        let go = match limit {
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Movetime(t) => format!("go movetime {t}"),
        };
        let job = Job {
            setup: vec![G::position_command(&self.positions[0], &self.moves[..ply])],
            go,
            reply: "bestmove",
            errors_end: false,
            new_game: spec.proto.new_game(),
            mover: G::to_move(&self.positions[ply]),
            budget,
            timeout: ctx.timeout,
            stop: Arc::clone(&stop),
        };
        self.running = Some(Running {
            id,
            stop,
            ply,
            purpose,
        });
        if purpose == Purpose::Hint {
            self.hint = None;
        }
        self.lent = true;
        self.lent_for = self.engine;
        if !matches!(purpose, Purpose::Analyse { .. }) {
            self.info = None;
        }
        self.error = None;
        self.warning = None;
        self.changed();
        Ok((id, job, self.process.take(), spec))
    }

    /// Takes the result of search `id` (the process comes back with it).
    fn end_search(&mut self, id: u64, ended: Ended, process: Option<Process>, restarted: bool) {
        self.lent = false;
        if self.closed || self.lent_for != self.engine {
            // The game is gone, or another engine was chosen meanwhile.
            if let Some(p) = process {
                p.retire();
            }
            if self.closed {
                return;
            }
        } else {
            self.process = process;
        }
        let current = matches!(&self.running, Some(r) if r.id == id);
        if !current {
            return;
        }
        let purpose = self.running.take().map_or(Purpose::Play, |r| r.purpose);
        match ended {
            Ended::Stopped => {}
            Ended::Failed(why) | Ended::Refused(why) => {
                self.restarts += u32::from(restarted);
                self.error = Some(if restarted {
                    format!("{why}; it was restarted")
                } else {
                    why
                });
            }
            Ended::Move {
                word,
                info,
                note,
                late,
                ..
            } => {
                self.warning = late;
                if let Purpose::Analyse { ply, .. } = purpose {
                    self.analysis.insert(ply, (word, info.unwrap_or_default()));
                    self.changed();
                    return;
                }
                if let Some(i) = info {
                    self.info = Some((self.cursor, i));
                }
                if purpose == Purpose::Hint {
                    self.hint = Some((self.cursor, word));
                    self.changed();
                    return;
                }
                match word.parse::<G::Move>() {
                    Err(e) => self.error = Some(format!("the engine sent bestmove {word}: {e}")),
                    Ok(m) => {
                        if let Err(why) = self.push(m, note) {
                            self.error =
                                Some(format!("the engine played the illegal move {m}: {why}"));
                        }
                        self.pass_if_forced();
                    }
                }
            }
        }
        self.changed();
    }

    /// Closes the game: stops its search and lets its process go.
    pub fn close(&mut self) {
        self.stop_search();
        self.closed = true;
        if let Some(p) = self.process.take() {
            p.retire();
        }
    }

    /// The game's record, once the rules have ended it (or as loaded).
    pub fn record(&self) -> Result<String, ApiError> {
        let moves = &self.moves[..self.cursor];
        let (result, termination, detail) = match self.outcome() {
            // A resignation has no termination word of its own in the
            // records' format: a normal end, the detail says who resigned.
            Some((r, why)) => (
                r,
                Termination::Normal,
                G::outcome(self.here()).is_none().then_some(why),
            ),
            None => match &self.loaded {
                Some(l) if !self.diverged && self.cursor == self.moves.len() => (
                    l.result
                        .parse::<GameResult>()
                        .map_err(|e| ApiError::new(500, e))?,
                    l.termination
                        .parse::<Termination>()
                        .map_err(|e| ApiError::new(500, e))?,
                    l.detail.clone(),
                ),
                _ => {
                    return Err(ApiError::new(
                        409,
                        "the game is not over: a record needs a result (copy the position \
                         string to keep an unfinished game)",
                    ))
                }
            },
        };
        let (white, black, event, date) = match &self.loaded {
            Some(l) if !self.diverged => (
                l.white.clone(),
                l.black.clone(),
                l.event.clone(),
                l.date.clone(),
            ),
            _ => (
                self.player_name(0),
                self.player_name(1),
                "grasshopper serve".to_string(),
                today(),
            ),
        };
        let tc = if self.seats.contains(&Seat::Engine) {
            self.limit.time_control().to_string()
        } else {
            "-".to_string()
        };
        let record: GameRecord<G> = GameRecord {
            event,
            date,
            pair: 0,
            game: 1,
            white,
            black,
            opening: self.positions[0],
            tc,
            result,
            termination,
            detail,
            moves: moves.to_vec(),
            notes: self.notes[..self.cursor].to_vec(),
        };
        Ok(record.to_string())
    }

    fn player_name(&self, i: usize) -> String {
        match self.seats[i] {
            Seat::Human => "Human".to_string(),
            Seat::Engine => self.engine_names[self.engine].clone(),
        }
    }

    /// Everything the page shows.
    pub fn state(&self) -> Value {
        let here = self.here();
        let legal: Vec<String> = G::legal_moves(here).iter().map(|m| m.to_string()).collect();
        let outcome = self.outcome().map(|(r, text)| {
            json!({ "result": r.to_string(), "text": text, "winner": match r {
                GameResult::WhiteWins => json!("white"),
                GameResult::BlackWins => json!("black"),
                GameResult::Score { white, black } if white > black => json!("white"),
                GameResult::Score { .. } => json!("black"),
                GameResult::Draw => Value::Null,
            }})
        });
        let info = self
            .info
            .as_ref()
            .filter(|(ply, _)| *ply == self.cursor || *ply + 1 == self.cursor)
            .map(|(_, i)| i);
        json!({
            "game": G::NAME,
            "id": self.id,
            "version": self.version,
            "size": G::size(&self.positions[0]),
            "start": self.positions[0].to_string(),
            "fen": here.to_string(),
            "moves": self.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "notes": self.notes,
            "cursor": self.cursor,
            "first": side_word(G::to_move(&self.positions[0])),
            "to_move": side_word(G::to_move(here)),
            "legal": legal,
            "board": G::board(here),
            "outcome": outcome,
            "seats": { "white": self.seats[0], "black": self.seats[1] },
            "limit": self.limit,
            "engine": {
                "index": self.engine,
                "thinking": self.running.is_some(),
                "busy": self.lent,
                "info": info,
                "error": self.error,
                "warning": self.warning,
                "restarts": self.restarts,
            },
            "hint": self.hint.as_ref().filter(|(ply, _)| *ply == self.cursor).map(|(_, m)| m),
            "analysis": self.analysis.iter().filter(|(ply, _)| **ply <= self.moves.len())
                .map(|(ply, (best, info))| json!({
                    "ply": ply, "best": best, "score_kind": info.score_kind,
                    "score_white": info.score_white, "depth": info.depth,
                }))
                .collect::<Vec<_>>(),
            "loaded": self.loaded,
            "diverged": self.diverged,
            "record_ready": self.record().is_ok(),
        })
    }
}

/// A game shared between the request threads and its search thread.
pub struct Shared<G: BoardGame> {
    inner: Arc<Mutex<Session<G>>>,
}

impl<G: BoardGame> Shared<G> {
    pub fn new(session: Session<G>) -> Shared<G> {
        Shared {
            inner: Arc::new(Mutex::new(session)),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, Session<G>> {
        lock(&self.inner)
    }

    /// Starts the engine's search for the side to move, on its own thread.
    /// A hint is for a person to move; an analysis for any ply.
    pub fn go(&self, ctx: &EngineContext, purpose: Purpose) -> Result<(), ApiError> {
        let (id, job, process, spec) = {
            let mut s = self.lock();
            if purpose == Purpose::Hint && s.seats[G::to_move(s.here()).index()] != Seat::Human {
                return Err(ApiError::new(409, "a hint is for a person to move"));
            }
            s.begin_search(ctx, purpose)?
        };
        let inner = Arc::clone(&self.inner);
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("search".into())
            .spawn(move || run_search(&inner, &ctx, id, &job, process, &spec))
            .map_err(|e| {
                let mut s = lock(&self.inner);
                s.end_search(
                    id,
                    Ended::Failed(format!("cannot start a thread: {e}")),
                    None,
                    false,
                );
                ApiError::new(503, "cannot start a search thread")
            })?;
        Ok(())
    }
}

/// `1 move`, `2 moves`.
pub fn plural(n: usize, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        _ => format!("{n} {word}s"),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The search thread: start the process if needed, search, hand back the
/// result; after a crash or hang, start a fresh process for the next move.
fn run_search<G: BoardGame>(
    inner: &Arc<Mutex<Session<G>>>,
    ctx: &EngineContext,
    id: u64,
    job: &Job,
    process: Option<Process>,
    spec: &EngineSpec,
) {
    let process = match process {
        Some(p) => Ok(p),
        None => Process::start(spec, &ctx.permits, ctx.timeout),
    };
    let (ended, back) = match process {
        Err(why) => (Ended::Failed(why.to_string()), None),
        Ok(p) => engine::search(p, job, &mut |info| {
            let mut s = lock(inner);
            if matches!(&s.running, Some(r) if r.id == id) {
                let ply = s.running.as_ref().map(|r| r.ply).unwrap_or(0);
                s.info = Some((ply, info.clone()));
                s.version += 1;
            }
        }),
    };
    let (back, restarted) = match (&ended, back) {
        (Ended::Failed(_), None) if !job.stop.load(Ordering::SeqCst) && !lock(inner).closed => {
            match Process::start(spec, &ctx.permits, ctx.timeout) {
                Ok(p) => (Some(p), true),
                Err(why) => {
                    log::warn!("cannot restart {}: {why}", spec.name);
                    (None, false)
                }
            }
        }
        (_, back) => (back, false),
    };
    lock(inner).end_search(id, ended, back, restarted);
}

#[cfg(test)]
mod tests {
    use super::*;
    use match_grasshopper::Grasshopper;

    fn game(s: Settings) -> Result<Session<Grasshopper>, ApiError> {
        Session::new("t".into(), &s, Arc::new(vec!["engine".to_string()]))
    }

    #[test]
    fn moves_are_refereed_undone_and_replayed() {
        let mut g = game(Settings {
            checkers: Some(2),
            ..Default::default()
        })
        .unwrap();
        g.play("bar/1", None).unwrap();
        let e = g.play("bar/1", None).unwrap_err();
        assert_eq!((e.status, e.message.as_str()), (422, "point 1 is occupied"));
        assert_eq!(g.play("nonsense", None).unwrap_err().status, 422);
        g.play("bar/2", None).unwrap();
        g.seek(1).unwrap();
        assert_eq!(g.state()["fen"], "w...../....../....../...... b 1 2 0-0 -");
        assert_eq!(g.state()["moves"].as_array().unwrap().len(), 2);
        // A move from an earlier ply replaces the moves after it.
        g.play("bar/3", None).unwrap();
        assert_eq!(g.state()["moves"], serde_json::json!(["bar/1", "bar/3"]));
        g.undo(2).unwrap();
        assert_eq!(g.state()["cursor"], 0);
        assert_eq!(g.seek(1).unwrap_err().status, 400);
        assert_eq!(g.record().unwrap_err().status, 409);
    }

    #[test]
    fn a_saved_game_comes_back_with_its_moves_cursor_and_seats_and_forced_passes_are_played() {
        // White enters on 3; Black, walled in, can only pass: played for it.
        let mut g = game(Settings {
            fen: Some("....../....../....../ww.bb. w 2 0 0-1 b1".into()),
            limit: Some(Limit::Depth(3)),
            ..Default::default()
        })
        .unwrap();
        g.play("bar/3", None).unwrap();
        let state = g.state();
        assert_eq!(state["moves"], serde_json::json!(["bar/3", "pass"]));
        assert_eq!(state["notes"][1], FORCED);
        g.seek(1).unwrap();
        // A page that saw an older version is refused.
        assert_eq!(g.play("bar/1", Some(1)).unwrap_err().status, 409);
        let (_, saved) = g.saved();
        let text = serde_json::to_string(&saved).unwrap();
        let back: Session<Grasshopper> = Session::restore(
            "t".into(),
            serde_json::from_str(&text).unwrap(),
            Arc::new(vec!["engine".to_string()]),
        )
        .unwrap();
        let (a, b) = (g.state(), back.state());
        for key in [
            "moves", "notes", "cursor", "seats", "limit", "start", "fen", "version",
        ] {
            assert_eq!(a[key], b[key], "{key}");
        }
    }

    #[test]
    fn settings_are_checked() {
        for (s, want) in [
            (
                Settings {
                    checkers: Some(3),
                    ..Default::default()
                },
                "3 checkers",
            ),
            (
                Settings {
                    limit: Some(Limit::Depth(0)),
                    ..Default::default()
                },
                "depth 0",
            ),
            (
                Settings {
                    limit: Some(Limit::Movetime(1_000_000)),
                    ..Default::default()
                },
                "movetime",
            ),
            (
                Settings {
                    engine: Some(1),
                    ..Default::default()
                },
                "engine 1",
            ),
            (
                Settings {
                    fen: Some("x".into()),
                    ..Default::default()
                },
                "bad position string",
            ),
        ] {
            let e = game(s).err().expect("refused");
            assert!(e.message.contains(want), "{}", e.message);
        }
    }

    #[test]
    fn a_finished_game_has_a_record_with_the_seats_names() {
        let mut g = game(Settings {
            fen: Some("....../....../....../W..... w 0 4 1-0 w1".into()),
            ..Default::default()
        })
        .unwrap();
        g.play("19/off", None).unwrap();
        let state = g.state();
        assert_eq!(state["outcome"]["result"], "1-0");
        assert_eq!(
            state["outcome"]["text"],
            "White wins: two scores in succession"
        );
        assert_eq!(state["legal"], serde_json::json!([]));
        let text = g.record().unwrap();
        assert!(text.contains("[White \"Human\"]"), "{text}");
        assert!(text.contains("[Black \"engine\"]"), "{text}");
        assert!(text.contains("[FEN \"....../....../....../W..... w 0 4 1-0 w1\"]"));
        assert!(text.contains("1. 19/off 1-0"), "{text}");
    }
}
