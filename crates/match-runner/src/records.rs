//! Game records in a PGN-style format: tag pairs, then the numbered move list
//! with the termination's explanation as a comment, then the result. One
//! record is written (in one write, synced) per finished game, so a killed
//! match loses at most the games in progress (see [`crate::records_file`]);
//! the parser reads records back (as UTF-8, from bytes) for `--resume` and
//! `match merge`, and [`GameRecord::replay`] checks them.
//! The format is the same for every [`Game`]: its openings and moves are
//! written and read with their `Display` and `FromStr`.

use super::game::{Game, GameRecord, Replayed};
use super::outcome::{GameResult, Side, Termination};
use super::summary::Scored;
use std::fmt;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl<G: Game> fmt::Display for GameRecord<G> {
    /// The record as PGN-style text, ending with a blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tags = [
            ("Event", self.event.clone()),
            ("Date", self.date.clone()),
            ("Round", format!("{}.{}", self.pair + 1, self.game)),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result.to_string()),
            ("FEN", self.opening.to_string()),
            ("TimeControl", self.tc.clone()),
            ("Termination", self.termination.to_string()),
            ("Plies", self.moves.len().to_string()),
        ];
        for (k, v) in tags {
            writeln!(f, "[{k} \"{}\"]", escape(&v))?;
        }
        writeln!(f)?;
        let mut words: Vec<String> = Vec::new();
        // A row is a White move and the Black move after it, or a Black move alone.
        let movers = G::movers(&self.opening, &self.moves);
        let mut number = 0;
        let mut white_open = false;
        for (i, m) in self.moves.iter().enumerate() {
            match movers.get(i).copied().unwrap_or(Side::White) {
                Side::White => {
                    number += 1;
                    words.push(format!("{number}."));
                    white_open = true;
                }
                Side::Black if white_open => white_open = false,
                Side::Black => {
                    number += 1;
                    words.push(format!("{number}..."));
                }
            }
            words.push(m.to_string());
            if let Some(note) = self.notes.get(i).filter(|n| !n.is_empty()) {
                words.push(format!("{{{}}}", note.replace(['{', '}'], "")));
            }
        }
        if let Some(d) = &self.detail {
            words.push(format!("{{{}}}", d.replace(['{', '}'], "")));
        }
        words.push(self.result.to_string());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        writeln!(f, "{line}")?;
        writeln!(f)
    }
}

impl<G: Game> GameRecord<G> {
    /// What the tally counts of this game.
    pub fn scored(&self) -> Scored<'_> {
        Scored {
            pair: self.pair,
            game: self.game,
            white: &self.white,
            black: &self.black,
            result: self.result,
            termination: self.termination,
        }
    }

    /// Replays the moves from the opening and checks that they are legal and
    /// lead to the recorded result (for normal terminations) or to a position
    /// where the game was still going (for forfeits).
    pub fn replay(&self) -> Result<Replayed, String> {
        let replayed = G::replay(&self.opening, &self.moves)?;
        match (self.termination, replayed) {
            (Termination::Normal, Replayed::Over(want)) if want != self.result => Err(format!(
                "the moves end in {want}, but the record says {}",
                self.result
            )),
            (Termination::Normal, Replayed::Ongoing { .. }) => Err(format!(
                "termination normal, but the game is not over after {} plies",
                self.moves.len()
            )),
            (Termination::Normal, _) => Ok(replayed),
            (t, Replayed::Over(_)) => Err(format!(
                "termination {t}, but the game was already over by the rules"
            )),
            (t, Replayed::Ongoing { to_move }) => {
                // Mid-game, only the side to move can misbehave (the other
                // engine is idle); before the first move either may fail to start.
                let forfeit = |loser| G::forfeit_result(&self.opening, &self.moves, loser);
                let either =
                    self.moves.is_empty() && Side::ALL.iter().any(|&s| self.result == forfeit(s));
                if !either && self.result != forfeit(to_move) {
                    return Err(format!(
                        "termination {t} should be a loss for {}, who was to move, \
                         but the record says {}",
                        to_move.capitalised().to_lowercase(),
                        self.result
                    ));
                }
                Ok(replayed)
            }
        }
    }
}

