//! A small map kept as one list sorted by key: labels, label selectors' `matchLabels` and label spreads.
//!
//! It iterates, compares and serializes exactly as a `BTreeMap` would (ascending keys), so plans and
//! their output do not change, but its code is a binary search over a list: the standard library's
//! B-tree costs the browser's main module some 3 KB of compressed code per key and value type. Label
//! maps are small; a map built from input is collected ([`FromIterator`]: one sort, so a text with
//! thousands of labels costs n log n), never grown by [`SortedMap::insert`] in a loop over input, which
//! moves the entries after the new key.

use std::borrow::Borrow;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<K, V> {
    /// Unique keys, ascending.
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn new() -> Self {
        SortedMap::default()
    }

    /// An empty map with room for `n` entries, for a map whose size is known before it is filled.
    pub fn with_capacity(n: usize) -> Self {
        SortedMap {
            entries: Vec::with_capacity(n),
        }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Sets `key` to `value`; the value it had, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        // Keys written in order (a generator's labels, most texts) append.
        if self.entries.last().is_none_or(|(last, _)| *last < key) {
            self.entries.push((key, value));
            return None;
        }
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }
}

impl<K, V> SortedMap<K, V> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries by ascending key.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

/// The entries of a [`SortedMap`] by ascending key, as `(&key, &value)`.
#[derive(Clone)]
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// As `BTreeMap`'s: of equal keys the last one's value stays.
impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        // Room for what the source says it holds at most (a text's mapping says how many entries it
        // has): one allocation of the final size, where `collect` over a filtering iterator took
        // room for four and gave the rest back. A large bound is not trusted beyond a few thousand.
        let iter = iter.into_iter();
        let (least, most) = iter.size_hint();
        let mut entries: Vec<(K, V)> =
            Vec::with_capacity(most.map_or(least, |m| m.min(least.saturating_add(4096))));
        entries.extend(iter);
        crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        // Stable: of a run of equal keys, the last is the one written last. `dedup_by` keeps the
        // first of a run, so each later entry hands its value to it first; done in place, because a
        // map per cluster is read from every cluster's labels.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        // A list collected from an iterator of unknown length, or with entries filtered out or
        // merged, has room to spare; a map per cluster keeps only what it holds (a 10,000-cluster
        // GKE plan's peak memory grew by 2 MB without this). A list of its final size is left alone.
        entries.shrink_to_fit();
        SortedMap { entries }
    }
}

/// As repeated [`SortedMap::insert`]s, in one sort.
impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let entries = std::mem::take(&mut self.entries);
        *self = entries.into_iter().chain(iter).collect();
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

/// `map[key]`: panics when the key is absent, as `BTreeMap`'s does (tests and known keys only).
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule: a map's entries come out by ascending key whatever the order they were written in,
    /// and a key written twice keeps its last value (as `BTreeMap` does).
    #[test]
    fn entries_come_out_by_key_and_the_last_value_of_a_key_wins() {
        let collected: SortedMap<String, u32> = [("b", 1), ("a", 2), ("c", 3), ("a", 4)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let mut inserted = SortedMap::new();
        for (k, v) in [("b", 1), ("a", 2), ("c", 3), ("a", 4)] {
            inserted.insert(k.to_string(), v);
        }
        for m in [&collected, &inserted] {
            let seen: Vec<(&str, u32)> = m.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            assert_eq!(seen, [("a", 4), ("b", 1), ("c", 3)]);
            assert_eq!(m.get("a"), Some(&4));
            assert_eq!(m.get("d"), None);
            assert!(m.contains_key("c"));
        }
        assert_eq!(collected, inserted);
        assert_eq!(
            serde_json::to_string(&collected).unwrap(),
            r#"{"a":4,"b":1,"c":3}"#
        );
        assert_eq!(format!("{collected:?}"), r#"{"a": 4, "b": 1, "c": 3}"#);
        assert_eq!(inserted.remove("b"), Some(1));
        assert_eq!(inserted.len(), 2);
    }
}
