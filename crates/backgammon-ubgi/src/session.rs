//! The UBGI dialect on the daemon core: the engine's state between commands
//! (position, match state, dice, keys, the player) and what each command
//! does to it.

use crate::command::{Command, Decision, PositionText, Query};
use crate::keys::Settings;
use crate::parse::{parse_command, ErrorCode};
use backgammon_engine::player::{cube_state, NetSettings};
use backgammon_engine::rollout;
use backgammon_engine::search::{cores, Searcher, FILTERS, MAX_PLY};
use backgammon_engine::Player;
use backgammon_rules::{
    draw_board, parse_position, win_kind, Board, CubeOwner, Dice, GameState, MatchState, Side, Xgid,
};
use engine_daemon::transport::Output;
use engine_daemon::{Context, Dialect, ErrorLine, Job, Kind, LineError};
use protocol_vocab::{quote, sanitise};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The stack of a decision's thread.
const STACK: usize = 8 << 20;

/// What a decision job hands back: the player and the lines to write.
pub struct Done {
    player: Box<Player>,
    lines: Vec<String>,
}

/// The position a decision is asked about.
#[derive(Copy, Clone, Debug)]
struct Setup {
    board: Board,
    state: MatchState,
}

/// The engine's state between commands.
pub struct Ubgi {
    defaults: Settings,
    settings: Settings,
    /// `None` while a decision job holds it.
    player: Option<Box<Player>>,
    setup: Option<Setup>,
    dice: Option<Dice>,
}

impl Ubgi {
    /// A session whose default player is `settings.player`.
    pub fn new(settings: Settings) -> Ubgi {
        Ubgi {
            player: Some(Box::new(new_player(&settings))),
            defaults: settings.clone(),
            settings,
            setup: None,
            dice: None,
        }
    }

    fn error(code: ErrorCode, message: &str) -> ErrorLine {
        ErrorLine {
            code: code.as_str(),
            message: sanitise(message),
        }
    }

