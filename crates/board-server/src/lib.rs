//! `grasshopper serve`: a board for people in the browser. A local web
//! server hands out one page (plain HTML, CSS and JavaScript compiled into
//! the binary) and a small JSON API. The server holds every game: the rules
//! core referees each move and lists the legal ones (the page only draws),
//! and the engine is a child process driven over the protocol as any GUI
//! would drive it, one process per game (see [`engine`]).
//!
//! Layers: [`http`] (a bounded HTTP/1.1 server on tokio and `httparse`),
//! [`owner`] (who may drive a game: the browser that created it, told apart
//! by a cookie; which Host names the server answers to), [`game`] (what a game must offer the board; Grasshopper is
//! the first), [`session`] (one game: moves, cursor, seats, engine), and
//! here the API's routes, the table of games and the reaper of abandoned ones.

pub mod backgammon;
pub mod engine;
pub mod game;
pub mod http;
pub mod owner;
pub mod session;
pub mod store;

use backgammon::{BgSaved, BgSession, BgSettings, BgShared};
use engine::Permits;
use game::BoardGame;
use http::{Request, Response};
use match_grasshopper::Grasshopper;
use match_runner::EngineSpec;
use owner::{HostCheck, Owner};
use serde_json::{json, Value};
use session::{plural, ApiError, EngineContext, Purpose, Saved, Session, Settings, Shared};
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use store::Store;

/// The page and its assets, compiled in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const BOARD_CSS: &str = include_str!("assets/board.css");
const BOARD_JS: &str = include_str!("assets/board.js");
const BACKGAMMON_HTML: &str = include_str!("assets/backgammon.html");
const BACKGAMMON_JS: &str = include_str!("assets/backgammon.js");

/// The games the server hosts, by the API's name.
pub const GAMES: &[&str] = &[<Grasshopper as BoardGame>::NAME, "backgammon"];

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (127.0.0.1:8080 by default; port 0 picks a free one).
    pub addr: SocketAddr,
    /// The engines the page may choose from (at least one).
    pub engines: Vec<EngineSpec>,
    /// Games open at once; each has at most one engine process.
    pub max_games: usize,
    /// A game nobody has asked about for this long is closed (its engine quits).
    pub idle_timeout: Duration,
    /// How long a depth search may take before the engine counts as hung.
    pub move_timeout: Duration,
    /// Patience for the engine's handshake and `readyok`.
    pub timeout: Duration,
    /// Threads answering requests.
    pub workers: usize,
    /// Games one browser (one owner cookie) may have open at once; never
    /// all of `max_games` (see [`App::games_per_owner`]).
    pub games_per_owner: usize,
    /// Engine searches one browser may have running at once.
    pub searches_per_owner: usize,
    /// Host names (or addresses) the server answers to besides localhost,
    /// its loopback addresses and the address it is bound to.
    pub allowed_hosts: Vec<String>,
    /// Answers `GET /api/panic` by panicking (for the test that a panic
    /// in a request is answered 500 and the server goes on). Off unless a
    /// hidden command-line flag asks for it.
    pub panic_route: bool,
    /// Where games are kept between requests, idle closes and restarts
    /// (`None`: in memory only).
    pub data_dir: Option<PathBuf>,
    /// The dice seed of every backgammon game (for demos and tests); `None`
    /// draws a seed from the operating system for each game.
    pub seed: Option<u64>,
}

/// A game whose page has not asked about it for this long may be closed
/// (it stays on disk) to make room for a new one when the server is full:
/// an open page asks every few seconds.
const EVICT_AFTER: Duration = Duration::from_secs(65);

impl Config {
    /// The defaults with these engines.
    pub fn new(engines: Vec<EngineSpec>) -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            engines,
            max_games: 8,
            idle_timeout: Duration::from_secs(300),
            move_timeout: Duration::from_secs(60),
            timeout: Duration::from_secs(10),
            workers: 8,
            games_per_owner: 4,
            searches_per_owner: 2,
            allowed_hosts: Vec::new(),
            panic_route: false,
            data_dir: None,
            seed: None,
        }
    }
}

