//! Which version each cluster ran when, per upgrade type: the GKE plan's version reach is read from it.
//!
//! One list per type for every cluster, with room for `1 + changes` entries per cluster, rather than
//! two small lists in every cluster's state: at 100,000 clusters those were 200,000 allocations of a
//! few dozen bytes, and freeing them made the allocator merge its free chunks one by one. A cluster
//! that changes version more often than the room left (never, when `changes` counts the targets
//! released for the type) keeps the rest in `more`.

use std::collections::BTreeMap;

use crate::time::Time;

pub struct Histories {
    /// Per type, the entries each cluster has room for.
    width: [usize; 2],
    /// Per type, cluster `c`'s entries from `c * width` on.
    slots: [Vec<(Time, u32)>; 2],
    /// Per type, how many of cluster `c`'s slots are filled.
    len: [Vec<u8>; 2],
    /// Entries past a cluster's room, by (cluster, type).
    more: BTreeMap<(u32, u8), Vec<(Time, u32)>>,
}

impl Histories {
    /// `clusters` clusters, each to be given its first versions by [`Histories::begin`], with room
    /// for `changes` more per type.
    pub fn new(clusters: usize, changes: [usize; 2]) -> Histories {
        let width = changes.map(|n| (1 + n).min(usize::from(u8::MAX)));
        Histories {
            width,
            slots: width.map(|w| vec![(Time(0), 0); clusters * w]),
            len: [vec![0; clusters], vec![0; clusters]],
            more: BTreeMap::new(),
        }
    }

    /// Cluster `c` runs `first` (per type) from `start`.
    pub fn begin(&mut self, c: usize, start: Time, first: [u32; 2]) {
        for (k, v) in first.into_iter().enumerate() {
            self.slots[k][c * self.width[k]] = (start, v);
            self.len[k][c] = 1;
        }
    }

    /// Cluster `c` runs version `v` on type `k` from `at` (later than its entries so far).
    pub fn push(&mut self, c: usize, k: usize, at: Time, v: u32) {
        let n = usize::from(self.len[k][c]);
        if n < self.width[k] {
            self.slots[k][c * self.width[k] + n] = (at, v);
            self.len[k][c] += 1;
        } else {
            self.more
                .entry((c as u32, k as u8))
                .or_default()
                .push((at, v));
        }
    }

    /// Cluster `c`'s `(since, version)` entries on type `k`, oldest first.
    pub fn of(&self, c: usize, k: usize) -> impl Iterator<Item = &(Time, u32)> + '_ {
        let from = c * self.width[k];
        let filled = &self.slots[k][from..from + usize::from(self.len[k][c])];
        let more = if self.more.is_empty() {
            None
        } else {
            self.more.get(&(c as u32, k as u8))
        };
        filled.iter().chain(more.into_iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries come back per cluster and type in the order they happened, past the room made for
    /// them too (rule: a history lists every change, whatever room was guessed).
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn keeps_every_change_in_order_past_its_room() {
        let mut h = Histories::new(2, [1, 0]);
        h.begin(0, Time(0), [1, 2]);
        h.begin(1, Time(0), [3, 4]);
        h.push(0, 0, Time(10), 5);
        h.push(0, 0, Time(20), 6);
        h.push(0, 0, Time(30), 7);
        h.push(1, 1, Time(15), 8);
        let of = |c, k| h.of(c, k).copied().collect::<Vec<_>>();
        assert_eq!(
            of(0, 0),
            [(Time(0), 1), (Time(10), 5), (Time(20), 6), (Time(30), 7)]
        );
        assert_eq!(of(0, 1), [(Time(0), 2)]);
        assert_eq!(of(1, 0), [(Time(0), 3)]);
        assert_eq!(of(1, 1), [(Time(0), 4), (Time(15), 8)]);
    }
}
