#!/usr/bin/env bash
# Runs every test: the native workspace suite, then the core and shared suite compiled to wasm32 in Node.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

cargo test --workspace
# The runner (wasm-bindgen-test-runner, set in .cargo/config.toml) executes the tests in Node.
cargo test --target wasm32-unknown-unknown -p fleetplan -p fleetplan-tests
