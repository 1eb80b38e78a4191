//! Records as GNU Backgammon's match files (`.mat`, the Jellyfish text
//! format that `export match mat` writes and `import mat` reads), laid out
//! exactly as GNU Backgammon 1.07 writes them (`ExportGameJF`): a header of
//! `; [Key "value"]` comments, ` N point match` (0 for money), then per
//! game ` Game n`, the players with their scores, and numbered rows of two
//! columns (player 0, White, on the left), each cell a roll and its steps
//! (`52: 13/8 13/11 `, bar as 25, off as 0, a hit marked once with `*`),
//! ` Doubles => 2`, ` Takes`, ` Drops`, and `Wins n point(s)`. The
//! reader ([`parse`]) takes such a file (GNU Backgammon's or JellyFish's)
//! back, replaying every action by the rules, and gives each game's
//! positions for a board to step through; what it reads, [`write`] lays
//! out again the same way ([`MatFile::to_text`]).

use crate::table::{side_of, Event};
use crate::{replay, Backgammon, ReplayError};
use backgammon_rules::{
    win_kind, Board, Decision, Dice, Ending, Game as Rules, GnubgId, Move, Player, Point,
    Rules as Options, Side as BoardSide, WinKind,
};
use match_runner::game::GameRecord;
use match_runner::outcome::Side;
use std::fmt::Write as _;

/// A player's name as the file can hold it: no blanks, no colons.
fn name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_whitespace() || c == ':' {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// A checker play as `FormatMovePlain` writes it: the steps in GNU
/// Backgammon's canonical order (`CanonicalMoveOrder`: by start point, then
/// end point, highest first; what it stores for a move it reads), each
/// `from/to` with the bar as 25 and off as 0, `*` after a step that lands
/// where the opponent had a checker before the move (once per point), a
/// space after each of the first three steps.
pub fn plain_move(before: &Board, m: &Move) -> String {
    let mut out = String::new();
    let mut steps = m.steps().to_vec();
    steps.sort_by_key(|s| std::cmp::Reverse((s.from().index(), s.to().index())));
    for (k, s) in steps.iter().enumerate() {
        let (from, to) = (s.from().index(), s.to().index());
        let _ = write!(out, "{from}/{to}");
        let hit = (1..=24).contains(&to)
            && before.count(
                BoardSide::Opponent,
                Point::from_index(25 - to).expect("a point"),
            ) > 0;
        if hit && !steps[..k].iter().any(|e| e.to().index() == to) {
            out.push('*');
        }
        if k < 3 {
            out.push(' ');
        }
    }
    out
}

/// "point" or "points".
fn points(n: u32) -> String {
    format!("Wins {n} point{}", if n > 1 { "s" } else { "" })
}

/// The record as a .mat file, or why its moves do not replay.
pub fn write(record: &GameRecord<Backgammon>) -> Result<String, ReplayError> {
    let (table, _) = replay(&record.opening, &record.moves)?;
    let names = [name(&record.white), name(&record.black)];
    let mut tags = vec![
        ("Event".to_string(), record.event.replace('"', "'")),
        (
            "Round".to_string(),
            format!("{}.{}", record.pair + 1, record.game),
        ),
    ];
    if record.date.len() == 10 {
        tags.push(("EventDate".to_string(), record.date.replace('"', "'")));
    }
    Ok(write_events(
        &tags,
        &names,
        record.opening.length,
        table.events(),
    ))
}

/// The file of a match: the header's tags, the players, the length and
/// what happened.
fn write_events(
    tags: &[(String, String)],
    names: &[String; 2],
    length: u16,
    events: &[Event],
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        let _ = writeln!(out, "; [{k} \"{v}\"]");
    }
    let _ = writeln!(out);
    let _ = write!(out, " {length} point match\n\n");
    let mut game = 0;
    // Column: even = left (player 0), odd = right; and the cube as written.
    let mut i = 0usize;
    let mut cube = 1u32;
    for event in events {
        let cell = match *event {
            Event::GameStart { score } => {
                game += 1;
                i = 0;
                cube = 1;
                let left = format!("{} : {}", names[0], score[0]);
                let _ = write!(
                    out,
                    " Game {game}\n {left:<31}{} : {}\n",
                    names[1], score[1]
                );
                continue;
            }
            Event::GameEnd { borne_off, .. } => {
                // After the last move's cell, in that move's column.
                if let Some(n) = borne_off {
                    let lead = if (i - 1) & 1 == 1 {
                        " ".repeat(34)
                    } else {
                        "\n      ".to_string()
                    };
                    let _ = write!(out, "{lead}{}\n\n", points(n));
                }
                continue;
            }
            Event::Move {
                side,
                dice,
                ref before,
                ref play,
            } => {
                if i == 0 && side == Side::Black {
                    out.push_str("  1)                             ");
                    i += 1;
                }
                format!("{}: {}", dice_text(dice), plain_move(before, play))
            }
            Event::Double { .. } => {
                cube *= 2;
                format!(" Doubles => {cube}")
            }
            Event::Take { .. } => " Takes".to_string(),
            Event::Drop { .. } => {
                let gap = if i & 1 == 1 {
                    "\n      ".to_string()
                } else {
                    " ".repeat(23)
                };
                format!(" Drops{gap}{}", points(cube / 2))
            }
        };
        if i & 1 == 1 {
            out.push_str(&cell);
            out.push('\n');
        } else {
            let _ = write!(out, "{:3}) {cell:<27} ", i / 2 + 1);
        }
        if matches!(event, Event::Drop { .. }) {
            out.push('\n');
            if i & 1 == 0 {
                out.push('\n');
            }
        }
        i += 1;
    }
    out
}

