//! Labels for the 14-checker game, where no table reaches: the positions
//! of self-play games, each with the score of the search that chose its
//! move and the game's result (`grasshopper distill generate`), for
//! fitting the 14-checker game's net ([`NetRole::Main`]) to a mix of the
//! two (`grasshopper distill fit`). A net that evaluates statically what a
//! search of a few thousand nodes finds, searched again, sees further.
//!
//! The games: from the 14-checker start, the first 2-9 plies uniformly
//! random (each game's own stream of the seed, [`game_rng`]), then every
//! move by a fixed-node search on one thread with a cleared table, so
//! that a game is a function of the seed and its index and a killed run
//! resumes after its last whole game.
//!
//! The file: a `#` header naming the settings (and the 14-checker net
//! that plays, by a hash of its text), then one line a position
//! (`position<TAB>score<TAB>result`: the search's score in centi-points
//! for the side to move, proved wins and losses as ±[`PROVED`], proved
//! draws 0; the result 1, 0 or -1 for the side to move), each game ended
//! by a `# game I` line.

use crate::datalines::data_lines;
use crate::midfit::{fit_samples, MidFit, Sample};
use crate::tune::{play_out, random_opening, search_move};
use grasshopper_engine::eval::{weight_set, WeightSet, K};
#[cfg(doc)]
use grasshopper_engine::midnet::NetRole;
use grasshopper_engine::midnet::{net_for, sigmoid, MidNet};
use grasshopper_engine::{Limits, Score, SearchOptions, Searcher};
use grasshopper_rules::{Outcome, Position};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The score a proved win stands for in a label (a proved loss its
/// negation): far beyond any heuristic score, a certain result.
pub const PROVED: i32 = 10_000;

/// What a generation run plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generate {
    pub games: u32,
    pub nodes: u64,
    pub seed: u64,
    pub checkers: u8,
}

impl Generate {
    /// The file's header line: the settings a resumed run must share,
    /// the 14-checker net that plays the games among them.
    fn header(&self) -> String {
        format!(
            "# grasshopper distill: checkers {} nodes {} seed {} main-net {}",
            self.checkers,
            self.nodes,
            self.seed,
            net_name()
        )
    }
}

/// Why a labels file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DistillError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: the file was made with other settings ({found:?}; this run: {wanted:?})", path.display())]
    Settings {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("{}:{line}: expected \"position<TAB>score<TAB>result\" (result 1, 0 or -1), found {text:?}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        text: String,
    },
}

/// The 14-checker net of this process by a hash of its text (`none`:
/// the linear weights): the games and their labels depend on it.
fn net_name() -> String {
    match net_for(WeightSet::Main) {
        None => "none".to_string(),
        Some(net) => {
            let hash = fnv1a::fnv1a(net.to_string().as_bytes());
            format!("fnv1a:{hash:016x}")
        }
    }
}

/// Game `index`'s own random stream: games do not depend on each other.
fn game_rng(seed: u64, index: u32) -> Pcg64Mcg {
    let mut s = splitmix::SplitMix64::new(seed ^ (u64::from(index) << 32));
    Pcg64Mcg::seed_from_u64(s.next_u64())
}

/// A label's score: centi-points, proved results as ±[`PROVED`].
fn label(score: &Score) -> i32 {
    match *score {
        Score::Cp(cp) => cp.clamp(-PROVED, PROVED),
        Score::Mate(n) if n > 0 => PROVED,
        Score::Mate(_) => -PROVED,
        Score::Draw => 0,
    }
}

/// One game: its positions with the searches' scores, and its outcome.
fn play(
    searcher: &mut Searcher,
    opening: &Position,
    nodes: u64,
) -> (Vec<(Position, i32)>, Outcome) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    searcher.clear();
    let mut labels = Vec::new();
    let (outcome, seen) = play_out(opening, |pos| {
        let mut score = Score::Cp(0);
        let m = search_move(searcher, pos, &limits, &mut |s| score = *s);
        labels.push(label(&score));
        m
    });
    (seen.into_iter().zip(labels).collect(), outcome)
}

