//! The `d` command's drawing of a position for a person: the track of 24
//! points in four quadrants (ASCII, so any terminal shows it), then the
//! position string, whose turn it is, the score, the scoring run and how the
//! game stands.

use grasshopper_rules::{Color, Outcome, Point, Position, Square};

/// The letter a checker of `c` is drawn with (backgammon's usual O and X).
fn mark(c: Color) -> char {
    match c {
        Color::White => 'O',
        Color::Black => 'X',
    }
}

/// One row of 24 cells, three characters each, quadrants separated by `|`.
fn row(cell: impl Fn(Point) -> String) -> String {
    let mut s = String::new();
    for p in Point::all() {
        if p.index() > 0 && p.index() % 6 == 0 {
            s.push_str(" |");
        }
        s.push_str(&format!("{:>3}", cell(p)));
    }
    s.trim_end().to_string()
}

/// The drawing, one `String` per line (no line breaks inside).
pub fn draw(pos: &Position) -> Vec<String> {
    let mut lines = vec![
        "   A: 1-6              B: 7-12             C: 13-18            D: 19-24".to_string(),
        row(|p| p.number().to_string()),
        // Walls are two checkers stacked: the upper row shows their tops.
        row(|p| match pos.square(p) {
            Square::Wall(c) => mark(c).to_string(),
            _ => String::new(),
        }),
        row(|p| match pos.square(p) {
            Square::Empty => ".".to_string(),
            Square::Lone(c) | Square::Wall(c) => mark(c).to_string(),
        }),
    ];
    for c in Color::ALL {
        lines.push(format!(
            "{} ({}): {} to enter, {} on the board, score {}",
            capitalised(c),
            mark(c),
            pos.to_enter(c),
            pos.on_board(c),
            pos.score(c)
        ));
    }
    lines.push(format!("To move: {}", pos.side_to_move()));
    lines.push(match pos.run() {
        None => "Run: nobody has scored yet".to_string(),
        Some(r) if r.count >= 2 => format!("Run: {} scored twice in succession", r.color),
        Some(r) => format!(
            "Run: {} scored last; {}'s next score wins unless {} scores first",
            r.color,
            r.color,
            r.color.opposite()
        ),
    });
    lines.push(format!("Position: {pos}"));
    lines.push(match pos.outcome() {
        Outcome::Win(c) => format!("Status: game over, {c} has won"),
        Outcome::Draw => "Status: game over, drawn (neither player can move)".to_string(),
        Outcome::Ongoing => {
            let n = pos.legal_moves().len();
            format!(
                "Status: ongoing, {n} legal move{}",
                if n == 1 { "" } else { "s" }
            )
        }
    });
    lines
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_show_two_marks_and_lone_checkers_one() {
        let pos: Position = "w...../W...../....../b....B b 9 9 1-1 w1".parse().unwrap();
        let lines = draw(&pos);
        // Point 7 (first of B) holds a white wall: O in both rows; point 1 a
        // lone white checker: O in the lower row only.
        let col = |n: usize| 3 * n - 1 + 2 * ((n - 1) / 6);
        assert_eq!(&lines[1][col(7)..col(7) + 1], "7");
        assert_eq!(lines[2].chars().nth(col(7)), Some('O'));
        assert_eq!(lines[3].chars().nth(col(7)), Some('O'));
        assert_eq!(lines[2].chars().nth(col(1)), Some(' '));
        assert_eq!(lines[3].chars().nth(col(1)), Some('O'));
        assert_eq!(lines[3].chars().nth(col(19)), Some('X'));
        assert_eq!(lines[2].chars().nth(col(24)), Some('X'));
        assert_eq!(lines[3].chars().nth(col(2)), Some('.'));
        assert!(lines.contains(&format!("Position: {pos}")));
        assert!(lines.contains(&"To move: black".to_string()));
        assert!(lines.iter().any(|l| l.starts_with("White (O): 9 to enter")));
        assert!(lines.iter().all(|l| !l.contains('\n')));
    }

    #[test]
    fn a_won_game_says_who_won() {
        let pos: Position = "....../....../....../...... b 0 4 2-0 w2".parse().unwrap();
        let lines = draw(&pos);
        assert!(
            lines
                .iter()
                .any(|l| l == "Status: game over, white has won"),
            "{lines:?}"
        );
    }
}
