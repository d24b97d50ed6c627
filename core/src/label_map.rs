//! A cluster's labels in two allocations: every key and value in one text, and where each ends.
//!
//! A fleet of generated clusters holds a label map per cluster. As a `SortedMap<String, String>` each
//! cost an allocation for its list and one per key and per value (five for two labels), each freed
//! again when the fleet is dropped; in wasm an allocation and a `memory.copy` cost far more than
//! natively (bench/REPORT.md, goal 3), so the generated fleet was a large part of why a staged plan
//! took 1.7× its native time. Here the texts are one `String` (`key0 value0 key1 value1 …`) and
//! their ends one `Vec<u32>`, both made at their final size, so a map of any size is two allocations.
//! It iterates, compares and serializes as the `SortedMap` did (ascending keys, byte order), so
//! plans and their output do not change.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct LabelMap {
    /// Keys and values, key before value, entries by ascending key, keys unique.
    text: String,
    /// Where each key and value ends in the text: `ends[2i]` is key `i`'s end, `ends[2i + 1]` its
    /// value's. A plain string and list (made at their final size), rather than boxes or the ends
    /// inside the map for small maps: the browser's first download already holds their code, and
    /// the viewer's module has no room to spare (bench/REPORT.md, goal 3). An empty map allocates
    /// nothing.
    ends: Vec<u32>,
}

impl LabelMap {
    pub fn new() -> Self {
        LabelMap::default()
    }

    pub fn len(&self) -> usize {
        self.ends.len() / 2
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Where entry `i`'s key starts: where the entry before it ends.
    fn start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.ends[2 * i - 1] as usize
        }
    }

    /// Entry `i`'s key and value.
    fn entry(&self, i: usize) -> (&str, &str) {
        let start = self.start(i);
        let (key_end, value_end) = (self.ends[2 * i] as usize, self.ends[2 * i + 1] as usize);
        (&self.text[start..key_end], &self.text[key_end..value_end])
    }

    /// Where the value of `key` lies in the text.
    fn position(&self, key: &str) -> Option<(usize, usize)> {
        let ends = &*self.ends;
        let (text, key) = (self.text.as_bytes(), key.as_bytes());
        // A cluster has a few labels: a scan that compares lengths first skips most keys without
        // reading their bytes, and equality is all a lookup needs.
        if ends.len() <= 8 {
            let mut start = 0;
            for pair in ends.chunks_exact(2) {
                let (key_end, value_end) = (pair[0] as usize, pair[1] as usize);
                if key_end - start == key.len() && same(&text[start..key_end], key) {
                    return Some((key_end, value_end));
                }
                start = value_end;
            }
            return None;
        }
        let (mut lo, mut hi) = (0, ends.len() / 2);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = self.start(mid);
            let key_end = ends[2 * mid] as usize;
            match text[start..key_end].cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some((key_end, ends[2 * mid + 1] as usize)),
            }
        }
        None
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.position(key)
            .map(|(start, end)| &self.text[start..end])
    }

    /// Whether `key` has exactly `value`: what a selector's `matchLabels` asks of every cluster.
    pub fn has(&self, key: &str, value: &str) -> bool {
        self.position(key)
            .is_some_and(|(start, end)| same(&self.text.as_bytes()[start..end], value.as_bytes()))
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The entries by ascending key.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            map: self,
            front: 0,
            back: self.len(),
        }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.iter().map(|(_, v)| v)
    }

    /// Sets `key` to `value`; the value it had, if any. Builds the map anew: for setting a label or
    /// two, never for filling a map from input (collect it instead).
    pub fn insert(&mut self, key: impl AsRef<str>, value: impl AsRef<str>) -> Option<String> {
        let (key, value) = (key.as_ref(), value.as_ref());
        let old = self.get(key).map(str::to_string);
        let map = self
            .iter()
            .filter(|(k, _)| *k != key)
            .chain(std::iter::once((key, value)))
            .collect();
        *self = map;
        old
    }

    /// Removes `key`; the value it had, if any.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let old = self.get(key).map(str::to_string)?;
        let map = self.iter().filter(|(k, _)| *k != key).collect();
        *self = map;
        Some(old)
    }

    /// A map of exactly `entries` keys whose texts take `bytes` bytes, filled by [`Builder::push`]
    /// in ascending key order.
    pub(crate) fn builder(entries: usize, bytes: usize) -> Builder {
        Builder {
            text: String::with_capacity(bytes),
            ends: vec![0; 2 * entries],
            at: 0,
        }
    }

    /// The map of a text's entries as read (keys borrowed from the text, values mostly too), in
    /// order; of equal keys the last one's value stays. The one way from input to a map, so the
    /// browser's module holds its sort and building once.
    pub fn from_read(entries: &mut [(&str, Cow<'_, str>)]) -> LabelMap {
        // Stable: of a run of equal keys the last was written last, and it is the one kept.
        crate::sort::sort_by(entries, |a, b| a.0.cmp(b.0));
        let entries = &*entries;
        let keep = |at: usize| {
            entries
                .get(at + 1)
                .is_none_or(|next| next.0 != entries[at].0)
        };
        let (mut kept, mut bytes) = (0, 0);
        for (at, (k, v)) in entries.iter().enumerate() {
            if keep(at) {
                kept += 1;
                bytes += k.len() + v.len();
            }
        }
        let mut map = LabelMap::builder(kept, bytes);
        for (at, (k, v)) in entries.iter().enumerate() {
            if keep(at) {
                map.push(k, |text| crate::append::append(text, v));
            }
        }
        map.finish()
    }
}

/// Byte equality of two short texts (label keys and values) without a call: in wasm `memcmp` is a
/// function call for a few bytes.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Fills a [`LabelMap`] entry by entry, each key greater than the last, writing values in place (a
/// generated cluster's value is written straight into the map's text, never into a string of its own).
pub(crate) struct Builder {
    text: String,
    ends: Vec<u32>,
    at: usize,
}

impl Builder {
    fn end(&mut self) {
        self.ends[self.at] =
            u32::try_from(self.text.len()).expect("a label map's text fits in 4 GiB");
        self.at += 1;
    }

    /// Adds `key` (greater than every key added before) with the value `write` appends to the text.
    /// Panics past the number of entries the builder was made for.
    pub fn push(&mut self, key: &str, write: impl FnOnce(&mut String)) {
        crate::append::append(&mut self.text, key);
        self.end();
        write(&mut self.text);
        self.end();
    }

    /// The map; every announced entry must have been pushed.
    pub fn finish(self) -> LabelMap {
        debug_assert_eq!(
            self.at,
            self.ends.len(),
            "a label map's builder given fewer entries"
        );
        LabelMap {
            text: self.text,
            ends: self.ends,
        }
    }
}

/// The entries of a [`LabelMap`] by ascending key, as `(key, value)`.
#[derive(Clone)]
pub struct Iter<'a> {
    map: &'a LabelMap,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.map.entry(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.map.entry(self.back)
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a LabelMap {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// As `BTreeMap`'s: of equal keys the last one's value stays.
impl<K: AsRef<str>, V: AsRef<str>> FromIterator<(K, V)> for LabelMap {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let entries: Vec<(K, V)> = iter.into_iter().collect();
        LabelMap::from_read(
            &mut entries
                .iter()
                .map(|(k, v)| (k.as_ref(), Cow::Borrowed(v.as_ref())))
                .collect::<Vec<_>>(),
        )
    }
}

/// As repeated [`LabelMap::insert`]s, in one sort.
impl<K: AsRef<str>, V: AsRef<str>> Extend<(K, V)> for LabelMap {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let new: Vec<(K, V)> = iter.into_iter().collect();
        let map = self
            .iter()
            .chain(new.iter().map(|(k, v)| (k.as_ref(), v.as_ref())))
            .collect();
        *self = map;
    }
}