    fn identify(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name grasshopper {}", env!("CARGO_PKG_VERSION")),
            "id author the grasshopper developers".to_string(),
            "proto 0.2".to_string(),
        ];
        lines.extend(self.defaults.key_lines());
        lines.push("ubgiok".to_string());
        lines
    }

    fn set_position(&mut self, text: &PositionText) -> Result<(), ErrorLine> {
        let text = match text {
            PositionText::Gnubg(id) => id.clone(),
            PositionText::Xgid(x) if x.starts_with("XGID=") => x.clone(),
            PositionText::Xgid(x) => format!("XGID={x}"),
        };
        let (board, mut state) = parse_position(&text)
            .map_err(|e| Ubgi::error(ErrorCode::BadValue, &format!("position: {}", e.reason)))?;
        if !text.contains(':') {
            // A bare Position ID: a money position, the Jacoby rule as set.
            state.jacoby = self.settings.jacoby;
        }
        state
            .check_with(&board)
            .map_err(|e| Ubgi::error(ErrorCode::BadValue, &format!("position: {e}")))?;
        self.dice = state.dice;
        self.setup = Some(Setup { board, state });
        self.prepare_tables();
        Ok(())
    }

    /// Starts the match cube tables of the position's score when its game
    /// has become a race ([`backgammon_engine::player::prepare_match`]), so
    /// that the last bear-offs' decisions answer in time.
    fn prepare_tables(&self) {
        if let (Some(s), backgammon_engine::Kind::Net) = (&self.setup, self.settings.player) {
            backgammon_engine::player::prepare_match(&s.board, &cube_state(&s.state));
        }
    }

    /// `play`: the player on roll plays `text` with the current dice.
    fn play(&mut self, text: &str) -> Result<(), ErrorLine> {
        let Setup { board, mut state } = self.setup()?;
        let dice = self.dice()?;
        let (_, after) = board
            .play_text(dice, text)
            .map_err(|e| Ubgi::error(ErrorCode::BadValue, &format!("play: {e}")))?;
        if after.has_won(Side::OnRoll) {
            state.game_state = GameState::Over;
        }
        state.on_roll = state.on_roll.other();
        state.turn = state.on_roll;
        state.dice = None;
        self.dice = None;
        self.setup = Some(Setup {
            board: after.swapped(),
            state,
        });
        self.prepare_tables();
        Ok(())
    }

    fn setup(&self) -> Result<Setup, ErrorLine> {
        self.setup
            .ok_or_else(|| Ubgi::error(ErrorCode::BadState, "missing position"))
    }

    fn dice(&self) -> Result<Dice, ErrorLine> {
        self.dice
            .ok_or_else(|| Ubgi::error(ErrorCode::BadState, "missing dice"))
    }

    fn set_key(&mut self, key: &str, value: &str) -> Result<(), ErrorLine> {
        self.settings.set(key, value).map_err(|e| match e {
            engine_daemon::OptionError::UnknownName { .. } => {
                Ubgi::error(ErrorCode::Unsupported, &format!("key {}", quote(key)))
            }
            e => Ubgi::error(ErrorCode::BadValue, &e.to_string()),
        })?;
        if key.starts_with("engine.") {
            self.player = Some(Box::new(new_player(&self.settings)));
        }
        Ok(())
    }

    fn get_key(&self, key: &str) -> Result<String, ErrorLine> {
        self.settings
            .value_line(key)
            .ok_or_else(|| Ubgi::error(ErrorCode::Unsupported, &format!("key {}", quote(key))))
    }

    fn query(&self, q: &Query) -> Result<String, ErrorLine> {
        let setup = self.setup()?;
        let answer = match q {
            Query::Legal(text) => match setup.board.play_text(self.dice()?, text) {
                Ok(_) => "true".to_string(),
                Err(e) => format!("false {e}"),
            },
            Query::Moves => {
                let moves = setup.board.legal_moves(self.dice()?);
                let texts: Vec<String> = moves
                    .moves()
                    .iter()
                    .map(|m| setup.board.move_text(m))
                    .collect();
                texts.join(" | ")
            }
            Query::Result => result_text(&setup),
            Query::Position => {
                let xgid = Xgid::from_state(&setup.board, &setup.state)
                    .map_or_else(|_| "-".to_string(), |x| x.to_string());
                format!(
                    "gnubgid {}:{} xgid {xgid}",
                    setup.board,
                    setup.state.match_id()
                )
            }
        };
        Ok(format!("response {}", sanitise(&answer)))
    }

    /// Starts the decision job for `go` (`candidates`: the extension's
    /// ranked lines first).
    fn go(
        &mut self,
        decision: Decision,
        candidates: Option<u8>,
        ctx: &mut Context<'_, Done>,
    ) -> io::Result<()> {
        let ask = match self.decision_inputs(decision) {
            Ok(ask) => ask,
            Err(e) => return ctx.error(&e),
        };
        let mut player = self
            .player
            .take()
            .unwrap_or_else(|| Box::new(new_player(&self.settings)));
        let job = Job {
            name: "decision",
            // Decisions take milliseconds: `stop` and `quit` just wait for
            // the answer, which is always written.
            stop: Some(Box::new(|| {})),
            stack: STACK,
            holds: false,
            grace: std::time::Duration::ZERO,
            work: Box::new(move || {
                let mut lines = match candidates {
                    Some(k) => ranked(&mut player, decision, ask, k),
                    None => Vec::new(),
                };
                lines.extend(decide(&mut player, decision, ask));
                Done { player, lines }
            }),
        };
        ctx.spawn(job)
    }

    /// Starts the rollout job for `go rollout`: `info rollout` lines as it
    /// goes, then one per candidate and the `bestrollout` line; `stop` ends
    /// it early with the trials done.
    fn rollout(
        &mut self,
        trials: u32,
        ply: Option<u8>,
        ctx: &mut Context<'_, Done>,
    ) -> io::Result<()> {
        let (setup, dice) = match self.decision_inputs(Decision::Cube) {
            Ok(ask) => ask,
            Err(e) => return ctx.error(&e),
        };
        let player = self
            .player
            .take()
            .unwrap_or_else(|| Box::new(new_player(&self.settings)));
        let settings = rollout::Settings {
            trials,
            ply: ply.unwrap_or(1),
            seed: if self.settings.seed == 0 {
                1
            } else {
                self.settings.seed
            },
            threads: cores(),
            ..rollout::Settings::default()
        };
        let target = rollout::Target {
            board: setup.board,
            dice,
            cube: cube_state(&setup.state),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let halt = stop.clone();
        let out = ctx.out().clone();
        let job = Job {
            name: "rollout",
            stop: Some(Box::new(move || halt.store(true, Ordering::Relaxed))),
            stack: STACK,
            holds: false,
            grace: std::time::Duration::ZERO,
            work: Box::new(move || {
                let lines = rollout_lines(&target, &settings, &stop, &out);
                Done { player, lines }
            }),
        };
        ctx.spawn(job)
    }

    /// What a decision needs, or why it cannot be made now.
    fn decision_inputs(&self, decision: Decision) -> Result<(Setup, Option<Dice>), ErrorLine> {
        let setup = self.setup()?;
        if setup.board.has_won(Side::OnRoll) || setup.board.has_won(Side::Opponent) {
            return Err(Ubgi::error(ErrorCode::BadState, "the game is over"));
        }
        if setup.state.game_ended() {
            let how = match setup.state.game_state {
                GameState::Resigned => "by a resignation",
                GameState::Dropped => "by a dropped double",
                _ => "",
            };
            let message = format!("the game is over {how}").trim_end().to_string();
            return Err(Ubgi::error(ErrorCode::BadState, &message));
        }
        let dice = match decision {
            Decision::Chequer => Some(self.dice()?),
            _ => self.dice,
        };
        Ok((setup, dice))
    }
}

