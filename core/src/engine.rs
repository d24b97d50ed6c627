//! The discrete-event queue every simulation runs on: jump from event to event, never tick.
//!
//! Events at the same instant pop in the order they were pushed (a sequence number breaks ties), so a
//! run is deterministic without relying on the heap's internal order. Push and pop are O(log E).
//!
//! Events pushed between two pops form a batch. A large batch (a stage starting thousands of cluster
//! upgrades at once) is sorted once and enters the heap as one run, whose next event takes its place
//! when its head pops: the heap holds a few runs instead of every event, so its steps stay in the
//! cache. The order is the same as pushing each event: by time, then by push order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::Time;

/// Batches at least this large become runs; smaller ones go into the heap event by event.
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
    /// Pushed since the last look at the queue: `(time, sequence number, event)`.
    batch: Vec<(Time, u64, E)>,
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
            heap: BinaryHeap::with_capacity(n),
            next_seq: 0,
            batch: Vec::new(),
            runs: Vec::new(),
            free_runs: Vec::new(),
        }
    }

    pub fn push(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.batch.push((at, seq, event));
    }

    /// Moves the batch into the heap: event by event, or as one sorted run.
    fn settle(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        if self.batch.len() < RUN {
            for (at, seq, event) in self.batch.drain(..) {
                self.heap.push(Reverse(Entry {
                    at,
                    seq,
                    event,
                    run: NO_RUN,
                }));
            }
            return;
        }
        let mut batch = std::mem::take(&mut self.batch);
        // Sequence numbers grow along the batch: sorting by time alone, stably, orders by both.
        crate::sort::sort_by_key(&mut batch, |(at, _, _)| *at);
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

    /// The earliest event; among equal times, the first pushed.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.settle();
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

    /// When the next event happens, if any (quinn-style `poll_timeout`).
    pub fn next_time(&mut self) -> Option<Time> {
        self.settle();
        self.heap.peek().map(|Reverse(e)| e.at)
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.batch.is_empty()
    }

    pub fn clear(&mut self) {
        self.heap.clear();
        self.batch.clear();
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
}
