//! The transposition table of the alpha-beta search: what was found about
//! a position (its score or a bound on it, the depth searched, the best
//! move), by Zobrist hash. One table serves all the threads of a search:
//! entries are read and written without locks, three words each, and the
//! first word holds the key mixed with the other two, so an entry torn by
//! two threads writing at once does not match its key and reads as empty.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries of the table (24 bytes each: 24 MB).
const SIZE: usize = 1 << 20;

/// What a search found about one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) depth: i16,
    pub(super) bound: Bound,
    pub(super) score: i32,
    /// The best move's hash delta (0: none).
    pub(super) best: u64,
}

/// What the score of an entry is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Bound {
    #[default]
    None,
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

#[derive(Default)]
struct Slot {
    /// The key XOR the two other words.
    check: AtomicU64,
    /// Depth, bound and score packed.
    data: AtomicU64,
    best: AtomicU64,
}

/// The shared table.
pub(super) struct Table {
    slots: Vec<Slot>,
}

impl Table {
    pub(super) fn new() -> Table {
        Table {
            slots: (0..SIZE).map(|_| Slot::default()).collect(),
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & (SIZE - 1)]
    }

    /// The entry for `key`, if the table holds one.
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let best = slot.best.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data ^ best != key {
            return None;
        }
        Some(unpack(data, best))
    }

    /// Stores `entry` for `key`, unless the slot holds a deeper entry for
    /// the same position.
    pub(super) fn put(&self, key: u64, entry: Entry) {
        if self.get(key).is_some_and(|old| old.depth > entry.depth) {
            return;
        }
        let slot = self.slot(key);
        let data = pack(&entry);
        slot.data.store(data, Ordering::Relaxed);
        slot.best.store(entry.best, Ordering::Relaxed);
        slot.check.store(key ^ data ^ entry.best, Ordering::Relaxed);
    }
}

fn pack(e: &Entry) -> u64 {
    let bound = match e.bound {
        Bound::None => 0u64,
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (e.depth as u16 as u64) << 48 | bound << 32 | e.score as u32 as u64
}

fn unpack(data: u64, best: u64) -> Entry {
    let bound = match (data >> 32) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => Bound::None,
    };
    Entry {
        depth: (data >> 48) as u16 as i16,
        bound,
        score: data as u32 as i32,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_stored() {
        let table = Table::new();
        let entry = Entry {
            depth: -3,
            bound: Bound::Upper,
            score: -1_000_000,
            best: 0xdead_beef,
        };
        table.put(42, entry);
        assert_eq!(table.get(42), Some(entry));
        // Another key in the same slot does not read it.
        assert_eq!(table.get(42 + SIZE as u64), None);
        // A shallower entry does not replace a deeper one.
        table.put(42, Entry { depth: -4, ..entry });
        assert_eq!(table.get(42), Some(entry));
    }

    #[test]
    fn a_torn_entry_reads_as_empty() {
        let table = Table::new();
        let entry = Entry {
            depth: 5,
            bound: Bound::Exact,
            score: 17,
            best: 9,
        };
        table.put(7, entry);
        table.slot(7).best.store(10, Ordering::Relaxed);
        assert_eq!(table.get(7), None);
    }
}