/// A player of the settings' kind and seed.
fn new_player(s: &Settings) -> Player {
    let net = NetSettings {
        plies: s.ply,
        movetime: (s.movetime > 0).then(|| std::time::Duration::from_millis(s.movetime)),
    };
    let mut player = Player::with_net(s.player, (s.seed != 0).then_some(s.seed), net);
    // A client's clock does not wait for the exact tables of a match's last
    // bear-offs (a few CPU-seconds at a new score, more on a loaded
    // machine: 2 of 400 7-point matches were lost on time to them).
    player.set_table_wait(Some(net.movetime.unwrap_or(TABLE_WAIT)));
    player
}

/// How long a cube decision waits for a match's bear-off tables when no
/// `engine.movetime` is set.
const TABLE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// True when the player on roll may turn the cube now.
fn may_double(state: &MatchState) -> bool {
    let owner_ok = match state.cube_owner {
        CubeOwner::Centred => true,
        CubeOwner::Owned(p) => p == state.on_roll,
    };
    owner_ok && !state.crawford && state.cube_log2 < 15
}

/// The answer lines of one decision.
fn decide(
    player: &mut Player,
    decision: Decision,
    (setup, dice): (Setup, Option<Dice>),
) -> Vec<String> {
    let board = setup.board;
    let chequer = |player: &mut Player, dice: Dice| {
        let (m, _) = player.choose(&board, dice);
        board.move_steps_text(&m, false)
    };
    let cube = cube_state(&setup.state);
    let doubles = |player: &mut Player| may_double(&setup.state) && player.doubles(&board, &cube);
    let line = match (decision, dice) {
        (Decision::Chequer, Some(d)) => format!("bestmove {}", chequer(player, d)),
        (Decision::Cube, _) => {
            let cube = if doubles(player) {
                "double"
            } else {
                "nodouble"
            };
            format!("bestcube {cube}")
        }
        (Decision::Take, _) => {
            // The board is seen from the doubler (on roll); the taker is the opponent.
            let take = if player.takes(&board, &cube) {
                "take"
            } else {
                "drop"
            };
            format!("besttake {take}")
        }
        (Decision::Turn, _) if doubles(player) => "bestturn cube=double move=none".to_string(),
        (Decision::Turn, Some(d)) => format!("bestturn cube=nodouble move={}", chequer(player, d)),
        (Decision::Turn, None) | (Decision::Chequer, None) => {
            return vec!["error bad_state missing dice".to_string()]
        }
    };
    vec![line]
}

