//! The UBGI checks: each drives the engine through one command of the
//! draft and judges what it writes; every checker play is refereed by the
//! rules crate (GNU Backgammon's notation or single-die steps, `pass` only
//! when nothing is legal).

use super::lines::{ErrorCode, KeyLine, UbgiLine};
use super::positions::{Roll, Rolls};
use super::session::{unexpected, wrong, Check, Engine, Session, Stop};
use crate::strict::Fault;
use protocol_vocab::quote;
use std::time::{Duration, Instant};

pub fn handshake(s: &mut Session) -> Check {
    let mut engine = s.spawn().inspect_err(|f| {
        s.dead = Some(format!("the handshake failed: {f}"));
    })?;
    engine.send("ubgi")?;
    match read_identity(&mut engine, s.deadline()) {
        Ok((keys, options)) => {
            (s.keys, s.options) = (keys, options);
            s.adopt(engine);
            Ok(())
        }
        Err(stop) => {
            if matches!(stop, Stop::Fault(Fault::Timeout { .. } | Fault::Closed(_))) {
                s.dead = Some(format!("the handshake failed: {}", describe(&stop)));
            }
            engine.kill();
            Err(stop)
        }
    }
}

pub fn describe(stop: &Stop) -> String {
    match stop {
        Stop::Fault(fault) => fault.to_string(),
        Stop::NotOffered(why) => why.clone(),
    }
}

/// What `ubgi` declared: the v0.2 keys and the v0.1 options.
type Declared = (Vec<KeyLine>, Vec<KeyLine>);

/// `id name`, `id author` (once each, first), at most one `proto`, `key`
/// or `option` lines with distinct names, then `ubgiok`.
fn read_identity(engine: &mut Engine, deadline: Instant) -> Result<Declared, Stop> {
    let (mut name, mut author, mut proto) = (false, false, false);
    let (mut keys, mut options): Declared = (Vec::new(), Vec::new());
    loop {
        let said = engine.next(deadline, "ubgiok after ubgi")?;
        let declared = !keys.is_empty() || !options.is_empty();
        match said.line {
            UbgiLine::UbgiOk => break,
            UbgiLine::IdName(_) if !name && !declared => name = true,
            UbgiLine::IdAuthor(_) if !author && !declared => author = true,
            UbgiLine::Proto(_) if !proto && !declared => proto = true,
            UbgiLine::Key(k) if !named(&keys, &k.name) => keys.push(k),
            UbgiLine::Option(o) if !named(&options, &o.name) => options.push(o),
            _ => {
                let expected = "id name, id author, proto (once each, first), then key or \
                                option lines with distinct names, then ubgiok";
                return Err(unexpected(said.text, expected));
            }
        }
    }
    match (name, author) {
        (true, true) => Ok((keys, options)),
        (false, _) => Err(wrong("no id name line before ubgiok")),
        (true, false) => Err(wrong("no id author line before ubgiok")),
    }
}

fn named(declared: &[KeyLine], name: &str) -> bool {
    declared.iter().any(|k| k.name == name)
}

pub fn isready(s: &mut Session) -> Check {
    s.sync()?;
    s.sync()
}

pub fn newgame(s: &mut Session) -> Check {
    s.send_quietly(&["newgame"])?;
    s.sync()
}

pub fn position_gnubgid(s: &mut Session) -> Check {
    let rolls = Rolls::new();
    let mut all = vec![rolls.opening, rolls.bar, rolls.bear_off, rolls.pass];
    all.extend(rolls.middle);
    for roll in all {
        s.send_quietly(&[&roll.position_command()])?;
    }
    s.sync()
}

/// Whether `text` (a `bestmove` payload) is a legal play of the roll.
fn judge_move(roll: &Roll, text: &str, line: &str) -> Check {
    let legal = roll.board.legal_moves(roll.dice);
    let no_move = legal.moves()[0].is_pass();
    let verdict = match (text, no_move) {
        ("pass", true) => Ok(()),
        ("pass", false) => Err("pass, where a move is legal".to_string()),
        (_, _) => roll
            .board
            .play_text(roll.dice, text)
            .map(|_| ())
            .map_err(|e| e.to_string()),
    };
    verdict.map_err(|why| {
        wrong(format!(
            "{}: illegal for {} in {}: {why}",
            quote(line),
            roll.dice,
            roll.board.position_id()
        ))
    })
}