fn dice_text(d: Dice) -> String {
    let (a, b) = d.values();
    format!("{a}{b}")
}

/// Why a .mat file cannot be read: the line (from 1), the token and the
/// reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: \"{token}\": {reason}")]
pub struct MatError {
    pub line: usize,
    pub token: String,
    pub reason: String,
}

/// One action of a game read from a .mat file, with the position it was
/// taken in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatStep {
    /// Who acts.
    pub side: Side,
    /// The position and match state before the action (with the dice of
    /// a roll): what a game set up from here starts with.
    pub before: GnubgId,
    /// The action in words: `rolls 52: 13/8 13/11`, `doubles to 2`,
    /// `takes`, `drops`.
    pub action: String,
}

/// One game of a .mat file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatGame {
    /// The score at its start (White's, Black's).
    pub score: [u16; 2],
    /// Every action, in order.
    pub steps: Vec<MatStep>,
    /// The position once the last action was taken.
    pub end: GnubgId,
    /// Who won and the points the file says, if the game was finished.
    pub winner: Option<(Side, u32)>,
}

/// A match (or money session) read from a .mat file ([`parse`]) and
/// replayed by the rules: every roll, move and cube action checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatFile {
    /// The header's `; [Key "value"]` lines, in order.
    pub tags: Vec<(String, String)>,
    /// Points to win; 0 for money.
    pub length: u16,
    /// Player 0 (White, the left column) and player 1.
    pub names: [String; 2],
    pub games: Vec<MatGame>,
    events: Vec<Event>,
}

impl MatFile {
    /// The file as [`write`] lays it out (the same text for a file it wrote).
    pub fn to_text(&self) -> String {
        write_events(&self.tags, &self.names, self.length, &self.events)
    }
}

/// One cell of a move row, or the `Wins` note.
enum Cell {
    Roll(Dice, Vec<String>),
    Double(u32),
    Take,
    Drop,
}

/// Reading state: the rules' game, the file so far, the line read.
struct Reader {
    file: MatFile,
    game: Option<Rules>,
    line: usize,
    /// The board's own count of the game just borne off (cube times 1-3).
    borne_off: Option<u32>,
}

impl Reader {
    fn err(&self, token: &str, reason: impl Into<String>) -> MatError {
        MatError {
            line: self.line,
            token: token.to_string(),
            reason: reason.into(),
        }
    }

    fn game(&mut self, token: &str) -> Result<&mut Rules, MatError> {
        let line = self.line;
        self.game.as_mut().ok_or_else(|| MatError {
            line,
            token: token.to_string(),
            reason: "before the first \" Game 1\" line".into(),
        })
    }

    /// ` N point match`.
    fn length(&mut self, t: &str) -> Result<(), MatError> {
        let n = t.split_whitespace().next().unwrap_or("");
        self.file.length = n
            .parse()
            .ok()
            .filter(|&n| n < 32768)
            .ok_or_else(|| self.err(n, "expected the match length, 0 for money"))?;
        Ok(())
    }

