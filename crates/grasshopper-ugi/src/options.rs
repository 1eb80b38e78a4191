//! The engine options a client sets with `setoption` and sees listed after
//! `uci`/`ugi`: a table of descriptors (name, kind, range, getter, setter)
//! on the daemon core's option machinery.

use engine_daemon::memory::{NoRoom, Room};
use engine_daemon::{OptionError, OptionKind, OptionSpec, OptionTable, OptionValue, SetterError};
use grasshopper_engine::SearchOptions;
use grasshopper_solver::retro::{RetroError, RetroTables};
use grasshopper_solver::{SharedRetro, SharedTables, TableError, Tables};
use std::fs::File;
use std::io::BufReader;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The options as the engine holds them between commands.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// What the searcher gets (Hash, Threads, MultiPV, MoveOverhead, and any
    /// field the search adds, kept as the caller of `run` set it).
    pub search: SearchOptions,
    /// N for `position startpos`.
    pub checkers: u8,
    /// `Ponder`: `bestmove` names the expected reply; the engine ponders
    /// whenever it is asked to.
    pub ponder: bool,
    /// `TablePath`: the endgame table file loaded into `search.tables`, or
    /// the directory of phase tables loaded into `search.retro`.
    pub table_path: Option<String>,
}

/// Largest hash table a client may ask for (MiB): big enough for long
/// analysis, small enough that a typo cannot exhaust the machine's memory.
pub const MAX_HASH_MB: u64 = 4096;
/// Most search threads a client may ask for. Lazy SMP gains little beyond a
/// few dozen threads, and threads beyond the cores only take the processor
/// from the main thread: with 256 on two cores `go movetime 100` answered
/// after 1.4-5.7 s (the search's watchdog now ends every thread at the
/// deadline, but each must still be scheduled once to see it).
pub const MAX_THREADS: u64 = 64;
/// Most lines `MultiPV` may ask for (no position has more legal moves).
pub const MAX_MULTIPV: u64 = 96;
/// Largest move overhead (ms).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

const fn spin(min: u64, max: u64) -> OptionKind {
    OptionKind::Spin { min, max, step: 1 }
}

/// The number a spin option was given (the table checked the kind).
fn number(v: OptionValue<'_>) -> u64 {
    match v {
        OptionValue::Spin(n) => n,
        _ => unreachable!("spin options get numbers"),
    }
}