/// The extension's lines before a decision's answer: for checker play,
/// `info rank <r> ply <p> equity <e> move <m>` for the best `count` moves,
/// best first (every move judged by the net at 1 ply, the best `count`
/// again at the player's plies); for a cube or take decision, `info cube
/// nodouble <e> take <e> drop <e>` (the equities of the player on roll
/// after no double, a double taken, a double dropped). Only the net
/// evaluates: the baseline players answer without them.
fn ranked(
    player: &mut Player,
    decision: Decision,
    (setup, dice): (Setup, Option<Dice>),
    count: u8,
) -> Vec<String> {
    if player.kind() != backgammon_engine::Kind::Net {
        return Vec::new();
    }
    let board = setup.board;
    match (decision, dice) {
        (Decision::Chequer, Some(dice)) => {
            let plies = player.net_settings().plies;
            let mut searcher = Searcher::new(backgammon_engine::player::nets());
            searcher.set_threads(cores());
            let list = board.legal_moves(dice);
            let score = |s: &mut Searcher, i: usize, depth: u8| {
                let p = s.after_value(&list.boards()[i], depth);
                (i, backgammon_engine::equity(&p))
            };
            // (move, equity, plies it was judged at)
            let mut scored: Vec<(usize, f32, u8)> = (0..list.len())
                .map(|i| (i, score(&mut searcher, i, 0).1, 1))
                .collect();
            let best_first = |v: &mut [(usize, f32, u8)]| {
                v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)))
            };
            best_first(&mut scored);
            scored.truncate(count as usize);
            // Every candidate at 2 plies; deeper, only those the search
            // itself deepens (its move filter on the level below), listed
            // first: 32 candidates at 3 plies would take seconds.
            let mut deep = scored.len();
            for depth in 2..=plies.min(MAX_PLY) {
                if depth > 2 {
                    let f = FILTERS[(depth - 2) as usize];
                    let best = scored[0].1;
                    deep = scored[..deep]
                        .iter()
                        .take(f.keep)
                        .take_while(|s| s.1 >= best - f.margin)
                        .count();
                }
                for s in &mut scored[..deep] {
                    *s = (s.0, score(&mut searcher, s.0, depth - 1).1, depth);
                }
                best_first(&mut scored[..deep]);
            }
            scored
                .iter()
                .enumerate()
                .map(|(r, &(i, e, ply))| {
                    let m = board.move_steps_text(&list.moves()[i], false);
                    format!("info rank {} ply {ply} equity {e:.4} move {m}", r + 1)
                })
                .collect()
        }
        (Decision::Cube | Decision::Take, _) => {
            let d = player.cube_decision(&board, &cube_state(&setup.state));
            vec![format!(
                "info cube nodouble {:.4} take {:.4} drop {:.4}",
                d.no_double, d.double_take, d.double_pass
            )]
        }
        _ => Vec::new(),
    }
}

/// A candidate's move as `bestmove` writes it, or `none` for the position.
fn rollout_move(target: &rollout::Target, o: &rollout::Outcome) -> String {
    match (o.index, target.dice) {
        (Some(i), Some(d)) => {
            let list = target.board.legal_moves(d);
            target.board.move_steps_text(&list.moves()[i], false)
        }
        _ => "none".to_string(),
    }
}

