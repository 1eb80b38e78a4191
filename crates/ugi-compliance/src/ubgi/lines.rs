//! The lines a UBGI engine writes (the bgci draft, v0.2 with the v0.1
//! spellings), each read into its typed form or refused with the rule it
//! breaks: the characters as UGI's grammar wants them (UTF-8, LF-ended, no
//! control character, single spaces), the first word one the draft names,
//! and each answer's words as the draft spells them. Move payloads are
//! kept as text: the checks judge them against the position.

use crate::grammar::check_characters;
use engine_client::RawLine;
use protocol_vocab::{quote, MAX_LINE};

/// A line the grammar accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UbgiLine {
    IdName(String),
    IdAuthor(String),
    /// `proto <version>`.
    Proto(String),
    /// `key <name> <type> <default> [!] [description]` (v0.2).
    Key(KeyLine),
    /// `option name <name> type <type> default <value> ...` (v0.1).
    Option(KeyLine),
    UbgiOk,
    ReadyOk,
    /// `value <key> <value>`.
    Value {
        key: String,
        value: String,
    },
    /// `info ...`: any fields.
    Info,
    /// `bestmove <payload>`: the move's text (`pass` for none).
    BestMove(String),
    /// `bestcube double|nodouble`: true for double.
    BestCube(bool),
    /// `besttake take|drop`: true for take.
    BestTake(bool),
    /// `bestturn cube=double move=none` or `bestturn cube=nodouble move=<payload>`.
    BestTurn {
        double: bool,
        mv: Option<String>,
    },
    /// `error <code> [detail]`.
    Error {
        code: ErrorCode,
        detail: String,
    },
    /// `response ...` (an answer to an extension's query).
    Response,
}

/// A declared key (or v0.1 option): its name and default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLine {
    pub name: String,
    pub default: String,
}

/// The draft's four error codes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    BadCommand,
    BadValue,
    BadState,
    Unsupported,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 4] = [
        ErrorCode::BadCommand,
        ErrorCode::BadValue,
        ErrorCode::BadState,
        ErrorCode::Unsupported,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadCommand => "bad_command",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::BadState => "bad_state",
            ErrorCode::Unsupported => "unsupported",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorCode {
    type Err = String;
    fn from_str(s: &str) -> Result<ErrorCode, String> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "error: unknown code {}; expected bad_command, bad_value, bad_state or unsupported",
                    quote(s)
                )
            })
    }
}

/// Reads a line as the engine wrote it.
pub fn classify_raw(raw: &RawLine) -> Result<UbgiLine, String> {
    if !raw.ended {
        return Err(match raw.text.len() >= MAX_LINE {
            true => format!("longer than {MAX_LINE} bytes"),
            false => "not ended by LF (the output ended in the middle of the line)".into(),
        });
    }
    if !raw.utf8 {
        return Err("not UTF-8".into());
    }
    classify(&raw.text)
}

/// Reads one line (without its LF).
pub fn classify(text: &str) -> Result<UbgiLine, String> {
    check_characters(text).map_err(|refusal| refusal.to_string())?;
    let words: Vec<&str> = text.split(' ').collect();
    let rest = |n: usize| words[n.min(words.len())..].join(" ");
    match words.as_slice() {
        ["id", "name", _, ..] => Ok(UbgiLine::IdName(rest(2))),
        ["id", "author", _, ..] => Ok(UbgiLine::IdAuthor(rest(2))),
        ["proto", version] => Ok(UbgiLine::Proto(version.to_string())),
        ["key", ..] => key(&words[1..]).map(UbgiLine::Key),
        ["option", "name", ..] => option(&words[2..]).map(UbgiLine::Option),
        ["ubgiok"] => Ok(UbgiLine::UbgiOk),
        ["readyok"] => Ok(UbgiLine::ReadyOk),
        ["value", key, _, ..] => Ok(UbgiLine::Value {
            key: key.to_string(),
            value: rest(2),
        }),
        ["info", _, ..] => Ok(UbgiLine::Info),
        ["bestmove", _, ..] => Ok(UbgiLine::BestMove(rest(1))),
        ["bestcube", word] => choice(word, "double", "nodouble").map(UbgiLine::BestCube),
        ["besttake", word] => choice(word, "take", "drop").map(UbgiLine::BestTake),
        ["bestturn", ..] => best_turn(&words[1..]),
        ["error", code, ..] => Ok(UbgiLine::Error {
            code: code.parse()?,
            detail: rest(2),
        }),
        ["response", ..] => Ok(UbgiLine::Response),
        [first, ..] => Err(format!(
            "{} is not a line a UBGI engine writes, or lacks its words",
            quote(first)
        )),
        [] => Err("empty line".into()),
    }
}

fn choice(word: &str, yes: &str, no: &str) -> Result<bool, String> {
    match word {
        w if w == yes => Ok(true),
        w if w == no => Ok(false),
        other => Err(format!("expected {yes} or {no}, found {}", quote(other))),
    }
}

