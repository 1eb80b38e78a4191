//! The board drawing matches GNU Backgammon 1.07's `show board` line for
//! line, on the boards of `fixtures/gnubg_show_board.txt` (cube owned,
//! offered and centred, dice, resignation, checkers on the bar and off,
//! either player on roll, money and match).

use backgammon_rules::{draw_board, Board, MatchState};

#[test]
fn drawings_match_gnubg_show_board() {
    let text = include_str!("fixtures/gnubg_show_board.txt");
    let blocks: Vec<Vec<&str>> = text
        .split("\n\n")
        .map(|b| {
            b.lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
        })
        .filter(|b| !b.is_empty())
        .collect();
    assert!(blocks.len() >= 15, "{}", blocks.len());
    for block in blocks {
        let pid = block[0].rsplit(' ').next().unwrap();
        let mid = block[1].rsplit(' ').next().unwrap();
        let board: Board = pid.parse().unwrap();
        let state: MatchState = mid.parse().unwrap();
        let ours = draw_board(&board, &state, ["gnubg", "root"]);
        for (i, (a, b)) in ours.iter().zip(&block).enumerate() {
            assert_eq!(
                a,
                b,
                "line {i} of {pid}:{mid}\nours:\n{}\ngnubg:\n{}",
                ours.join("\n"),
                block.join("\n")
            );
        }
        assert_eq!(ours.len(), block.len());
    }
}