/// A hosted game, whatever its kind.
trait Hosted: Send + Sync {
    fn state(&self) -> Value;
    fn act(&self, action: &str, body: &Value, ctx: &EngineContext) -> Result<Value, ApiError>;
    /// The record to download and its file name's extension.
    fn record(&self) -> Result<(String, &'static str), ApiError>;
    fn idle_for(&self) -> Duration;
    /// The version of the game and what to keep on disk.
    fn saved(&self) -> (u64, Value);
    /// A search runs or is still finishing.
    fn searching(&self) -> bool;
    fn close(&self);
}

impl<G: BoardGame> Hosted for Shared<G> {
    fn state(&self) -> Value {
        let mut s = self.lock();
        s.touch();
        s.state()
    }

    fn act(&self, action: &str, body: &Value, ctx: &EngineContext) -> Result<Value, ApiError> {
        let number = |key: &str| -> Result<usize, ApiError> {
            body.get(key)
                .and_then(Value::as_u64)
                .map(|n| n as usize)
                .ok_or_else(|| ApiError::new(400, format!("expected {{\"{key}\": <number>}}")))
        };
        match action {
            "move" => {
                let word = body
                    .get("move")
                    .and_then(Value::as_str)
                    .ok_or_else(|| ApiError::new(400, "expected {\"move\": \"<move>\"}"))?;
                let seen = body.get("version").and_then(Value::as_u64);
                self.lock().play(word, seen)?;
            }
            "go" => self.go(ctx, Purpose::Play)?,
            "hint" => self.go(ctx, Purpose::Hint)?,
            "analyse" => {
                let depth = body.get("depth").and_then(Value::as_u64).unwrap_or(4) as u32;
                self.go(
                    ctx,
                    Purpose::Analyse {
                        ply: number("ply")?,
                        depth,
                    },
                )?
            }
            "resign" => self.lock().resign()?,
            "undo" => self.lock().undo(number("plies")?)?,
            "seek" => self.lock().seek(number("ply")?)?,
            "settings" => {
                let s: Settings = serde_json::from_value(body.clone())
                    .map_err(|e| ApiError::new(400, format!("bad settings: {e}")))?;
                if s.game.is_some() || s.fen.is_some() || s.record.is_some() || s.checkers.is_some()
                {
                    return Err(ApiError::new(
                        400,
                        "a game's kind, size, position and record are set by a new game",
                    ));
                }
                if let Some(e) = s.engine.and_then(|i| ctx.engines.get(i)) {
                    if backgammon::is_ubgi(e) {
                        return Err(ApiError::new(
                            400,
                            format!("engine {} speaks UBGI and plays backgammon only", e.name),
                        ));
                    }
                }
                self.lock().apply(&s)?;
            }
            _ => return Err(ApiError::new(404, format!("no action \"{action}\""))),
        }
        Ok(self.lock().state())
    }

    fn record(&self) -> Result<(String, &'static str), ApiError> {
        let mut s = self.lock();
        s.touch();
        Ok((s.record()?, "pgn"))
    }

    fn idle_for(&self) -> Duration {
        self.lock().idle_for()
    }

    fn saved(&self) -> (u64, Value) {
        let (version, saved) = self.lock().saved();
        let value = json!({ "game": G::NAME, "session": saved });
        (version, value)
    }

    fn searching(&self) -> bool {
        self.lock().searching()
    }

    fn close(&self) {
        self.lock().close();
    }
}

impl Hosted for BgShared {
    fn state(&self) -> Value {
        let mut s = self.lock();
        s.touch();
        s.state()
    }

    fn act(&self, action: &str, body: &Value, ctx: &EngineContext) -> Result<Value, ApiError> {
        match action {
            "go" | "hint" => self.go(
                &ctx.engines,
                &ctx.permits,
                ctx.timeout,
                ctx.move_timeout,
                action == "hint",
            )?,
            "review" => self.review(&ctx.engines, &ctx.permits, ctx.timeout, ctx.move_timeout)?,
            _ => self.lock().act(action, body)?,
        }
        Ok(self.lock().state())
    }

    fn record(&self) -> Result<(String, &'static str), ApiError> {
        let mut s = self.lock();
        s.touch();
        Ok((s.mat()?, "mat"))
    }

    fn idle_for(&self) -> Duration {
        self.lock().idle_for()
    }

    fn saved(&self) -> (u64, Value) {
        let (version, saved) = self.lock().saved();
        (version, json!({ "game": "backgammon", "session": saved }))
    }

    fn searching(&self) -> bool {
        self.lock().searching()
    }

