//! The `fleetplan` command (in progress).
fn main() {}