/// The figures of a candidate: `cubeless <e> <se> cubeful <e> <se>`.
fn rollout_figures(o: &rollout::Outcome) -> String {
    format!(
        "cubeless {:.4} {:.4} cubeful {:.4} {:.4}",
        o.cubeless, o.cubeless_error, o.cubeful, o.cubeful_error
    )
}

/// Runs a rollout, writing `info rollout trials ...` lines to `out` after
/// each block of trials; returns the closing lines.
fn rollout_lines(
    target: &rollout::Target,
    settings: &rollout::Settings,
    stop: &AtomicBool,
    out: &Output,
) -> Vec<String> {
    let ranked = |p: &rollout::Progress| {
        let mut v: Vec<rollout::Outcome> = p.outcomes.clone();
        v.sort_by(|a, b| {
            b.cubeful
                .total_cmp(&a.cubeful)
                .then(b.cubeless.total_cmp(&a.cubeless))
        });
        v
    };
    let eval = backgammon_engine::player::nets();
    let result = rollout::rollout(eval, target, settings, None, |p| {
        let best = &ranked(p)[0];
        let _ = out.line(&format!(
            "info rollout trials {} {} {} move {}",
            p.done,
            p.trials,
            rollout_figures(best),
            rollout_move(target, best)
        ));
        !stop.load(Ordering::Relaxed)
    });
    let p = match result {
        Ok(p) => p,
        Err(e) => return vec![Ubgi::error(ErrorCode::BadState, &e.to_string()).to_string()],
    };
    let ranked = ranked(&p);
    let mut lines: Vec<String> = ranked
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let q = o.probs;
            format!(
                "info rollout rank {} probs {:.4} {:.4} {:.4} {:.4} {:.4} {} move {}",
                i + 1,
                q[0],
                q[1],
                q[2],
                q[3],
                q[4],
                rollout_figures(o),
                rollout_move(target, o)
            )
        })
        .collect();
    lines.push(format!(
        "bestrollout trials {} {} move {}",
        p.done,
        rollout_figures(&ranked[0]),
        rollout_move(target, &ranked[0])
    ));
    lines
}

/// `query result`: `none` while the game goes on, else the winner (as the
/// Match ID numbers players), single/gammon/backgammon and the points.
fn result_text(setup: &Setup) -> String {
    let (board, state) = (&setup.board, &setup.state);
    let (winner, seen) = if board.has_won(Side::OnRoll) {
        (state.on_roll, *board)
    } else if board.has_won(Side::Opponent) {
        (state.on_roll.other(), board.swapped())
    } else {
        return "none".to_string();
    };
    let mut kind = win_kind(&seen);
    let cube_turned = state.cube_log2 > 0 || state.cube_owner != CubeOwner::Centred;
    if state.is_money() && state.jacoby && !cube_turned {
        kind = backgammon_rules::WinKind::Single;
    }
    let points = kind.multiplier() * state.cube_value();
    format!("p{} {} {points}", winner.index(), kind.name())
}

impl Dialect for Ubgi {
    type Command = Command;
    type Done = Done;

    fn parse(&mut self, line: &str) -> Result<Option<Command>, ErrorLine> {
        parse_command(line).map_err(|e| Ubgi::error(e.code, &e.message))
    }

    fn kind(&self, command: &Command) -> Kind {
        match command {
            Command::Quit => Kind::Quit,
            Command::Stop => Kind::Stop,
            Command::NewGame => Kind::NeedsIdle("newgame"),
            Command::Position(_) => Kind::NeedsIdle("position"),
            Command::Dice(..) => Kind::NeedsIdle("dice"),
            Command::Play(_) => Kind::NeedsIdle("play"),
            Command::Go(_) | Command::Ranked { .. } | Command::Rollout { .. } => {
                Kind::NeedsIdle("go")
            }
            Command::Set { .. } => Kind::NeedsIdle("set"),
            Command::Ubgi
            | Command::IsReady
            | Command::Get(_)
            | Command::Keys
            | Command::Query(_)
            | Command::Display => Kind::Anytime,
        }
    }

