//! Records as GNU Backgammon's match files (`.mat`, the Jellyfish text
//! format that `export match mat` writes and `import mat` reads), laid out
//! exactly as GNU Backgammon 1.07 writes them (`ExportGameJF`): a header of
//! `; [Key "value"]` comments, ` N point match` (0 for money), then per
//! game ` Game n`, the players with their scores, and numbered rows of two
//! columns (player 0, White, on the left), each cell a roll and its steps
//! (`52: 13/8 13/11 `, bar as 25, off as 0, a hit marked once with `*`),
//! ` Doubles => 2`, ` Takes`, ` Drops`, and `Wins n point(s)`.

use crate::table::Event;
use crate::{replay, Backgammon, ReplayError};
use backgammon_rules::{Board, Dice, Move, Point, Side as BoardSide};
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
    let mut out = String::new();
    for (k, v) in [
        ("Event", record.event.as_str()),
        ("Round", &format!("{}.{}", record.pair + 1, record.game)),
    ] {
        let _ = writeln!(out, "; [{k} \"{}\"]", v.replace('"', "'"));
    }
    if record.date.len() == 10 {
        let _ = writeln!(out, "; [EventDate \"{}\"]", record.date);
    }
    let _ = writeln!(out);
    let _ = write!(out, " {} point match\n\n", record.opening.length);
    let mut game = 0;
    // Column: even = left (player 0), odd = right; and the cube as written.
    let mut i = 0usize;
    let mut cube = 1u32;
    for event in table.events() {
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
    Ok(out)
}

fn dice_text(d: Dice) -> String {
    let (a, b) = d.values();
    format!("{a}{b}")
}
