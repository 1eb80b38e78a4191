//! Backgammon players on the rules crate: the baselines a stronger engine is
//! measured against (pubeval, a uniformly random mover), behind one
//! [`Player`] interface for the protocol and the match runner.

pub mod player;
pub mod pubeval;

pub use player::{Kind, ParseKindError, Player};
pub use pubeval::{is_race, Pubeval};
