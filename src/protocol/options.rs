//! The engine options a client sets with `setoption` and sees listed after
//! `uci`/`ugi`: their names, types, ranges, and how a value is checked.

use crate::search::SearchOptions;
use std::fmt;
use std::time::Duration;

/// The options as the engine holds them between commands.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// What the searcher gets (Hash, Threads, MultiPV, MoveOverhead, and any
    /// field the search adds, kept as the caller of `run` set it).
    pub search: SearchOptions,
    /// N for `position startpos`.
    pub checkers: u8,
    /// `Ponder`: only tells the GUI it may send `go ponder`; the engine
    /// ponders whenever it is asked to.
    pub ponder: bool,
    /// `TablePath`: the endgame table file loaded into `search.tables`.
    pub table_path: Option<String>,
}

/// The kinds of option in the `option name ... type ...` lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole number from `min` to `max`.
    Spin { min: u64, max: u64 },
    /// `true` or `false`.
    Check,
    /// Free text (a file path); `<empty>` for none.
    Text,
}

/// One option: its name as listed, and its kind.
struct Spec {
    name: &'static str,
    kind: Kind,
}

/// Largest hash table a client may ask for (MiB): big enough for long
/// analysis, small enough that a typo cannot exhaust the machine's memory.
pub const MAX_HASH_MB: u64 = 4096;
/// Most search threads a client may ask for.
pub const MAX_THREADS: u64 = 256;
/// Most lines `MultiPV` may ask for (no position has more legal moves).
pub const MAX_MULTIPV: u64 = 96;
/// Largest move overhead (ms).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

const SPECS: [Spec; 7] = [
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
        },
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    Spec {
        name: "Checkers",
        kind: Kind::Spin { min: 2, max: 14 },
    },
    Spec {
        name: "MoveOverhead",
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check,
    },
    Spec {
        name: "TablePath",
        kind: Kind::Text,
    },
];

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    UnknownName(String),
    /// The option needs a value and none was given.
    MissingValue {
        name: &'static str,
        expected: String,
    },
    /// The value does not read or is out of range.
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownName(n) => {
                let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
                write!(
                    f,
                    "setoption: no option named {}; the options are {}",
                    super::command::quote(n),
                    names.join(", ")
                )
            }
            OptionError::MissingValue { name, expected } => {
                write!(f, "setoption: {name} needs a value: {expected}")
            }
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "setoption: bad {name} value {}: expected {expected}",
                super::command::quote(value)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

impl Kind {
    fn expected(self, name: &str) -> String {
        match self {
            Kind::Spin { min, max } if name == "Checkers" => {
                format!("an even number from {min} to {max}")
            }
            Kind::Spin { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Check => "true or false".to_string(),
            Kind::Text => {
                "an endgame table file written by `grasshopper tablegen`, or <empty>".to_string()
            }
        }
    }
}

/// Option names compare without case and without spaces, so `Move Overhead`
/// and `moveoverhead` both name `MoveOverhead` (UCI says names are not case
/// sensitive; GUIs differ about the space).
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

impl EngineOptions {
    /// The options with the given search options and 14 checkers.
    pub fn new(search: SearchOptions) -> EngineOptions {
        EngineOptions {
            search,
            checkers: crate::rules::MAX_CHECKERS,
            ponder: false,
            table_path: None,
        }
    }

    /// The `option name ... type ...` lines, with `self` as the defaults.
    pub fn describe(&self) -> Vec<String> {
        SPECS
            .iter()
            .map(|spec| match spec.kind {
                Kind::Spin { min, max } => format!(
                    "option name {} type spin default {} min {min} max {max}",
                    spec.name,
                    self.current(spec.name)
                ),
                Kind::Check => format!(
                    "option name {} type check default {}",
                    spec.name,
                    self.current(spec.name)
                ),
                Kind::Text => format!(
                    "option name {} type string default {}",
                    spec.name,
                    self.current(spec.name)
                ),
            })
            .collect()
    }

    /// The current value of the option, as text.
    fn current(&self, name: &str) -> String {
        match name {
            "Hash" => self.search.hash_mb.to_string(),
            "Threads" => self.search.threads.to_string(),
            "MultiPV" => self.search.multipv.to_string(),
            "Checkers" => self.checkers.to_string(),
            "MoveOverhead" => self.search.move_overhead.as_millis().to_string(),
            "TablePath" => self.table_path.clone().unwrap_or_else(|| "<empty>".into()),
            _ => self.ponder.to_string(),
        }
    }

