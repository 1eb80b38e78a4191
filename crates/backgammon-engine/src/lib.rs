//! Backgammon players on the rules crate: the neural evaluation trained
//! here (contact and race nets, a one-sided bear-off database), its
//! training, and the baselines it is measured against (pubeval, a uniformly
//! random mover), behind one [`Player`] interface for the protocol and the
//! match runner.

pub mod bearoff;
pub mod bench;
pub mod cube;
pub mod duel;
pub mod eval;
pub mod features;
pub mod net;
pub mod player;
pub mod pubeval;
pub mod refine;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod train;

pub use eval::{equity, flip, Evaluator, Probs};
pub use player::{Kind, ParseKindError, Player};
pub use pubeval::{is_race, Pubeval};
