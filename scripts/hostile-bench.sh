#!/usr/bin/env bash
# Issue 12's hostile inputs through the release CLI: time and peak memory of each against its budget
# (bench/hostile.md has the figures before and after the limits). Exit 1 when a budget is broken.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p fleetplan-cli
python3 scripts/hostile_inputs.py "${CARGO_TARGET_DIR:-target}/release/fleetplan" target/hostile
