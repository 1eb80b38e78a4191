//! Speed figures: evaluations per second on one thread, and positions
//! searched per second at 2-ply, on a fixed set of positions from seeded
//! self-play games. Timed by the thread's CPU time, so other work on the
//! machine does not count against it.

use crate::eval::{classify, Class, Evaluator};
use crate::rng::SplitMix;
use crate::search::Searcher;
use backgammon_rules::{Board, Dice, MoveList};

/// CPU time of the calling thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    // The first field of schedstat: nanoseconds on the CPU.
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(crate::train::cpu_seconds, |ns| ns / 1e9)
}

/// One figure: work done, CPU seconds, and the rate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rate {
    pub count: u64,
    pub seconds: f64,
}

impl Rate {
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.seconds.max(1e-9)
    }
}

/// Evaluates `boards` over and over for at least `min_seconds` of CPU.
pub fn evaluations(eval: &Evaluator, boards: &[Board], min_seconds: f64) -> Rate {
    let t0 = thread_cpu_seconds();
    let mut count = 0u64;
    let mut sink = 0.0f32;
    loop {
        for b in boards {
            sink += eval.evaluate(b)[0];
        }
        count += boards.len() as u64;
        let t = thread_cpu_seconds() - t0;
        if t >= min_seconds {
            std::hint::black_box(sink);
            return Rate { count, seconds: t };
        }
    }
}

/// The share of each class among `boards`: contact, race, bear-off.
pub fn classes(boards: &[Board]) -> [usize; 3] {
    let mut n = [0; 3];
    for b in boards {
        n[match classify(b) {
            Class::Contact => 0,
            Class::Race => 1,
            Class::Bearoff => 2,
        }] += 1;
    }
    n
}

/// Searches the first `n` boards with a seeded roll each at `plies`:
/// (positions evaluated, decisions, CPU seconds).
pub fn searches(eval: &Evaluator, boards: &[Board], n: usize, plies: u8) -> (Rate, u64) {
    let mut s = Searcher::new(eval);
    let mut moves = Box::<MoveList>::default();
    let mut rng = SplitMix::new(99);
    let t0 = thread_cpu_seconds();
    let step = (boards.len() / n.max(1)).max(1);
    let mut decisions = 0;
    for b in boards.iter().step_by(step).take(n) {
        let dice: Dice = rng.dice();
        s.choose(b, dice, plies, None, &mut moves);
        decisions += 1;
    }
    (
        Rate {
            count: s.evals(),
            seconds: thread_cpu_seconds() - t0,
        },
        decisions,
    )
}
