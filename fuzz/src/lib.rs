//! Bounded fuzzing of the fleetplan core (issue 12): cases generated deterministically from a seed
//! (scenarios of every kind, KubeFleet objects, GKE's formats, damaged examples, YAML built to hurt,
//! share links), the whole pipeline on each (read, decode the link, plan, every export), and the checks
//! on what comes out: no panic, diagnostics located inside the input and capped per kind, times inside
//! the cap, and every export a valid document (SVG parses as XML, CSV is strict RFC 4180 with one
//! width, Mermaid has no fence and no raw hidden character, JSON and YAML read back).
//!
//! Memory and time are measured by the binaries that run the cases (`src/main.rs`, `tests/budget.rs`),
//! which install [`alloc::Counting`] as their allocator; the bounds they check are [`bounds`].

pub mod alloc;
pub mod check;
pub mod gen;
pub mod rng;

/// The stated bounds for one input of at most [`gen::MAX_INPUT`] bytes (1 MiB), release build: peak
/// heap and time for a fleet of at most [`BIG_FLEET`] clusters, and for larger fleets up to the
/// 1,000,000-cluster cap (whose plans and exports are large by nature).
pub mod bounds {
    pub const BIG_FLEET: u64 = 100_000;
    pub const MEMORY: usize = 1 << 30;
    pub const MEMORY_BIG_FLEET: usize = 4 << 30;
    pub const SECONDS: f64 = 10.0;
    pub const SECONDS_BIG_FLEET: f64 = 120.0;
}

pub use bounds::BIG_FLEET;
