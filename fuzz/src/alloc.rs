//! A counting global allocator: the live heap and its peak since the last [`reset_peak`], so each case's
//! memory is measured exactly (and the same on every machine), not guessed from the process's RSS.
//! Above [`CEILING`] it refuses to allocate, which aborts the run: a protection for the machine, far
//! above the bounds the checks hold cases to.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const CEILING: usize = 12 << 30;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

pub struct Counting;

fn grew(by: usize) -> bool {
    let now = CURRENT.fetch_add(by, Ordering::Relaxed) + by;
    if now > CEILING {
        CURRENT.fetch_sub(by, Ordering::Relaxed);
        return false;
    }
    PEAK.fetch_max(now, Ordering::Relaxed);
    true
}

// SAFETY: every call is forwarded to `System` with the same layout; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !grew(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc(layout);
        if p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !grew(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !grew(new_size - old) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            if new_size > old {
                CURRENT.fetch_sub(new_size - old, Ordering::Relaxed);
            }
        } else if new_size < old {
            CURRENT.fetch_sub(old - new_size, Ordering::Relaxed);
        }
        p
    }
}

/// Bytes allocated and not yet freed.
pub fn current() -> usize {
    CURRENT.load(Ordering::Relaxed)
}

/// The highest [`current`] since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

pub fn reset_peak() {
    PEAK.store(current(), Ordering::Relaxed);
}
