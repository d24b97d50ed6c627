//! Stable sorting with one copy of the sorting code for the whole program.
//!
//! Every `slice::sort_by` call compiles its own copy of the standard library's merge sort for its
//! element type and comparator (about 3.5 KB of wasm each), and the browser bundle has a size budget.
//! [`sort_by`] sorts the indices through a `dyn` comparator instead, so the sort is compiled once and
//! only a small permutation step is per element type. Same result as `slice::sort_by`: stable.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, exactly as `v.sort_by(cmp)` would.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    match sorted_indices(v.len(), &mut |a, b| cmp(&v[a], &v[b])) {
        Order::Sorted => {}
        Order::Small(mut order) => permute(v, &mut order[..v.len()]),
        Order::Large(mut order) => permute(v, &mut order),
    }
}

/// Sorts `v` stably by a key, exactly as `v.sort_by_key(key)` would.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` ascending. For values whose equal elements are interchangeable (numbers, names, tuples
/// of them) this is what `v.sort_unstable()` gives, without another copy of the unstable sort (about
/// 3.5 KB of wasm per element type, in the browser's main module for the reader and staged planner).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// At most this many elements are sorted in a list on the stack: a label map read from text is
/// sorted per cluster, and the heap list of its indices was one of its few allocations.
const SMALL: usize = 16;

/// The order [`sorted_indices`] found.
enum Order {
    /// Already in order: nothing moves.
    Sorted,
    /// The first `n` places hold the order.
    Small([usize; SMALL]),
    Large(Vec<usize>),
}

/// The indices `0..n` in the order `cmp` sorts them; ties keep their order. [`Order::Sorted`] when
/// they are in that order already: a list in order (names listed or generated in order, events pushed
/// in time order) is what a stable sort leaves as it is, found in n - 1 comparisons instead of a sort
/// and two lists. Here rather than in [`sort_by`], so the check is compiled once, not per element
/// type.
#[inline(never)]
fn sorted_indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Order {
    if (1..n).all(|i| cmp(i - 1, i) != Ordering::Greater) {
        return Order::Sorted;
    }
    if n <= SMALL {
        // Insertion sort, stable: an index moves only past greater ones. The standard library's
        // sort does the same below 20 elements, so the comparisons are as many.
        let mut idx = [0; SMALL];
        for i in 0..n {
            let mut j = i;
            while j > 0 && cmp(idx[j - 1], i) == Ordering::Greater {
                idx[j] = idx[j - 1];
                j -= 1;
            }
            idx[j] = i;
        }
        return Order::Small(idx);
    }
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    Order::Large(idx)
}

/// Rearranges `v` so that position `k` holds what was at `order[k]`, following each cycle once.
/// `order` marks the places done (each ends as its own index), so no second list is allocated.
#[inline(never)]
pub(crate) fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..v.len() {
        let mut cur = start;
        while order[cur] != cur {
            let next = order[cur];
            order[cur] = cur;
            if next == start {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn sorts_like_the_standard_library_and_keeps_ties_in_order() {
        // A small deterministic generator: many ties, every permutation shape.
        let mut x: u64 = 7;
        for len in 0..60 {
            let v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((x >> 60) as u8, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by_key(&mut ours, |e| e.0);
            let mut std = v.clone();
            std.sort_by_key(|e| e.0);
            assert_eq!(ours, std, "length {len}");
        }
    }
}
