//! Backgammon's lab, beside the player of backgammon-engine: training the
//! nets ([`train`]: TD(λ); [`refine`]: fitted value iteration), in-process
//! matches ([`duel`], between the players named in [`players`]), the speed
//! figures ([`bench`]), the seeded self-play they sample positions from
//! ([`selfplay`]), GNU Backgammon as a judge and a yardstick ([`gnubg`],
//! [`errors`], [`cube_errors`]), what `backgammon moves` and `backgammon show`
//! print ([`report`]), `backgammon rollout`'s table ([`rollout`]), our own
//! benchmark of rolled-out positions ([`benchmark`]), and training targets
//! from our own rollouts ([`rollout_data`]) with a gauge of how well a net
//! learnt its teacher's choices ([`regret`]), all classing positions as
//! GNU Backgammon does ([`class`]). The command line is a thin layer
//! over these functions.
//!
//! Every random draw comes from the rules crate's seeded [`SplitMix`]
//! (`backgammon_rules::SplitMix`), so a seed repeats a run exactly and a
//! checkpoint saves the generator in one word.
//!
//! [`SplitMix`]: backgammon_rules::SplitMix

pub mod bench;
pub mod benchmark;
pub mod class;
pub mod cube_errors;
pub mod duel;
pub mod errors;
pub mod gnubg;
pub mod players;
pub mod recorded;
pub mod refine;
pub mod regret;
pub mod relevel;
pub mod report;
pub mod rollout;
pub mod rollout_check;
pub mod rollout_data;
pub mod selfplay;
pub mod train;
