//! Transposition table.
//!
//! A fixed array of 32-byte buckets, each holding three 10-byte entries, is allocated once
//! (the shipped binary passes a static array; tests pass leaked memory) and never grows;
//! the `Hash` option chooses how much of it is used, from 1 MiB (the default: 32,768
//! buckets, 98,304 entries) up to the storage given. A position's bucket comes from the
//! high bits of its key (a multiply-shift), and its entry is recognised by the key's low 16
//! bits, so the two are independent.
//!
//! Entry layout (10 bytes, `repr(C)`):
//!
//! ```text
//!  byte  0-1   2-3    4-5     6-7    8      9
//!       +-----+------+-------+------+------+------------------------+
//!       | key | move | score | eval | depth| age:5 | pv:1 | bound:2 |
//!       +-----+------+-------+------+------+------------------------+
//! ```
//! `depth` is stored plus [`DEPTH_OFFSET`] so that quiescence entries fit; mate scores are
//! stored relative to the node (distance from it, not from the root) and converted back on
//! probe. Replacement: an entry of the same position is updated unless the new result is a
//! bound more than 4 plies shallower; otherwise the entry with the lowest `depth - 8 × age`
//! is replaced, so old searches make way first; a probe that hits renews the entry's age.

use crate::types::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The true score is at most this (fail-low).
    Upper = 1,
    /// The true score is at least this (fail-high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// Added to depths before storing them as `u8` (quiescence uses depths down to -1, an
/// evaluation alone -6); a stored depth of 0 marks an empty entry.
pub const DEPTH_OFFSET: i32 = 7;
/// Scores at or beyond this are mate scores (the mate is within `MATE - score` plies).
pub const MATE_BOUND: i32 = crate::score::MATE - crate::score::MAX_PLY as i32;

/// One table entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    key: u16,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    age_bound: u8,
}

/// Three entries in one 32-byte, cache-line-friendly bucket.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub struct Bucket {
    entries: [Entry; 3],
}

impl Bucket {
    /// An empty bucket (for static storage).
    pub const EMPTY: Bucket =
        Bucket { entries: [Entry { key: 0, mv: 0, score: 0, eval: 0, depth: 0, age_bound: 0 }; 3] };
}

const _: () = assert!(core::mem::size_of::<Entry>() == 10);
const _: () = assert!(core::mem::size_of::<Bucket>() == 32);

/// Buckets per MiB.
pub const BUCKETS_PER_MIB: usize = (1 << 20) / core::mem::size_of::<Bucket>();

/// A probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best move found (may be [`Move::NONE`]).
    pub mv: Move,
    /// Score, adjusted for the probing ply.
    pub score: i32,
    /// Static evaluation of the position (0 for one in check, which has none).
    pub eval: i32,
    /// Depth of the search that produced it.
    pub depth: i32,
    /// Meaning of `score`.
    pub bound: Bound,
    /// Whether the position was searched as a PV node (now or when stored).
    pub pv: bool,
}

impl Hit {
    /// True if the stored score settles a search with window (`alpha`, `beta`): exact, or a
    /// bound on the side the window needs.
    #[inline(always)]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
            Bound::None => false,
        }
    }
}

/// The transposition table.
pub struct Table {
    storage: &'static mut [Bucket],
    len: usize,
    age: u8,
}

impl Table {
    /// A table over `storage`, using `mib` MiB of it (at most all of it), cleared.
    pub fn new(storage: &'static mut [Bucket], mib: usize) -> Table {
        let mut t = Table { storage, len: 0, age: 0 };
        t.resize(mib);
        t
    }

    /// Largest size in MiB the storage allows.
    pub fn max_mib(&self) -> usize {
        self.storage.len() / BUCKETS_PER_MIB
    }

    /// Uses `mib` MiB (clamped to 1..=max) and clears it.
    pub fn resize(&mut self, mib: usize) {
        self.len = (mib.max(1) * BUCKETS_PER_MIB).min(self.storage.len());
        self.clear();
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.storage[..self.len].fill(Bucket::default());
        self.age = 0;
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 31;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.len as u128) >> 64) as usize
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&mut self, key: u64, ply: usize) -> Option<Hit> {
        let age = self.age;
        let index = self.bucket(key);
        let check = key as u16;
        self.storage[index].entries.iter_mut().find(|e| e.key == check && e.depth != 0).map(|e| {
            // A hit makes the entry this search's: it is still in use, so not replaced first.
            e.age_bound = age << 3 | e.age_bound & 7;
            Hit {
                mv: Move::from_raw(e.mv),
                score: score_from_tt(e.score as i32, ply),
                eval: e.eval as i32,
                depth: e.depth as i32 - DEPTH_OFFSET,
                bound: match e.age_bound & 3 {
                    0 => Bound::None,
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
                pv: e.age_bound & 4 != 0,
            }
        })
    }

    /// Stores a search result. Not inlined: quiescence inlined a second copy of it (−149 B;
    /// `probe`, which returns its hit by value, grew the engine out of line, so it stays
    /// inlined).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub fn store(
        &mut self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
        ply: usize,
    ) {
        let age = self.age;
        let index = self.bucket(key);
        let bucket = &mut self.storage[index];
        let check = key as u16;
        let worth = |e: &Entry| e.depth as i32 - 8 * ((age.wrapping_sub(e.age_bound >> 3)) & 31) as i32;
        let slot = match bucket.entries.iter().position(|e| e.key == check) {
            Some(i) => i,
            None => (0..3).min_by_key(|&i| worth(&bucket.entries[i])).unwrap_or(0),
        };
        let entry = &mut bucket.entries[slot];
        // Keep the old move when this result has none for the same position.
        let mv = if mv == Move::NONE && entry.key == check { Move::from_raw(entry.mv) } else { mv };
        // A much shallower bound of the same position keeps the deeper result (its move
        // is taken): a quiescence store no longer wipes a deep search's entry.
        if entry.key == check && bound != Bound::Exact && depth + DEPTH_OFFSET + 4 < entry.depth as i32 {
            entry.mv = mv.raw();
            return;
        }
        *entry = Entry {
            key: check,
            mv: mv.raw(),
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: (depth + DEPTH_OFFSET).clamp(1, 255) as u8,
            age_bound: age << 3 | (pv as u8) << 2 | bound as u8,
        };
    }

    /// Permille of the first 1000 entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let mut used = 0;
        for bucket in self.storage[..self.len].iter().take(334) {
            for e in &bucket.entries {
                if e.depth != 0 && e.age_bound >> 3 == self.age {
                    used += 1;
                }
            }
        }
        used * 1000 / 1002
    }
}

