//! One turn of a backgammon game as the records write it: one word, the
//! cube action first (`double+take`, `double+drop`), then the roll and the
//! checker play in GNU Backgammon's notation with commas for spaces
//! (`52:13/8,13/11`, `66:pass`), e.g. `double+take+31:8/5,6/5`. A game
//! cut short by a forfeit may end with a turn left half done: `double`
//! (no answer came) or `double+take` (the doubler did not move).

use backgammon_rules::Dice;
use std::fmt;
use std::str::FromStr;

/// The cube action that opened a turn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CubeAction {
    /// No double.
    #[default]
    None,
    /// Doubled, no answer (only at the end of a forfeited game).
    Offered,
    /// Doubled and taken.
    Taken,
    /// Doubled and dropped: the game ends.
    Dropped,
}

/// The roll of a turn and the checker play, as GNU Backgammon writes it
/// (`13/8 13/11`, `pass`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    pub dice: Dice,
    pub play: String,
}

/// One turn: the cube action, then the roll and the play.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turn {
    pub cube: CubeAction,
    pub roll: Option<Roll>,
}

impl Turn {
    /// True before anything happened in the turn.
    pub fn is_empty(&self) -> bool {
        self.cube == CubeAction::None && self.roll.is_none()
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match self.cube {
            CubeAction::None => {}
            CubeAction::Offered => parts.push("double".into()),
            CubeAction::Taken => parts.extend(["double".into(), "take".into()]),
            CubeAction::Dropped => parts.extend(["double".into(), "drop".into()]),
        }
        if let Some(r) = &self.roll {
            parts.push(format!("{}:{}", r.dice, r.play.replace(' ', ",")));
        }
        f.write_str(&parts.join("+"))
    }
}

impl FromStr for Turn {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| {
            format!(
                "bad backgammon turn \"{s}\": {why} (expected e.g. 52:13/8,13/11, \
                 double+take+31:8/5,6/5 or double+drop)"
            )
        };
        let mut parts: Vec<&str> = s.split('+').collect();
        let last = *parts.last().ok_or_else(|| bad("empty"))?;
        let roll = match last.split_once(':') {
            Some((dice, play)) => {
                parts.pop();
                let dice: Dice = dice
                    .parse()
                    .ok()
                    .filter(|_| dice.len() == 2)
                    .ok_or_else(|| bad("the dice are not two digits 1-6"))?;
                if play.is_empty() || play.contains(char::is_whitespace) {
                    return Err(bad("no play after the dice"));
                }
                Some(Roll {
                    dice,
                    play: play.replace(',', " "),
                })
            }
            None => None,
        };
        let cube = match parts[..] {
            [] => CubeAction::None,
            ["double"] => CubeAction::Offered,
            ["double", "take"] => CubeAction::Taken,
            ["double", "drop"] => CubeAction::Dropped,
            _ => {
                return Err(bad(
                    "the cube action is not double, double+take or double+drop",
                ))
            }
        };
        let turn = Turn { cube, roll };
        match (turn.cube, &turn.roll) {
            (CubeAction::None, None) => Err(bad("nothing happens in it")),
            (CubeAction::Offered | CubeAction::Dropped, Some(_)) => {
                Err(bad("no roll follows a double that was not taken"))
            }
            _ => Ok(turn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_round_trip_and_bad_ones_are_named() {
        for text in [
            "52:13/8,13/11",
            "66:pass",
            "double+take+31:8/5,6/5",
            "double+drop",
            "double",
            "double+take",
            "21:bar/23*,6/5",
        ] {
            let t: Turn = text.parse().unwrap();
            assert_eq!(t.to_string(), text);
        }
        let t: Turn = "52:13/8,13/11".parse().unwrap();
        assert_eq!(t.roll.unwrap().play, "13/8 13/11");
        for bad in [
            "",
            "double+drop+52:13/8",
            "double+52",
            "redouble+take",
            "7:13/8",
            "5-2:13/8",
            "52:",
            "double+take+take",
        ] {
            let e = bad.parse::<Turn>().unwrap_err();
            assert!(e.contains(&format!("\"{bad}\"")), "{e}");
        }
        // A turn never reads as a result or a move number.
        assert!("2-0".parse::<Turn>().is_err());
    }
}
