//! Dice: a roll of two dice, written `52` as GNU Backgammon prints "Rolled 52".

use std::fmt;
use std::str::FromStr;

/// A roll of two dice, each 1..=6, in the order rolled (the order never
/// changes which moves are legal).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dice(u8, u8);

impl Dice {
    /// The roll `a`-`b`, or `None` unless both are 1..=6.
    pub const fn new(a: u8, b: u8) -> Option<Dice> {
        if a >= 1 && a <= 6 && b >= 1 && b <= 6 {
            Some(Dice(a, b))
        } else {
            None
        }
    }

    /// The two numbers, as rolled.
    pub const fn values(self) -> (u8, u8) {
        (self.0, self.1)
    }

    /// The larger number.
    pub const fn high(self) -> u8 {
        if self.0 > self.1 {
            self.0
        } else {
            self.1
        }
    }

    /// The smaller number.
    pub const fn low(self) -> u8 {
        if self.0 > self.1 {
            self.1
        } else {
            self.0
        }
    }

    /// True for doubles, which are played four times.
    pub const fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// How many single-die steps the roll allows: 4 for doubles, else 2.
    pub const fn steps(self) -> usize {
        if self.is_double() {
            4
        } else {
            2
        }
    }

    /// All 21 distinct rolls (doubles once, others larger first).
    pub fn all() -> impl Iterator<Item = Dice> {
        (1..=6).flat_map(|a| (1..=a).map(move |b| Dice(a, b)))
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// Error from parsing [`Dice`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDiceError(pub String);

impl fmt::Display for ParseDiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad dice \"{}\": expected two digits 1-6 such as 52 or 5-2",
            self.0
        )
    }
}

impl std::error::Error for ParseDiceError {}

impl FromStr for Dice {
    type Err = ParseDiceError;

    /// Reads `52`, `5-2`, `5 2` or `5,2`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits: Vec<u8> = s.bytes().filter(|b| !b" -,".contains(b)).collect();
        let between = s.len() - digits.len();
        match digits[..] {
            [a, b] if between <= 1 && a.is_ascii_digit() && b.is_ascii_digit() => {
                Dice::new(a - b'0', b - b'0')
            }
            _ => None,
        }
        .filter(|_| s.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .filter(|_| s.as_bytes().last().is_some_and(u8::is_ascii_digit))
        .ok_or_else(|| ParseDiceError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_round_trip_and_read_the_usual_spellings() {
        for d in Dice::all() {
            assert_eq!(d.to_string().parse::<Dice>(), Ok(d));
        }
        assert_eq!(Dice::all().count(), 21);
        assert_eq!("5-2".parse(), Ok(Dice(5, 2)));
        assert_eq!("2 5".parse(), Ok(Dice(2, 5)));
        for bad in ["", "5", "07", "57", "5--2", "-52", "52-", "x2", "523"] {
            let e = bad.parse::<Dice>().unwrap_err();
            assert!(e.to_string().contains(&format!("\"{bad}\"")), "{e}");
        }
    }
}