/// The options, in the order `ugi` lists them.
pub static OPTIONS: OptionTable<EngineOptions> = OptionTable(&[
    OptionSpec {
        name: "Hash",
        kind: spin(1, MAX_HASH_MB),
        get: |o| o.search.hash_mb.to_string(),
        set: set_hash,
    },
    OptionSpec {
        name: "Threads",
        kind: spin(1, MAX_THREADS),
        get: |o| o.search.threads.to_string(),
        set: |o, v| {
            o.search.threads = number(v) as usize;
            Ok(())
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: spin(1, MAX_MULTIPV),
        get: |o| o.search.multipv.to_string(),
        set: |o, v| {
            o.search.multipv = number(v) as usize;
            Ok(())
        },
    },
    OptionSpec {
        name: "Checkers",
        kind: OptionKind::Spin {
            min: 2,
            max: grasshopper_rules::MAX_CHECKERS as u64,
            step: 2,
        },
        get: |o| o.checkers.to_string(),
        set: |o, v| {
            o.checkers = number(v) as u8;
            Ok(())
        },
    },
    OptionSpec {
        name: "MoveOverhead",
        kind: spin(0, MAX_MOVE_OVERHEAD_MS),
        get: |o| o.search.move_overhead.as_millis().to_string(),
        set: |o, v| {
            o.search.move_overhead = Duration::from_millis(number(v));
            Ok(())
        },
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check,
        get: |o| o.ponder.to_string(),
        set: |o, v| {
            o.ponder = v == OptionValue::Check(true);
            Ok(())
        },
    },
    OptionSpec {
        name: "TablePath",
        kind: OptionKind::Text {
            expected: "an endgame table file written by `grasshopper tablegen`, or a directory of phase tables written by `grasshopper solve --retro`",
        },
        get: |o| o.table_path.clone().unwrap_or_else(|| "<empty>".into()),
        set: set_table_path,
    },
]);

/// `Hash`: a size whose growth fits in the memory left (the old table is
/// freed before the new one is made, so only the growth counts).
fn set_hash(o: &mut EngineOptions, v: OptionValue<'_>) -> Result<(), SetterError> {
    let (mb, old) = (number(v), o.search.hash_mb as u64);
    Room::now()
        .fits(mb.saturating_sub(old))
        .map_err(|why| SetOptionError::HashTooLarge { mb, old, why })?;
    o.search.hash_mb = mb as usize;
    Ok(())
}

/// Why `Hash` or `TablePath` refused a value that reads (the table's
/// message adds what was expected around it).
#[derive(Debug, thiserror::Error)]
pub enum SetOptionError {
    /// The larger hash table does not fit in the memory left.
    #[error("a {mb} MiB table does not fit: {why}; the table stays {old} MiB")]
    HashTooLarge { mb: u64, old: u64, why: NoRoom },
    /// The directory of phase tables does not load.
    #[error("{0}")]
    Retro(#[from] RetroError),
    /// The endgame table file does not load.
    #[error("{0}")]
    Table(#[from] TableError),
    /// The path is not a regular file (`what`: a directory, a FIFO, ...).
    #[error("{} is {what}; expected a regular file", .path.display())]
    NotRegular { path: PathBuf, what: &'static str },
    /// The file cannot be examined or opened.
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// `TablePath`: loads the tables (the file is read here, once), or unloads
/// them for `<empty>`. Only a regular file or a directory is read: a FIFO
/// or a device could block the reader for ever.
fn set_table_path(o: &mut EngineOptions, v: OptionValue<'_>) -> Result<(), SetterError> {
    match v {
        OptionValue::Text(Some(path)) if Path::new(path).is_dir() => {
            let tables = RetroTables::open(Path::new(path), None).map_err(SetOptionError::from)?;
            o.search.retro = Some(SharedRetro(Arc::new(tables)));
            o.search.tables = None;
            o.table_path = Some(path.to_string());
        }
        OptionValue::Text(Some(path)) => {
            let file = open_regular(Path::new(path))?;
            let tables = Tables::read_from(BufReader::new(file)).map_err(SetOptionError::from)?;
            o.search.tables = Some(SharedTables(Arc::new(tables)));
            o.search.retro = None;
            o.table_path = Some(path.to_string());
        }
        _ => {
            o.search.tables = None;
            o.search.retro = None;
            o.table_path = None;
        }
    }
    Ok(())
}

/// Opens `path` for reading if it is a regular file. The type is checked
/// before opening (opening a FIFO blocks until a writer comes) and again on
/// the open file, opened without blocking, in case the path changed between.
fn open_regular(path: &Path) -> Result<File, SetOptionError> {
    let not_regular = |m: std::fs::Metadata| {
        let kind = m.file_type();
        let what = if kind.is_dir() {
            "a directory"
        } else if std::os::unix::fs::FileTypeExt::is_fifo(&kind) {
            "a FIFO"
        } else {
            "not a regular file"
        };
        SetOptionError::NotRegular {
            path: path.to_path_buf(),
            what,
        }
    };
    let io = |source| SetOptionError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular(meta));
    }
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular(meta));
    }
    Ok(file)
}

impl EngineOptions {
    /// The options with the given search options and 14 checkers.
    pub fn new(search: SearchOptions) -> EngineOptions {
        EngineOptions {
            search,
            checkers: grasshopper_rules::MAX_CHECKERS,
            ponder: false,
            table_path: None,
        }
    }

    /// The `option name ... type ...` lines, with `self` as the defaults.
    pub fn describe(&self) -> Vec<String> {
        OPTIONS.describe(self)
    }

    /// Sets an option, or says why not (and changes nothing).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        OPTIONS.set(self, name, value)
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
            (
                "Foo",
                Some("1"),
                "no option named \"Foo\"; the options are Hash, Threads",
            ),
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
            (
                "Threads",
                Some("256"),
                "expected a whole number from 1 to 64",
            ),
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
