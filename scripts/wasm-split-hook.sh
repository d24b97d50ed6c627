#!/usr/bin/env bash
# Trunk post-build hook (see Trunk.toml): splits the app's wasm into a main module and lazily loaded
# chunks, one per on-demand part (web/src/on_demand.rs), the step `cargo leptos --split` runs.
#
# Trunk 0.21 has no step between cargo and wasm-bindgen, so this redoes what follows cargo: it splits
# cargo's own output (linked with --emit-relocs by web/build.rs) with wasm-split-cli, runs wasm-bindgen
# on the split main module (keeping the exports the chunks link against), and puts the main module,
# its JavaScript, the chunks and their loader (__wasm_split.js) into Trunk's staging directory in place
# of what Trunk made. scripts/wasm-opt-hook.sh then shrinks every module, scripts/wasm-strip-sections.py
# and scripts/wasm-pack.mjs drop their ignored sections and pack the chunks, and scripts/minify-hook.sh
# minifies the JavaScript glue, the loader and CSS.
set -euo pipefail

name=fleetplan-web
staging="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
root="${TRUNK_SOURCE_DIR:-$(pwd)}"
target="${CARGO_TARGET_DIR:-$root/target}"
# The cargo profile Trunk built with: scripts/run.sh and scripts/test.sh pass --cargo-profile wasm-release.
if [ "${TRUNK_PROFILE:-debug}" = release ]; then
    profile="${FLEETPLAN_CARGO_PROFILE:-wasm-release}"
else
    profile="${FLEETPLAN_CARGO_PROFILE:-debug}"
fi
input="$target/wasm32-unknown-unknown/$profile/$name.wasm"
if [ ! -f "$input" ]; then
    echo "wasm-split-hook: $input missing (built with another cargo profile? set FLEETPLAN_CARGO_PROFILE)" >&2
    exit 1
fi
if ! command -v wasm-split-cli >/dev/null 2>&1; then
    echo "wasm-split-hook: wasm-split-cli missing (run scripts/setup.sh)" >&2
    exit 1
fi

work="$target/wasm-split"
rm -rf "$work"
mkdir -p "$work/bindgen"
# Writes $work/$name.wasm (the main module), one .wasm per split and shared chunk, and __wasm_split.js,
# which loads them relative to itself and links them to the main module's memory and table.
wasm-split-cli --target web --out-name "$name" "$input" "$work"
debug=()
if [ "${TRUNK_PROFILE:-debug}" != release ]; then
    debug=(--debug --keep-debug)
fi
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle "${debug[@]}" \
    --out-dir "$work/bindgen" --out-name "$name" "$work/$name.wasm"
# Leptos always builds its server functions' streaming helper (wasm-streams), whose exported classes
# a client-side app never constructs: without the exports, wasm-opt drops their code from the main
# module (see the script),
python3 "$root/scripts/wasm-drop-exports.py" "$work/bindgen/${name}_bg.wasm" intounderlying __wbg_intounderlying
# and their wrapper classes in the glue, which called those exports.
python3 "$root/scripts/glue-drop-classes.py" "$work/bindgen/$name.js" IntoUnderlying
# Release builds: the imports from the glue get short names in the module and the glue alike (their
# names carry 16-hex-digit hashes that do not compress; see the script). Dev builds keep them readable.
if [ "${TRUNK_PROFILE:-debug}" = release ]; then
    python3 "$root/scripts/wasm-short-imports.py" "$work/bindgen/${name}_bg.wasm" "$work/bindgen/$name.js"
fi

# Trunk's own module and glue are replaced by the split ones (same names: index.html loads them).
rm -f "$staging/$name.js" "$staging/${name}_bg.wasm"
cp "$work/bindgen/$name.js" "$work/bindgen/${name}_bg.wasm" "$staging/"
if [ -d "$work/bindgen/snippets" ]; then
    rm -rf "$staging/snippets"
    cp -r "$work/bindgen/snippets" "$staging/"
fi
cp "$work/__wasm_split.js" "$staging/"
for chunk in "$work"/*.wasm; do
    [ "$(basename "$chunk")" = "$name.wasm" ] && continue
    cp "$chunk" "$staging/"
done
echo "wasm-split-hook: $(ls "$work"/*.wasm | wc -l) modules: $(cd "$work" && ls *.wasm | tr '\n' ' ')"

# Then shrink every module (release builds only),
bash "$root/scripts/wasm-opt-hook.sh"
# drop the sections the browser ignores from each and pack the chunks that the same views need into one
# file each, rewriting the loader to match (release builds; FLEETPLAN_NO_PACK=1 leaves them as they are:
# dev builds and an opt-out load each module from its own file as wasm-split-cli wrote them),
if [ "${TRUNK_PROFILE:-debug}" = release ] && [ -z "${FLEETPLAN_NO_PACK:-}" ]; then
    python3 "$root/scripts/wasm-strip-sections.py" "$staging"
    node "$root/scripts/wasm-pack.mjs" "$staging"
fi
# and minify the glue, the loader and CSS (release builds only).
exec bash "$root/scripts/minify-hook.sh"