    /// The players' line under ` Game K`: `name0 : s0   name1 : s1`.
    /// (A name may hold blanks, as some programs write them, not colons.)
    fn players(&mut self, t: &str) -> Result<(), MatError> {
        let parts: Vec<&str> = t.split(':').map(str::trim).collect();
        let middle = parts.get(1).and_then(|m| m.split_once(char::is_whitespace));
        let (n0, s0, n1, s1) = match (parts.len(), middle) {
            (3, Some((s0, n1))) => (parts[0], s0, n1.trim(), parts[2]),
            _ => {
                return Err(self.err(
                    t,
                    "expected the players and scores, e.g. \"White : 0   Black : 0\"",
                ))
            }
        };
        let score = |s: &str| {
            s.parse::<u16>()
                .map_err(|_| self.err(s, "expected a score"))
        };
        let score = [score(s0)?, score(s1)?];
        let names = [n0.to_string(), n1.to_string()];
        let (length, first) = (self.file.length, self.game.is_none());
        if first {
            self.file.names = names;
            let rules = Options {
                jacoby: length == 0,
                crawford: length > 0,
                holland: false,
            };
            self.game = Some(match length {
                0 => Rules::money(rules),
                n => Rules::new_match(n, rules),
            });
        } else {
            if names != self.file.names {
                return Err(self.err(
                    t,
                    format!(
                        "the players were {} and {}",
                        self.file.names[0], self.file.names[1]
                    ),
                ));
            }
            let g = self.game(t)?;
            g.next_game().map_err(|e| self.err(t, e.to_string()))?;
        }
        let g = self.game(t)?;
        let (expected, end) = (g.state().score, g.gnubg_id());
        if length > 0 && expected != score {
            return Err(self.err(
                t,
                format!(
                    "the score by the games before is {}-{}",
                    expected[0], expected[1]
                ),
            ));
        }
        self.file.games.push(MatGame {
            score,
            steps: Vec::new(),
            end,
            winner: None,
        });
        self.file.events.push(Event::GameStart { score });
        Ok(())
    }

    /// Records the step about to be taken by `side`.
    fn step(&mut self, side: Side, action: String) -> Result<(), MatError> {
        let before = self.game("")?.gnubg_id();
        let game = self.file.games.last_mut().expect("a game is being read");
        game.steps.push(MatStep {
            side,
            before,
            action,
        });
        Ok(())
    }

    /// Checks that `side` is the one the rules expect to act now.
    fn expect_side(&self, token: &str, side: Side, player: Player) -> Result<(), MatError> {
        match side_of(player) == side {
            true => Ok(()),
            false => Err(self.err(
                token,
                format!("it is {}'s turn", self.file.names[side_of(player).index()]),
            )),
        }
    }

