#!/usr/bin/env bash
# One-time machine setup for building and testing fleetplan; safe to re-run, asks nothing.
set -euo pipefail

# Must equal the `wasm-bindgen` pin in Cargo.toml: the CLI refuses to process modules built by another version.
WASM_BINDGEN_VERSION=0.2.130

cd "$(dirname "$0")/.."

# rustup puts cargo and installed tools here; a non-login CI shell may not have it on PATH yet.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust with rustup first" >&2
    exit 1
fi
if ! command -v node >/dev/null 2>&1; then
    echo "setup: node not found; the wasm tests and benchmark run in Node.js" >&2
    exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

if wasm-bindgen --version 2>/dev/null | grep -qF "$WASM_BINDGEN_VERSION"; then
    echo "setup: wasm-bindgen $WASM_BINDGEN_VERSION already installed"
else
    # Not --locked: its lockfile names releases the registry mirror here lacks (see docs on the toolchain).
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# wasm-split-cli splits the release bundle into lazily loaded chunks (scripts/wasm-split-hook.sh), as
# `cargo leptos --split` does; its version must read what the `wasm_split_helpers` in Cargo.lock writes.
WASM_SPLIT_VERSION=0.2.4
if cargo install --list | grep -qF "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    echo "setup: wasm-split-cli $WASM_SPLIT_VERSION already installed"
else
    # --locked builds here (about 5 minutes on 2 cores).
    cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --locked --features build-binary
fi

# Node tools of the browser app, exactly as package-lock.json pins them: playwright-core drives Chromium in
# the end-to-end test, binaryen's wasm-opt shrinks the release wasm, esbuild minifies its JavaScript glue.
# Re-installed when the lockfile changes.
if [ ! -x node_modules/.bin/playwright-core ] || [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] \
    || [ ! -f node_modules/axe-core/axe.min.js ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
else
    echo "setup: node packages already installed"
fi

# Tools of the browser app (Trunk builds it; Chromium runs its browser tests). The core's tests do not need
# them, so a failure here warns instead of stopping; the browser tests then fail with the reason.
TRUNK_VERSION=0.21.14
if trunk --version 2>/dev/null | grep -qF "$TRUNK_VERSION"; then
    echo "setup: trunk $TRUNK_VERSION already installed"
else
    # --locked is required here: without it a newer lightningcss fails to build (toolchain notes).
    echo "setup: installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores, once per machine)"
    cargo install trunk --version "$TRUNK_VERSION" --locked || echo "setup: warning: trunk did not install; the browser app cannot be built yet" >&2
fi
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "setup: chromium and chromedriver already installed"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } \
        || echo "setup: warning: chromium did not install; browser tests cannot run yet" >&2
else
    echo "setup: warning: install chromium and chromium-driver (Debian packages) for the browser tests" >&2
fi