    fn close(&self) {
        self.lock().close();
    }
}

/// A game in the table and the browser that created it.
#[derive(Clone)]
struct Entry {
    owner: Owner,
    game: Arc<dyn Hosted>,
    /// The version last written to disk.
    saved: Arc<AtomicU64>,
}

/// The server's state: the games and what they share.
pub struct App {
    config: Config,
    ctx: EngineContext,
    engine_names: Arc<Vec<String>>,
    games: Mutex<HashMap<String, Entry>>,
    hosts: HostCheck,
    ids: RandomState,
    counter: AtomicU64,
    store: Option<Store>,
    /// Games closed by their page (`DELETE`) and when: a request of that
    /// page already in flight must not open them again from disk; only an
    /// explicit open (`POST /api/games/ID/open`, the page's load) does.
    discarded: Mutex<HashMap<String, Instant>>,
}

/// How long a game closed by its page stays closed to stray requests.
const DISCARDED_FOR: Duration = Duration::from_secs(60);

impl App {
    pub fn new(config: Config) -> Arc<App> {
        assert!(!config.engines.is_empty(), "at least one engine");
        let ctx = EngineContext {
            engines: Arc::new(config.engines.clone()),
            permits: Permits::new(config.max_games),
            timeout: config.timeout,
            move_timeout: config.move_timeout,
        };
        let hosts = HostCheck::new(config.addr.ip(), &config.allowed_hosts);
        let store = config
            .data_dir
            .as_deref()
            .and_then(|dir| match Store::open(dir) {
                Ok(s) => Some(s),
                Err(e) => {
                    log::warn!("games are not kept: cannot use {}: {e}", dir.display());
                    None
                }
            });
        Arc::new(App {
            store,
            hosts,
            engine_names: Arc::new(config.engines.iter().map(|e| e.name.clone()).collect()),
            config,
            ctx,
            games: Mutex::new(HashMap::new()),
            discarded: Mutex::new(HashMap::new()),
            ids: RandomState::new(),
            counter: AtomicU64::new(1),
        })
    }

