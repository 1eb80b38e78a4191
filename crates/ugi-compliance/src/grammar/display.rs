//! Lines written back in the grammar's one spelling.

use super::{Info, Line, OptionKind, Score};
use std::fmt;

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(x) => write!(f, "cp {x}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Writes the line back in the grammar's one spelling (for an accepted
/// line, the text it was read from; `info` fields in protocol.md's order).
impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::IdName(s) => write!(f, "id name {s}"),
            Line::IdAuthor(s) => write!(f, "id author {s}"),
            Line::Option(o) => {
                write!(f, "option name {} type ", o.name)?;
                match &o.kind {
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin default {default} min {min} max {max}")
                    }
                    OptionKind::Check { default } => write!(f, "check default {default}"),
                    OptionKind::String { default } => write!(f, "string default {default}"),
                }
            }
            Line::UgiOk => f.write_str("ugiok"),
            Line::UciOk => f.write_str("uciok"),
            Line::ReadyOk => f.write_str("readyok"),
            Line::Info(info) => write_info(f, info),
            Line::BestMove { mv: None, .. } => f.write_str("bestmove (none)"),
            Line::BestMove {
                mv: Some(m),
                ponder: None,
            } => write!(f, "bestmove {m}"),
            Line::BestMove {
                mv: Some(m),
                ponder: Some(p),
            } => write!(f, "bestmove {m} ponder {p}"),
            Line::Response(None) => f.write_str("response"),
            Line::Response(Some(r)) => write!(f, "response {r}"),
            Line::Error { code, message } => write!(f, "error {code} {message}"),
            Line::PerftMove { mv, count } => write!(f, "{mv}: {count}"),
            Line::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// `info` and its fields in protocol.md's order.
fn write_info(f: &mut fmt::Formatter<'_>, i: &Info) -> fmt::Result {
    f.write_str("info")?;
    if let Some(s) = &i.string {
        return write!(f, " string {s}");
    }
    let counts = [
        ("depth", i.depth),
        ("seldepth", i.seldepth),
        ("multipv", i.multipv),
    ];
    for (name, v) in counts {
        if let Some(v) = v {
            write!(f, " {name} {v}")?;
        }
    }
    if let Some(s) = i.score {
        write!(f, " score {s}")?;
    }
    let effort = [
        ("nodes", i.nodes),
        ("nps", i.nps),
        ("hashfull", i.hashfull),
        ("time", i.time),
    ];
    for (name, v) in effort {
        if let Some(v) = v {
            write!(f, " {name} {v}")?;
        }
    }
    if !i.pv.is_empty() {
        f.write_str(" pv")?;
        for m in &i.pv {
            write!(f, " {m}")?;
        }
    }
    Ok(())
}