/// The games already in `path` (the index after its last `# game` line),
/// cutting off a game left half-written; checks that its header is
/// `header` (the run's, [`Generate::header`]).
fn resume_point(path: &Path, header: &str) -> Result<u32, DistillError> {
    let io = |source| DistillError::Io {
        path: path.to_path_buf(),
        source,
    };
    let Ok(file) = File::open(path) else {
        return Ok(0);
    };
    let (mut done, mut keep, mut bytes) = (0u32, 0u64, 0u64);
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io)?;
        if i == 0 && line != header {
            return Err(DistillError::Settings {
                path: path.to_path_buf(),
                found: line,
                wanted: header.to_string(),
            });
        }
        bytes += line.len() as u64 + 1;
        if let Some(n) = line.strip_prefix("# game ") {
            done = n.trim().parse::<u32>().map_or(done, |n| n + 1);
            keep = bytes;
        } else if i == 0 {
            keep = bytes;
        }
    }
    let file = OpenOptions::new().write(true).open(path).map_err(io)?;
    file.set_len(keep).map_err(io)?;
    Ok(done)
}

/// Plays `g.games` games (those already in `path` kept: a killed run
/// resumes) and appends their labels to `path`; progress to `log`.
/// Returns the positions written by this run.
pub fn generate(g: &Generate, path: &Path, log: &mut impl Write) -> Result<usize, DistillError> {
    let io = |source| DistillError::Io {
        path: path.to_path_buf(),
        source,
    };
    // The header names the net by a hash of its whole text: made once.
    let header = g.header();
    let first = resume_point(path, &header)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    if first == 0 && file.metadata().map_err(io)?.len() == 0 {
        writeln!(file, "{header}").map_err(io)?;
    }
    let start = Position::start(g.checkers).expect("checked by the caller");
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        threads: 1,
        ..Default::default()
    });
    let mut written = 0;
    for index in first..g.games {
        let mut rng = game_rng(g.seed, index);
        let opening = random_opening(&start, rng.random_range(2..10), &mut rng);
        let (positions, outcome) = play(&mut searcher, &opening, g.nodes);
        let mut text = String::new();
        for (pos, score) in &positions {
            let result = match outcome {
                Outcome::Win(c) if c == pos.side_to_move() => 1,
                Outcome::Win(_) => -1,
                _ => 0,
            };
            text += &format!("{pos}\t{score}\t{result}\n");
        }
        text += &format!("# game {index}\n");
        file.write_all(text.as_bytes()).map_err(io)?;
        written += positions.len();
        if (index + 1) % 100 == 0 {
            let _ = writeln!(log, "distill: {} of {} games", index + 1, g.games);
        }
    }
    file.flush().map_err(io)?;
    Ok(written)
}

/// One labelled position of a file.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Label {
    pub pos: Position,
    /// The search's score, centi-points for the side to move.
    pub score: i32,
    /// The game's result for the side to move: 1, 0 or -1.
    pub result: i8,
}

impl Label {
    /// The expected result (1 win, 0.5 draw, 0 loss) a fit aims at: the
    /// game's result with weight `lambda`, the logistic of the search's
    /// score with the rest.
    pub fn target(&self, lambda: f32) -> f32 {
        let result = (f32::from(self.result) + 1.0) / 2.0;
        let score = sigmoid(self.score as f32 / K as f32);
        lambda * result + (1.0 - lambda) * score
    }
}

/// Reads the labels of a file.
pub fn read(path: &Path) -> Result<Vec<Label>, DistillError> {
    let io = |source| DistillError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let mut out = Vec::new();
    for (line, text) in data_lines(BufReader::new(file)) {
        let text = text.map_err(io)?;
        let bad = || DistillError::Line {
            path: path.to_path_buf(),
            line,
            text: text.chars().take(60).collect(),
        };
        let parts: Vec<&str> = text.split('\t').collect();
        let [pos, score, result] = parts[..] else {
            return Err(bad());
        };
        let pos: Position = pos.parse().map_err(|_| bad())?;
        let score: i32 = score.parse().map_err(|_| bad())?;
        let result: i8 = result.parse().map_err(|_| bad())?;
        if !(-1..=1).contains(&result) {
            return Err(bad());
        }
        out.push(Label { pos, score, result });
    }
    Ok(out)
}

