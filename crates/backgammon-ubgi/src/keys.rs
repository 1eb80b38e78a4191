//! The keys a controller sets with `set` and lists with `keys`: a table of
//! descriptors on the daemon core's option machinery, written as UBGI `key`
//! lines.

use backgammon_engine::Kind;
use engine_daemon::{OptionError, OptionKind, OptionSpec, OptionTable, OptionValue};

/// What the keys set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `engine.player`: who chooses.
    pub player: Kind,
    /// `engine.ply`: root-inclusive depth of checker play and cube
    /// decisions (UBGI 1 = gnubg 0-ply).
    pub ply: u8,
    /// `engine.movetime`: milliseconds a decision may take (0: no limit);
    /// the search stops (abandoning the level under way) when they are spent.
    pub movetime: u64,
    /// `engine.seed`: the random player's seed; 0 seeds from the OS.
    pub seed: u64,
    /// `game.jacoby`: the Jacoby rule for money positions given without a
    /// Match ID.
    pub jacoby: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            player: Kind::default(),
            ply: backgammon_engine::search::DEFAULT_PLY,
            movetime: 0,
            seed: 0,
            jacoby: true,
        }
    }
}

/// Most plies the engine searches.
pub const MAX_PLY: u64 = backgammon_engine::search::MAX_PLY as u64;

/// The keys, in the order `keys` lists them, each with whether it is minor
/// (not part of an engine's rating identity) and a description.
pub static KEYS: OptionTable<Settings> = OptionTable(&[
    OptionSpec {
        name: "engine.player",
        kind: OptionKind::Combo {
            values: &["net", "pubeval", "random"],
        },
        get: |s| s.player.to_string(),
        set: |s, v| {
            if let OptionValue::Combo(name) = v {
                s.player = name
                    .parse()
                    .map_err(|e: backgammon_engine::ParseKindError| e.to_string())?;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "engine.ply",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_PLY,
            step: 1,
        },
        get: |s| s.ply.to_string(),
        set: |s, v| {
            if let OptionValue::Spin(n) = v {
                s.ply = n as u8;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "engine.movetime",
        kind: OptionKind::Spin {
            min: 0,
            max: 3_600_000,
            step: 1,
        },
        get: |s| s.movetime.to_string(),
        set: |s, v| {
            if let OptionValue::Spin(n) = v {
                s.movetime = n;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "engine.seed",
        kind: OptionKind::Spin {
            min: 0,
            max: u32::MAX as u64,
            step: 1,
        },
        get: |s| s.seed.to_string(),
        set: |s, v| {
            if let OptionValue::Spin(n) = v {
                s.seed = n;
            }
            Ok(())
        },
    },
    OptionSpec {
        name: "game.jacoby",
        kind: OptionKind::Check,
        get: |s| s.jacoby.to_string(),
        set: |s, v| {
            s.jacoby = v == OptionValue::Check(true);
            Ok(())
        },
    },
    OptionSpec {
        name: "game.variant",
        kind: OptionKind::Combo {
            values: &["backgammon"],
        },
        get: |_| "backgammon".to_string(),
        set: |_, _| Ok(()),
    },
]);

/// Per key: minor or not, and what it does.
const DOCS: [(&str, bool, &str); 6] = [
    (
        "engine.player",
        false,
        "who chooses: the neural net, pubeval or a uniformly random mover",
    ),
    (
        "engine.ply",
        false,
        "root-inclusive depth of checker play and cube decisions (1 = gnubg 0-ply)",
    ),
    (
        "engine.movetime",
        false,
        "milliseconds per decision, 0 = no limit (the search stops, keeping the deepest level done)",
    ),
    (
        "engine.seed",
        true,
        "seed of the random player, 0 = from the OS",
    ),
    (
        "game.jacoby",
        false,
        "Jacoby rule for money positions given without a Match ID",
    ),
    (
        "game.variant",
        false,
        "the game: standard backgammon only (UBGI's variant key)",
    ),
];

impl Settings {
    /// The `key ...` lines, with `self` as the defaults.
    pub fn key_lines(&self) -> Vec<String> {
        KEYS.0
            .iter()
            .zip(DOCS)
            .map(|(spec, (_, minor, doc))| {
                let default = (spec.get)(self);
                let kind = match spec.kind {
                    OptionKind::Spin { min, max, .. } => format!("int {min}..{max} {default}"),
                    OptionKind::Check => format!("bool {default}"),
                    OptionKind::Combo { values } => format!("enum {} {default}", values.join("|")),
                    OptionKind::Text { .. } => format!("string * {default}"),
                };
                let minor = if minor { " !" } else { "" };
                format!("key {} {kind}{minor} {doc}", spec.name)
            })
            .collect()
    }

    /// The `value <key> <value>` line of a key.
    pub fn value_line(&self, key: &str) -> Option<String> {
        let spec = KEYS.0.iter().find(|s| s.name == key)?;
        Some(format!("value {} {}", spec.name, (spec.get)(self)))
    }

    /// Sets a key from its text.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        if !KEYS.0.iter().any(|s| s.name == key) {
            // Keys are exact in UBGI (case-sensitive), unlike UCI options.
            return Err(OptionError::UnknownName {
                name: key.to_string(),
                names: KEYS.0.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
            });
        }
        KEYS.set(self, key, Some(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_listed_in_ubgi_form_and_every_default_can_be_set_back() {
        let s = Settings::default();
        let lines = s.key_lines();
        assert_eq!(lines[0], "key engine.player enum net|pubeval|random net who chooses: the neural net, pubeval or a uniformly random mover");
        assert_eq!(
            lines[1],
            "key engine.ply int 1..4 3 root-inclusive depth of checker play and cube decisions (1 = gnubg 0-ply)"
        );
        assert!(lines[2].starts_with("key engine.movetime int 0..3600000 0 "));
        assert!(lines[3].starts_with("key engine.seed int 0..4294967295 0 ! "));
        assert!(lines[4].starts_with("key game.jacoby bool true "));
        assert!(lines[5].starts_with("key game.variant enum backgammon backgammon "));
        let mut v = s.clone();
        assert!(v.set("game.variant", "nackgammon").is_err());
        for spec in KEYS.0 {
            let mut t = s.clone();
            t.set(spec.name, &(spec.get)(&s)).unwrap();
            assert_eq!(t, s);
        }
        let mut t = s.clone();
        t.set("engine.player", "random").unwrap();
        assert_eq!(t.player, Kind::Random);
        assert!(t.set("engine.ply", "5").is_err());
        t.set("engine.ply", "4").unwrap();
        assert_eq!(t.ply, 4);
        assert!(t.set("Engine.Player", "random").is_err());
        assert_eq!(
            t.value_line("engine.player").unwrap(),
            "value engine.player random"
        );
    }
}
