//! The terminal board drawing of GNU Backgammon's `show board`: player 1
//! (`X`) at the bottom, player 0 (`O`) on top, numbered from the side of the
//! player on roll, with the IDs above and the score, cube and dice beside.

use crate::board::{Board, Side};
use crate::matchid::{CubeOwner, GameState, MatchState, Player};

/// Row character for a point holding `n` checkers in the fifth row: blank
/// up to four, the checker letter at five, then the count (6-9, A-F).
fn fifth(n: u8, letter: char) -> char {
    match n {
        0..=4 => ' ',
        5 => letter,
        n => char::from_digit(n as u32, 16)
            .expect("at most 15")
            .to_ascii_uppercase(),
    }
}

/// The seven texts beside the board: O's name, O's two rows, the bar row,
/// X's two rows, X's name.
fn annotations(board: &Board, s: &MatchState, names: [&str; 2]) -> [String; 7] {
    let mut a: [String; 7] = Default::default();
    a[0] = format!("O: {}", names[0]);
    a[6] = format!("X: {}", names[1]);
    let points = |n: u16| format!("{n} point{}", if n == 1 { "" } else { "s" });
    a[1] = points(s.score[0]);
    a[5] = points(s.score[1]);
    let row = |p: Player| if p == Player::One { 4 } else { 2 };
    let length = s.match_length;
    let match_text = format!("{length} point{} match", if length == 1 { "" } else { "s" });
    if s.doubled {
        a[row(s.turn)] = format!("Cube offered at {}", s.cube_value() * 2);
        return a;
    }
    let over = s.game_state != GameState::Playing
        || board.has_won(Side::OnRoll)
        || board.has_won(Side::Opponent);
    let mut status = match s.dice {
        Some(d) => format!("Rolled {d}"),
        None if !over => "On roll".to_string(),
        None => String::new(),
    };
    if let Some(r) = s.resigned {
        let size = ["single game", "gammon", "backgammon"][r as usize - 1];
        status.push_str(&format!(", resigns {size}"));
    }
    a[row(s.on_roll)] = status;
    match s.cube_owner {
        CubeOwner::Centred if length > 0 => {
            a[3] = format!("{match_text} (Cube: {})", s.cube_value())
        }
        CubeOwner::Centred => a[3] = format!("(Cube: {})", s.cube_value()),
        CubeOwner::Owned(p) => {
            let i = if p == Player::One { 6 } else { 0 };
            a[i] = format!("{} (Cube: {})", a[i], s.cube_value());
            if length > 0 {
                a[3] = match_text;
            }
        }
    }
    a
}

/// The lines GNU Backgammon's `show board` prints for `board` (seen from
/// `state.on_roll`) in `state`, with the players' names (player 0 first).
pub fn draw_board(board: &Board, state: &MatchState, names: [&str; 2]) -> Vec<String> {
    // x[i] and o[i]: checkers of X on X's point i + 1 and of O on O's point
    // i + 1 (index 24 the bar), whoever is on roll.
    let (xs, os) = match state.on_roll {
        Player::One => (Side::OnRoll, Side::Opponent),
        Player::Zero => (Side::Opponent, Side::OnRoll),
    };
    let (x, o) = (board.counts(xs), board.counts(os));
    let (x_off, o_off) = (board.off(xs), board.off(os));
    let notes = annotations(board, state, names);
    let x_rolls = state.on_roll == Player::One;
    let (top, bottom) = (
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     ",
        " +12-11-10--9--8--7-------6--5--4--3--2--1-+     ",
    );
    let (top, bottom) = if x_rolls {
        (top, bottom)
    } else {
        (bottom, top)
    };
    // The checker letter on X's point i + 1 at height y (0 at the edge).
    let cell = |i: usize, y: u8| {
        if y == 4 {
            if x[i] > 0 {
                fifth(x[i], 'X')
            } else {
                fifth(o[23 - i], 'O')
            }
        } else if x[i] > y {
            'X'
        } else if o[23 - i] > y {
            'O'
        } else {
            ' '
        }
    };
    let tray = |off: u8, y: u8, letter: char| -> String {
        (0..3)
            .map(|k| if off > 5 * k + y { letter } else { ' ' })
            .collect()
    };
    let bar = |n: u8, y: u8, letter: char| {
        if y == 4 {
            fifth(n, letter)
        } else if n > y {
            letter
        } else {
            ' '
        }
    };
    let half = |range: &mut dyn Iterator<Item = usize>, y: u8| -> String {
        range.map(|i| format!(" {} ", cell(i, y))).collect()
    };
    let mut lines = vec![
        format!(" GNU Backgammon  Position ID: {}", board.position_id()),
        format!("                 Match ID   : {}", state.match_id()),
        format!("{top}{}", notes[0]),
    ];
    for y in 0..5u8 {
        let mut l = format!(
            " |{}| {} |{}| {}",
            half(&mut (12..18), y),
            bar(o[24], y, 'O'),
            half(&mut (18..24), y),
            tray(o_off, y, 'O')
        );
        if y < 4 {
            l.push(' ');
            if y < 2 {
                l.push_str(&notes[y as usize + 1]);
            }
        }
        lines.push(l);
    }
    let arrow = if x_rolls { 'v' } else { '^' };
    lines.push(format!(
        "{arrow}|                  |BAR|                  |     {}",
        notes[3]
    ));
    for y in (0..5u8).rev() {
        let mut l = format!(
            " |{}| {} |{}| {}",
            half(&mut (6..12).rev(), y),
            bar(x[24], y, 'X'),
            half(&mut (0..6).rev(), y),
            tray(x_off, y, 'X')
        );
        if y < 4 {
            l.push(' ');
            if y < 2 {
                l.push_str(&notes[5 - y as usize]);
            }
        }
        lines.push(l);
    }
    lines.push(format!("{bottom}{}", notes[6]));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_as_gnubg_draws_it() {
        let state: MatchState = "cAkAAAAAAAAA".parse().unwrap();
        let lines = draw_board(&Board::START, &state, ["gnubg", "root"]);
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[0], " GNU Backgammon  Position ID: 4HPwATDgc/ABMA");
        assert_eq!(
            lines[3],
            " | X           O    |   | O              X |     0 points"
        );
        assert_eq!(
            lines[8],
            "v|                  |BAR|                  |     (Cube: 1)"
        );
        assert_eq!(
            lines[12],
            " | O           X    |   | X              O |     On roll"
        );
    }
}
