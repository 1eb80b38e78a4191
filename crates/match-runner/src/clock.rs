//! The clocks of one game: each seat's time control, the time left on a
//! clock, and the moves made, charged move by move.

use super::outcome::Side;
use super::spec::TimeControl;
use std::time::Duration;

/// Both seats' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: [TimeControl; 2],
    left: [Duration; 2],
    increment: [Duration; 2],
    made: [u32; 2],
}

impl Clocks {
    /// Full clocks for White's and Black's time controls.
    pub fn new(tc: [TimeControl; 2]) -> Clocks {
        let mut left = [Duration::ZERO; 2];
        let mut increment = [Duration::ZERO; 2];
        for i in 0..2 {
            if let TimeControl::Clock {
                time,
                increment: inc,
                ..
            } = tc[i]
            {
                (left[i], increment[i]) = (time, inc);
            }
        }
        Clocks {
            tc,
            left,
            increment,
            made: [0; 2],
        }
    }

    /// The time control of `side`.
    pub fn tc(&self, side: Side) -> TimeControl {
        self.tc[side.index()]
    }

    /// What `mover` is told of both clocks, White's then Black's: (time
    /// left, increment). A seat without a clock is shown the mover's own.
    pub fn shown(&self, mover: Side) -> [(Duration, Duration); 2] {
        let own = (self.left[mover.index()], self.increment[mover.index()]);
        [0, 1].map(|i| match self.tc[i] {
            TimeControl::Clock { .. } => (self.left[i], self.increment[i]),
            _ => own,
        })
    }

    /// Moves `mover` has until its next time control, under `moves/time`.
    pub fn moves_to_go(&self, mover: Side) -> Option<u32> {
        match self.tc(mover) {
            TimeControl::Clock { moves: Some(n), .. } => Some(n - self.made[mover.index()] % n),
            _ => None,
        }
    }

    /// How long `mover` may take for this move before it forfeits: its
    /// clock or move time plus `margin`, or `move_timeout` under a depth or
    /// node limit.
    pub fn budget(&self, mover: Side, margin: Duration, move_timeout: Duration) -> Duration {
        match self.tc(mover) {
            TimeControl::Clock { .. } => self.left[mover.index()] + margin,
            TimeControl::MoveTime(t) => t + margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => move_timeout,
        }
    }

    /// Charges `mover` for a move that took `elapsed`: its clock runs down,
    /// gains the increment, and is refilled at each time control.
    pub fn charge(&mut self, mover: Side, elapsed: Duration) {
        let i = mover.index();
        self.made[i] += 1;
        if let TimeControl::Clock { time, moves, .. } = self.tc[i] {
            self.left[i] = self.left[i].saturating_sub(elapsed) + self.increment[i];
            if moves.is_some_and(|n| self.made[i].is_multiple_of(n)) {
                self.left[i] += time;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_run_down_gain_increments_and_refill_at_each_control() {
        let ms = Duration::from_millis;
        let tc = TimeControl::Clock {
            moves: Some(2),
            time: ms(1000),
            increment: ms(10),
        };
        let mut c = Clocks::new([tc, TimeControl::MoveTime(ms(50))]);
        assert_eq!(c.moves_to_go(Side::White), Some(2));
        c.charge(Side::White, ms(300));
        assert_eq!(c.shown(Side::White)[0], (ms(710), ms(10)));
        assert_eq!(c.moves_to_go(Side::White), Some(1));
        c.charge(Side::White, ms(100));
        assert_eq!(c.shown(Side::White)[0], (ms(1620), ms(10)));
        // Black has no clock: the mover is shown its own clock there.
        assert_eq!(c.shown(Side::White)[1], (ms(1620), ms(10)));
        assert_eq!(c.budget(Side::Black, ms(5), ms(9)), ms(55));
        assert_eq!(c.budget(Side::White, ms(5), ms(9)), ms(1625));
    }
}
