//! Openings: start positions for game pairs, from a file of position strings
//! or made of random legal plies from the start position with a seed.
//! Opening `k` depends only on the source and `k`, so every shard of a match
//! agrees on it.

use crate::rules::Position;

/// Where openings come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Positions read from a file, used in order and cycled.
    List(Vec<Position>),
    /// `plies` random legal plies from the start position with `checkers`
    /// per player; opening `k` is drawn from `seed` and `k`.
    Random { checkers: u8, plies: u32, seed: u64 },
}

/// Reads an openings file: one position string a line; blank lines and lines
/// starting with `#` are skipped. Finished positions are refused.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos: Position = line.parse().map_err(|e| format!("line {}: {e}", i + 1))?;
        if pos.is_game_over() {
            return Err(format!(
                "line {}: \"{line}\" is a finished game, not an opening",
                i + 1
            ));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err("no positions in the openings file".to_string());
    }
    Ok(out)
}

impl Openings {
    /// The opening of game pair round `k`.
    pub fn get(&self, k: usize) -> Position {
        match self {
            Openings::List(list) => list[k % list.len()],
            &Openings::Random {
                checkers,
                plies,
                seed,
            } => random_opening(checkers, plies, seed, k as u64),
        }
    }
}

/// SplitMix64: a small, well-mixed generator; plenty for picking openings.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0); the modulo bias is negligible for move lists.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `plies` random legal plies from the start; a line that ends the game early
/// is thrown away and drawn again (up to 1000 tries, then the longest
/// still-open prefix is used).
fn random_opening(checkers: u8, plies: u32, seed: u64, k: u64) -> Position {
    let start = Position::start(checkers).expect("checked when the match was set up");
    let mut rng = SplitMix64::new(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut best = start;
    for _ in 0..1000 {
        let mut pos = start;
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let mut next = pos;
            next.play_unchecked(moves[rng.below(moves.len())]);
            if next.is_game_over() {
                ok = false;
                break;
            }
            pos = next;
        }
        if ok {
            return pos;
        }
        best = pos;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_open_and_varied() {
        let o = Openings::Random {
            checkers: 14,
            plies: 6,
            seed: 7,
        };
        let a: Vec<Position> = (0..20).map(|k| o.get(k)).collect();
        let b: Vec<Position> = (0..20).map(|k| o.get(k)).collect();
        assert_eq!(a, b);
        let distinct: std::collections::HashSet<_> = a.iter().map(|p| p.key()).collect();
        assert!(distinct.len() > 15, "{}", distinct.len());
        for p in &a {
            assert!(!p.is_game_over());
            // Six plies from the start: White has entered at least one checker.
            assert!(p.to_enter(crate::rules::Color::White) < 14);
            assert_eq!(p.side_to_move(), crate::rules::Color::White);
        }
        let other = Openings::Random {
            checkers: 14,
            plies: 6,
            seed: 8,
        };
        assert_ne!(other.get(0), o.get(0));
    }

    #[test]
    fn openings_files_skip_comments_and_name_bad_lines() {
        let text = "# openings\n\n....../....../....../...... w 14 14 0-0 -\nw...../....../....../...... b 13 14 0-0 -\n";
        assert_eq!(parse_openings(text).unwrap().len(), 2);
        let e = parse_openings("# x\nnot a position\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_openings("....../....../....../...... w 0 0 1-1 b1\n").unwrap_err();
        assert!(e.contains("finished game"), "{e}");
        assert!(parse_openings("# only comments\n").is_err());
    }
}
