//! Engine options as a table of descriptors: each option's name, kind and
//! range, how to read its current value and how to set it. The table gives
//! the `option name ... type ...` lines and checks every `setoption` before
//! the setter sees a typed value, so no option can be written through
//! another's field.

use protocol_vocab::quote;

/// The kind of an option, with its range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number from `min` to `max` in steps of `step` from `min`.
    Spin { min: u64, max: u64, step: u64 },
    /// `true` or `false`.
    Check,
    /// Free text; `<empty>` for none. `expected` says what it should be.
    Text { expected: &'static str },
    /// One of a fixed list of words.
    Combo { values: &'static [&'static str] },
}

impl OptionKind {
    /// What a value must be, for messages.
    pub fn expected(self) -> String {
        match self {
            OptionKind::Spin { min, max, step: 1 } => format!("a whole number from {min} to {max}"),
            OptionKind::Spin { min, max, step: 2 } if min.is_multiple_of(2) => {
                format!("an even number from {min} to {max}")
            }
            OptionKind::Spin { min, max, step } => {
                format!("a number from {min} to {max} in steps of {step}")
            }
            OptionKind::Check => "true or false".to_string(),
            OptionKind::Text { expected } => format!("{expected}, or <empty>"),
            OptionKind::Combo { values } => format!("one of {}", values.join(", ")),
        }
    }

    /// Reads `text` as a value of this kind.
    fn read(self, text: &str) -> Option<OptionValue<'_>> {
        match self {
            OptionKind::Spin { min, max, step } => {
                if !text.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let n: u64 = text.parse().ok()?;
                let fits = (min..=max).contains(&n) && (n - min).is_multiple_of(step.max(1));
                fits.then_some(OptionValue::Spin(n))
            }
            OptionKind::Check => match text.to_ascii_lowercase().as_str() {
                "true" => Some(OptionValue::Check(true)),
                "false" => Some(OptionValue::Check(false)),
                _ => None,
            },
            OptionKind::Text { .. } if text == "<empty>" => Some(OptionValue::Text(None)),
            OptionKind::Text { .. } => Some(OptionValue::Text(Some(text))),
            OptionKind::Combo { values } => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Combo(v)),
        }
    }
}

