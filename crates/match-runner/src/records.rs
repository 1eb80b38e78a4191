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
use std::str::FromStr;

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
    pub fn replay(&self) -> Result<Replayed, ReplayError<G::ReplayError>> {
        let replayed = G::replay(&self.opening, &self.moves).map_err(ReplayError::Moves)?;
        match (self.termination, replayed) {
            (Termination::Normal, Replayed::Over(want)) if want != self.result => {
                Err(ReplayError::OtherResult {
                    want,
                    recorded: self.result,
                })
            }
            (Termination::Normal, Replayed::Ongoing { .. }) => Err(ReplayError::NotOver {
                plies: self.moves.len(),
            }),
            (Termination::Normal, _) => Ok(replayed),
            (t, Replayed::Over(_)) => Err(ReplayError::AlreadyOver(t)),
            (t, Replayed::Ongoing { to_move }) => {
                // Mid-game, only the side to move can misbehave (the other
                // engine is idle); before the first move either may fail to start.
                let forfeit = |loser| G::forfeit_result(&self.opening, &self.moves, loser);
                let either =
                    self.moves.is_empty() && Side::ALL.iter().any(|&s| self.result == forfeit(s));
                if !either && self.result != forfeit(to_move) {
                    return Err(ReplayError::NotTheMoversLoss {
                        termination: t,
                        to_move,
                        recorded: self.result,
                    });
                }
                Ok(replayed)
            }
        }
    }
}

/// Why a record does not replay to what it says: an illegal move (`E`, the
/// game's own error), or moves that do not lead to its result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError<E> {
    /// A move is illegal.
    #[error("{0}")]
    Moves(E),
    /// The moves end the game with another result.
    #[error("the moves end in {want}, but the record says {recorded}")]
    OtherResult {
        want: GameResult,
        recorded: GameResult,
    },
    /// A normal termination where the game is still going.
    #[error("termination normal, but the game is not over after {plies} plies")]
    NotOver { plies: usize },
    /// An abnormal termination after the rules had ended the game.
    #[error("termination {0}, but the game was already over by the rules")]
    AlreadyOver(Termination),
    /// A forfeit scored against the side that was not to move.
    #[error(
        "termination {termination} should be a loss for {}, who was to move, \
         but the record says {recorded}",
        to_move.capitalised().to_lowercase()
    )]
    NotTheMoversLoss {
        termination: Termination,
        to_move: Side,
        recorded: GameResult,
    },
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

/// The tags of one record, each with its line, for looking up by name.
struct Tags<'a> {
    tags: &'a [(String, String, usize)],
    /// The record's first line, where a missing tag is reported.
    start: usize,
}

impl<'a> Tags<'a> {
    /// The value and line of tag `name`, which the record must have.
    fn get(&self, name: &str) -> Result<(&'a str, usize), RecordError> {
        self.tags
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
            .ok_or_else(|| err(self.start, format!("record has no {name} tag")))
    }

    /// The value of tag `name`, empty when the record has none.
    fn text(&self, name: &str) -> String {
        self.get(name)
            .map(|(v, _)| v.to_string())
            .unwrap_or_default()
    }

    /// Tag `name` parsed, a failure reported at its line as `message` says.
    fn parse<T>(
        &self,
        name: &str,
        message: impl Fn(&str, String) -> String,
    ) -> Result<(T, usize), RecordError>
    where
        T: FromStr,
        T::Err: fmt::Display,
    {
        let (value, line) = self.get(name)?;
        let parsed = value
            .parse()
            .map_err(|e: T::Err| err(line, message(value, e.to_string())))?;
        Ok((parsed, line))
    }

    /// The line the move text starts on (after the blank line under the tags).
    fn moves_line(&self) -> usize {
        self.tags.last().map(|t| t.2 + 2).unwrap_or(self.start)
    }
}

fn err(line: usize, message: String) -> RecordError {
    RecordError { line, message }
}

/// The pair (0-based) and game (1 or 2) of the Round tag, `PAIR.GAME`.
fn parse_round(tags: &Tags) -> Result<(usize, u8), RecordError> {
    let (round, round_line) = tags.get("Round")?;
    round
        .split_once('.')
        .and_then(|(p, g)| Some((p.parse::<usize>().ok()?, g.parse::<u8>().ok()?)))
        .filter(|&(p, g)| p >= 1 && (g == 1 || g == 2))
        .map(|(p, g)| (p - 1, g))
        .ok_or_else(|| {
            err(
                round_line,
                format!("bad Round \"{round}\": expected PAIR.GAME, e.g. 12.1 or 12.2"),
            )
        })
}

