//! Backgammon players on the rules crate: the neural evaluation (contact
//! and race nets, a one-sided bear-off database), its search and cube
//! decisions, and the baselines it is measured against (pubeval, a
//! uniformly random mover), behind one [`Player`] interface for the
//! protocol and the match runner. Training the nets and measuring them is
//! the backgammon-lab crate's work.

pub mod bearoff;
pub mod bearoff_cube;
pub mod cube;
pub mod eval;
pub mod features;
pub mod files;
pub mod net;
pub mod player;
pub mod prune;
pub mod pubeval;
pub mod rollout;
pub mod search;

pub use eval::{equity, flip, Evaluator, Probs};
pub use player::{Kind, ParseKindError, Player};
pub use pubeval::{is_race, Pubeval};