    fn cell(&mut self, token: &str, side: Side, cell: Cell) -> Result<(), MatError> {
        let decision = self.game(token)?.decision();
        match cell {
            Cell::Roll(dice, steps) => {
                let (a, b) = dice.values();
                match decision {
                    Decision::OpeningRoll => {
                        let (hi, lo) = (a.max(b), a.min(b));
                        let (d0, d1) = if side == Side::White {
                            (hi, lo)
                        } else {
                            (lo, hi)
                        };
                        if hi == lo {
                            return Err(self.err(token, "the opening roll cannot be a double"));
                        }
                        self.game(token)?
                            .roll_opening(d0, d1)
                            .map_err(|e| self.err(token, e.to_string()))?;
                    }
                    Decision::RollOrDouble { player, .. } => {
                        self.expect_side(token, side, player)?;
                        self.game(token)?
                            .roll(dice)
                            .map_err(|e| self.err(token, e.to_string()))?;
                    }
                    other => return Err(self.err(token, format!("no roll now: {other:?}"))),
                }
                let text = match steps.is_empty() {
                    true => "pass".to_string(),
                    false => steps.join(" "),
                };
                let board = *self.game(token)?.board();
                let shown = format!(
                    "rolls {a}{b}: {}",
                    if steps.is_empty() {
                        "cannot move"
                    } else {
                        &text
                    }
                );
                self.step(side, shown)?;
                let play = self
                    .game(token)?
                    .play_text(&text)
                    .map_err(|e| self.err(&text, e.to_string()))?;
                self.file.events.push(Event::Move {
                    side,
                    dice,
                    before: board,
                    play,
                });
                if let Some(r) = self.game(token)?.result() {
                    let cube = self.game(token)?.state().cube_value();
                    let count = cube * win_kind(&board.apply_unchecked(play)).multiplier();
                    self.borne_off = Some(count);
                    self.file.events.push(Event::GameEnd {
                        winner: side_of(r.winner),
                        points: r.points,
                        borne_off: Some(count),
                    });
                }
            }
            Cell::Double(value) => {
                let Decision::RollOrDouble { player, .. } = decision else {
                    return Err(self.err(token, "no double now"));
                };
                self.expect_side(token, side, player)?;
                let cube = 2 * self.game(token)?.state().cube_value();
                if value != cube {
                    return Err(self.err(token, format!("the cube goes to {cube}")));
                }
                self.step(side, format!("doubles to {cube}"))?;
                self.game(token)?
                    .double()
                    .map_err(|e| self.err(token, e.to_string()))?;
                self.file.events.push(Event::Double { side, cube });
            }
            Cell::Take | Cell::Drop => {
                let Decision::TakeOrDrop { player } = decision else {
                    return Err(self.err(token, "no double to answer"));
                };
                self.expect_side(token, side, player)?;
                let take = matches!(cell, Cell::Take);
                self.step(side, if take { "takes" } else { "drops" }.to_string())?;
                let g = self.game(token)?;
                let done = if take { g.take() } else { g.drop() };
                done.map_err(|e| self.err(token, e.to_string()))?;
                if take {
                    self.file.events.push(Event::Take { side });
                } else {
                    let r = self.game(token)?.result().expect("a drop ends the game");
                    self.file.events.push(Event::Drop { side });
                    self.file.events.push(Event::GameEnd {
                        winner: side_of(r.winner),
                        points: r.points,
                        borne_off: None,
                    });
                }
            }
        }
        let end = self.game(token)?.gnubg_id();
        self.file.games.last_mut().expect("a game").end = end;
        Ok(())
    }

    /// `Wins N point(s) [and the match]` in `side`'s column.
    fn wins(&mut self, side: Side, words: &[&str]) -> Result<(), MatError> {
        let n = words.get(1).copied().unwrap_or("");
        let points: u32 = n
            .parse()
            .map_err(|_| self.err(n, "expected the points won"))?;
        let token = words.join(" ");
        if self.game(&token)?.result().is_none() {
            self.resigned(side, points, &token)?;
        }
        let g = self.game(&token)?;
        let r = g.result().expect("over");
        let count = match r.ending {
            Ending::BorneOff => self.borne_off.unwrap_or(r.points),
            _ => r.points,
        };
        if side_of(r.winner) != side || count != points {
            return Err(self.err(
                &token,
                format!(
                    "by the rules {} wins {count}",
                    self.file.names[side_of(r.winner).index()]
                ),
            ));
        }
        self.file.games.last_mut().expect("a game").winner = Some((side, points));
        Ok(())
    }

    /// A game that is not over yet is won: the loser, to act, resigned
    /// it, worth `points` (the cube times 1, 2 or 3).
    fn resigned(&mut self, winner: Side, points: u32, token: &str) -> Result<(), MatError> {
        let loser = winner.opposite();
        let (decision, cube) = {
            let g = self.game(token)?;
            (g.decision(), g.state().cube_value())
        };
        let to_act = match decision {
            Decision::RollOrDouble { player, .. } | Decision::Move { player, .. } => {
                Some(side_of(player))
            }
            _ => None,
        };
        if to_act != Some(loser) {
            return Err(self.err(
                token,
                format!(
                    "the game is not over, and {} cannot resign now",
                    self.file.names[loser.index()]
                ),
            ));
        }
        let kind = match (points % cube, points / cube) {
            (0, 1) => WinKind::Single,
            (0, 2) => WinKind::Gammon,
            (0, 3) => WinKind::Backgammon,
            _ => return Err(self.err(token, format!("the game is not over, and with the cube at {cube} a resignation is worth {cube}, {} or {}", 2 * cube, 3 * cube))),
        };
        self.step(loser, format!("resigns ({})", kind.name()))?;
        let g = self.game(token)?;
        let done = g.resign(kind).and_then(|_| g.accept_resignation());
        done.map_err(|e| self.err(token, e.to_string()))?;
        let r = self
            .game(token)?
            .result()
            .expect("a resignation accepted ends the game");
        self.borne_off = Some(points);
        self.file.events.push(Event::GameEnd {
            winner,
            points: r.points,
            borne_off: Some(points),
        });
        let end = self.game(token)?.gnubg_id();
        self.file.games.last_mut().expect("a game").end = end;
        Ok(())
    }