/// `position`, `dice`, then `go` (as spelt): a legal `bestmove`.
fn play(s: &mut Session, roll: &Roll, go: &str, optional: bool) -> Check {
    s.send_quietly(&[&roll.position_command(), &roll.dice_command()])?;
    let said = s.answer(go, optional)?;
    match &said.line {
        UbgiLine::BestMove(text) => judge_move(roll, text, &said.text)?,
        _ => return Err(unexpected(said.text, format!("bestmove after {go}"))),
    }
    s.sync()
}

pub fn go_chequer(s: &mut Session) -> Check {
    let rolls = Rolls::new();
    play(s, &rolls.opening, "go chequer", false)?;
    for roll in &rolls.middle {
        play(s, roll, "go chequer", false)?;
    }
    Ok(())
}

pub fn go_bare(s: &mut Session) -> Check {
    play(s, &Rolls::new().middle[0], "go", false)
}

pub fn go_doubles(s: &mut Session) -> Check {
    play(s, &Rolls::new().doubles, "go chequer", false)
}

pub fn go_bar(s: &mut Session) -> Check {
    play(s, &Rolls::new().bar, "go chequer", false)
}

pub fn go_bear_off(s: &mut Session) -> Check {
    play(s, &Rolls::new().bear_off, "go chequer", false)
}

pub fn go_pass(s: &mut Session) -> Check {
    play(s, &Rolls::new().pass, "go chequer", false)
}

pub fn go_role_chequer(s: &mut Session) -> Check {
    play(s, &Rolls::new().middle[1], "go role chequer", true)
}

fn none_declared(what: &str) -> Stop {
    Stop::NotOffered(format!("not offered (no {what} declared)"))
}

/// `set <key> <default>` for every key: no answer.
pub fn set(s: &mut Session) -> Check {
    if s.keys.is_empty() {
        return Err(none_declared("key"));
    }
    for key in s.keys.clone() {
        s.send_quietly(&[&format!("set {} {}", key.name, key.default)])?;
    }
    s.sync()
}

/// `get <key>`: `value <key> <default>` after `set` to the default.
pub fn get(s: &mut Session) -> Check {
    if s.keys.is_empty() {
        return Err(none_declared("key"));
    }
    for key in s.keys.clone() {
        s.send(&format!("set {} {}", key.name, key.default))?;
        let said = s.answer(&format!("get {}", key.name), false)?;
        match &said.line {
            UbgiLine::Value { key: k, value } if *k == key.name && *value == key.default => {}
            _ => {
                let expected = format!("value {} {}", key.name, key.default);
                return Err(unexpected(said.text, expected));
            }
        }
    }
    s.sync()
}

/// `keys`: the key lines of the handshake again.
pub fn keys(s: &mut Session) -> Check {
    s.send("keys")?;
    s.send("isready")?;
    let mut names = Vec::new();
    loop {
        let said = s.next_line("readyok after keys and isready")?;
        match said.line {
            UbgiLine::ReadyOk => break,
            UbgiLine::Key(k) => names.push(k.name),
            _ => return Err(unexpected(said.text, "key lines after keys")),
        }
    }
    let declared: Vec<String> = s.keys.iter().map(|k| k.name.clone()).collect();
    if names != declared {
        return Err(wrong(format!(
            "keys lists {names:?}, the handshake declared {declared:?}"
        )));
    }
    Ok(())
}

/// v0.1's `setoption name <name> value <default>` for every option
/// declared (or, without v0.1 options, every key): no answer, or an
/// `error unsupported|bad_command` where the engine reads only `set`.
pub fn setoption(s: &mut Session) -> Check {
    let declared = match s.options.is_empty() {
        true => s.keys.clone(),
        false => s.options.clone(),
    };
    if declared.is_empty() {
        return Err(none_declared("key or option"));
    }
    for option in declared {
        let command = format!("setoption name {} value {}", option.name, option.default);
        answered_silently(s, &command, false)?;
    }
    s.sync()
}

/// Bad input: one `error` line with the draft's code, and the session goes on.
pub fn errors(s: &mut Session) -> Check {
    let cases = [
        ("frobnicate", ErrorCode::BadCommand),
        ("dice 7 1", ErrorCode::BadValue),
        ("set no.such.key 1", ErrorCode::Unsupported),
    ];
    for (command, code) in cases {
        expect_error(s, command, code)?;
    }
    s.send("newgame")?;
    expect_error(s, "go chequer", ErrorCode::BadState)?;
    s.sync()
}

fn expect_error(s: &mut Session, command: &str, code: ErrorCode) -> Check {
    s.send(command)?;
    let said = s.next_line(&format!("error {code} after {command}"))?;
    match said.line {
        UbgiLine::Error { code: c, .. } if c == code => s.quiet(command),
        _ => Err(unexpected(
            said.text,
            format!("error {code} ... after {}", quote(command)),
        )),
    }
}

