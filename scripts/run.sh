#!/usr/bin/env bash
# Builds the fleetplan CLI and shows the plan of the built-in `staged` example.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cargo build --release -p fleetplan-cli
bin="${CARGO_TARGET_DIR:-target}/release/fleetplan"
"$bin" example staged | "$bin" plan -
