#!/usr/bin/env bash
# Planning-speed benchmark: the same generated fleets planned natively and as wasm in Node.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh >/dev/null
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
target="${CARGO_TARGET_DIR:-target}"

cargo build --release --quiet -p fleetplan-bench
"$target/release/fleetplan-bench"
echo

cargo build --release --quiet --target wasm32-unknown-unknown -p fleetplan-bench --lib
wasm-bindgen --target nodejs --out-dir "$target/bench-wasm" "$target/wasm32-unknown-unknown/release/fleetplan_bench.wasm"
node scripts/bench-wasm.cjs "$target/bench-wasm/fleetplan_bench.js"
echo

# The browser app's figures from the last end-to-end run, against bench/budgets.json.
node scripts/budgets.mjs