    /// A numbered row: its cells, left (player 0) then right; the first
    /// is the right one when it starts far from the row's number.
    fn row(&mut self, raw: &str) -> Result<(), MatError> {
        let close = raw.find(')').expect("a row has its number");
        let words = words_at(raw);
        let mut i = words
            .iter()
            .position(|(at, _)| *at > close)
            .unwrap_or(words.len());
        let mut side = match words.get(i) {
            Some((at, _)) if *at - close > 12 => Side::Black,
            _ => Side::White,
        };
        while i < words.len() {
            let (at, w) = words[i];
            i += 1;
            let cell = match w {
                "Doubles" => {
                    let v = match (words.get(i), words.get(i + 1)) {
                        (Some((_, "=>")), Some((_, v))) => v.parse().ok(),
                        _ => None,
                    };
                    i += 2;
                    Cell::Double(v.ok_or_else(|| self.err(w, "expected \"Doubles => N\""))?)
                }
                "Takes" => Cell::Take,
                "Drops" => Cell::Drop,
                "Wins" => {
                    let end = words[i..]
                        .iter()
                        .position(|(_, w)| is_cell(w))
                        .map_or(words.len(), |k| i + k);
                    let text: Vec<&str> = words[i - 1..end].iter().map(|(_, w)| *w).collect();
                    let winner = if at - close > 20 {
                        Side::Black
                    } else {
                        Side::White
                    };
                    self.wins(winner, &text)?;
                    i = end;
                    continue;
                }
                w if is_dice(w) => {
                    let dice: Dice = w[..2]
                        .parse()
                        .map_err(|_| self.err(w, "expected two dice 1-6"))?;
                    let mut steps = Vec::new();
                    while let Some((_, s)) = words.get(i).filter(|(_, s)| !is_cell(s)) {
                        steps.push(s.to_string());
                        i += 1;
                    }
                    Cell::Roll(dice, steps)
                }
                _ => {
                    return Err(self.err(
                        w,
                        "expected a roll (\"52:\"), Doubles, Takes, Drops or Wins",
                    ))
                }
            };
            self.cell(w, side, cell)?;
            side = side.opposite();
        }
        Ok(())
    }
}

/// The words of a line with their byte offsets.
fn words_at(raw: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, c) in raw.char_indices().chain([(raw.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &raw[s..k]));
                start = None;
            }
            (false, None) => start = Some(k),
            _ => {}
        }
    }
    out
}

/// `52:`: a roll's dice.
fn is_dice(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 3 && b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b':'
}

fn is_cell(w: &str) -> bool {
    is_dice(w) || matches!(w, "Doubles" | "Takes" | "Drops" | "Wins")
}