/// Why a records file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line of the problem.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Records read from a file.
#[derive(Debug)]
pub struct Parsed<G: Game> {
    pub games: Vec<GameRecord<G>>,
    /// The text ended inside a record (the runner was killed while writing it);
    /// that record is left out.
    pub truncated: bool,
}

/// Reads every record of a records file given as bytes, as [`parse_records`]
/// does. Records are UTF-8: invalid UTF-8 is refused with its line, except a
/// character cut off at the very end (the runner was killed while writing
/// it), which ends a cut-off record.
pub fn parse_record_bytes<G: Game>(bytes: &[u8]) -> Result<Parsed<G>, RecordError> {
    let (text, cut) = decode(bytes)?;
    let mut parsed = parse_records(text)?;
    parsed.truncated |= cut;
    Ok(parsed)
}

/// The text of `bytes`, and whether a character cut off at the end was left
/// out.
fn decode(bytes: &[u8]) -> Result<(&str, bool), RecordError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok((text, false)),
        // An incomplete character at the very end: written in part.
        Err(e) if e.error_len().is_none() => {
            let valid = &bytes[..e.valid_up_to()];
            Ok((std::str::from_utf8(valid).expect("valid up to here"), true))
        }
        Err(e) => {
            let at = e.valid_up_to();
            let line_start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            Err(RecordError {
                line: 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count(),
                message: format!(
                    "invalid UTF-8 (byte 0x{:02X} at column {}): records are UTF-8 text",
                    bytes[at],
                    at - line_start + 1
                ),
            })
        }
    }
}

/// Reads every record of a records file. A damaged last record in a file
/// that does not end with a blank line (as every complete record does) was
/// cut off while written: it is left out and `truncated` is set.
pub fn parse_records<G: Game>(text: &str) -> Result<Parsed<G>, RecordError> {
    match parse_all(text) {
        Err(e) if !text.ends_with("\n\n") => {
            let start = last_record_start(text);
            let mut parsed = parse_all::<G>(&text[..start]).map_err(|_| e.clone())?;
            log::warn!("records end inside a game ({e}); that game is left out");
            parsed.truncated = true;
            Ok(parsed)
        }
        other => other,
    }
}

/// Byte offset of the first tag line of the last record.
fn last_record_start(text: &str) -> usize {
    let mut start = 0;
    let mut offset = 0;
    let mut in_moves = true;
    for line in text.split_inclusive('\n') {
        let is_tag = line.trim_start().starts_with('[');
        if is_tag && in_moves {
            start = offset;
        }
        if is_tag {
            in_moves = false;
        } else if !line.trim().is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    start
}

fn parse_all<G: Game>(text: &str) -> Result<Parsed<G>, RecordError> {
    let mut parsed = Parsed {
        games: Vec::new(),
        truncated: false,
    };
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut movetext = String::new();
    let mut start = 0;
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i <= lines.len() {
        let line = lines.get(i).map(|l| l.trim()).unwrap_or("");
        let at_end = i == lines.len();
        let is_tag = line.starts_with('[');
        if (at_end || is_tag) && !movetext.trim().is_empty() {
            parsed.games.push(build(&tags, &movetext, start)?);
            tags.clear();
            movetext.clear();
        }
        if at_end {
            break;
        }
        if is_tag {
            if tags.is_empty() {
                start = i + 1;
            }
            let tag = parse_tag(line).ok_or_else(|| RecordError {
                line: i + 1,
                message: format!("bad tag pair \"{line}\": expected [Name \"value\"]"),
            })?;
            tags.push((tag.0, tag.1, i + 1));
        } else if !line.is_empty() {
            if tags.is_empty() {
                return Err(RecordError {
                    line: i + 1,
                    message: format!("moves \"{line}\" outside a record (no tags before them)"),
                });
            }
            movetext.push_str(line);
            movetext.push('\n');
        }
        i += 1;
    }
    if !tags.is_empty() {
        // Tags without moves at the end: a record cut off while written.
        parsed.truncated = true;
    }
    Ok(parsed)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), unescape(value)))
}