impl<K: AsRef<str>, V: AsRef<str>, const N: usize> From<[(K, V); N]> for LabelMap {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

/// `labels[key]`: panics when the key is absent, as `BTreeMap`'s does (tests and known keys only).
impl std::ops::Index<&str> for LabelMap {
    type Output = str;

    fn index(&self, key: &str) -> &str {
        self.get(key).expect("no entry found for key")
    }
}

impl fmt::Debug for LabelMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for LabelMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sorted_map::SortedMap;

    /// Keys of every length order, some sharing prefixes, some empty: the map must answer as the
    /// `SortedMap` it replaces, whatever its size (keys scanned or searched).
    fn sample(n: usize) -> Vec<(String, String)> {
        (0..n)
            .map(|i| {
                let key = match i % 4 {
                    0 => format!("k{}", n - i),
                    1 => format!("example.com/{i}"),
                    2 => "a".repeat(i % 7),
                    _ => format!("k{i}-x"),
                };
                (key, format!("v{}", i * 37 % 11).repeat(i % 3))
            })
            .collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn answers_as_a_sorted_map_at_every_size() {
        for n in 0..=20 {
            // Some keys written again with another value: the last one written stays.
            let mut entries = sample(n);
            let again: Vec<(String, String)> = entries[..n / 3]
                .iter()
                .map(|(k, v)| (k.clone(), format!("{v}!")))
                .collect();
            entries.extend(again);
            let want: SortedMap<String, String> = entries.iter().cloned().collect();
            let map: LabelMap = entries.iter().cloned().collect();
            let mut inserted = LabelMap::new();
            for (k, v) in &entries {
                inserted.insert(k, v);
            }
            for m in [&map, &inserted] {
                let seen: Vec<(&str, &str)> = m.iter().collect();
                let wanted: Vec<(&str, &str)> =
                    want.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                assert_eq!(seen, wanted, "{n} entries");
                let back: Vec<(&str, &str)> = m.iter().rev().collect();
                assert_eq!(back, wanted.iter().rev().copied().collect::<Vec<_>>());
                assert_eq!(m.len(), want.len());
                for (k, v) in &want {
                    assert_eq!(m.get(k), Some(v.as_str()));
                    assert!(m.contains_key(k));
                    assert!(m.has(k, v));
                    assert!(!m.has(k, &format!("{v}x")));
                    assert!(
                        v.is_empty() || !m.has(k, &v[1..]),
                        "a value's tail is not the value"
                    );
                }
                for absent in ["", "k", "zz", "example.com/", "aaaaaaaa"] {
                    assert_eq!(m.get(absent), want.get(absent).map(String::as_str));
                }
                assert_eq!(
                    serde_json::to_string(m).unwrap(),
                    serde_json::to_string(&want).unwrap()
                );
                assert_eq!(format!("{m:?}"), format!("{want:?}"));
            }
            assert_eq!(map, inserted, "the same entries make equal maps");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_key_written_twice_keeps_its_last_value_and_removing_forgets_it() {
        let mut map: LabelMap = [("b", "1"), ("a", "2"), ("c", "3"), ("a", "4")].into();
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("a", "4"), ("b", "1"), ("c", "3")]
        );
        assert_eq!(map.insert("b", "5").as_deref(), Some("1"));
        assert_eq!(map["b"], *"5");
        assert_eq!(map.remove("a").as_deref(), Some("4"));
        assert_eq!(map.remove("a"), None);
        assert_eq!(map.iter().collect::<Vec<_>>(), [("b", "5"), ("c", "3")]);
        map.extend([("a", "6"), ("c", "7")]);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("a", "6"), ("b", "5"), ("c", "7")]
        );
    }
}
