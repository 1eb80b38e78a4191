//! Point masks: bit i stands for point i + 1, quadrants are six bits each.

use crate::types::Quadrant;

/// All 24 points.
pub const ALL: u32 = 0xFF_FFFF;
/// Quadrant A (points 1-6): where checkers enter.
pub const QA: u32 = Quadrant::A.mask();
/// Quadrant B (points 7-12).
pub const QB: u32 = Quadrant::B.mask();
/// Quadrant C (points 13-18).
pub const QC: u32 = Quadrant::C.mask();
/// Quadrant D (points 19-24): where walls are borne off and nothing moves on.
pub const QD: u32 = Quadrant::D.mask();
/// Points from which checkers move forward (A, B and C).
pub const ABC: u32 = ALL & !QD;