    fn execute(&mut self, command: Command, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        let reply = |r: Result<Vec<String>, ErrorLine>| match r {
            Ok(lines) => ctx.out().lines(&lines),
            Err(e) => ctx.error(&e),
        };
        match command {
            Command::Ubgi => reply(Ok(self.identify())),
            Command::IsReady => {
                if self.settings.player == backgammon_engine::Kind::Net {
                    backgammon_engine::player::prepare();
                }
                reply(Ok(vec!["readyok".to_string()]))
            }
            Command::NewGame => {
                if let Some(p) = self.player.as_mut() {
                    p.new_game();
                }
                self.setup = None;
                self.dice = None;
                Ok(())
            }
            Command::Position(text) => reply(self.set_position(&text).map(|()| Vec::new())),
            Command::Dice(a, b) => {
                self.dice = Dice::new(a, b);
                Ok(())
            }
            Command::Play(text) => reply(self.play(&text).map(|()| Vec::new())),
            Command::Go(decision) => self.go(decision, None, ctx),
            Command::Ranked { decision, count } => self.go(decision, Some(count), ctx),
            Command::Rollout { trials, ply } => self.rollout(trials, ply, ctx),
            Command::Set { key, value } => reply(self.set_key(&key, &value).map(|()| Vec::new())),
            Command::Get(key) => reply(self.get_key(&key).map(|l| vec![l])),
            Command::Keys => reply(Ok(self.settings.key_lines())),
            Command::Query(q) => reply(self.query(&q).map(|l| vec![l])),
            Command::Display => reply(
                self.setup()
                    .map(|s| draw_board(&s.board, &s.state, ["player 0", "player 1"])),
            ),
            // The core handles these two.
            Command::Stop | Command::Quit => Ok(()),
        }
    }

    fn finished(&mut self, done: Done, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        self.player = Some(done.player);
        ctx.out().lines(&done.lines)
    }

    fn busy(&self, command: &'static str, _job: &'static str) -> ErrorLine {
        Ubgi::error(
            ErrorCode::BadState,
            &format!("{command}: a decision is being made; wait for its answer first"),
        )
    }

