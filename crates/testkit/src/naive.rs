//! A deliberately naive model of the rules, written straight from docs/rules/RULES.md:
//! a plain array of 24 points, loops over points, no bit tricks, its own
//! parser, formatter, pass, outcome and draw logic. The tests compare the fast
//! rules core against it; it shares nothing with the rules crate but the text of
//! the position string and of the move notation.

use rand::Rng;
use std::fmt;

/// White is 0, Black is 1.
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// What stands on one point: nobody, or `count` (1 or 2) checkers of `owner`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub owner: usize,
    pub count: u8,
}

/// One action, with point numbers 1..24 as people write them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NaiveMove {
    Enter(usize),
    Step(usize, usize),
    Off(usize),
    Pass,
}

impl fmt::Display for NaiveMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NaiveMove::Enter(q) => write!(f, "bar/{q}"),
            NaiveMove::Step(p, q) => write!(f, "{p}/{q}"),
            NaiveMove::Off(p) => write!(f, "{p}/off"),
            NaiveMove::Pass => write!(f, "pass"),
        }
    }
}

/// How the game stands, in the model's own words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NaiveOutcome {
    Ongoing,
    Win(usize),
    Draw,
}

/// A position as the rules describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    /// `board[0]` is point 1, `board[23]` point 24.
    pub board: [Option<Cell>; 24],
    pub side: usize,
    pub to_enter: [u8; 2],
    pub score: [u8; 2],
    /// Who scored last, and how many times in succession.
    pub last_scorer: Option<usize>,
    pub run: u8,
}

/// The quadrant (0 = A .. 3 = D) of point number `p` (1..24).
pub fn quadrant(p: usize) -> usize {
    (p - 1) / 6
}

impl Naive {
    /// Reads a position string without any validity checks beyond its shape
    /// (so the model can also hold positions the real parser refuses).
    pub fn from_fen(s: &str) -> Naive {
        let f: Vec<&str> = s.split(' ').collect();
        assert_eq!(f.len(), 6, "naive: six fields expected in {s:?}");
        let mut board = [None; 24];
        let mut i = 0;
        for ch in f[0].chars() {
            let cell = match ch {
                '/' => continue,
                '.' => None,
                'w' => Some(Cell {
                    owner: WHITE,
                    count: 1,
                }),
                'W' => Some(Cell {
                    owner: WHITE,
                    count: 2,
                }),
                'b' => Some(Cell {
                    owner: BLACK,
                    count: 1,
                }),
                'B' => Some(Cell {
                    owner: BLACK,
                    count: 2,
                }),
                other => panic!("naive: bad board letter {other:?} in {s:?}"),
            };
            board[i] = cell;
            i += 1;
        }
        assert_eq!(i, 24, "naive: 24 points expected in {s:?}");
        let side = if f[1] == "w" { WHITE } else { BLACK };
        let (ws, bs) = f[4].split_once('-').unwrap();
        let (last_scorer, run) = match f[5] {
            "-" => (None, 0),
            r => (
                Some(if r.starts_with('w') { WHITE } else { BLACK }),
                r[1..].parse().unwrap(),
            ),
        };
        Naive {
            board,
            side,
            to_enter: [f[2].parse().unwrap(), f[3].parse().unwrap()],
            score: [ws.parse().unwrap(), bs.parse().unwrap()],
            last_scorer,
            run,
        }
    }

    /// Writes the position string.
    pub fn to_fen(&self) -> String {
        let mut board = String::new();
        for (i, cell) in self.board.iter().enumerate() {
            board.push(match cell {
                None => '.',
                Some(Cell {
                    owner: WHITE,
                    count: 1,
                }) => 'w',
                Some(Cell { owner: WHITE, .. }) => 'W',
                Some(Cell { count: 1, .. }) => 'b',
                Some(_) => 'B',
            });
            if i == 5 || i == 11 || i == 17 {
                board.push('/');
            }
        }
        let letter = |c: usize| if c == WHITE { 'w' } else { 'b' };
        let run = match self.last_scorer {
            None => "-".to_string(),
            Some(c) => format!("{}{}", letter(c), self.run),
        };
        format!(
            "{board} {} {} {} {}-{} {run}",
            letter(self.side),
            self.to_enter[0],
            self.to_enter[1],
            self.score[0],
            self.score[1]
        )
    }

    fn cell(&self, p: usize) -> Option<Cell> {
        self.board[p - 1]
    }

    fn is_wall(&self, p: usize) -> bool {
        matches!(self.cell(p), Some(Cell { count: 2, .. }))
    }

    /// Rule 11: somebody scored twice in succession.
    pub fn is_won(&self) -> bool {
        self.run >= 2
    }