    /// Sets an option, or says why not (and changes nothing).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let key = normalise(name);
        let spec = SPECS
            .iter()
            .find(|s| normalise(s.name) == key)
            .ok_or_else(|| OptionError::UnknownName(name.to_string()))?;
        let expected = spec.kind.expected(spec.name);
        let value = value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| OptionError::MissingValue {
                name: spec.name,
                expected: expected.clone(),
            })?;
        let bad = || OptionError::BadValue {
            name: spec.name,
            value: value.to_string(),
            expected: expected.clone(),
        };
        match spec.kind {
            Kind::Text if value == "<empty>" => {
                self.search.tables = None;
                self.table_path = None;
            }
            Kind::Text => {
                let tables =
                    crate::solver::Tables::load(value).map_err(|e| OptionError::BadValue {
                        name: spec.name,
                        value: value.to_string(),
                        expected: format!("{expected} ({e})"),
                    })?;
                self.search.tables = Some(crate::solver::SharedTables(std::sync::Arc::new(tables)));
                self.table_path = Some(value.to_string());
            }
            Kind::Check => {
                self.ponder = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad()),
                }
            }
            Kind::Spin { min, max } => {
                if !value.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                let n: u64 = value.parse().map_err(|_| bad())?;
                if n < min || n > max {
                    return Err(bad());
                }
                match spec.name {
                    "Hash" => self.search.hash_mb = n as usize,
                    "Threads" => self.search.threads = n as usize,
                    "MultiPV" => self.search.multipv = n as usize,
                    "Checkers" => {
                        if !n.is_multiple_of(2) {
                            return Err(bad());
                        }
                        self.checkers = n as u8;
                    }
                    _ => self.search.move_overhead = Duration::from_millis(n),
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> EngineOptions {
        EngineOptions::new(SearchOptions::default())
    }

    #[test]
    fn every_listed_option_can_be_set_to_its_default() {
        let o = opts();
        for line in o.describe() {
            let words: Vec<&str> = line.split(' ').collect();
            let name = words[2];
            let default = words[words.iter().position(|w| *w == "default").unwrap() + 1];
            let mut p = o.clone();
            p.set(name, Some(default)).unwrap();
            assert_eq!(p.describe(), o.describe(), "{line}");
        }
    }

    #[test]
    fn values_are_set_and_names_ignore_case_and_spaces() {
        let mut o = opts();
        o.set("hash", Some("64")).unwrap();
        o.set("Move Overhead", Some("100")).unwrap();
        o.set("MULTIPV", Some(" 3 ")).unwrap();
        o.set("Checkers", Some("4")).unwrap();
        o.set("Ponder", Some("true")).unwrap();
        assert_eq!(o.search.hash_mb, 64);
        assert_eq!(o.search.move_overhead, Duration::from_millis(100));
        assert_eq!(o.search.multipv, 3);
        assert_eq!(o.checkers, 4);
        assert!(o.ponder);
    }

    #[test]
    fn bad_values_change_nothing_and_say_what_was_expected() {
        let cases = [
            ("Foo", Some("1"), "no option named \"Foo\""),
            (
                "Hash",
                None,
                "Hash needs a value: a whole number from 1 to 4096",
            ),
            ("Hash", Some("0"), "expected a whole number from 1 to 4096"),
            ("Hash", Some("-1"), "bad Hash value \"-1\""),
            ("Hash", Some("99999999999999999999999"), "bad Hash value"),
            (
                "Checkers",
                Some("3"),
                "expected an even number from 2 to 14",
            ),
            ("Checkers", Some("16"), "an even number"),
            ("Threads", Some("1.5"), "bad Threads value"),
            ("Ponder", Some("yes"), "expected true or false"),
        ];
        for (name, value, message) in cases {
            let mut o = opts();
            let e = o.set(name, value).unwrap_err();
            assert!(e.to_string().contains(message), "{name} {value:?}: {e}");
            assert_eq!(o.describe(), opts().describe());
        }
    }
}