    /// Engine processes running now.
    pub fn engines_running(&self) -> usize {
        self.ctx.permits.live()
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Games one browser may have open: the setting, but never every slot
    /// of the server (unless it has only one).
    pub fn games_per_owner(&self) -> usize {
        let most = self.config.max_games.saturating_sub(1).max(1);
        self.config.games_per_owner.clamp(1, most)
    }

    /// Searches one browser may have running at once.
    pub fn searches_per_owner(&self) -> usize {
        self.config.searches_per_owner.max(1)
    }

    /// The game `id`, if `owner` created it; a game kept on disk is opened
    /// again, unless its page closed it a moment ago.
    fn game(&self, id: &str, owner: &Owner) -> Result<Arc<dyn Hosted>, ApiError> {
        self.game_opened(id, owner, false)
    }

    /// True when the page closed `id` within [`DISCARDED_FOR`]; an explicit
    /// open forgets that.
    fn discarded(&self, id: &str, explicit: bool) -> bool {
        let mut closed = self.discarded.lock().unwrap_or_else(|p| p.into_inner());
        closed.retain(|_, at| at.elapsed() < DISCARDED_FOR);
        if explicit {
            closed.remove(id);
            return false;
        }
        closed.contains_key(id)
    }

    /// [`App::game`], where `explicit` (the page's open) also opens a game
    /// its page closed a moment ago.
    fn game_opened(
        &self,
        id: &str,
        owner: &Owner,
        explicit: bool,
    ) -> Result<Arc<dyn Hosted>, ApiError> {
        let mut games = self.games();
        if !games.contains_key(id) && !self.discarded(id, explicit) {
            if let Some(entry) = self.reopen(id, owner, &mut games)? {
                games.insert(id.to_string(), entry);
            }
        }
        let entry = games.get(id).ok_or_else(|| {
            ApiError::new(
                404,
                "no such game (it may have been closed after a long pause): start a new one",
            )
        })?;
        if entry.owner != *owner {
            return Err(ApiError::new(
                403,
                "this game belongs to another browser: start a new one",
            ));
        }
        Ok(Arc::clone(&entry.game))
    }

    /// A game kept on disk, set up again for its owner (room made if need be).
    fn reopen(
        &self,
        id: &str,
        owner: &Owner,
        games: &mut HashMap<String, Entry>,
    ) -> Result<Option<Entry>, ApiError> {
        let Some(value) = self.store.as_ref().and_then(|s| s.load(id)) else {
            return Ok(None);
        };
        let saved_owner = value["owner"].as_str().and_then(Owner::parse);
        if saved_owner.as_ref() != Some(owner) {
            return Err(ApiError::new(
                403,
                "this game belongs to another browser: start a new one",
            ));
        }
        let bad = |e: serde_json::Error| ApiError::new(500, format!("the saved game {id}: {e}"));
        let game: Arc<dyn Hosted> = match value["game"].as_str() {
            Some("grasshopper") => {
                let saved: Saved = serde_json::from_value(value["session"].clone()).map_err(bad)?;
                Arc::new(Shared::new(Session::<Grasshopper>::restore(
                    id.to_string(),
                    saved,
                    Arc::clone(&self.engine_names),
                )?))
            }
            Some("backgammon") => {
                let saved: BgSaved =
                    serde_json::from_value(value["session"].clone()).map_err(bad)?;
                Arc::new(BgShared::new(BgSession::restore(
                    id.to_string(),
                    saved,
                    &self.config.engines,
                    Arc::clone(&self.engine_names),
                )?))
            }
            other => {
                return Err(ApiError::new(
                    500,
                    format!("the saved game {id} is of an unknown kind {other:?}"),
                ))
            }
        };
        self.make_room(games, owner)?;
        log::info!("game {id} opened again from disk");
        let version = game.saved().0;
        Ok(Some(Entry {
            owner: owner.clone(),
            game,
            saved: Arc::new(AtomicU64::new(version)),
        }))
    }

    /// Refuses a new game past the limits; when only the server's limit is
    /// reached and games are kept on disk, closes the game whose page has
    /// been silent longest (it is saved and reopens from its link).
    fn make_room(&self, games: &mut HashMap<String, Entry>, owner: &Owner) -> Result<(), ApiError> {
        let mine = games.values().filter(|e| e.owner == *owner).count();
        if mine >= self.games_per_owner() {
            return Err(ApiError::new(
                429,
                format!(
                    "{} of this browser are open, the most one browser may have: \
                     close one (a game left alone is closed {} s after its last request)",
                    plural(mine, "game"),
                    self.config.idle_timeout.as_secs()
                ),
            ));
        }
        if games.len() < self.config.max_games {
            return Ok(());
        }
        let idlest = games
            .iter()
            .map(|(id, e)| (e.game.idle_for(), id.clone()))
            .filter(|(idle, _)| *idle > EVICT_AFTER.min(self.config.idle_timeout))
            .max();
        match (idlest, &self.store) {
            (Some((idle, id)), Some(_)) => {
                let entry = games.remove(&id).expect("listed");
                log::info!("closing game {id} to make room: silent for {idle:?}");
                self.persist(&id, &entry);
                entry.game.close();
                Ok(())
            }
            _ => Err(ApiError::new(
                503,
                format!(
                    "{} open, the most this server allows: close one, or wait \
                     until an abandoned one is closed ({} s after its last request)",
                    match games.len() {
                        1 => "1 game is".to_string(),
                        n => format!("{n} games are"),
                    },
                    self.config.idle_timeout.as_secs()
                ),
            )),
        }
    }

    /// Writes a game to disk if it changed since it was last written.
    fn persist(&self, id: &str, entry: &Entry) {
        let Some(store) = &self.store else { return };
        let (version, session) = entry.game.saved();
        if entry.saved.swap(version, Ordering::SeqCst) == version {
            return;
        }
        let mut value = session;
        value["owner"] = json!(entry.owner.as_str());
        if let Err(e) = store.save(id, &value) {
            log::warn!("cannot save game {id}: {e}");
        }
    }

    /// Writes the game `id` to disk if it changed.
    fn persist_id(&self, id: &str) {
        // Written outside the table's lock.
        let entry = self.games().get(id).cloned();
        if let Some(entry) = entry {
            self.persist(id, &entry);
        }
    }

    /// Runs an action on a game of `owner`; a search only while the owner
    /// has fewer than its share running.
    fn act(&self, id: &str, owner: &Owner, action: &str, body: &Value) -> Result<Value, ApiError> {
        let game = self.game(id, owner)?;
        if !matches!(action, "go" | "hint" | "analyse" | "review") {
            return game.act(action, body, &self.ctx);
        }
        // The count and the start under one lock: two requests at once
        // cannot both take the last search.
        let games = self.games();
        let running = games
            .values()
            .filter(|e| e.owner == *owner && e.game.searching())
            .count();
        let most = self.searches_per_owner();
        if running >= most {
            return Err(ApiError::new(
                429,
                format!(
                    "{running} engine searches of this browser are running, the most it may \
                     have at once: wait for one to end or stop it"
                ),
            ));
        }
        game.act(action, body, &self.ctx)
    }

    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        format!("{:016x}", self.ids.hash_one(n))
    }

