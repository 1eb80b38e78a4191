//! The solver's transposition table: exact keys, so a hit is never wrong.
//!
//! One entry is one `u128`: the 70-bit [`Position::canonical_key`](grasshopper_rules::Position::canonical_key)
//! in bits 0..70, then the lower bound (10 bits), the upper bound (10 bits),
//! the best move's position in the legal move list plus one (7 bits, 0 for
//! none) and the work spent (log2 of the nodes of the subtree, 6 bits).
//! Bounds are node-relative scores offset by [`SCORE_OFFSET`]. Four entries
//! make a 64-byte bucket; a full bucket gives up the entry that cost least.

use grasshopper_rules::CANONICAL_KEY_BITS as KEY_BITS;

/// Added to a score to store it in 10 unsigned bits.
const SCORE_OFFSET: i32 = 512;
const KEY_MASK: u128 = (1 << KEY_BITS) - 1;
const BUCKET: usize = 4;

/// What the table knows about one position: `lo <= value <= hi`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i32,
    pub hi: i32,
    /// Index of the best move found in the position's legal move list.
    pub best: Option<u8>,
}

/// A well-mixed 64-bit hash of a canonical key, for choosing a table slot.
#[inline(always)]
fn slot_hash(key: u128) -> u64 {
    let mut z = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fixed-size table of exact-keyed entries.
pub struct Table {
    slots: Vec<[u128; BUCKET]>,
    mask: u64,
    stored: u64,
    replaced: u64,
}

#[inline(always)]
fn pack(key: u128, b: &Bounds, work: u32) -> u128 {
    key | ((b.lo + SCORE_OFFSET) as u128) << 70
        | ((b.hi + SCORE_OFFSET) as u128) << 80
        | (b.best.map_or(0, |m| m as u128 + 1)) << 90
        | (work.min(63) as u128) << 97
}

#[inline(always)]
fn unpack(e: u128) -> Bounds {
    let best = ((e >> 90) & 0x7F) as u8;
    Bounds {
        lo: ((e >> 70) & 0x3FF) as i32 - SCORE_OFFSET,
        hi: ((e >> 80) & 0x3FF) as i32 - SCORE_OFFSET,
        best: best.checked_sub(1),
    }
}

#[inline(always)]
fn work_of(e: u128) -> u32 {
    ((e >> 97) & 0x3F) as u32
}

impl Table {
    /// A table using at most `mb` MiB (at least one bucket; a power of two).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / std::mem::size_of::<[u128; BUCKET]>()).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            slots: vec![[0; BUCKET]; buckets],
            mask: buckets as u64 - 1,
            stored: 0,
            replaced: 0,
        }
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<[u128; BUCKET]>()
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> u64 {
        self.slots.len() as u64 * BUCKET as u64
    }

    /// Entries in use now.
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// Entries given up to make room for others.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|b| *b = [0; BUCKET]);
        self.stored = 0;
        self.replaced = 0;
    }

    /// The bounds stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u128) -> Option<Bounds> {
        let bucket = &self.slots[(slot_hash(key) & self.mask) as usize];
        bucket
            .iter()
            .find(|&&e| e & KEY_MASK == key)
            .map(|&e| unpack(e))
    }

    /// Stores bounds for `key`, narrowing what is already known about it.
    #[inline(always)]
    pub fn store(&mut self, key: u128, mut b: Bounds, work: u32) {
        let bucket = &mut self.slots[(slot_hash(key) & self.mask) as usize];
        if let Some(e) = bucket.iter_mut().find(|e| **e & KEY_MASK == key) {
            let old = unpack(*e);
            b.lo = b.lo.max(old.lo);
            b.hi = b.hi.min(old.hi);
            if b.best.is_none() {
                b.best = old.best;
            }
            *e = pack(key, &b, work.max(work_of(*e)));
            return;
        }
        if let Some(e) = bucket.iter_mut().find(|e| **e == 0) {
            *e = pack(key, &b, work);
            self.stored += 1;
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| work_of(**e))
            .expect("buckets are not empty");
        if work_of(*victim) <= work {
            *victim = pack(key, &b, work);
            self.replaced += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_bounds_narrow() {
        let mut t = Table::new(1);
        let key = 0x2A_1234_5678_9ABC_DEF0u128;
        assert_eq!(t.probe(key), None);
        t.store(
            key,
            Bounds {
                lo: -300,
                hi: 298,
                best: None,
            },
            5,
        );
        t.store(
            key,
            Bounds {
                lo: -10,
                hi: 300,
                best: Some(95),
            },
            3,
        );
        assert_eq!(
            t.probe(key),
            Some(Bounds {
                lo: -10,
                hi: 298,
                best: Some(95)
            })
        );
        assert_eq!(t.stored(), 1);
        assert_eq!(t.probe(key + 1), None);
    }
}
