//! Time management: how long one move may take, from the clock or `movetime`,
//! and the main thread's checks of that time inside the search ([`TimeCheck`]).
//!
//! The search owns its time. It gets a soft budget (do not start another
//! iteration after about half of it) and a hard limit (stop at once), both
//! well inside the mover's remaining time less the move overhead, so that it
//! never loses on time.

use crate::{Limits, SearchControl, SearchOptions};
use grasshopper_rules::{Color, Position, Quadrant};
use std::time::{Duration, Instant};

/// The time a search may use; `None` fields mean no limit. A `movetime`
/// search uses all its time (soft = hard).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Do not start a new iteration after this much.
    pub soft: Option<Duration>,
    /// Stop as soon as this much has passed.
    pub hard: Option<Duration>,
}

/// An upper bound on the actions `c` still has to make: each checker to enter
/// needs four actions to reach D, one in A three, and so on, and a wall is
/// borne off in one.
fn remaining_actions(pos: &Position, c: Color) -> u32 {
    let lone = pos.lone_mask(c);
    let wall = pos.wall_mask(c);
    let per = |q: Quadrant| (lone & q.mask()).count_ones() + 2 * (wall & q.mask()).count_ones();
    let checkers_left = pos.to_enter(c) as u32
        + per(Quadrant::A)
        + per(Quadrant::B)
        + per(Quadrant::C)
        + per(Quadrant::D);
    4 * pos.to_enter(c) as u32
        + 3 * per(Quadrant::A)
        + 2 * per(Quadrant::B)
        + per(Quadrant::C)
        + checkers_left / 2
}

/// What a `movetime` search keeps back from its time: enough to stop the
/// threads and write `bestmove`. Fixed, not the clock's move overhead: the
/// client asked for this much time, so it gets nearly all of it.
pub(crate) const MOVETIME_MARGIN: Duration = Duration::from_millis(3);

/// The search time for `go movetime mt`: `mt` less the margin, and at
/// least three quarters of `mt` for very short times.
pub(crate) fn movetime_budget(mt: Duration) -> Duration {
    mt.saturating_sub(MOVETIME_MARGIN.min(mt / 4))
        .max(Duration::from_micros(500))
}

/// The budget for one search of `pos` under `limits`.
pub(crate) fn budget(pos: &Position, limits: &Limits, options: &SearchOptions) -> Budget {
    let overhead = options.move_overhead;
    let mut b = Budget {
        soft: None,
        hard: None,
    };
    if let Some(mt) = limits.movetime {
        let t = movetime_budget(mt);
        b.hard = Some(t);
        b.soft = Some(t);
    }
    if let Some(clock) = limits.clock {
        // Games rarely last to the last checker: plan for about half of the
        // remaining actions, between 6 and 30 moves.
        let est = (remaining_actions(pos, pos.side_to_move()) / 2).clamp(6, 30);
        let moves = clock.moves_to_go.map_or(est, |m| m.clamp(1, est.max(1)));
        let usable = clock
            .time
            .saturating_sub(overhead)
            .saturating_sub(Duration::from_millis(5));
        let usable = usable.max(Duration::from_millis(1));
        let base = clock.time / moves + clock.increment * 3 / 4;
        // The next iteration takes about as long as all before it together,
        // so none starts after half of the planned time.
        let soft = (base / 2).min(usable / 4).max(Duration::from_millis(1));
        let hard = (base * 3).min(usable * 2 / 3).max(Duration::from_millis(1));
        let hard = if moves == 1 {
            usable.max(Duration::from_millis(1))
        } else {
            hard
        };
        b.soft = Some(b.soft.map_or(soft, |s| s.min(soft)));
        b.hard = Some(b.hard.map_or(hard, |h| h.min(hard)));
    }
    b
}

/// Limits checked inside the tree by the main thread.
pub(crate) struct TimeCheck<'a> {
    pub control: &'a SearchControl,
    /// When time started counting (moved to the ponderhit moment).
    pub start: Instant,
    pub was_pondering: bool,
    pub hard: Option<Duration>,
    pub soft: Option<Duration>,
    pub infinite: bool,
}

impl TimeCheck<'_> {
    /// Time elapsed since time started counting; zero while pondering.
    fn elapsed(&mut self) -> Duration {
        if self.was_pondering {
            if self.control.is_pondering() {
                return Duration::ZERO;
            }
            self.was_pondering = false;
            self.start = Instant::now();
        }
        self.start.elapsed()
    }

    fn time_limited(&self) -> bool {
        !self.infinite && !self.was_pondering
    }

    /// True when the hard limit has passed.
    pub fn hard_passed(&mut self) -> bool {
        let e = self.elapsed();
        self.time_limited() && self.hard.is_some_and(|h| e >= h)
    }

    /// True when no new iteration should start.
    pub fn soft_passed(&mut self) -> bool {
        let e = self.elapsed();
        self.time_limited() && self.soft.is_some_and(|s| e >= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn movetime_is_used_but_for_a_fixed_margin() {
        let ms = Duration::from_millis;
        assert_eq!(movetime_budget(ms(1000)), ms(997));
        assert_eq!(movetime_budget(ms(20)), ms(17));
        assert_eq!(movetime_budget(ms(10)), Duration::from_micros(7500));
        assert_eq!(movetime_budget(ms(4)), ms(3));
        assert!(movetime_budget(ms(0)) > Duration::ZERO);
        // The move overhead is not taken from a movetime.
        let pos = Position::start(14).unwrap();
        let limits = Limits {
            movetime: Some(ms(20)),
            ..Default::default()
        };
        let opts = SearchOptions {
            move_overhead: ms(25),
            ..Default::default()
        };
        assert_eq!(budget(&pos, &limits, &opts).hard, Some(ms(17)));
    }

    #[test]
    fn the_hard_limit_stays_inside_the_clock_less_overhead() {
        let pos = Position::start(14).unwrap();
        let opts = SearchOptions::default();
        for ms in [1u64, 10, 30, 50, 100, 1000, 60_000] {
            for mtg in [None, Some(1), Some(5)] {
                let limits = Limits {
                    clock: Some(Clock {
                        time: Duration::from_millis(ms),
                        increment: Duration::from_millis(ms / 10),
                        moves_to_go: mtg,
                    }),
                    ..Default::default()
                };
                let b = budget(&pos, &limits, &opts);
                let hard = b.hard.unwrap();
                assert!(b.soft.unwrap() <= hard);
                if ms > 40 {
                    assert!(
                        hard + opts.move_overhead <= Duration::from_millis(ms),
                        "{ms} {mtg:?}"
                    );
                }
            }
        }
    }
}