    /// Every action (rules 5-9) of colour `c`, whoever is to move.
    pub fn actions(&self, c: usize) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        // Rule 5: enter onto any empty point of A.
        if self.to_enter[c] > 0 {
            for q in 1..=6 {
                if self.cell(q).is_none() {
                    out.push(NaiveMove::Enter(q));
                }
            }
        }
        // Rules 6-7: lone checkers and wall tops in A, B, C go to the next quadrant.
        for p in 1..=18 {
            let Some(here) = self.cell(p) else { continue };
            if here.owner != c {
                continue;
            }
            let next = quadrant(p) + 1;
            for q in next * 6 + 1..=next * 6 + 6 {
                let lands = match self.cell(q) {
                    None => true,
                    Some(there) => q == p + 6 && there.owner == c && there.count == 1,
                };
                if !lands {
                    continue;
                }
                if here.count == 1 {
                    // Rule 6: no wall of either colour strictly between p and q.
                    let mut blocked = false;
                    for r in p + 1..q {
                        if self.is_wall(r) {
                            blocked = true;
                        }
                    }
                    if blocked {
                        continue;
                    }
                }
                out.push(NaiveMove::Step(p, q));
            }
        }
        // Rule 9: bear off own walls in D.
        for p in 19..=24 {
            if self.cell(p) == Some(Cell { owner: c, count: 2 }) {
                out.push(NaiveMove::Off(p));
            }
        }
        out
    }

    /// Legal moves of the side to move: its actions; a pass when it has none
    /// but the opponent has (rule 10); nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        if self.is_won() {
            return Vec::new();
        }
        let mine = self.actions(self.side);
        if !mine.is_empty() {
            return mine;
        }
        if !self.actions(1 - self.side).is_empty() {
            return vec![NaiveMove::Pass];
        }
        Vec::new()
    }

    /// Rules 11-12.
    pub fn outcome(&self) -> NaiveOutcome {
        if self.is_won() {
            return NaiveOutcome::Win(self.last_scorer.unwrap());
        }
        if self.actions(WHITE).is_empty() && self.actions(BLACK).is_empty() {
            return NaiveOutcome::Draw;
        }
        NaiveOutcome::Ongoing
    }

    /// Plays a move the caller knows to be legal.
    pub fn play(&self, m: NaiveMove) -> Naive {
        let mut next = self.clone();
        let c = self.side;
        match m {
            NaiveMove::Enter(q) => {
                next.to_enter[c] -= 1;
                next.board[q - 1] = Some(Cell { owner: c, count: 1 });
            }
            NaiveMove::Step(p, q) => {
                let from = next.board[p - 1].unwrap();
                next.board[p - 1] = if from.count == 2 {
                    Some(Cell { owner: c, count: 1 })
                } else {
                    None
                };
                next.board[q - 1] = match next.board[q - 1] {
                    None => Some(Cell { owner: c, count: 1 }),
                    Some(cell) => Some(Cell {
                        owner: c,
                        count: cell.count + 1,
                    }),
                };
            }
            NaiveMove::Off(p) => {
                next.board[p - 1] = None;
                next.score[c] += 1;
                if next.last_scorer == Some(c) {
                    next.run += 1;
                } else {
                    next.last_scorer = Some(c);
                    next.run = 1;
                }
            }
            NaiveMove::Pass => {}
        }
        next.side = 1 - c;
        next
    }

    /// Checkers of `c`: to enter + on the board + two per score.
    pub fn total(&self, c: usize) -> u32 {
        let on_board: u32 = self
            .board
            .iter()
            .flatten()
            .filter(|cell| cell.owner == c)
            .map(|cell| cell.count as u32)
            .sum();
        self.to_enter[c] as u32 + on_board + 2 * self.score[c] as u32
    }

    /// perft by the book: no bulk counting tricks beyond counting the list at
    /// the last ply.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}

/// A random position string that the rules could reach as far as the counts
/// go (no walls in A, totals equal and even, a score history of alternating
/// scores possibly ended by a win), with a random density of checkers.
/// Used to reach crowded boards that random playouts seldom visit.
pub fn random_fen(rng: &mut impl Rng) -> String {
    loop {
        let density = 1 + rng.random_range(0..5);
        let mut board = ['.'; 24];
        for (i, square) in board.iter_mut().enumerate() {
            if rng.random_range(0..8) >= density {
                continue;
            }
            let white = rng.random_range(0..2) == 0;
            let wall = i >= 6 && rng.random_range(0..2) == 0;
            *square = match (white, wall) {
                (true, false) => 'w',
                (true, true) => 'W',
                (false, false) => 'b',
                (false, true) => 'B',
            };
        }
        let mut score = [0u32; 2];
        let mut run = "-".to_string();
        let scores = rng.random_range(0..5);
        let first = rng.random_range(0..2);
        let mut last = first;
        for k in 0..scores {
            last = (first + k) % 2;
            score[last] += 1;
        }
        let letter = |c: usize| if c == WHITE { 'w' } else { 'b' };
        if scores > 0 {
            let won = rng.random_range(0..4) == 0;
            if won {
                score[last] += 1;
            }
            run = format!("{}{}", letter(last), 1 + won as u32);
        }
        let used = [
            checkers_on(&board, 'w') + 2 * score[0],
            checkers_on(&board, 'b') + 2 * score[1],
        ];
        let most = used[0].max(used[1]).max(1);
        let mut n = most + most % 2;
        if n > 14 {
            continue;
        }
        n += 2 * rng.random_range(0..((14 - n) / 2 + 1) as usize) as u32;
        let mut text = String::new();
        for (i, s) in board.iter().enumerate() {
            text.push(*s);
            if i == 5 || i == 11 || i == 17 {
                text.push('/');
            }
        }
        return format!(
            "{text} {} {} {} {}-{} {run}",
            letter(rng.random_range(0..2)),
            n - used[0],
            n - used[1],
            score[0],
            score[1]
        );
    }
}

/// Checkers of the colour whose lone checker is written `lone` ('w' or 'b';
/// its wall is the capital) on a board of position-string letters.
pub fn checkers_on(board: &[char; 24], lone: char) -> u32 {
    let wall = lone.to_ascii_uppercase();
    board
        .iter()
        .map(|&s| (s == lone) as u32 + 2 * (s == wall) as u32)
        .sum()
}
