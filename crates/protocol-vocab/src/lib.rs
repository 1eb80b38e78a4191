//! The engine protocol's shared vocabulary: what the daemon, the dialects
//! (UGI for Grasshopper, UBGI for backgammon) and the compliance checker
//! must agree on, in a crate with no dependencies so that a checker of any
//! engine can use it without depending on ours.
//!
//! The parts: [`MAX_LINE`] (the longest line), [`text`] (quoting an
//! offending token in a message, making echoed text safe on one line) and
//! [`ugi`] (the error codes of UGI's `error <code> <message>` lines).

pub mod text;
pub mod ugi;

pub use text::{quote, sanitise};

/// The longest line the protocol carries (bytes, without the line break).
/// An engine answers a longer input line with an error and otherwise ignores
/// it (the limit keeps a client that never sends a line break from filling
/// memory); a client treats a longer output line as a fault.
pub const MAX_LINE: usize = 65_536;
