#!/usr/bin/env bash
# Sourced by the release-only build hooks (wasm-opt-hook.sh, minify-hook.sh): the one rule they share for
# when they run and where their npm tool is, so a dev build, an opt-out variable or a tree without
# node_modules is handled the same way by each.

# release_tool VAR HOOK TOOL OPT_OUT WITHOUT: sets VAR to node_modules/.bin/TOOL when this is a release build
# and the variable named OPT_OUT is empty; otherwise ends the calling hook successfully (a dev build or an
# opt-out silently, a missing tool with a warning that says what the build goes WITHOUT). It sets a
# variable rather than printing the path because `exit` in a command substitution would end only that.
release_tool() {
    local var=$1 hook=$2 tool=$3 opt_out=$4 without=$5
    if [ "${TRUNK_PROFILE:-debug}" != "release" ] || [ -n "${!opt_out:-}" ]; then
        exit 0
    fi
    local path="$TRUNK_SOURCE_DIR/node_modules/.bin/$tool"
    if [ ! -x "$path" ]; then
        echo "$hook: $path missing (run scripts/setup.sh); $without" >&2
        exit 0
    fi
    printf -v "$var" '%s' "$path"
}
