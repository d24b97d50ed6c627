//! FNV-1a, a small deterministic hash for string keys: the same on every run and target (std's
//! default hasher is seeded at random), and quicker than it on short paths and labels.

use std::hash::{BuildHasherDefault, Hasher};

/// The 64-bit FNV-1a state.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// For `HashMap<K, V, BuildFnv>`.
pub type BuildFnv = BuildHasherDefault<Fnv>;

/// The hash of one string.
pub fn hash(s: &str) -> u64 {
    let mut h = Fnv::default();
    h.write(s.as_bytes());
    h.finish()
}
