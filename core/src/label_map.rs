//! A cluster's labels in one allocation: where each key and value ends, then every key and value, in
//! one text.
//!
//! A fleet of generated clusters holds a label map per cluster. As a `SortedMap<String, String>` each
//! cost an allocation for its list and one per key and per value (five for two labels), each freed
//! again when the fleet is dropped; in wasm an allocation and a `memory.copy` cost far more than
//! natively (bench/REPORT.md, goal 3), so the generated fleet was a large part of why a staged plan
//! took 1.7× its native time. Here a map is one `String` made at its final size: a head saying where
//! each key and value ends, written in ASCII digits so that the text stays UTF-8 without `unsafe`,
//! then `key0 value0 key1 value1 …`. It iterates, compares and serializes as the `SortedMap` did
//! (ascending keys, byte order), so plans and their output do not change.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// Digits of 7 bits, each an ASCII byte: five hold any `u32`.
const DIGIT_BITS: u32 = 7;

#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct LabelMap {
    /// Empty for an empty map (which allocates nothing). Otherwise `[w][n][end 0]…[end 2n-1]`, each
    /// number but `w` written as `w` base-128 digits (`w` is the fewest that hold the largest, so the
    /// same entries always make the same text and the derived equality and hash hold), then the
    /// keys and values: entry `i`'s key ends at `end 2i`, its value at `end 2i+1`, counted from the
    /// end of the head; entries by ascending key, keys unique. One allocation where a text and a
    /// list of ends were two: a generated cluster's labels were a third of its allocations, and in
    /// wasm each costs about four times what it does natively (bench/REPORT.md, goal 3).
    text: String,
}

/// Where a map's numbers are: their width and the start of its keys and values.
#[derive(Clone, Copy)]
struct Head {
    width: usize,
    entries: usize,
    base: usize,
}

impl LabelMap {
    pub fn new() -> Self {
        LabelMap::default()
    }

