//! Which clusters of a stage have been updating for the stuck threshold, so naming them never rescans
//! the stage (a 100,000-cluster stage at 100% concurrency made that quadratic).
//!
//! Two min-heaps whose entries are dropped lazily instead of ordered sets: a cluster's mark says which
//! of them it is in, and an entry whose cluster has moved on is skipped when it comes to the top. Both
//! keep every step O(log n); the standard library's B-tree would cost the browser's first module about
//! 3 KB of code that nothing else on the viewer's path needs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::{Duration, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Unwatched,
    /// Updating since this instant, not yet past the threshold when last looked at.
    Under(Time),
    Over,
}

/// One stage's watched clusters, by their place in the stage.
#[derive(Debug, Default)]
pub(super) struct StuckWatch {
    /// (start, cluster) of the clusters marked `Under`, earliest first; others' entries are stale.
    under: BinaryHeap<Reverse<(Time, usize)>>,
    /// Clusters marked `Over`, lowest place first; others' entries are stale.
    over: BinaryHeap<Reverse<usize>>,
    /// By place in the stage; empty until the first cluster is watched.
    marks: Vec<Mark>,
    over_count: usize,
}

impl StuckWatch {
    /// Cluster `c` of a stage of `members` started updating at `at`.
    pub(super) fn watch(&mut self, c: usize, at: Time, members: usize) {
        if self.marks.len() < members.max(c + 1) {
            self.marks.resize(members.max(c + 1), Mark::Unwatched);
        }
        if self.marks[c] == Mark::Over {
            self.over_count -= 1;
        }
        self.marks[c] = Mark::Under(at);
        self.under.push(Reverse((at, c)));
    }

    /// Cluster `c` finished: it no longer counts toward the stuck mark.
    pub(super) fn unwatch(&mut self, c: usize) {
        if let Some(m) = self.marks.get_mut(c) {
            if *m == Mark::Over {
                self.over_count -= 1;
            }
            *m = Mark::Unwatched;
        }
    }

    /// Marks the clusters that have been updating for `threshold` by `now` as over it.
    pub(super) fn pass(&mut self, now: Time, threshold: Duration) {
        while let Some(&Reverse((at, c))) = self.under.peek() {
            if self.marks[c] != Mark::Under(at) {
                self.under.pop();
                continue;
            }
            if now.since(at) < threshold {
                break;
            }
            self.under.pop();
            self.marks[c] = Mark::Over;
            self.over_count += 1;
            self.over.push(Reverse(c));
        }
    }

    /// Whether any cluster was over the threshold when last looked at ([`StuckWatch::pass`]).
    pub(super) fn any_over(&self) -> bool {
        self.over_count > 0
    }

    /// The first `n` clusters over the threshold, by their place in the stage.
    pub(super) fn first_over(&mut self, n: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(n);
        while out.len() < n {
            let Some(Reverse(c)) = self.over.pop() else {
                break;
            };
            if self.marks[c] == Mark::Over && out.last() != Some(&c) {
                out.push(c);
            }
        }
        for &c in &out {
            self.over.push(Reverse(c));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration(300_000);

    /// The rule (execution.go): a cluster counts as stuck once it has been updating longer than the
    /// threshold and until it finishes; names are listed in the stage's order.
    #[test]
    fn clusters_pass_the_threshold_in_time_and_are_named_in_stage_order() {
        let mut w = StuckWatch::default();
        w.watch(5, Time(0), 10);
        w.watch(2, Time(100_000), 10);
        w.watch(7, Time(50_000), 10);
        w.pass(Time(299_999), T);
        assert!(!w.any_over());
        w.pass(Time(350_000), T);
        // 5 (started at 0) and 7 (at 50 s) have run 5 minutes; 2 has not.
        assert_eq!(w.first_over(4), vec![5, 7]);
        w.pass(Time(400_000), T);
        assert_eq!(w.first_over(4), vec![2, 5, 7]);
        assert_eq!(w.first_over(2), vec![2, 5]);
        w.unwatch(5);
        assert_eq!(w.first_over(4), vec![2, 7]);
        w.unwatch(2);
        w.unwatch(7);
        assert!(!w.any_over());
        assert!(w.first_over(4).is_empty());
    }

    #[test]
    fn a_cluster_finished_before_the_threshold_is_never_over_it() {
        let mut w = StuckWatch::default();
        w.watch(0, Time(0), 2);
        w.watch(1, Time(0), 2);
        w.unwatch(0);
        w.pass(Time(1_000_000), T);
        assert_eq!(w.first_over(4), vec![1]);
    }
}
