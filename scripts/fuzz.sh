#!/usr/bin/env bash
# A fuzzing campaign of the fleetplan core, on demand: generated scenarios, manifests, GKE files,
# damaged examples, hostile YAML and share links through every reader, planner and exporter, each
# input's peak heap and time checked against the bounds in fuzz/src/lib.rs (docs/limits.md).
#
#   ./scripts/fuzz.sh [SECONDS] [SEED]     # default: 1800 s (30 minutes), seed from the clock
#
# Runs niced, in release; failing inputs and the report (executions, largest memory, slowest input)
# land in target/fuzz/. CI runs a fixed budget instead: `cargo test -p fleetplan-fuzz`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-1800}"
seed="${2:-$(date +%s)}"
cargo build --release -p fleetplan-fuzz
exec nice -n 10 ./target/release/fleetplan-fuzz --seconds "$seconds" --seed "$seed" --out target/fuzz