    pub fn len(&self) -> usize {
        self.head().entries
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The number written `width` digits wide at byte `at`.
    fn number(bytes: &[u8], at: usize, width: usize) -> usize {
        // Most maps' texts are under 128 bytes: one digit.
        if width == 1 {
            return usize::from(bytes[at]);
        }
        bytes[at..at + width]
            .iter()
            .fold(0, |n, &d| n << DIGIT_BITS | usize::from(d))
    }

    fn head(&self) -> Head {
        match *self.text.as_bytes() {
            [] => Head {
                width: 0,
                entries: 0,
                base: 0,
            },
            // Most maps: one digit per number, read without a loop.
            [1, entries, ..] => Head {
                width: 1,
                entries: usize::from(entries),
                base: 2 + 2 * usize::from(entries),
            },
            [width, ..] => {
                let width = usize::from(width);
                let entries = Self::number(self.text.as_bytes(), 1, width);
                Head {
                    width,
                    entries,
                    base: 1 + width * (1 + 2 * entries),
                }
            }
        }
    }

    /// Where key (`2i`) or value (`2i + 1`) number `j` ends in the text.
    fn end(&self, head: Head, j: usize) -> usize {
        head.base + Self::number(self.text.as_bytes(), 1 + head.width * (1 + j), head.width)
    }

    /// Where entry `i`'s key starts: where the entry before it ends.
    fn start(&self, head: Head, i: usize) -> usize {
        if i == 0 {
            head.base
        } else {
            self.end(head, 2 * i - 1)
        }
    }

    /// Entry `i`'s key and value.
    fn entry(&self, head: Head, i: usize) -> (&str, &str) {
        let start = self.start(head, i);
        let (key_end, value_end) = (self.end(head, 2 * i), self.end(head, 2 * i + 1));
        (&self.text[start..key_end], &self.text[key_end..value_end])
    }

    /// Where the value of `key` lies in the text.
    fn position(&self, key: &str) -> Option<(usize, usize)> {
        let head = self.head();
        let (text, key) = (self.text.as_bytes(), key.as_bytes());
        // A cluster has a few labels: a scan that compares lengths first skips most keys without
        // reading their bytes, and equality is all a lookup needs.
        // A small map's ends are one digit each (its text is under 128 bytes): read as bytes.
        if head.entries <= 4 && head.width == 1 {
            let mut start = head.base;
            for pair in text[2..2 + 2 * head.entries].chunks_exact(2) {
                let (key_end, value_end) = (
                    head.base + usize::from(pair[0]),
                    head.base + usize::from(pair[1]),
                );
                if key_end - start == key.len() && same(&text[start..key_end], key) {
                    return Some((key_end, value_end));
                }
                start = value_end;
            }
            return None;
        }
        let (mut lo, mut hi) = (0, head.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = self.start(head, mid);
            let key_end = self.end(head, 2 * mid);
            match text[start..key_end].cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some((key_end, self.end(head, 2 * mid + 1))),
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
        let head = self.head();
        Iter {
            map: self,
            head,
            front: 0,
            back: head.entries,
        }
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

    /// A map of exactly `entries` keys whose texts take `bytes` bytes: told each entry's sizes by
    /// [`Builder::sizes`], then filled by [`Builder::push`], both in ascending key order.
    pub(crate) fn builder(entries: usize, bytes: usize) -> Builder {
        let mut map = Builder {
            text: String::new(),
            width: 0,
            at: 0,
        };
        if entries > 0 {
            let largest = u64::from(
                u32::try_from(entries.max(bytes)).expect("a label map's text fits in 4 GiB"),
            );
            let mut width = 1;
            while largest >> (DIGIT_BITS * width) != 0 {
                width += 1;
            }
            let width = width as usize;
            map.text = String::with_capacity(1 + width * (1 + 2 * entries) + bytes);
            map.text.push(char::from(width as u8));
            map.width = width;
            map.put(entries);
        }
        map
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
                map.sizes(k.len(), v.len());
            }
        }
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
    /// Digits per number (0 for an empty map).
    width: usize,
    /// The last end announced.
    at: usize,
}

impl Builder {
    /// Appends `n` as `width` digits.
    fn put(&mut self, n: usize) {
        for digit in (0..self.width).rev() {
            self.text.push(char::from(
                (n >> (DIGIT_BITS as usize * digit)) as u8 & 0x7f,
            ));
        }
    }

    /// Announces the next entry's key and value lengths in bytes; every entry's come before the
    /// first [`Builder::push`].
    pub fn sizes(&mut self, key: usize, value: usize) {
        self.at += key;
        self.put(self.at);
        self.at += value;
        self.put(self.at);
    }

    /// Adds `key` (greater than every key added before) with the value `write` appends to the text,
    /// as long as announced.
    pub fn push(&mut self, key: &str, write: impl FnOnce(&mut String)) {
        crate::append::append(&mut self.text, key);
        write(&mut self.text);
    }

    /// The map; every announced entry must have been pushed, and no more.
    pub fn finish(self) -> LabelMap {
        let map = LabelMap { text: self.text };
        debug_assert!(
            map.is_empty() || map.end(map.head(), 2 * map.len() - 1) == map.text.len(),
            "a label map's builder given other sizes than it was told"
        );
        map
    }
}

/// The entries of a [`LabelMap`] by ascending key, as `(key, value)`.
#[derive(Clone)]
pub struct Iter<'a> {
    map: &'a LabelMap,
    head: Head,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.map.entry(self.head, self.front - 1)
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
            self.map.entry(self.head, self.back)
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
    fn long_texts_and_many_entries_answer_as_short_ones() {
        // Rule: where an entry ends is written in as many digits as the map's largest number
        // needs; a map whose text passes 127 bytes, 16,383 bytes, or that has over 127 entries
        // answers as a small one does, at the borders and across them.
        // (entries, bytes of the middle entry's value); keys take five bytes each, so one entry
        // with a 122-byte value is a 127-byte text, two with a 16,373-byte one 16,383 bytes.
        let cases = [
            (1, 122),
            (1, 123),
            (2, 200),
            (3, 5_000),
            (127, 0),
            (128, 0),
            (200, 1),
            (2, 16_373),
            (2, 16_374),
            (3, 40_000),
        ];
        for (n, long) in cases {
            let entries: Vec<(String, String)> = (0..n)
                .map(|i| {
                    (
                        format!("k{i:04}"),
                        "v".repeat(if i == n / 2 { long } else { i % 3 }),
                    )
                })
                .collect();
            let want: SortedMap<String, String> = entries.iter().cloned().collect();
            let map: LabelMap = entries.iter().cloned().collect();
            assert_eq!(map.len(), n, "{n} entries, {long} bytes");
            let seen: Vec<(&str, &str)> = map.iter().collect();
            let wanted: Vec<(&str, &str)> =
                want.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            assert_eq!(seen, wanted, "{n} entries, {long} bytes");
            assert_eq!(
                map.iter().rev().collect::<Vec<_>>(),
                wanted.iter().rev().copied().collect::<Vec<_>>()
            );
            for (k, v) in &want {
                assert_eq!(map.get(k), Some(v.as_str()));
                assert!(map.has(k, v));
            }
            assert_eq!(map.get("k"), None);
            assert_eq!(map.clone(), map);
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