    /// The dice seed of a new backgammon game: `--seed`, else the OS's.
    fn dice_seed(&self) -> Result<u64, ApiError> {
        match self.config.seed {
            Some(seed) => Ok(seed),
            None => {
                let mut bytes = [0u8; 8];
                getrandom::fill(&mut bytes)
                    .map_err(|e| ApiError::new(503, format!("no randomness for the dice: {e}")))?;
                Ok(u64::from_le_bytes(bytes))
            }
        }
    }

    /// A Grasshopper game's engine: the one asked for, else the first that
    /// does not speak UBGI (a backgammon engine cannot play Grasshopper).
    fn grasshopper_settings(&self, mut s: Settings) -> Result<Settings, ApiError> {
        let engines = &self.config.engines;
        let index = match s.engine {
            Some(i) => i,
            None => engines
                .iter()
                .position(|e| !backgammon::is_ubgi(e))
                .unwrap_or(0),
        };
        if engines.get(index).is_some_and(backgammon::is_ubgi) {
            return Err(ApiError::new(
                400,
                format!(
                    "engine {} speaks UBGI and plays backgammon only: choose a Grasshopper engine",
                    engines[index].name
                ),
            ));
        }
        s.engine = Some(index);
        Ok(s)
    }

    fn create(&self, body: &Value, owner: &Owner) -> Result<Value, ApiError> {
        let game = body
            .get("game")
            .and_then(Value::as_str)
            .unwrap_or(GAMES[0])
            .to_string();
        let id = self.new_id();
        let hosted: Arc<dyn Hosted> = match game.as_str() {
            "grasshopper" => {
                let s: Settings = serde_json::from_value(body.clone())
                    .map_err(|e| ApiError::new(400, format!("bad new game: {e}")))?;
                let wants_engine =
                    s.white == Some(session::Seat::Engine) || s.black != Some(session::Seat::Human);
                let s = match (self.grasshopper_settings(s), wants_engine) {
                    (Ok(s), _) => s,
                    (Err(e), true) => return Err(e),
                    (Err(_), false) => Settings {
                        engine: Some(0),
                        ..serde_json::from_value(body.clone()).unwrap_or_default()
                    },
                };
                Arc::new(Shared::new(Session::<Grasshopper>::new(
                    id.clone(),
                    &s,
                    Arc::clone(&self.engine_names),
                )?))
            }
            "backgammon" => {
                let s: BgSettings = serde_json::from_value(body.clone())
                    .map_err(|e| ApiError::new(400, format!("bad new game: {e}")))?;
                Arc::new(BgShared::new(BgSession::new(
                    id.clone(),
                    &s,
                    self.dice_seed()?,
                    &self.config.engines,
                    Arc::clone(&self.engine_names),
                )?))
            }
            other => {
                return Err(ApiError::new(
                    400,
                    format!(
                        "unknown game \"{other}\": expected one of {}",
                        GAMES.join(", ")
                    ),
                ))
            }
        };
        let mut games = self.games();
        self.make_room(&mut games, owner)?;
        let state = hosted.state();
        let entry = Entry {
            owner: owner.clone(),
            game: hosted,
            saved: Arc::new(AtomicU64::new(0)),
        };
        self.persist(&id, &entry);
        games.insert(id, entry);
        Ok(state)
    }

    fn close(&self, id: &str, owner: &Owner) -> Result<(), ApiError> {
        self.game(id, owner)?;
        let entry = {
            // Marked closed by its page before the games' lock is let go: a
            // request waiting on that lock must not open it again from disk
            // while it is saved and its engine stopped.
            let mut games = self.games();
            let entry = games
                .remove(id)
                .ok_or_else(|| ApiError::new(404, "no such game"))?;
            let mut closed = self.discarded.lock().unwrap_or_else(|p| p.into_inner());
            closed.insert(id.to_string(), Instant::now());
            entry
        };
        self.persist(id, &entry);
        entry.game.close();
        Ok(())
    }

