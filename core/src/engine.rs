//! The discrete-event queue every simulation runs on: jump from event to event, never tick.
//!
//! Events at the same instant pop in the order they were pushed (a sequence number breaks ties), so a
//! run is deterministic without relying on the heap's internal order. Push and pop are O(log E).
//!
//! Pushed events wait loose, in push order, until there are [`RUN`] of them (a stage starting thousands
//! of cluster upgrades at once pushes many more); then they are sorted once and enter the heap as one
//! run, whose next event takes its place when its head pops. A pop takes the earlier of the heap's
//! first and the earliest loose event. The heap holds runs instead of every event, so its steps stay
//! in the cache even when events come one at a time (a cluster's node upgrade queued when its control
//! plane finishes). The order is the same as pushing each event: by time, then by push order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::Time;

/// Loose events become a run once there are this many (a pop looks through fewer).
const RUN: usize = 32;

struct Entry<E> {
    at: Time,
    seq: u64,
    event: E,
    /// The run this event heads (its index in `EventQueue::runs`), or `NO_RUN`.
    run: u32,
}

const NO_RUN: u32 = u32::MAX;

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

/// A min-queue of timed events with FIFO order among equal times.
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    next_seq: u64,
    /// Pushed and not in a run yet: `(time, sequence number, event)` in push order (fewer than
    /// [`RUN`] after each look at the queue).
    loose: Vec<(Time, u64, E)>,
    /// The place in `loose` of its earliest event (the first pushed among equal times).
    first_loose: usize,
    /// Sorted runs, each read from its front; an empty one is free for reuse.
    runs: Vec<std::vec::IntoIter<(Time, u64, E)>>,
    free_runs: Vec<u32>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_capacity(0)
    }
}