/// `go cube` before the roll: `bestcube double|nodouble`.
pub fn go_cube(s: &mut Session) -> Check {
    let roll = Rolls::new().middle[2];
    s.send_quietly(&["newgame", &roll.position_command()])?;
    let said = s.answer("go cube", true)?;
    if !matches!(said.line, UbgiLine::BestCube(_)) {
        return Err(unexpected(
            said.text,
            "bestcube double|nodouble after go cube",
        ));
    }
    s.sync()
}

/// `go turn` with the dice: no double and a legal move (or a double).
pub fn go_turn(s: &mut Session) -> Check {
    let roll = Rolls::new().middle[3];
    s.send_quietly(&[&roll.position_command(), &roll.dice_command()])?;
    let said = s.answer("go turn", true)?;
    match &said.line {
        UbgiLine::BestTurn { mv: Some(text), .. } => judge_move(&roll, text, &said.text)?,
        UbgiLine::BestTurn { mv: None, .. } => {}
        _ => return Err(unexpected(said.text, "bestturn after go turn")),
    }
    s.sync()
}

/// `go take` on a double offered: `besttake take|drop` (an extension).
pub fn go_take(s: &mut Session) -> Check {
    let roll = Rolls::new().middle[2];
    // A Match ID after the Position ID is an extension: any refusal skips.
    answered_silently(s, &roll.doubled_command(), true)?;
    let said = s.answer("go take", true)?;
    if !matches!(said.line, UbgiLine::BestTake(_)) {
        return Err(unexpected(said.text, "besttake take|drop after go take"));
    }
    s.sync()
}

/// `position xgid <XGID>`, then the roll played as from its Position ID.
pub fn position_xgid(s: &mut Session) -> Check {
    let roll = Rolls::new().middle[1];
    let command = roll.xgid_command().expect("a money position has an XGID");
    answered_silently(s, &command, false)?;
    s.send_quietly(&[&roll.dice_command()])?;
    let said = s.answer("go chequer", false)?;
    match &said.line {
        UbgiLine::BestMove(text) => judge_move(&roll, text, &said.text)?,
        _ => return Err(unexpected(said.text, "bestmove after go chequer")),
    }
    s.sync()
}

/// A command answered by nothing, or refused as not supported (`error
/// unsupported|bad_command`; any error where `any_error` is set): not offered.
fn answered_silently(s: &mut Session, command: &str, any_error: bool) -> Check {
    s.send(command)?;
    s.send("isready")?;
    let said = s.next_line(&format!("readyok after {command} and isready"))?;
    let unsupported = matches!(
        said.line,
        UbgiLine::Error {
            code: ErrorCode::Unsupported | ErrorCode::BadCommand,
            ..
        }
    );
    match said.line {
        UbgiLine::ReadyOk => Ok(()),
        UbgiLine::Error { .. } if unsupported || any_error => {
            // The isready's answer.
            s.next_line("readyok after isready")?;
            Err(Stop::NotOffered(format!("not offered ({})", said.text)))
        }
        _ => Err(unexpected(said.text, format!("nothing after {command}"))),
    }
}

pub fn stop_idle(s: &mut Session) -> Check {
    s.sync()?;
    s.send_quietly(&["stop"])?;
    s.sync()
}

pub fn no_stray_output(s: &mut Session) -> Check {
    s.sync()?;
    let engine = s.engine()?;
    engine.quiet(Duration::from_millis(300), "readyok, with nothing sent")?;
    s.sync()
}

pub fn quit(s: &mut Session) -> Check {
    s.sync()?;
    s.send("quit")?;
    exits(s, "quit")
}

pub fn end_of_input(s: &mut Session) -> Check {
    s.sync()?;
    s.engine()?.close_input();
    exits(s, "the end of input")
}

/// After `quit` or the end of input: no more output, exit status 0.
fn exits(s: &mut Session, after: &str) -> Check {
    let deadline = s.deadline();
    let mut engine = s.take_engine()?;
    let verdict = match engine.next(deadline, "") {
        Ok(said) => Err(unexpected(said.text, format!("nothing after {after}"))),
        Err(Fault::Closed(_)) => match engine.wait_exit(s.settings.timeout) {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(wrong(format!("exited with {status} after {after}"))),
            None => Err(wrong(format!("still running after {after}"))),
        },
        Err(f @ Fault::Timeout { .. }) => Err(wrong(format!("did not exit after {after} ({f})"))),
        Err(f) => Err(Stop::Fault(f)),
    };
    engine.kill();
    verdict
}