    /// Closes the games idle for longer than the timeout; returns how many.
    pub fn reap(&self) -> usize {
        let idle: Vec<(String, Arc<dyn Hosted>)> = self
            .games()
            .iter()
            .filter(|(_, e)| e.game.idle_for() > self.config.idle_timeout)
            .map(|(id, e)| (id.clone(), Arc::clone(&e.game)))
            .collect();
        for (id, game) in &idle {
            log::info!("closing game {id}: idle for {:?}", game.idle_for());
            if let Some(entry) = self.games().remove(id) {
                self.persist(id, &entry);
            }
            game.close();
        }
        idle.len()
    }

    fn info(&self) -> Value {
        json!({
            "games": GAMES,
            "sizes": { "grasshopper": {
                "min": <Grasshopper as BoardGame>::SIZES.0,
                "max": <Grasshopper as BoardGame>::SIZES.1,
                "default": <Grasshopper as BoardGame>::SIZES.2,
            }},
            "engines": self.config.engines.iter().enumerate()
                .map(|(i, e)| json!({
                    "index": i,
                    "name": e.name,
                    "game": if backgammon::is_ubgi(e) { "backgammon" } else { "grasshopper" },
                })).collect::<Vec<_>>(),
            "backgammon": { "max_length": backgammon::MAX_LENGTH },
            "limits": {
                "max_depth": session::Limit::MAX_DEPTH,
                "max_movetime": session::Limit::MAX_MOVETIME,
            },
            "open_games": self.games().len(),
            "max_games": self.config.max_games,
            "games_per_owner": self.games_per_owner(),
            "searches_per_owner": self.searches_per_owner(),
            "engines_running": self.engines_running(),
            "idle_timeout_s": self.config.idle_timeout.as_secs_f64(),
            "keeps_games": self.store.is_some(),
        })
    }

    /// Answers one request. API calls from a browser without an owner
    /// cookie get one (the page's first call), and act as that owner.
    pub fn handle(&self, r: &Request) -> Response {
        if let Err(e) = self.guard(r) {
            return Response::error(e.status, e.message);
        }
        let api = r.path.starts_with("/api/");
        let (owner, fresh) = match Owner::of(r) {
            Some(owner) => (owner, false),
            None if !api => return self.answer(r, None),
            None => match Owner::new() {
                Ok(owner) => (owner, true),
                Err(e) => return Response::error(e.status, e.message),
            },
        };
        let response = self.answer(r, Some(&owner));
        if fresh {
            response.with_header("Set-Cookie", owner.cookie())
        } else {
            response
        }
    }

    fn answer(&self, r: &Request, owner: Option<&Owner>) -> Response {
        match self.route(r, owner) {
            Ok(resp) => resp,
            Err(e) => Response::error(e.status, e.message),
        }
    }

    /// Refuses requests from other sites: a Host that is not this machine
    /// or a name it was told to answer to (DNS rebinding), an Origin that
    /// is not this server, and state-changing requests that are not JSON
    /// (which a cross-site form could send).
    fn guard(&self, r: &Request) -> Result<(), ApiError> {
        let host = r.header("host").unwrap_or("");
        self.hosts.check(host)?;
        if let Some(origin) = r.header("origin") {
            if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
                return Err(ApiError::new(403, "requests from other sites are refused"));
            }
        }
        if r.method == "POST" && !r.header("content-type").is_some_and(is_json) {
            return Err(ApiError::new(
                415,
                "expected Content-Type: application/json",
            ));
        }
        Ok(())
    }