/// Reads a .mat file (GNU Backgammon's or JellyFish's): the header's
/// `; [Key "value"]` lines, ` N point match`, and per game ` Game K`, the
/// players and their scores, numbered rows of two columns, `Doubles => N`,
/// `Takes`, `Drops` and `Wins N point(s)`; every action is replayed by the
/// rules (Crawford in matches, Jacoby in money play). Errors name the line
/// and the token.
pub fn parse(text: &str) -> Result<MatFile, MatError> {
    let mut r = Reader {
        file: MatFile {
            tags: Vec::new(),
            length: 0,
            names: [String::new(), String::new()],
            games: Vec::new(),
            events: Vec::new(),
        },
        game: None,
        line: 0,
        borne_off: None,
    };
    let mut length_seen = false;
    let mut players_next = false;
    for (k, raw) in text.lines().enumerate() {
        r.line = k + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if players_next {
            players_next = false;
            r.players(t)?;
            r.borne_off = None;
            continue;
        }
        if let Some(c) = t.strip_prefix(';') {
            let c = c.trim();
            if let Some((key, rest)) = c.strip_prefix('[').and_then(|c| c.split_once(' ')) {
                let value = rest.trim().strip_suffix(']').map(str::trim);
                let value = value.and_then(|v| v.strip_prefix('"')?.strip_suffix('"'));
                let value = value.ok_or_else(|| r.err(t, "expected ; [Key \"value\"]"))?;
                r.file.tags.push((key.to_string(), value.to_string()));
            }
            continue;
        }
        if let Some(n) = t.strip_suffix("point match") {
            if length_seen {
                return Err(r.err(t, "a second match length"));
            }
            length_seen = true;
            r.length(n)?;
            continue;
        }
        if let Some(n) = t.strip_prefix("Game ") {
            if !length_seen {
                return Err(r.err(t, "before the \" N point match\" line"));
            }
            let expected = r.file.games.len() + 1;
            if n.trim().parse::<usize>().ok() != Some(expected) {
                return Err(r.err(n.trim(), format!("expected game {expected}")));
            }
            players_next = true;
            continue;
        }
        let number = t.split_once(')').map(|(n, _)| n.trim());
        if number.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) {
            if r.file.games.is_empty() {
                return Err(r.err(t, "a move before the first game"));
            }
            r.row(raw)?;
            continue;
        }
        if t.starts_with("Wins ") {
            let words = words_at(raw);
            let winner = if words[0].0 > 20 {
                Side::Black
            } else {
                Side::White
            };
            let text: Vec<&str> = words.iter().map(|(_, w)| *w).collect();
            r.wins(winner, &text)?;
            continue;
        }
        let first = t.split_whitespace().next().unwrap_or(t);
        return Err(r.err(first, "expected a header, a game, a numbered row or Wins"));
    }
    if !length_seen {
        return Err(r.err("", "no \" N point match\" line"));
    }
    Ok(r.file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Due, Setup, Table};
    use match_runner::outcome::{GameResult, Termination};

    const GNUBG: &str = include_str!("../../../fixtures/gnubg-5-point-match.mat");

    /// A runner game played on the table by a fixed rule: the `n`-th legal
    /// move at turn `n`, a double every `every` turns, every third double
    /// dropped.
    fn played(setup: Setup, every: usize) -> GameRecord<Backgammon> {
        let mut t = Table::new(setup);
        let mut n = 0usize;
        let result = loop {
            n += 1;
            match t.due() {
                Due::Cube(_) if n.is_multiple_of(every) => t.double().unwrap(),
                Due::Cube(_) => t.roll(),
                Due::Take(_) if n.is_multiple_of(3) => t.drop().unwrap(),
                Due::Take(_) => t.take().unwrap(),
                Due::Move(_, dice) => {
                    let b = *t.game().board();
                    let legal = b.legal_moves(dice);
                    let m = legal.moves()[n % legal.moves().len()];
                    t.play(&b.move_text(&m)).unwrap();
                }
                Due::Over(r) => break r,
            }
        };
        GameRecord {
            event: "test \"quoted\"".into(),
            date: "2026-12-02".into(),
            pair: 0,
            game: 1,
            white: "white one".into(),
            black: "black".into(),
            opening: setup,
            tc: "-".into(),
            result,
            termination: Termination::Normal,
            detail: None,
            notes: Vec::new(),
            moves: t.turns().to_vec(),
        }
    }

    #[test]
    fn our_exports_read_back_to_the_same_text_and_the_same_positions() {
        let mut games = 0;
        for seed in 1..=8u64 {
            for setup in [
                "money cube=on jacoby=on",
                "match=3 cube=on crawford=on holland=off",
                "match=7 cube=on crawford=on holland=off",
                "match=5 cube=off crawford=on holland=off",
            ] {
                let setup: Setup = format!("{setup} dice={seed:016x}").parse().unwrap();
                let record = played(setup, 5 + seed as usize % 4);
                let text = write(&record).unwrap();
                let file = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(file.to_text(), text);
                assert_eq!(file.length, setup.length);
                assert_eq!(file.names, ["white_one".to_string(), "black".to_string()]);
                // Each checker play's position is the one the table played it in.
                let (table, _) = replay(&setup, &record.moves).unwrap();
                let befores: Vec<Board> = table
                    .events()
                    .iter()
                    .filter_map(|e| match e {
                        Event::Move { before, .. } => Some(*before),
                        _ => None,
                    })
                    .collect();
                let read: Vec<Board> = file
                    .games
                    .iter()
                    .flat_map(|g| &g.steps)
                    .filter(|s| s.action.starts_with("rolls"))
                    .map(|s| s.before.board)
                    .collect();
                assert_eq!(read, befores);
                let last = file.games.last().unwrap();
                let (winner, _) = last.winner.expect("the match was played out");
                let by_record = match record.result {
                    r if r == GameResult::points(0, 0) => unreachable!(),
                    r if r.score_of(Side::White) > r.score_of(Side::Black) => Side::White,
                    _ => Side::Black,
                };
                assert_eq!(winner, by_record, "{text}");
                games += file.games.len();
            }
        }
        assert!(games > 60, "{games} games");
    }

    #[test]
    fn a_match_gnubg_exported_replays_by_the_rules_and_reads_back_the_same() {
        let file = parse(GNUBG).unwrap();
        assert_eq!(file.length, 5);
        assert_eq!(file.names, ["gnubg".to_string(), "root".to_string()]);
        assert_eq!(
            file.tags,
            [("EventDate".to_string(), "2026.12.02".to_string())]
        );
        let scores: Vec<[u16; 2]> = file.games.iter().map(|g| g.score).collect();
        assert_eq!(scores, [[0, 0], [2, 0], [4, 0], [4, 1], [4, 2], [4, 4]]);
        // The third game is the Crawford game: its Match IDs say so.
        assert!(file.games[2].steps.iter().all(|s| s.before.state.crawford));
        assert!(!file.games[3].steps[0].before.state.crawford);
        let actions: Vec<&str> = file
            .games
            .iter()
            .flat_map(|g| &g.steps)
            .map(|s| s.action.split(' ').next().unwrap())
            .collect();
        for a in ["doubles", "takes", "drops"] {
            assert!(actions.contains(&a), "{a}");
        }
        assert!(file.games.iter().all(|g| g.winner.is_some()));
        // JellyFish's "and the match" after the last game's Wins.
        let at = GNUBG.rfind("Wins 1 point").unwrap();
        let jf = format!("{}Wins 1 point and the match\n\n", &GNUBG[..at]);
        let last = parse(&jf).unwrap().games.pop().unwrap();
        assert_eq!(last.winner, Some((Side::White, 1)));
        // Names with blanks (JellyFish writes them) are read whole.
        let spaced = GNUBG
            .replace("gnubg : ", "Ann Smith : ")
            .replace("root : ", "Bob Jones : ");
        let names = parse(&spaced).unwrap().names;
        assert_eq!(names, ["Ann Smith".to_string(), "Bob Jones".to_string()]);
        // The first game ends by a resignation (a single game, cube 2).
        let last = file.games[0].steps.last().unwrap();
        assert_eq!(
            (last.side, last.action.as_str()),
            (Side::Black, "resigns (single)")
        );
        // Written back (moves in the rules' canonical form, where GNU
        // Backgammon wrote its steps as played), it reads as the same match.
        let positions = |f: &MatFile| -> Vec<GnubgId> {
            f.games
                .iter()
                .flat_map(|g| g.steps.iter().map(|s| s.before).chain([g.end]))
                .collect()
        };
        let again = parse(&file.to_text()).unwrap();
        assert_eq!(positions(&again), positions(&file));
        assert_eq!(again.to_text(), file.to_text());
    }

    #[test]
    fn bad_files_are_refused_naming_the_line_and_the_token() {
        let line = |needle: &str| GNUBG.lines().position(|l| l.contains(needle)).unwrap() + 1;
        let cases = [
            // An illegal move: 6/4 with a 2 is fine, 6/3 is not.
            (
                "22: 24/22 22/20 6/4 6/4",
                "22: 24/22 22/20 6/4 6/3",
                "24/22 22/20 6/4 6/3",
                line("22: 24/22 22/20 6/4 6/4"),
            ),
            (
                "Doubles => 2",
                "Doubles => 3",
                "Doubles",
                line("Doubles => 2"),
            ),
            (
                " 5 point match",
                " five point match",
                "five",
                line("point match"),
            ),
            ("gnubg : 2 ", "gnubg : 3 ", "gnubg : 3", line("gnubg : 2 ")),
            (
                "Wins 2 points",
                "Wins 9 points",
                "Wins 9 points",
                line("Wins 2 points"),
            ),
            ("  2) ", "  2) hello ", "hello", line("  2) ")),
            ("root : 0\n", "root 0\n", "gnubg : 0", line("root : 0")),
        ];
        for (from, to, token, at) in cases {
            let text = GNUBG.replacen(from, to, 1);
            let e = parse(&text).unwrap_err();
            assert_eq!(e.line, at, "{from} -> {to}: {e}");
            assert!(e.token.starts_with(token), "{from} -> {to}: {e}");
            assert!(e.to_string().starts_with(&format!("line {at}: \"")), "{e}");
        }
    }
}