/// Mate scores are stored as distance from the node, not the root.
#[inline(always)]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveFlag, Square};
    use std::boxed::Box;
    use std::vec;

    fn table(mib: usize) -> Table {
        Table::new(Box::leak(vec![Bucket::default(); mib * BUCKETS_PER_MIB].into_boxed_slice()), mib)
    }

    #[test]
    fn stores_and_probes() {
        let mut t = table(1);
        let m = Move::new(Square::new(12), Square::new(28), MoveFlag::DoublePush);
        assert_eq!(t.probe(0xDEAD_BEEF, 0), None);
        t.store(0xDEAD_BEEF, m, 37, -12, 5, Bound::Lower, true, 3);
        let hit = t.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound, hit.pv),
            (m, 37, -12, 5, Bound::Lower, true)
        );
        // Same bucket and check bits but not stored: a different low 16 bits misses.
        assert_eq!(t.probe(0xDEAD_BEEF ^ 1, 3), None);
        // Quiescence depth -1 survives the offset.
        t.store(42, Move::NONE, 0, 0, -1, Bound::Exact, false, 0);
        assert_eq!((t.probe(42, 0).unwrap().depth, t.probe(42, 0).unwrap().pv), (-1, false));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mut t = table(1);
        let mate_in_3_from_root = crate::score::MATE - 5; // found at ply 2: mate 3 plies below
        t.store(7, Move::NONE, mate_in_3_from_root, 0, 4, Bound::Exact, false, 2);
        // Reached again at ply 6: the same mate is now 3 plies below that node.
        assert_eq!(t.probe(7, 6).unwrap().score, crate::score::MATE - 9);
    }

    #[test]
    fn keeps_the_move_and_replaces_old_entries_first() {
        let mut t = table(1);
        let m = Move::new(Square::new(1), Square::new(18), MoveFlag::Quiet);
        t.store(99, m, 10, 0, 8, Bound::Exact, false, 0);
        t.store(99, Move::NONE, 20, 0, 9, Bound::Upper, false, 0);
        assert_eq!(t.probe(99, 0).unwrap().mv, m);
        assert!(t.hashfull() <= 1000);
        assert_eq!(t.max_mib(), 1);
    }

    #[test]
    fn a_much_shallower_bound_keeps_the_deeper_entry() {
        let mut t = table(1);
        let (m, n) = (
            Move::new(Square::new(1), Square::new(18), MoveFlag::Quiet),
            Move::new(Square::new(6), Square::new(21), MoveFlag::Quiet),
        );
        t.store(5, m, 30, 0, 9, Bound::Lower, false, 0);
        // A quiescence bound 10 plies shallower: the depth and score stay, its move is taken.
        t.store(5, n, -50, 0, -1, Bound::Upper, false, 0);
        let hit = t.probe(5, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.depth, hit.bound), (n, 30, 9, Bound::Lower));
        // Within 4 plies, or exact, the new result replaces it.
        t.store(5, m, 40, 0, 5, Bound::Upper, false, 0);
        assert_eq!((t.probe(5, 0).unwrap().score, t.probe(5, 0).unwrap().depth), (40, 5));
        t.store(5, m, 0, 0, 0, Bound::Exact, false, 0);
        assert_eq!(t.probe(5, 0).unwrap().depth, 0);
    }

    #[test]
    fn a_hit_renews_the_entry_for_this_search() {
        let mut t = table(1);
        // Four keys of one bucket (the same high bits), three entries: stored in the last
        // search, the first is hit in this one; the fourth key then replaces an older one.
        let key = |i: u64| 1 << 63 | i;
        for i in 1..=3 {
            t.store(key(i), Move::NONE, 0, 0, 5, Bound::Exact, false, 0);
        }
        t.new_search();
        assert!(t.probe(key(1), 0).is_some());
        t.store(key(4), Move::NONE, 0, 0, 1, Bound::Exact, false, 0);
        assert!(t.probe(key(1), 0).is_some(), "the entry hit in this search stays");
        assert!(t.probe(key(4), 0).is_some());
        assert_eq!((1..=3).filter(|&i| t.probe(key(i), 0).is_some()).count(), 2);
    }
}
