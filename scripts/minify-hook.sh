#!/usr/bin/env bash
# Trunk post-build step (run by scripts/wasm-split-hook.sh after wasm-opt): minifies the release build's
# JavaScript glue (and the stylesheets the app adds later) with esbuild from npm. Every first load
# downloads the glue, and it is wasm-bindgen's glue for the whole app (10.4 -> 7.7 KB gzipped); Trunk's
# own minifier (Trunk.toml `minify`, which does the page and the CSS) never sees it, since
# scripts/wasm-split-hook.sh writes it after Trunk's bindgen.
# Dev builds are left readable; without node_modules it warns and leaves the glue as it is. The split
# loader (__wasm_split.js), which every first load fetches too, loses its whitespace but keeps its
# names: scripts/bundle-parts.mjs reads from it which chunks each part needs (2.0 -> 1.5 KB gzipped).
# Neither has an integrity attribute (index.html: data-integrity="none"), so both may change.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/release-tool.sh"
release_tool esbuild minify-hook esbuild FLEETPLAN_NO_MINIFY "the JavaScript glue and the split loader stay unminified"
glue="$TRUNK_STAGING_DIR/fleetplan-web.js"
# No target lowering (esbuild's default): the same JavaScript, only shorter. Export names are kept, so
# pages and fleetplan-chart.js import it as before. Errors only: wasm-bindgen's import object names the
# split loader once per chunk import (`"./__wasm_split.js": import1, … import11`, one module's namespace
# each time), which esbuild reports as duplicate keys and keeps as they are.
"$esbuild" "$glue" --minify --log-level=error --outfile="$glue.min"
mv "$glue.min" "$glue"
loader="$TRUNK_STAGING_DIR/__wasm_split.js"
"$esbuild" "$loader" --minify-whitespace --minify-syntax --log-level=error --outfile="$loader.min"
mv "$loader.min" "$loader"
# The stylesheets the app adds later (editor.css, live.css: copied files, which Trunk does not minify).
for css in editor.css live.css; do
    "$esbuild" "$TRUNK_STAGING_DIR/$css" --minify --log-level=error --outfile="$TRUNK_STAGING_DIR/$css.min"
    mv "$TRUNK_STAGING_DIR/$css.min" "$TRUNK_STAGING_DIR/$css"
done