    fn route(&self, r: &Request, owner: Option<&Owner>) -> Result<Response, ApiError> {
        let parts: Vec<&str> = r.path.split('/').filter(|p| !p.is_empty()).collect();
        let method = r.method.as_str();
        let body = || -> Result<Value, ApiError> {
            if r.body.is_empty() {
                return Ok(json!({}));
            }
            serde_json::from_slice(&r.body)
                .map_err(|e| ApiError::new(400, format!("the body is not JSON: {e}")))
        };
        match (method, parts.as_slice()) {
            ("GET", []) | ("GET", ["index.html"]) => {
                Ok(Response::new(200, "text/html; charset=utf-8", INDEX_HTML))
            }
            ("GET", ["backgammon"]) => Ok(Response::new(
                200,
                "text/html; charset=utf-8",
                BACKGAMMON_HTML,
            )),
            ("GET", ["backgammon.js"]) => Ok(Response::new(
                200,
                "text/javascript; charset=utf-8",
                BACKGAMMON_JS,
            )),
            ("GET", ["board.css"]) => Ok(Response::new(200, "text/css; charset=utf-8", BOARD_CSS)),
            ("GET", ["board.js"]) => Ok(Response::new(
                200,
                "text/javascript; charset=utf-8",
                BOARD_JS,
            )),
            (_, ["api", ..]) => {
                // Every API request has an owner (see `handle`).
                let owner = owner.ok_or_else(|| ApiError::new(500, "no owner"))?;
                self.api(method, &parts[1..], r, owner, body)
            }
            _ => Err(ApiError::new(404, "not found")),
        }
    }

    fn api(
        &self,
        method: &str,
        parts: &[&str],
        r: &Request,
        owner: &Owner,
        body: impl Fn() -> Result<Value, ApiError>,
    ) -> Result<Response, ApiError> {
        let ok = |v: Value| Ok(Response::json(200, &v));
        match (method, parts) {
            ("GET", ["info"]) => ok(self.info()),
            ("GET", ["panic"]) if self.config.panic_route => {
                panic!("GET /api/panic (the server was started with the panic route)")
            }
            ("POST", ["games"]) => Ok(Response::json(201, &self.create(&body()?, owner)?)),
            ("POST", ["mat"]) => ok(backgammon::mat_replay(&body()?)?),
            ("GET", ["games", id]) => {
                let state = self.game(id, owner)?.state();
                self.persist_id(id);
                ok(state)
            }
            ("POST", ["games", id, "open"]) => {
                let state = self.game_opened(id, owner, true)?.state();
                self.persist_id(id);
                ok(state)
            }
            ("DELETE", ["games", id]) => {
                self.close(id, owner)?;
                Ok(Response::new(204, "text/plain", ""))
            }
            ("GET", ["games", id, "record"]) => {
                let (text, ext) = self.game(id, owner)?.record()?;
                Ok(
                    Response::new(200, "text/plain; charset=utf-8", text).with_header(
                        "Content-Disposition",
                        format!("attachment; filename=\"grasshopper-{id}.{ext}\""),
                    ),
                )
            }
            ("POST", ["games", id, action]) => {
                let state = self.act(id, owner, action, &body()?);
                self.persist_id(id);
                ok(state?)
            }
            (_, ["info"] | ["games"] | ["games", _] | ["games", _, _]) => Err(ApiError::new(
                405,
                format!("{method} is not allowed on {}", r.path),
            )),
            _ => Err(ApiError::new(404, format!("no API {method} {}", r.path))),
        }
    }
}

/// Whether a Content-Type is JSON: `application/json`, perhaps with
/// parameters (`; charset=utf-8`), and nothing else.
fn is_json(value: &str) -> bool {
    let media = value.split(';').next().unwrap_or("").trim();
    media.eq_ignore_ascii_case("application/json")
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    app: Arc<App>,
    workers: usize,
}

impl Server {
    /// Binds the address of `config`.
    pub fn bind(config: Config) -> std::io::Result<Server> {
        let listener = http::listen(config.addr)?;
        let mut config = config;
        config.addr = listener.local_addr()?;
        let workers = config.workers;
        Ok(Server {
            listener,
            app: App::new(config),
            workers,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.app.config.addr
    }

    /// The page's address.
    pub fn url(&self) -> String {
        http::url_of(self.addr())
    }

    pub fn app(&self) -> Arc<App> {
        Arc::clone(&self.app)
    }

    /// Serves until the process ends; a reaper thread closes abandoned games.
    pub fn run(self) -> std::io::Result<()> {
        let app = Arc::clone(&self.app);
        let tick =
            (app.config.idle_timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
        std::thread::Builder::new()
            .name("reaper".into())
            .spawn(move || loop {
                std::thread::sleep(tick);
                app.reap();
            })?;
        let app = Arc::clone(&self.app);
        http::serve(
            self.listener,
            self.workers,
            Arc::new(move |r: &Request| app.handle(r)),
        )
    }
}