/// A checked value, as a setter receives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionValue<'a> {
    Spin(u64),
    Check(bool),
    /// `None` for `<empty>`.
    Text(Option<&'a str>),
    /// One of the listed words, as listed.
    Combo(&'static str),
}

/// One option of the table, over the settings type `T`.
pub struct OptionSpec<T> {
    /// The name as listed.
    pub name: &'static str,
    pub kind: OptionKind,
    /// The current value as text (`<empty>` for no text).
    pub get: fn(&T) -> String,
    /// Stores a checked value, or says why it cannot be used (e.g. a file
    /// that does not load); then nothing changes.
    pub set: fn(&mut T, OptionValue<'_>) -> Result<(), SetterError>,
}

/// Why a setter refused a checked value: each engine's own typed error
/// (boxed, since the table is shared by engines whose setters fail in
/// different ways); its message goes in parentheses after what was expected.
pub type SetterError = Box<dyn std::error::Error + Send + Sync>;

/// Why a `setoption` was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("no option named {}; the options are {names}", quote(.name))]
    UnknownName { name: String, names: String },
    /// The option needs a value and none was given.
    #[error("{name} needs a value: {expected}")]
    MissingValue {
        name: &'static str,
        expected: String,
    },
    /// The value does not read, is out of range, or cannot be used.
    #[error("bad {name} value {}: expected {expected}", quote(.value))]
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
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

/// The table of an engine's options.
pub struct OptionTable<T: 'static>(pub &'static [OptionSpec<T>]);

impl<T> OptionTable<T> {
    /// The `option name ... type ...` lines, with `defaults` as the defaults.
    pub fn describe(&self, defaults: &T) -> Vec<String> {
        self.0
            .iter()
            .map(|spec| {
                let default = (spec.get)(defaults);
                match spec.kind {
                    OptionKind::Spin { min, max, .. } => format!(
                        "option name {} type spin default {default} min {min} max {max}",
                        spec.name
                    ),
                    OptionKind::Check => {
                        format!("option name {} type check default {default}", spec.name)
                    }
                    OptionKind::Text { .. } => {
                        format!("option name {} type string default {default}", spec.name)
                    }
                    OptionKind::Combo { values } => {
                        let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
                        format!(
                            "option name {} type combo default {default} {}",
                            spec.name,
                            vars.join(" ")
                        )
                    }
                }
            })
            .collect()
    }

    /// The option called `name` (compared as [`normalise`] says).
    pub fn find(&self, name: &str) -> Option<&OptionSpec<T>> {
        let key = normalise(name);
        self.0.iter().find(|s| normalise(s.name) == key)
    }

    /// Sets an option from its text, or says why not (and changes nothing).
    pub fn set(&self, target: &mut T, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let spec = self.find(name).ok_or_else(|| OptionError::UnknownName {
            name: name.to_string(),
            names: self.0.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        })?;
        let expected = spec.kind.expected();
        let text = value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| OptionError::MissingValue {
                name: spec.name,
                expected: expected.clone(),
            })?;
        let bad = |why: Option<String>| OptionError::BadValue {
            name: spec.name,
            value: text.to_string(),
            expected: match why {
                Some(why) => format!("{expected} ({why})"),
                None => expected.clone(),
            },
        };
        let value = spec.kind.read(text).ok_or_else(|| bad(None))?;
        (spec.set)(target, value).map_err(|why| bad(Some(why.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Settings {
        size: u64,
        even: u64,
        on: bool,
        path: Option<String>,
    }

    static TABLE: OptionTable<Settings> = OptionTable(&[
        OptionSpec {
            name: "Size",
            kind: OptionKind::Spin {
                min: 1,
                max: 9,
                step: 1,
            },
            get: |s| s.size.to_string(),
            set: |s, v| {
                if let OptionValue::Spin(n) = v {
                    s.size = n;
                }
                Ok(())
            },
        },
        OptionSpec {
            name: "Even Count",
            kind: OptionKind::Spin {
                min: 2,
                max: 14,
                step: 2,
            },
            get: |s| s.even.to_string(),
            set: |s, v| {
                if let OptionValue::Spin(n) = v {
                    s.even = n;
                }
                Ok(())
            },
        },
        OptionSpec {
            name: "On",
            kind: OptionKind::Check,
            get: |s| s.on.to_string(),
            set: |s, v| {
                if let OptionValue::Check(b) = v {
                    s.on = b;
                }
                Ok(())
            },
        },
        OptionSpec {
            name: "Path",
            kind: OptionKind::Text { expected: "a file" },
            get: |s| s.path.clone().unwrap_or_else(|| "<empty>".into()),
            set: |s, v| match v {
                OptionValue::Text(Some("missing")) => Err("no such file".into()),
                OptionValue::Text(p) => {
                    s.path = p.map(String::from);
                    Ok(())
                }
                _ => Ok(()),
            },
        },
    ]);

    #[test]
    fn options_are_listed_and_set_by_kind() {
        let mut s = Settings {
            size: 3,
            even: 4,
            ..Default::default()
        };
        assert_eq!(
            TABLE.describe(&s),
            [
                "option name Size type spin default 3 min 1 max 9",
                "option name Even Count type spin default 4 min 2 max 14",
                "option name On type check default false",
                "option name Path type string default <empty>",
            ]
        );
        TABLE.set(&mut s, "evencount", Some(" 6 ")).unwrap();
        TABLE.set(&mut s, "ON", Some("True")).unwrap();
        TABLE.set(&mut s, "Path", Some("a b")).unwrap();
        assert_eq!((s.even, s.on, s.path.as_deref()), (6, true, Some("a b")));
        TABLE.set(&mut s, "Path", Some("<empty>")).unwrap();
        assert_eq!(s.path, None);
    }

    #[test]
    fn bad_values_change_nothing_and_say_what_was_expected() {
        let cases = [
            (
                "Foo",
                Some("1"),
                "no option named \"Foo\"; the options are Size, Even Count, On, Path",
            ),
            (
                "Size",
                None,
                "Size needs a value: a whole number from 1 to 9",
            ),
            (
                "Size",
                Some("0"),
                "bad Size value \"0\": expected a whole number from 1 to 9",
            ),
            ("Size", Some("-1"), "bad Size value \"-1\""),
            ("Size", Some("99999999999999999999999"), "bad Size value"),
            (
                "Even Count",
                Some("5"),
                "expected an even number from 2 to 14",
            ),
            ("On", Some("yes"), "expected true or false"),
            (
                "Path",
                Some("missing"),
                "expected a file, or <empty> (no such file)",
            ),
        ];
        for (name, value, message) in cases {
            let mut s = Settings::default();
            let e = TABLE.set(&mut s, name, value).unwrap_err();
            assert!(e.to_string().contains(message), "{name} {value:?}: {e}");
            assert_eq!(s, Settings::default());
        }
    }
}
