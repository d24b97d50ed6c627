#!/usr/bin/env bash
# Runs every test: the native workspace suite, the core and shared suite compiled to wasm32 in Node, the
# browser app's component tests in headless Chromium, and its end-to-end test on the release build.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# ARCHITECTURE.md's "Dependencies point one way": no import circles in the core, no vocabulary module
# importing a planner.
python3 scripts/module-deps.py core/src
cargo test --workspace
# The runner (wasm-bindgen-test-runner, set in .cargo/config.toml) executes the tests in Node.
cargo test --target wasm32-unknown-unknown -p fleetplan -p fleetplan-tests
# The web app's components, mounted in Debian's headless Chromium through ChromeDriver.
WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver \
    cargo test --target wasm32-unknown-unknown -p fleetplan-web
# The release build as users get it, driven in Chromium; screenshots and numbers land in target/e2e/.
trunk build --release --cargo-profile wasm-release --offline
# The bundle per chunk, raw and gzipped, so growth shows in every run (issue 13).
./scripts/bundle-report.sh
node --test tests/e2e/
