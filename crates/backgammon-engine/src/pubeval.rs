//! pubeval: Gerald Tesauro's public linear evaluation function (1993), the
//! usual benchmark opponent. The weights are data (`data/pubeval.txt`); the
//! inputs follow Tesauro's description: per point, from the mover's 24-point
//! down to the 1-point, five inputs (an opponent blot, an own blot, two or
//! more own checkers, exactly three, and half of every checker past three),
//! then half the opponent's checkers on the bar and the mover's borne-off
//! fraction. Race and contact positions have separate weights.

use backgammon_rules::{Board, Point, Side};

/// Inputs of the linear function.
const INPUTS: usize = 122;

/// The published weights, parsed once.
#[derive(Clone, Debug, PartialEq)]
pub struct Pubeval {
    race: [f32; INPUTS],
    contact: [f32; INPUTS],
}

/// Why a weights text does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PubevalError {
    #[error("pubeval weights: expected a `{0}` section")]
    MissingSection(&'static str),
    #[error("pubeval weights: \"{0}\" is not a number")]
    NotANumber(String),
    #[error("pubeval weights: the {section} section has {found} weights, expected {INPUTS}")]
    Count { section: &'static str, found: usize },
}

impl Pubeval {
    /// The published weights, from the copy compiled into the binary.
    pub fn published() -> Pubeval {
        Pubeval::parse(include_str!("../data/pubeval.txt")).expect("the shipped weights read")
    }

    /// Reads weights: `#` comments, a line `race` and 122 numbers, a line
    /// `contact` and 122 numbers.
    pub fn parse(text: &str) -> Result<Pubeval, PubevalError> {
        let body: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        let at = |name: &'static str| {
            body.iter()
                .position(|&w| w == name)
                .ok_or(PubevalError::MissingSection(name))
        };
        let (r, c) = (at("race")?, at("contact")?);
        let section = |name: &'static str, words: &[&str]| -> Result<[f32; INPUTS], PubevalError> {
            let numbers = words
                .iter()
                .map(|w| {
                    w.parse::<f32>()
                        .map_err(|_| PubevalError::NotANumber(w.to_string()))
                })
                .collect::<Result<Vec<f32>, _>>()?;
            let found = numbers.len();
            numbers.try_into().map_err(|_| PubevalError::Count {
                section: name,
                found,
            })
        };
        let (race_words, contact_words) = if r < c {
            (&body[r + 1..c], &body[c + 1..])
        } else {
            (&body[r + 1..], &body[c + 1..r])
        };
        Ok(Pubeval {
            race: section("race", race_words)?,
            contact: section("contact", contact_words)?,
        })
    }

    /// The score of `after`, the board after the mover's move, still seen
    /// from the mover's side; `race` says whether the position before the
    /// move was a race. Higher is better for the mover.
    pub fn score(&self, after: &Board, race: bool) -> f32 {
        if after.has_won(Side::OnRoll) {
            return f32::MAX;
        }
        let w = if race { &self.race } else { &self.contact };
        inputs(after).into_iter().zip(w).map(|(x, w)| x * w).sum()
    }
}

/// The input vector of Tesauro's encoding for `after` (mover's view).
fn inputs(after: &Board) -> [f32; INPUTS] {
    let mut x = [0.0f32; INPUTS];
    let own = after.counts(Side::OnRoll);
    let opp = after.counts(Side::Opponent);
    for (k, location) in (1..=24usize).rev().enumerate() {
        let i = 5 * k;
        let mine = own[location - 1];
        // The opponent's checkers there stand on its point 25 - location.
        let theirs = opp[24 - location];
        if theirs == 1 {
            x[i] = 1.0;
        }
        match mine {
            0 => {}
            1 => x[i + 1] = 1.0,
            n => {
                x[i + 2] = 1.0;
                if n == 3 {
                    x[i + 3] = 1.0;
                }
                if n >= 4 {
                    x[i + 4] = (n - 3) as f32 / 2.0;
                }
            }
        }
    }
    x[120] = after.bar(Side::Opponent) as f32 / 2.0;
    x[121] = after.off(Side::OnRoll) as f32 / 15.0;
    x
}

/// True when no contact is left: nobody is on the bar and every checker of
/// the player on roll has passed every opponent checker.
pub fn is_race(board: &Board) -> bool {
    let highest = |side: Side| board.highest(side).map_or(0, Point::index);
    let (mine, theirs) = (highest(Side::OnRoll), highest(Side::Opponent));
    // A checker on the bar counts 25, so it always makes contact.
    mine + theirs <= 24 || mine == 0 || theirs == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_weights_read_and_bad_texts_are_refused() {
        let p = Pubeval::published();
        assert_eq!(p.race[1], -0.17160);
        assert_eq!(p.contact[121], -2.75800);
        assert_eq!(
            Pubeval::parse("race 1 2\ncontact 3"),
            Err(PubevalError::Count {
                section: "race",
                found: 2
            })
        );
        assert!(Pubeval::parse("race x").is_err());
    }

    #[test]
    fn races_are_told_from_contact() {
        assert!(!is_race(&Board::START));
        // Each side's checkers home (points 1-6): nobody can meet.
        let home = Board::from_counts(
            &[
                3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
            &[
                3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
        )
        .unwrap();
        assert!(is_race(&home));
    }

    #[test]
    fn inputs_follow_tesauros_encoding() {
        let x = inputs(&Board::START);
        // The mover's 24-point holds two checkers: the first location's
        // "two or more" input.
        assert_eq!(&x[0..5], &[0.0, 0.0, 1.0, 0.0, 0.0]);
        // The 6-point (location 6 = the 19th from the top) holds five.
        assert_eq!(&x[5 * 18..5 * 19], &[0.0, 0.0, 1.0, 0.0, 1.0]);
        assert_eq!(x[121], 0.0);
    }
}