/// `cube=double move=none` or `cube=nodouble move=<payload>`.
fn best_turn(words: &[&str]) -> Result<UbgiLine, String> {
    let cube = words.first().and_then(|w| w.strip_prefix("cube="));
    let first_move = words.get(1).and_then(|w| w.strip_prefix("move="));
    let (Some(cube), Some(first_move)) = (cube, first_move) else {
        return Err("bestturn: expected cube=<double|nodouble> move=<payload>".into());
    };
    let double = choice(cube, "double", "nodouble").map_err(|e| format!("bestturn: {e}"))?;
    let payload = [&[first_move][..], &words[2..]].concat().join(" ");
    match (double, payload.as_str()) {
        (true, "none") => Ok(UbgiLine::BestTurn { double, mv: None }),
        (true, other) => Err(format!("bestturn: a double with move={}", quote(other))),
        (false, "" | "none") => Err("bestturn: nodouble without a move".into()),
        (false, _) => Ok(UbgiLine::BestTurn {
            double,
            mv: Some(payload),
        }),
    }
}

/// `<name> int [<min>..<max>|*] <default>`, `<name> bool <default>`,
/// `<name> enum <a|b|...> <default>`, `<name> string * <default>`; then
/// `[!] [description...]`.
fn key(words: &[&str]) -> Result<KeyLine, String> {
    let bad = |why: &str| format!("key: {why}");
    let (name, kind) = match words {
        [name, kind, ..] => (*name, *kind),
        _ => return Err(bad("expected key <name> <type> <default>")),
    };
    let tail = &words[2..];
    let default = match (kind, tail) {
        ("int", [range, default, ..]) if range.contains("..") || *range == "*" => int(default)?,
        ("int", [default, ..]) => int(default)?,
        ("bool", [default @ ("true" | "false"), ..]) => default.to_string(),
        ("enum", [values, default, ..]) if values.split('|').any(|v| v == *default) => {
            default.to_string()
        }
        ("string", ["*", default, ..]) => default.to_string(),
        _ => {
            return Err(bad(&format!(
                "{}: expected int [<min>..<max>] <n>, bool <b>, enum <a|b> <a> or string * <s>",
                quote(&words[1..].join(" "))
            )))
        }
    };
    Ok(KeyLine {
        name: name.to_string(),
        default,
    })
}

fn int(token: &str) -> Result<String, String> {
    token
        .parse::<i64>()
        .map(|n| n.to_string())
        .map_err(|_| format!("key: default {} is not an integer", quote(token)))
}

/// v0.1's `option name <name...> type <type> default <value> ...`.
fn option(words: &[&str]) -> Result<KeyLine, String> {
    let at = |w: &str| words.iter().position(|x| *x == w);
    let (Some(type_at), Some(default_at)) = (at("type"), at("default")) else {
        return Err("option: expected option name <name> type <type> default <value>".into());
    };
    let value = words.get(default_at + 1).filter(|_| type_at > 0);
    let value = value.ok_or("option: a name and a default value")?;
    Ok(KeyLine {
        name: words[..type_at].join(" "),
        default: value.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draft_forms_are_read() {
        let key = classify("key engine.ply int 1..4 1 root-inclusive decision depth").unwrap();
        let want = KeyLine {
            name: "engine.ply".into(),
            default: "1".into(),
        };
        assert_eq!(key, UbgiLine::Key(want));
        assert!(classify("key engine.seed int * 42 ! rng seed").is_ok());
        assert!(classify("key game.variant enum backgammon|nackgammon backgammon").is_ok());
        assert_eq!(
            classify("bestturn cube=nodouble move=24/18 13/12").unwrap(),
            UbgiLine::BestTurn {
                double: false,
                mv: Some("24/18 13/12".into())
            }
        );
        assert_eq!(
            classify("error unsupported go cube").unwrap(),
            UbgiLine::Error {
                code: ErrorCode::Unsupported,
                detail: "go cube".into()
            }
        );
        let option = classify("option name Threads type spin default 1 min 1 max 8").unwrap();
        assert!(matches!(option, UbgiLine::Option(k) if k.name == "Threads" && k.default == "1"));
    }

    #[test]
    fn broken_forms_are_refused_with_their_rule() {
        let refused = |text: &str| classify(text).unwrap_err();
        assert!(refused("bestcube maybe").contains("expected double or nodouble"));
        assert!(refused("error oops x").contains("unknown code \"oops\""));
        assert!(refused("key engine.ply enum a|b c").contains("expected int"));
        assert!(refused("bestturn cube=double move=24/18").contains("a double with move"));
        assert!(refused("bestmove 24/18\r").contains("CR"));
        assert!(refused("hello").contains("not a line a UBGI engine writes"));
        assert!(refused("bestmove").contains("lacks its words"));
    }

    #[test]
    fn error_codes_round_trip() {
        for code in ErrorCode::ALL {
            assert_eq!(code.to_string().parse::<ErrorCode>(), Ok(code));
        }
    }
}
