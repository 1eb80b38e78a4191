//! The lines with fields: `option`, `info` and `bestmove`.

use super::words::{in_range, read_move, signed, unsigned, Words};
use super::{quote, Info, Line, OptionKind, OptionLine, Refusal, Score};

/// The `info` fields that UCI has but this protocol does not.
const UCI_ONLY_INFO: [&str; 8] = [
    "currmove",
    "currmovenumber",
    "tbhits",
    "sbhits",
    "cpuload",
    "refutation",
    "currline",
    "ebf",
];

/// Words that cannot be part of an option's name.
const OPTION_KEYWORDS: [&str; 7] = ["name", "type", "default", "min", "max", "var", "value"];

pub(super) fn option(mut w: Words<'_>) -> Result<OptionLine, Refusal> {
    w.line = "option";
    w.keyword("name")?;
    let mut name: Vec<&str> = Vec::new();
    loop {
        let word = w.need("type")?;
        if word == "type" {
            break;
        }
        if OPTION_KEYWORDS.contains(&word) {
            return Err(Refusal::KeywordInName(quote(word)));
        }
        name.push(word);
    }
    if name.is_empty() {
        return Err(Refusal::Missing {
            line: "option",
            what: "a name",
        });
    }
    let kind = w.need("a type")?;
    let kind = match kind {
        "spin" => {
            w.keyword("default")?;
            let default = signed(&w, "default", w.peek())?;
            w.word();
            w.keyword("min")?;
            let min = signed(&w, "min", w.peek())?;
            w.word();
            w.keyword("max")?;
            let max = signed(&w, "max", w.peek())?;
            w.word();
            w.end()?;
            if !(min <= default && default <= max) {
                return Err(Refusal::DefaultOutOfRange { default, min, max });
            }
            OptionKind::Spin { default, min, max }
        }
        "check" => {
            w.keyword("default")?;
            let default = match w.need("true or false")? {
                "true" => true,
                "false" => false,
                other => return Err(w.expected("true or false", other)),
            };
            w.end()?;
            OptionKind::Check { default }
        }
        "string" => {
            w.keyword("default")?;
            let default = w.text("a default (<empty> for none)")?;
            OptionKind::String {
                default: default.to_string(),
            }
        }
        "combo" | "button" => return Err(Refusal::UnsupportedOptionType(kind.to_string())),
        other => return Err(w.expected("spin, check or string", other)),
    };
    Ok(OptionLine {
        name: name.join(" "),
        kind,
    })
}

pub(super) fn info(mut w: Words<'_>) -> Result<Info, Refusal> {
    w.line = "info";
    let mut info = Info::default();
    let mut any = false;
    loop {
        w.space_check()?;
        let Some(field) = w.word() else { break };
        any = true;
        match field {
            "string" if info != Info::default() => return Err(Refusal::StringNotAlone),
            "string" => {
                info.string = Some(w.text("a text")?.to_string());
                return Ok(info);
            }
            "score" => info_score(&mut w, &mut info)?,
            "pv" => return info_pv(&mut w, info),
            f if UCI_ONLY_INFO.contains(&f) => return Err(Refusal::UnsupportedInfoField(quote(f))),
            other => info_number(&mut w, &mut info, other)?,
        }
    }
    if !any {
        return Err(Refusal::EmptyInfo);
    }
    Ok(info)
}

/// The numeric fields: their name (as a `'static` for messages), range
/// and place in [`Info`].
type NumberField = (
    &'static str,
    u64,
    u64,
    &'static str,
    fn(&mut Info) -> &mut Option<u64>,
);

const NUMBER_FIELDS: [NumberField; 7] = [
    ("depth", 1, u64::MAX, "at least 1", |i| &mut i.depth),
    ("seldepth", 1, u64::MAX, "at least 1", |i| &mut i.seldepth),
    ("multipv", 1, 96, "1 to 96", |i| &mut i.multipv),
    ("nodes", 0, u64::MAX, "", |i| &mut i.nodes),
    ("nps", 0, u64::MAX, "", |i| &mut i.nps),
    ("hashfull", 0, 1000, "0 to 1000 per mille", |i| {
        &mut i.hashfull
    }),
    ("time", 0, u64::MAX, "", |i| &mut i.time),
];

/// `<field> <n>` for a numeric field, each at most once.
fn info_number(w: &mut Words<'_>, info: &mut Info, field: &str) -> Result<(), Refusal> {
    let Some(&(name, lo, hi, range, slot)) = NUMBER_FIELDS.iter().find(|f| f.0 == field) else {
        return Err(Refusal::UnknownInfoField(quote(field)));
    };
    w.space_check()?;
    let n = unsigned(w, name, w.peek())?;
    w.word();
    let n = in_range(w, name, n, lo, hi, range)?;
    if slot(info).replace(n).is_some() {
        return Err(Refusal::RepeatedInfoField(name));
    }
    Ok(())
}

/// `score cp <x>` or `score mate <n>` (n not 0), at most once, no bounds.
fn info_score(w: &mut Words<'_>, info: &mut Info) -> Result<(), Refusal> {
    if info.score.is_some() {
        return Err(Refusal::RepeatedInfoField("score"));
    }
    let kind = w.need("cp or mate")?;
    let field = match kind {
        "cp" => "score cp",
        "mate" => "score mate",
        other => return Err(w.expected("cp or mate", other)),
    };
    w.space_check()?;
    let n = signed(w, field, w.peek())?;
    w.word();
    let score = match (kind, n) {
        ("cp", x) => Score::Cp(x),
        (_, 0) => {
            return Err(Refusal::OutOfRange {
                line: "info",
                field: "score mate",
                value: "0".into(),
                range: "not 0: moves to a proved win, negative for a loss",
            })
        }
        (_, n) => Score::Mate(n),
    };
    if let Some(bound @ ("lowerbound" | "upperbound")) = w.peek() {
        return Err(Refusal::UnsupportedInfoField(quote(bound)));
    }
    info.score = Some(score);
    Ok(())
}

/// `pv <move>...`: the last field, moves to the end of the line.
fn info_pv(w: &mut Words<'_>, mut info: Info) -> Result<Info, Refusal> {
    loop {
        w.space_check()?;
        let Some(token) = w.word() else { break };
        info.pv.push(read_move(w, token)?);
    }
    if info.pv.is_empty() {
        return Err(Refusal::Missing {
            line: "info",
            what: "a move after pv",
        });
    }
    Ok(info)
}

pub(super) fn bestmove(mut w: Words<'_>) -> Result<Line, Refusal> {
    w.line = "bestmove";
    let first = w.need("a move or (none)")?;
    if first == "(none)" {
        w.end()?;
        return Ok(Line::BestMove {
            mv: None,
            ponder: None,
        });
    }
    let mv = read_move(&w, first)?;
    w.space_check()?;
    let ponder = match w.word() {
        None => None,
        Some("ponder") => {
            let p = w.need("the ponder move")?;
            Some(read_move(&w, p)?)
        }
        Some(other) => {
            return Err(Refusal::Extra {
                line: "bestmove",
                token: quote(other),
            })
        }
    };
    w.end()?;
    Ok(Line::BestMove {
        mv: Some(mv),
        ponder,
    })
}
