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
            "string" => {
                if info != Info::default() {
                    return Err(Refusal::StringNotAlone);
                }
                info.string = Some(w.text("a text")?.to_string());
                return Ok(info);
            }
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time" => {
                let name: &'static str = match field {
                    "depth" => "depth",
                    "seldepth" => "seldepth",
                    "multipv" => "multipv",
                    "nodes" => "nodes",
                    "nps" => "nps",
                    "hashfull" => "hashfull",
                    _ => "time",
                };
                w.space_check()?;
                let n = unsigned(&w, name, w.peek())?;
                w.word();
                let n = match name {
                    "depth" | "seldepth" => in_range(&w, name, n, 1, u64::MAX, "at least 1")?,
                    "multipv" => in_range(&w, name, n, 1, 96, "1 to 96")?,
                    "hashfull" => in_range(&w, name, n, 0, 1000, "0 to 1000 per mille")?,
                    _ => n,
                };
                let slot = match name {
                    "depth" => &mut info.depth,
                    "seldepth" => &mut info.seldepth,
                    "multipv" => &mut info.multipv,
                    "nodes" => &mut info.nodes,
                    "nps" => &mut info.nps,
                    "hashfull" => &mut info.hashfull,
                    _ => &mut info.time,
                };
                if slot.replace(n).is_some() {
                    return Err(Refusal::RepeatedInfoField(name));
                }
            }
            "score" => {
                if info.score.is_some() {
                    return Err(Refusal::RepeatedInfoField("score"));
                }
                let score = match w.need("cp or mate")? {
                    "cp" => {
                        w.space_check()?;
                        let x = signed(&w, "score cp", w.peek())?;
                        w.word();
                        Score::Cp(x)
                    }
                    "mate" => {
                        w.space_check()?;
                        let n = signed(&w, "score mate", w.peek())?;
                        w.word();
                        if n == 0 {
                            return Err(Refusal::OutOfRange {
                                line: "info",
                                field: "score mate",
                                value: "0".into(),
                                range: "not 0: moves to a proved win, negative for a loss",
                            });
                        }
                        Score::Mate(n)
                    }
                    other => return Err(w.expected("cp or mate", other)),
                };
                if let Some(bound @ ("lowerbound" | "upperbound")) = w.peek() {
                    return Err(Refusal::UnsupportedInfoField(quote(bound)));
                }
                info.score = Some(score);
            }
            "pv" => {
                // The last field: moves to the end of the line.
                loop {
                    w.space_check()?;
                    let Some(token) = w.word() else { break };
                    info.pv.push(read_move(&w, token)?);
                }
                if info.pv.is_empty() {
                    return Err(Refusal::Missing {
                        line: "info",
                        what: "a move after pv",
                    });
                }
                return Ok(info);
            }
            f if UCI_ONLY_INFO.contains(&f) => return Err(Refusal::UnsupportedInfoField(quote(f))),
            other => return Err(Refusal::UnknownInfoField(quote(other))),
        }
    }
    if !any {
        return Err(Refusal::EmptyInfo);
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