impl<E> EventQueue<E> {
    pub fn with_capacity(n: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(n / RUN + 16),
            next_seq: 0,
            loose: Vec::new(),
            first_loose: 0,
            runs: Vec::new(),
            free_runs: Vec::new(),
        }
    }

    pub fn push(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        if self
            .loose
            .get(self.first_loose)
            .is_none_or(|(first, _, _)| at < *first)
        {
            self.first_loose = self.loose.len();
        }
        self.loose.push((at, seq, event));
    }

    /// Moves [`RUN`] or more loose events into the heap as one sorted run.
    fn settle(&mut self) {
        // Sequence numbers grow along the batch: sorting by time alone, stably, orders by both.
        self.settle_with(|batch| crate::sort::sort_by_key(batch, |(at, _, _)| *at));
    }

    /// [`Self::settle`]'s steps, the batch sorted (stably, by time) by `sort`: written once for
    /// both sorts, and compiled into each.
    #[inline(always)]
    fn settle_with(&mut self, sort: impl FnOnce(&mut Vec<(Time, u64, E)>)) {
        if self.loose.len() < RUN {
            return;
        }
        let mut batch = std::mem::replace(&mut self.loose, Vec::with_capacity(RUN));
        self.first_loose = 0;
        sort(&mut batch);
        let mut run = batch.into_iter();
        let id = match self.free_runs.pop() {
            Some(id) => {
                self.runs[id as usize] = Vec::new().into_iter();
                id
            }
            None => {
                self.runs.push(Vec::new().into_iter());
                u32::try_from(self.runs.len() - 1).unwrap_or(NO_RUN)
            }
        };
        if let Some((at, seq, event)) = run.next() {
            self.heap.push(Reverse(Entry {
                at,
                seq,
                event,
                run: id,
            }));
        }
        if let Some(slot) = self.runs.get_mut(id as usize) {
            *slot = run;
        }
    }

    /// [`Self::settle`] with the batch sorted by the standard library's stable sort compiled for
    /// this event type (no `dyn` call per comparison, the events moved once; the same order), for a
    /// planner loaded on demand, where that sort's code costs no first download. The GKE planner's
    /// batches went through the shared index sort: 14% of a 1,000-cluster plan in wasm, 12% natively.
    fn settle_std(&mut self) {
        self.settle_with(|batch| batch.sort_by_key(|(at, _, _)| *at));
    }

    /// Finds the earliest loose event again (after it was taken).
    fn find_first_loose(&mut self) {
        // `min_by_key` keeps the first of equal times, the first pushed.
        self.first_loose = self
            .loose
            .iter()
            .enumerate()
            .min_by_key(|(_, (at, _, _))| *at)
            .map_or(0, |(i, _)| i);
    }

    /// The earliest event; among equal times, the first pushed.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.settle();
        self.pop_settled()
    }

    /// [`Self::pop`] once the loose events are settled: written once for both pops, compiled into
    /// each.
    #[inline(always)]
    fn pop_settled(&mut self) -> Option<(Time, E)> {
        if let Some((at, seq, _)) = self.loose.get(self.first_loose) {
            let earlier = match self.heap.peek() {
                Some(Reverse(e)) => (*at, *seq) < (e.at, e.seq),
                None => true,
            };
            if earlier {
                let (at, _, event) = self.loose.remove(self.first_loose);
                self.find_first_loose();
                return Some((at, event));
            }
        }
        let Reverse(e) = self.heap.pop()?;
        if e.run != NO_RUN {
            match self.runs[e.run as usize].next() {
                Some((at, seq, event)) => self.heap.push(Reverse(Entry {
                    at,
                    seq,
                    event,
                    run: e.run,
                })),
                None => {
                    self.runs[e.run as usize] = Vec::new().into_iter();
                    self.free_runs.push(e.run);
                }
            }
        }
        Some((e.at, e.event))
    }

    /// [`Self::pop`] for the GKE planner: compiled into its caller, batches sorted as
    /// [`Self::settle_std`] sorts them (the same order). Its loop is the queue (about 24,000 pops and
    /// looks per 1,000-cluster plan), and in wasm the calls cost 4-5% of the plan (natively the
    /// compiler inlines them anyway). A pop of its own, not `pop` marked inline, so that the staged
    /// and rolling planners' code, in the first download, stays as it was; the steps are shared
    /// ([`Self::pop_settled`]).
    #[inline]
    pub fn pop_inlined(&mut self) -> Option<(Time, E)> {
        if self.loose.len() >= RUN {
            self.settle_std();
        }
        self.pop_settled()
    }

    /// When the next event happens, if any (quinn-style `poll_timeout`).
    pub fn next_time(&mut self) -> Option<Time> {
        self.settle();
        self.next_settled()
    }

    /// [`Self::next_time`] once the loose events are settled (see [`Self::pop_settled`]).
    #[inline(always)]
    fn next_settled(&self) -> Option<Time> {
        let loose = self.loose.get(self.first_loose).map(|(at, _, _)| *at);
        let heap = self.heap.peek().map(|Reverse(e)| e.at);
        match (loose, heap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// [`Self::next_time`] for the GKE planner (see [`Self::pop_inlined`]).
    #[inline]
    pub fn next_time_inlined(&mut self) -> Option<Time> {
        if self.loose.len() >= RUN {
            self.settle_std();
        }
        self.next_settled()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.loose.is_empty()
    }

    pub fn clear(&mut self) {
        self.heap.clear();
        self.loose.clear();
        self.first_loose = 0;
        self.runs.clear();
        self.free_runs.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pops_in_time_order_and_fifo_among_ties() {
        let mut q = EventQueue::default();
        q.push(Time(20), "late");
        q.push(Time(10), "first-at-10");
        q.push(Time(10), "second-at-10");
        q.push(Time(5), "early");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["early", "first-at-10", "second-at-10", "late"]);
    }

    /// A stage starting thousands of upgrades pushes them in one batch, which the queue keeps as a
    /// sorted run; the order must stay the rule's: by time, then by push order, across runs, single
    /// events and events pushed while a run is half read.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn batches_pop_by_time_then_push_order() {
        let mut q = EventQueue::default();
        // First batch, 40 events (a run): times 30, 20, 10, 0, 30, 20, ... so each time has 10 ties.
        for i in 0..40 {
            q.push(Time(30 - (i % 4) * 10), i);
        }
        // Time 0 holds pushes 3, 7, 11, ..., 39: the first pops.
        assert_eq!(q.pop(), Some((Time(0), 3)));
        // Second batch (one run): 35 events at time 10, then one at time 0.
        for i in 100..135 {
            q.push(Time(10), i);
        }
        q.push(Time(0), 200);
        let rest: Vec<(i64, i64)> = std::iter::from_fn(|| q.pop().map(|(t, e)| (t.0, e))).collect();
        // By hand: the other nine of time 0 (7 to 39 by 4), then 200 (time 0, pushed last); time 10:
        // the first batch's 2, 6, ..., 38, then the second batch's 100 to 134; then 20 and 30.
        let mut expected: Vec<(i64, i64)> = (1..10).map(|k| (0, 3 + 4 * k)).collect();
        expected.push((0, 200));
        expected.extend((0..10).map(|k| (10, 2 + 4 * k)));
        expected.extend((100..135).map(|i| (10, i)));
        expected.extend((0..10).map(|k| (20, 1 + 4 * k)));
        expected.extend((0..10).map(|k| (30, 4 * k)));
        assert_eq!(rest, expected);
        assert!(q.is_empty());
    }

    /// Events pushed one at a time (fewer than a run) while a run is half read pop in the same order:
    /// by time, then by push order, whether they wait loose or in the run.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn loose_events_and_runs_pop_by_time_then_push_order() {
        let mut q = EventQueue::default();
        // One run: pushes 0..40 at times 0, 10, 20, 30, 0, 10, ...
        for i in 0..40 {
            q.push(Time((i % 4) * 10), i);
        }
        assert_eq!(q.pop(), Some((Time(0), 0)));
        // Three loose events: at 10, at 0 (earlier than the run's next at 10), at 10 again.
        q.push(Time(10), 100);
        q.push(Time(0), 101);
        q.push(Time(10), 102);
        assert_eq!(q.next_time(), Some(Time(0)));
        let rest: Vec<(i64, i64)> = std::iter::from_fn(|| q.pop().map(|(t, e)| (t.0, e))).collect();
        // By hand: time 0 holds the run's 4, 8, ..., 36, then 101 (pushed after them); time 10 the
        // run's 1, 5, ..., 37, then 100 and 102; times 20 and 30 the run's rest.
        let mut expected: Vec<(i64, i64)> = (1..10).map(|k| (0, 4 * k)).collect();
        expected.push((0, 101));
        expected.extend((0..10).map(|k| (10, 1 + 4 * k)));
        expected.extend([(10, 100), (10, 102)]);
        expected.extend((0..10).map(|k| (20, 2 + 4 * k)));
        expected.extend((0..10).map(|k| (30, 3 + 4 * k)));
        assert_eq!(rest, expected);
        assert!(q.is_empty());
    }

    /// A queue read as the GKE planner reads it (inlined pops, batches sorted by the standard
    /// library) pops exactly what the shared sort's pops give, over pushes and pops interleaved at
    /// random with many equal times.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn std_sorted_batches_pop_as_the_shared_sort_does() {
        let mut x: u64 = 11;
        let mut next = move |n: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 33) % n
        };
        let mut shared: EventQueue<u32> = EventQueue::default();
        let mut std = EventQueue::default();
        let (mut now, mut popped) = (0i64, 0);
        for i in 0..20_000u32 {
            // Bursts of pushes (a stage starting its clusters) between runs of pops.
            if next(3) > 0 {
                for j in 0..next(80) as u32 {
                    let at = Time(now + next(12) as i64 * 10);
                    shared.push(at, i * 100 + j);
                    std.push(at, i * 100 + j);
                }
            }
            for _ in 0..next(40) {
                let a = shared.pop();
                assert_eq!(a, std.pop_inlined(), "pop {popped}");
                assert_eq!(shared.next_time(), std.next_time_inlined());
                if let Some((at, _)) = a {
                    now = at.0;
                    popped += 1;
                }
            }
        }
        assert!(popped > 100_000, "{popped}");
        let rest_shared: Vec<_> = std::iter::from_fn(|| shared.pop()).collect();
        let rest_std: Vec<_> = std::iter::from_fn(|| std.pop()).collect();
        assert_eq!(rest_shared, rest_std);
    }
}