/// The move text read word by word: the moves, the comments (each with the
/// number of moves before it) and the result it ends with.
struct Movetext<M> {
    moves: Vec<M>,
    comments: Vec<(usize, String)>,
    ended: Option<GameResult>,
}

/// Reads the move text (which starts on line `line`, where its errors are
/// reported): move numbers are skipped, `{comments}` kept whole, and
/// nothing may follow the result.
fn parse_movetext<G: Game>(movetext: &str, line: usize) -> Result<Movetext<G::Move>, RecordError> {
    let mut text = Movetext {
        moves: Vec::new(),
        comments: Vec::new(),
        ended: None,
    };
    let mut rest = movetext;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(after) = rest.strip_prefix('{') {
            let close = after
                .find('}')
                .ok_or_else(|| err(line, "unclosed comment in the moves".to_string()))?;
            text.comments
                .push((text.moves.len(), comment(&after[..close])));
            rest = &after[close + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if text.ended.is_some() {
            return Err(err(line, format!("\"{word}\" after the result")));
        }
        if let Ok(r) = word.parse::<GameResult>() {
            text.ended = Some(r);
            continue;
        }
        if is_move_number(word) {
            continue;
        }
        let m = word
            .parse::<G::Move>()
            .map_err(|e| err(line, e.to_string()))?;
        text.moves.push(m);
    }
    Ok(text)
}

/// A comment's text with its spacing made single. A `{` inside is dropped,
/// as the writer drops it from notes: the record then writes back as it reads.
fn comment(inside: &str) -> String {
    inside
        .replace('{', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `12.` (or `12...`): a move number, not a move.
fn is_move_number(word: &str) -> bool {
    word.ends_with('.')
        && word
            .trim_end_matches('.')
            .bytes()
            .all(|b| b.is_ascii_digit())
}

/// Checks that the move text agrees with the tags: it ends with the Result
/// tag's result, and has as many moves as the Plies tag says.
fn check_movetext<M>(
    text: &Movetext<M>,
    moves_line: usize,
    result: GameResult,
    (plies, plies_line): (usize, usize),
) -> Result<(), RecordError> {
    let Some(ended) = text.ended else {
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
    if text.moves.len() != plies {
        return Err(err(
            plies_line,
            format!(
                "Plies says {plies}, but the record has {} moves",
                text.moves.len()
            ),
        ));
    }
    Ok(())
}

/// The comments placed: the explanation of an abnormal end (the last
/// comment), and the notes of the moves the others follow (none when no
/// move has one).
fn place_comments(
    mut comments: Vec<(usize, String)>,
    moves: usize,
    termination: Termination,
) -> (Option<String>, Vec<String>) {
    let detail = if termination != Termination::Normal {
        comments.pop().map(|(_, c)| c)
    } else {
        None
    };
    let mut notes = vec![String::new(); moves];
    for (after, c) in comments {
        if after > 0 {
            notes[after - 1] = c;
        }
    }
    if notes.iter().all(String::is_empty) {
        notes.clear();
    }
    (detail, notes)
}

/// One game record from its tags (each with its line) and move text; `start`
/// is the record's first line.
fn build<G: Game>(
    tags: &[(String, String, usize)],
    movetext: &str,
    start: usize,
) -> Result<GameRecord<G>, RecordError> {
    let tags = Tags { tags, start };
    let (pair, game) = parse_round(&tags)?;
    let (result, _) = tags.parse::<GameResult>("Result", |_, e| e)?;
    let (opening, _) = tags.parse::<G::Opening>("FEN", |_, e| format!("bad FEN: {e}"))?;
    let (termination, _) = tags.parse::<Termination>("Termination", |_, e| e)?;
    let plies = tags.parse::<usize>("Plies", |v, _| {
        format!("bad Plies \"{v}\": expected a number")
    })?;
    let moves_line = tags.moves_line();
    let text = parse_movetext::<G>(movetext, moves_line)?;
    check_movetext(&text, moves_line, result, plies)?;
    let (detail, notes) = place_comments(text.comments, text.moves.len(), termination);
    Ok(GameRecord {
        event: tags.text("Event"),
        date: tags.text("Date"),
        pair,
        game,
        white: tags.get("White")?.0.to_string(),
        black: tags.get("Black")?.0.to_string(),
        opening,
        tc: tags.text("TimeControl"),
        result,
        termination,
        detail,
        moves: text.moves,
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
