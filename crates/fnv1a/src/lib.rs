//! FNV-1a, 64 bits: the workspace's one digest of bytes. It names the nets
//! a data run was made with, checks table and cache files against damage,
//! and seeds per-position streams; unlike std's hasher it is the same in
//! every process and on every machine. Not a cryptographic hash.
//!
//! ```
//! assert_eq!(fnv1a::fnv1a(b""), fnv1a::OFFSET);
//! assert_eq!(fnv1a::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
//! // Chained: the digest of a whole is that of its parts in turn.
//! assert_eq!(fnv1a::fnv1a_from(fnv1a::fnv1a(b"ab"), b"c"), fnv1a::fnv1a(b"abc"));
//! ```

/// The starting state (the digest of no bytes).
pub const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// The multiplier of each step.
pub const PRIME: u64 = 0x0000_0100_0000_01b3;

/// The FNV-1a digest of `bytes`.
#[inline]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(OFFSET, bytes)
}

/// Goes on from `state` (a digest so far, or [`OFFSET`] mixed with a seed)
/// over `bytes`.
#[inline]
pub fn fnv1a_from(state: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_test_vectors() {
        // From the FNV authors' test suite (64-bit FNV-1a).
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
    }
}