fn build<G: Game>(
    tags: &[(String, String, usize)],
    movetext: &str,
    start: usize,
) -> Result<GameRecord<G>, RecordError> {
    let err = |line: usize, message: String| RecordError { line, message };
    let get = |name: &str| -> Result<(&str, usize), RecordError> {
        tags.iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
            .ok_or_else(|| err(start, format!("record has no {name} tag")))
    };
    let (round, round_line) = get("Round")?;
    let (pair, game) = round
        .split_once('.')
        .and_then(|(p, g)| Some((p.parse::<usize>().ok()?, g.parse::<u8>().ok()?)))
        .filter(|&(p, g)| p >= 1 && (g == 1 || g == 2))
        .ok_or_else(|| {
            err(
                round_line,
                format!("bad Round \"{round}\": expected PAIR.GAME, e.g. 12.1 or 12.2"),
            )
        })?;
    let (result, l) = get("Result")?;
    let result: GameResult = result.parse().map_err(|e| err(l, e))?;
    let (fen, l) = get("FEN")?;
    let opening: G::Opening = fen.parse().map_err(|e| err(l, format!("bad FEN: {e}")))?;
    let (term, l) = get("Termination")?;
    let termination: Termination = term.parse().map_err(|e| err(l, e))?;
    let (plies, plies_line) = get("Plies")?;
    let plies: usize = plies.parse().map_err(|_| {
        err(
            plies_line,
            format!("bad Plies \"{plies}\": expected a number"),
        )
    })?;
    let moves_line = tags.last().map(|t| t.2 + 2).unwrap_or(start);
    // Words of the move text, with {comments} as single items.
    let mut moves = Vec::new();
    // Comments, each with the number of moves before it.
    let mut comments: Vec<(usize, String)> = Vec::new();
    let mut ended = None;
    let mut rest = movetext;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(after) = rest.strip_prefix('{') {
            let close = after
                .find('}')
                .ok_or_else(|| err(moves_line, "unclosed comment in the moves".to_string()))?;
            // A `{` inside is dropped, as the writer drops it from notes:
            // the record then writes back as it reads.
            comments.push((
                moves.len(),
                after[..close]
                    .replace('{', "")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            ));
            rest = &after[close + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if ended.is_some() {
            return Err(err(moves_line, format!("\"{word}\" after the result")));
        }
        if let Ok(r) = word.parse::<GameResult>() {
            ended = Some(r);
            continue;
        }
        if word.ends_with('.')
            && word
                .trim_end_matches('.')
                .bytes()
                .all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let m = word
            .parse::<G::Move>()
            .map_err(|e| err(moves_line, e.to_string()))?;
        moves.push(m);
    }
    let Some(ended) = ended else {
        return Err(err(
            moves_line,
            "the moves do not end with a result (1-0, 0-1, 1/2-1/2 or points such as 2-0)"
                .to_string(),
        ));
    };
    if ended != result {
        return Err(err(
            moves_line,
            format!("the moves end with {ended}, but the Result tag says {result}"),
        ));
    }
    if moves.len() != plies {
        return Err(err(
            plies_line,
            format!(
                "Plies says {plies}, but the record has {} moves",
                moves.len()
            ),
        ));
    }
    // The explanation of an abnormal end is the last comment; the others
    // belong to the moves they follow.
    let detail = if termination != Termination::Normal {
        comments.pop().map(|(_, c)| c)
    } else {
        None
    };
    let mut notes = vec![String::new(); moves.len()];
    for (after, c) in comments {
        if after > 0 {
            notes[after - 1] = c;
        }
    }
    if notes.iter().all(String::is_empty) {
        notes.clear();
    }
    let text = |name: &str| get(name).map(|(v, _)| v.to_string()).unwrap_or_default();
    Ok(GameRecord {
        event: text("Event"),
        date: text("Date"),
        pair: pair - 1,
        game,
        white: get("White")?.0.to_string(),
        black: get("Black")?.0.to_string(),
        opening,
        tc: text("TimeControl"),
        result,
        termination,
        detail,
        moves,
        notes,
    })
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day number (days since 1970-01-01), by
/// Howard Hinnant's `civil_from_days` algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The records' round trips, damage and replay are tested with a game,
    // in crates/match-grasshopper/tests/records.rs and match-backgammon.

    #[test]
    fn dates_follow_the_civil_calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }
}