    fn unreadable(&self, error: &LineError) -> ErrorLine {
        Ubgi::error(ErrorCode::BadCommand, &error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(plies: u8) -> Player {
        let settings = NetSettings {
            plies,
            movetime: None,
        };
        Player::with_net(backgammon_engine::Kind::Net, None, settings)
    }

    fn opening(dice: &str) -> (Setup, Option<Dice>) {
        let setup = Setup {
            board: Board::START,
            state: MatchState::money(true),
        };
        (setup, Some(dice.parse().unwrap()))
    }

    /// `(equity, move)` of each `info rank` line, checking its form (and
    /// that it was judged at `plies`).
    fn ranks(lines: &[String], plies: u8) -> Vec<(f32, String)> {
        lines
            .iter()
            .enumerate()
            .map(|(r, l)| {
                let head = format!("info rank {} ply {plies} equity ", r + 1);
                let rest = l.strip_prefix(&head).unwrap_or_else(|| panic!("{l}"));
                let (e, m) = rest.split_once(" move ").unwrap();
                (e.parse().unwrap(), m.to_string())
            })
            .collect()
    }

    #[test]
    fn at_three_plies_only_the_moves_the_search_deepens_are_judged_so_deep() {
        let mut player = net(3);
        for dice in ["31", "64", "55"] {
            let ask = opening(dice);
            let lines = ranked(&mut player, Decision::Chequer, ask, 32);
            let plies: Vec<&str> = lines.iter().map(|l| l.split(' ').nth(4).unwrap()).collect();
            let deep = plies.iter().take_while(|&&p| p == "3").count();
            assert!((1..=FILTERS[1].keep).contains(&deep), "{lines:?}");
            assert!(plies[deep..].iter().all(|&p| p == "2"), "{lines:?}");
            let best = ranks(&lines[..1], 3)[0].1.clone();
            let answer = decide(&mut player, Decision::Chequer, ask);
            assert_eq!(answer, [format!("bestmove {best}")], "{lines:?}");
        }
    }

    #[test]
    fn at_four_plies_the_three_ply_survivors_are_judged_again_and_the_first_is_the_answer() {
        let mut player = net(4);
        for dice in ["31", "64"] {
            let ask = opening(dice);
            let lines = ranked(&mut player, Decision::Chequer, ask, 32);
            let plies: Vec<&str> = lines.iter().map(|l| l.split(' ').nth(4).unwrap()).collect();
            let four = plies.iter().take_while(|&&p| p == "4").count();
            let three = plies[four..].iter().take_while(|&&p| p == "3").count();
            assert!((1..=FILTERS[2].keep).contains(&four), "{lines:?}");
            assert!(four + three <= FILTERS[1].keep, "{lines:?}");
            assert!(plies[four + three..].iter().all(|&p| p == "2"), "{lines:?}");
            let best = ranks(&lines[..1], 4)[0].1.clone();
            let answer = decide(&mut player, Decision::Chequer, ask);
            assert_eq!(answer, [format!("bestmove {best}")], "{lines:?}");
        }
    }

    #[test]
    fn candidates_are_the_best_moves_best_first_and_the_first_is_the_answer() {
        for plies in [1, 2] {
            let mut player = net(plies);
            let ask = opening("31");
            let lines = ranked(&mut player, Decision::Chequer, ask, 5);
            assert_eq!(lines.len(), 5, "{lines:?}");
            let r = ranks(&lines, plies);
            assert!(r.windows(2).all(|w| w[0].0 >= w[1].0), "{r:?}");
            let dice = ask.1.unwrap();
            let mut seen = Vec::new();
            for (_, m) in &r {
                let (_, after) = Board::START.play_text(dice, m).expect("legal");
                assert!(!seen.contains(&after), "one line per position: {r:?}");
                seen.push(after);
            }
            let answer = decide(&mut player, Decision::Chequer, ask);
            assert_eq!(answer, [format!("bestmove {}", r[0].1)], "{r:?}");
            // Fewer legal moves than asked: one line each.
            let all = ranked(&mut player, Decision::Chequer, ask, 32);
            assert_eq!(all.len(), Board::START.legal_moves(dice).len());
        }
        // The baselines have no equities to give.
        let mut random = Player::new(backgammon_engine::Kind::Random, Some(1));
        assert!(ranked(&mut random, Decision::Chequer, opening("31"), 5).is_empty());
    }

    #[test]
    fn the_cube_line_gives_the_three_equities_the_answer_follows() {
        let mut player = net(1);
        let (setup, _) = opening("31");
        let lines = ranked(&mut player, Decision::Cube, (setup, None), 1);
        assert_eq!(lines.len(), 1);
        let words: Vec<&str> = lines[0].split(' ').collect();
        assert_eq!(
            [words[0], words[1], words[2], words[4], words[6]],
            ["info", "cube", "nodouble", "take", "drop"],
            "{lines:?}"
        );
        let e: Vec<f64> = [3, 5, 7].map(|i| words[i].parse().unwrap()).to_vec();
        // At the opening a double is dropped at a point and taken for less.
        assert_eq!(e[2], 1.0, "{lines:?}");
        assert!(e[0] < e[2] && e[1] < e[2], "{lines:?}");
        let answer = decide(&mut player, Decision::Cube, (setup, None));
        assert_eq!(answer, ["bestcube nodouble"]);
    }
}
