#!/usr/bin/env bash
# Trunk post-build hook (see Trunk.toml): shrinks the release wasm with binaryen's wasm-opt from npm.
# Trunk cannot use its own (it would download one), so index.html disables Trunk's and this runs instead.
# Dev builds are left alone (fast rebuilds); without node_modules it warns and leaves the wasm as is.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/release-tool.sh"
release_tool opt wasm-opt-hook wasm-opt FLEETPLAN_NO_WASM_OPT "the bundle stays unoptimized"
for wasm in "$TRUNK_STAGING_DIR"/*.wasm; do
    [ -e "$wasm" ] || continue
    # The features rustc enables by default for wasm32-unknown-unknown; wasm-opt must accept them all.
    # --flatten --rereloop before two -Oz rounds: about 2 KB less gzip than -Oz alone, for ~40 s.
    # The main module also inlines functions of up to 6 size units (-Oz's default is 2): the browser
    # compiles each function on its first call, and a cold share link's first chart called 676 of them
    # (mostly drops and Vec helpers); 577 with this, for 0.9 KB gzip (bench/REPORT.md).
    inline=()
    [ "$(basename "$wasm")" = fleetplan-web_bg.wasm ] && inline=(--always-inline-max-function-size=6)
    # -Oz's merge-similar-functions is skipped: it folded functions that differ only in constants into
    # one that takes them as parameters, among them every `Vec::push`, whose element then went through
    # a `memory.copy` of a run-time length (V8 runs each for ~8 ns whatever the length): 12% of a
    # profiled GKE plan in the main module's one merged push. Without it the main module is 0.5 KB
    # smaller gzipped and an edit's reading and planning 2-8% faster (bench/REPORT.md, 2026-11-28).
    # FLEETPLAN_WASM_OPT_NAMES=1 keeps the functions' names, for profiles (scripts/edit-trace.mjs):
    # the same code in a larger file.
    names=()
    [ -n "${FLEETPLAN_WASM_OPT_NAMES:-}" ] && names=(-g)
    "$opt" "${names[@]}" --flatten --rereloop -Oz -Oz --skip-pass=merge-similar-functions "${inline[@]}" --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
        "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
done