/// Fits the 14-checker game's net to the labels of the positions it
/// serves ([`WeightSet::Main`]: more than six checkers left, no result
/// forced), each aiming at [`Label::target`] with `lambda`.
pub fn fit(labels: &[Label], lambda: f32, a: &MidFit, out: &mut impl Write) -> io::Result<MidNet> {
    let samples: Vec<Sample> = labels
        .iter()
        .filter(|l| weight_set(&l.pos) == WeightSet::Main && l.pos.forced().is_none())
        .map(|l| Sample {
            pos: l.pos,
            y: l.target(lambda),
        })
        .collect();
    writeln!(
        out,
        "labels: {} positions, {} of the 14-checker net's, lambda {lambda}",
        labels.len(),
        samples.len()
    )?;
    fit_samples(samples, a, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grasshopper_engine::midnet::NetRole;

    fn settings(games: u32) -> Generate {
        Generate {
            games,
            nodes: 300,
            seed: 9,
            checkers: 14,
        }
    }

    #[test]
    fn a_killed_run_resumes_to_the_same_file() {
        let dir = std::env::temp_dir().join(format!("distill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (whole, cut) = (dir.join("whole.txt"), dir.join("cut.txt"));
        let _ = std::fs::remove_file(&whole);
        let _ = std::fs::remove_file(&cut);
        generate(&settings(3), &whole, &mut io::sink()).unwrap();
        // A run killed in its third game: two whole games and half a line.
        generate(&settings(2), &cut, &mut io::sink()).unwrap();
        let mut f = OpenOptions::new().append(true).open(&cut).unwrap();
        write!(f, "w.b.../....").unwrap();
        drop(f);
        generate(&settings(3), &cut, &mut io::sink()).unwrap();
        let (a, b) = (std::fs::read(&whole).unwrap(), std::fs::read(&cut).unwrap());
        assert!(a == b, "the resumed file differs");
        // Each game a line of its own, and the labels read back.
        let labels = read(&whole).unwrap();
        let text = String::from_utf8(a).unwrap();
        assert_eq!(text.matches("# game ").count(), 3);
        assert_eq!(labels.len(), text.lines().count() - 4);
        // Other settings refuse to add to the file.
        let other = Generate {
            nodes: 301,
            ..settings(4)
        };
        assert!(matches!(
            generate(&other, &whole, &mut io::sink()),
            Err(DistillError::Settings { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_label_is_the_game_result_and_the_score_mixed() {
        let pos = Position::start(14).unwrap();
        let won = Label {
            pos,
            score: 0,
            result: 1,
        };
        assert_eq!(won.target(1.0), 1.0);
        assert_eq!(won.target(0.0), 0.5);
        assert_eq!(won.target(0.5), 0.75);
        let proved = Label {
            pos,
            score: -PROVED,
            result: -1,
        };
        assert!(proved.target(0.0) < 1e-6);
    }

    #[test]
    fn the_fit_reads_the_labels_of_the_games_and_beats_the_linear_weights() {
        let dir = std::env::temp_dir().join(format!("distill-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels.txt");
        generate(&settings(12), &path, &mut io::sink()).unwrap();
        let labels = read(&path).unwrap();
        let a = MidFit {
            role: NetRole::Main,
            hidden: 8,
            epochs: 20,
            alpha: 0.02,
            alpha_end: 0.005,
            linear_rate: 0.01,
            holdout: 200,
            seed: 1,
            loss: grasshopper_engine::midnet::Loss::Squared,
        };
        let mut report = Vec::new();
        let net = fit(&labels, 0.0, &a, &mut report).unwrap();
        let report = String::from_utf8(report).unwrap();
        let held = |prefix: &str| -> f64 {
            let l = report.lines().find(|l| l.starts_with(prefix)).unwrap();
            l.rsplit(' ').next().unwrap().parse().unwrap()
        };
        assert!(held("epoch 20:") < held("held out: linear"), "{report}");
        assert_eq!(net.hidden(), 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
