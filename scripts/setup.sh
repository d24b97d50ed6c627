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
