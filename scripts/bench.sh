#!/usr/bin/env bash
# Speed report (issue 13's budgets, PASS/FAIL each; not a test): planners per kind at 1k/10k/100k clusters
# with their growth exponent and reading speed, natively and as wasm in Node (and in Chromium) with the wasm/native ratios
# (native and wasm batches alternated, so that the machine's drift between minutes cannot move them),
# and the planners' ratios once more as the web app ships them (its size-tuned profile, informative);
# live status import and projection; the CLI end to end on 10,000-cluster scenarios (time and peak
# memory); the web bundle per chunk when dist/ holds a release build, and the browser figures of the
# last end-to-end run. Prints everything and writes it as the head of bench/REPORT.md (the hand-written
# sections after it are kept).
#   ./scripts/bench.sh            everything (about five minutes after CI's builds)
#   ./scripts/bench.sh --cli      only the CLI end to end
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh >/dev/null
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
target="${CARGO_TARGET_DIR:-target}"
work="$target/bench"
mkdir -p "$work"
only_cli=false
[ "${1:-}" = "--cli" ] && only_cli=true

cargo build --release --quiet -p fleetplan-bench -p fleetplan-cli
out="$work/report.txt"
: >"$out"
say() { tee -a "$out"; }

if ! $only_cli; then
    "$target/release/fleetplan-bench" | say
    echo | say
    cargo build --release --quiet --target wasm32-unknown-unknown -p fleetplan-bench --lib
    wasm-bindgen --target nodejs --out-dir "$work/wasm" "$target/wasm32-unknown-unknown/release/fleetplan_bench.wasm"
    # The ratios of record: wasm and native batches of the same work alternated (see bench-wasm.cjs).
    node scripts/bench-wasm.cjs "$work/wasm/fleetplan_bench.js" "$target/release/fleetplan-bench" | say
    echo | say
    # The planners as the web app ships them (its size-tuned profile), for comparison: the goal's ratios
    # above compare the same optimized code on both sides.
    cargo build --profile wasm-release --quiet --target wasm32-unknown-unknown -p fleetplan-bench --lib
    wasm-bindgen --target nodejs --out-dir "$work/wasm-shipped" "$target/wasm32-unknown-unknown/wasm-release/fleetplan_bench.wasm"
    node scripts/bench-wasm.cjs --shipped "$work/wasm-shipped/fleetplan_bench.js" "$target/release/fleetplan-bench" | say
    echo | say
    # The same pairs with the wasm in headless Chromium, where the web app runs (a newer V8 than
    # Node's); Node's ratios above stay the goal's.
    if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
        wasm-bindgen --target web --out-dir "$work/wasm-web" "$target/wasm32-unknown-unknown/release/fleetplan_bench.wasm"
        node scripts/bench-wasm.cjs --chromium "$work/wasm-web/fleetplan_bench.js" "$target/release/fleetplan-bench" | say
        echo | say
    fi
fi

# The CLI as users run it, on scenario files with every cluster listed. Best of five runs: wall time
# (which other processes on a shared machine inflate), CPU time (user + system) and peak resident memory.
cli_budget_s=0.2
cli_budget_mb=40
{
    echo "CLI end to end (best of 5; wall and CPU seconds, peak resident MB)"
    printf '%-8s %-24s %9s %7s %7s %7s\n' scenario command "MB in" wall cpu "MB"
} | say
for kind in gke staged; do
    file="$work/$kind-10000.yaml"
    "$target/release/fleetplan-bench" yaml "$kind" 10000 >"$file"
    size_mb=$(awk -v b="$(wc -c <"$file")" 'BEGIN { printf "%.1f", b / 1e6 }')
    for cmd in "check" "plan" "plan --format json"; do
        best_wall="" best_cpu="" best_mb=""
        for _ in 1 2 3 4 5; do
            if [ -x /usr/bin/time ]; then
                # shellcheck disable=SC2086
                /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$target/release/fleetplan" $cmd "$file" >/dev/null
                read -r wall user sys kb <"$work/time.txt"
                cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
                mb=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
            else
                begun=$(date +%s%N)
                # shellcheck disable=SC2086
                "$target/release/fleetplan" $cmd "$file" >/dev/null
                wall=$(awk -v n="$(( $(date +%s%N) - begun ))" 'BEGIN { printf "%.2f", n / 1e9 }')
                cpu="$wall" mb=0
            fi
            best_wall=$(awk -v a="$wall" -v b="${best_wall:-$wall}" 'BEGIN { print (a < b ? a : b) }')
            best_cpu=$(awk -v a="$cpu" -v b="${best_cpu:-$cpu}" 'BEGIN { print (a < b ? a : b) }')
            best_mb=$(awk -v a="$mb" -v b="${best_mb:-$mb}" 'BEGIN { print (a < b ? a : b) }')
        done
        printf '%-8s %-24s %9s %7s %7s %7s\n' "$kind" "fleetplan $cmd" "$size_mb" "$best_wall" "$best_cpu" "$best_mb" | say
        verdict=$(awk -v c="$best_cpu" -v m="$best_mb" -v cb="$cli_budget_s" -v mb="$cli_budget_mb" \
            'BEGIN { print ((c <= cb && m <= mb) ? "PASS" : "FAIL") }')
        echo "budget $verdict CLI \`fleetplan $cmd\`, 10000-cluster $kind scenario: ${best_cpu} s CPU (${best_wall} s wall), ${best_mb} MB (goal ≤ ${cli_budget_s} s, ≤ ${cli_budget_mb} MB)" >>"$work/cli-budgets.txt"
    done
done
cat "$work/cli-budgets.txt" | say
rm -f "$work/cli-budgets.txt"

if [ -d dist ] && ! $only_cli; then
    echo | say
    ./scripts/bundle-report.sh | say
fi

# The browser app's figures from the last end-to-end run, against bench/budgets.json.
if [ -f target/e2e/metrics.json ] && ! $only_cli; then
    echo | say
    node scripts/budgets.mjs 2>&1 | say || true
fi

echo | say
{
    echo "summary: $(grep -c '^budget PASS' "$out" || true) budgets met, $(grep -c '^budget FAIL' "$out" || true) not"
    grep '^budget FAIL' "$out" || true
} | say

if ! $only_cli; then
    # The report's head is this run; the sections written by hand below it (from its first `## `
    # heading on: history, method, what was tried) are kept as they are.
    kept="$work/report-kept.md"
    if [ -f bench/REPORT.md ]; then
        awk '/^## /{keep=1} keep' bench/REPORT.md >"$kept"
    else
        : >"$kept"
    fi
    {
        echo "# Benchmark report"
        echo
        echo "Written by \`./scripts/bench.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, load average" \
            "$(cut -d' ' -f1-3 /proc/loadavg) at the end: times are CPU time, which other processes do not inflate)."
        echo
        echo '```'
        cat "$out"
        echo '```'
        if [ -s "$kept" ]; then
            echo
            cat "$kept"
        fi
    } >bench/REPORT.md
    echo "wrote bench/REPORT.md"
fi
