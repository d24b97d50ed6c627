#!/usr/bin/env bash
# Mutation testing of the rule modules with cargo-mutants, within a time budget: plants small bugs in the
# planners' rules and reports which ones the core suite (fleetplan + fleetplan-tests) fails to notice.
#
#   scripts/mutants.sh list                 mutant count per module, nothing is built
#   scripts/mutants.sh diff [BASE]          mutants in lines changed since the merge-base with BASE (main)
#   scripts/mutants.sh sample [N] [SEED]    a reproducible 1-in-N sample of the rule modules (10, 1)
#   scripts/mutants.sh full [MODULE...]     every mutant, or those of the named modules (staged, rolling,
#                                           gke, timing, selector, cel, calendar, time, placement,
#                                           labels, admission)
#   scripts/mutants.sh again FILE           the mutants named in FILE (e.g. a run's mutants.out/missed.txt)
#                                           again, found by file and description wherever their line is now
#
# Environment: MUTANTS_TREE (the checkout to mutate; default this one), MUTANTS_OUT (results; default
# target/mutants/<mode>), MUTANTS_BUDGET (seconds before the run is stopped; unset = no limit),
# MUTANTS_NICE (niceness, default 15: the machine is shared), MUTANTS_SHUFFLE=1 (test in random order, so a
# run stopped by its budget has tested a random part of the selection instead of its first files).
# Results: $MUTANTS_OUT/report.md (caught / missed / unviable / timeout per module, the missed mutants) and
# cargo-mutants' own $MUTANTS_OUT/mutants.out/ (a log and a diff per mutant). See bench/mutants.md.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
tree="$(cd "${MUTANTS_TREE:-$root}" && pwd)"
mode="${1:-}"
[ $# -gt 0 ] && shift

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
}

# The rule modules, as cargo-mutants file globs (relative to the tree's root).
module_globs() {
    case "$1" in
        staged | rolling | gke | timing) echo "core/src/$1/**" ;;
        # A module of one file that may grow into a folder (placement.rs became placement/).
        cel | placement | labels) echo "core/src/$1.rs core/src/$1/**" ;;
        selector | calendar | time | admission) echo "core/src/$1.rs" ;;
        *) echo "mutants: unknown module '$1'" >&2 && exit 2 ;;
    esac
}
# labels and admission hold rules that moved out of selector.rs and staged/ after the baseline.
all_modules="staged rolling gke timing selector cel calendar time placement labels admission"

# Module of a mutant name ("core/src/gke/window.rs:12:5: replace ..."), as awk code shared by the reports.
awk_module='function module(name,  f, a) {
    f = substr(name, 1, index(name, ":") - 1)
    if (f ~ /^core\/src\/[a-z_]+\//) { split(f, a, "/"); return a[3] }
    sub(/^core\/src\//, "", f); sub(/\.rs$/, "", f); return f
}'

file_args=()
select_modules() {
    local m g
    file_args=()
    for m in "$@"; do
        for g in $(module_globs "$m"); do file_args+=(--file "$g"); done
    done
}

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "mutants: cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 1
fi

# Only the core's suites test the rule modules; the web app, CLI and benchmark are not rebuilt per mutant.
# No debug info: each mutant relinks a dozen test binaries, and that is most of its build time.
export CARGO_PROFILE_DEV_DEBUG=false CARGO_PROFILE_TEST_DEBUG=false
common=(--dir "$tree" --package fleetplan --test-package fleetplan --test-package fleetplan-tests
    --jobs 1 --cap-lints true --minimum-test-timeout 60 --timeout-multiplier 4 --build-timeout-multiplier 4
    --no-times --colors never)

list_counts() {
    cargo mutants "${common[@]}" "${file_args[@]}" "$@" --list |
        awk "$awk_module"'{ n[module($0)]++; t++ }
            END { for (m in n) printf "%-10s %5d\n", m, n[m]; printf "%-10s %5d\n", "total", t }' |
        sort -k1,1
}

# A 1-in-N sample that stays the same mutants while the code around them moves: a mutant is chosen by a
# seeded hash of its file, its description and which occurrence of that pair it is, never its line.
sample_names() {
    cargo mutants "${common[@]}" "${file_args[@]}" --list | awk -v n="$1" -v seed="$2" '
        BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i; p = 2147483647 }
        {
            match($0, /^[^:]+:[0-9]+:[0-9]+: /)
            key = substr($0, 1, index($0, ":") - 1) ": " substr($0, RLENGTH + 1)
            key = key " #" (++seen[key])
            h = (seed * 7919 + 1) % p
            for (i = 1; i <= length(key); i++) h = (h * 131 + ord[substr(key, i, 1)]) % p
            for (r = 0; r < 3; r++) h = (h * 48271) % p
            if (h % n == 0) print
        }'
}

report() {
    local out="$1" title="$2" started="$3" status="$4" mo="$1/mutants.out"
    local elapsed=$(($(date +%s) - started))
    {
        echo "# Mutation testing: $title"
        echo
        echo "Tree: $tree at $(cat "$out/commit" 2>/dev/null || echo '?') when the run started," \
            "cargo-mutants $(cargo mutants --version | awk '{print $2}'), wall time ${elapsed}s, exit $status."
        echo
        for kind in caught missed timeout unviable; do
            if [ -f "$mo/$kind.txt" ]; then sed "s/^/$kind\t/" "$mo/$kind.txt"; fi
        done | awk -F '\t' -v planned="$(cat "$out/planned" 2>/dev/null || echo 0)" "$awk_module"'
            function wilson(k, n,  p, z, c, h) {
                if (n == 0) return "-"
                p = k / n; z = 1.96; c = (p + z * z / (2 * n)) / (1 + z * z / n)
                h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
                return sprintf("%.0f-%.0f%%", 100 * (c - h), 100 * (c + h))
            }
            function row(m,  v, s) {
                v = c[m, "caught"] + c[m, "missed"] + c[m, "timeout"]
                s = v ? sprintf("%.0f%%", 100 * (c[m, "caught"] + c[m, "timeout"]) / v) : "-"
                printf "| %s | %d | %d | %d | %d | %d | %s | %s |\n", m, c[m, "caught"], c[m, "missed"],
                    c[m, "timeout"], c[m, "unviable"], v, s, wilson(c[m, "caught"] + c[m, "timeout"], v)
            }
            { m = module($2); c[m, $1]++; c["all", $1]++; mods[m] = 1; tested++ }
            END {
                print "| module | caught | missed | timeout | unviable | viable | detected | 95% interval |"
                print "|---|---|---|---|---|---|---|---|"
                k = 0; for (m in mods) names[++k] = m
                for (i = 2; i <= k; i++) for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
                    t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
                }
                for (i = 1; i <= k; i++) row(names[i])
                row("all")
                printf "\n%d of %d planned mutants tested.\n", tested, planned
            }'
        echo
        echo "Detected = (caught + timeout) / viable, where viable = caught + missed + timeout; the interval is"
        echo "Wilson's 95% score interval for the detected fraction (meaningful for samples)."
        if [ -s "$mo/missed.txt" ]; then
            echo
            echo "## Missed"
            echo
            sed 's/^/- /' "$mo/missed.txt"
        fi
        if [ -s "$mo/timeout.txt" ]; then
            echo
            echo "## Timeouts"
            echo
            sed 's/^/- /' "$mo/timeout.txt"
        fi
    } >"$out/report.md"
    echo "mutants: report in $out/report.md"
}

# Runs cargo-mutants with the selection in "$@", stopped after MUTANTS_BUDGET seconds when set.
run() {
    local out="$1" title="$2"
    shift 2
    mkdir -p "$out"
    # What was tested: the commit checked out when the run starts (cargo-mutants copies the tree then;
    # commits made while it runs are not in it), and whether uncommitted changes were tested with it.
    {
        git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo '?'
        if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
            echo ' with uncommitted changes'
        fi
    } | tr -d '\n' >"$out/commit"
    cargo mutants "${common[@]}" "$@" --list | wc -l | tr -d ' ' >"$out/planned"
    echo "mutants: $title: $(cat "$out/planned") mutants; results in $out"
    local started status=0 limit=()
    started=$(date +%s)
    [ -n "${MUTANTS_BUDGET:-}" ] && limit=(timeout --signal=INT --kill-after=120 "$MUTANTS_BUDGET")
    local order=()
    [ "${MUTANTS_SHUFFLE:-}" = 1 ] && order=(--shuffle)
    "${limit[@]}" nice -n "${MUTANTS_NICE:-15}" cargo mutants "${common[@]}" "${order[@]}" "$@" --output "$out" || status=$?
    # 2 = some mutants missed, 3 = some timed out: results, not failures of the run.
    report "$out" "$title" "$started" "$status"
    case "$status" in 0 | 2 | 3) ;; 124 | 130) echo "mutants: budget of ${MUTANTS_BUDGET}s reached" ;; *) exit "$status" ;; esac
    [ "$status" = 0 ]
}

case "$mode" in
    list)
        select_modules ${@:-$all_modules}
        list_counts
        ;;
    diff)
        base_ref="${1:-main}"
        base="$(git -C "$tree" merge-base "$base_ref" HEAD)"
        out="${MUTANTS_OUT:-$root/target/mutants/diff}"
        mkdir -p "$out"
        # The working tree against the merge-base: committed and uncommitted changes alike.
        git -C "$tree" diff "$base" -- core/src >"$out/change.diff"
        select_modules $all_modules
        if ! cargo mutants "${common[@]}" "${file_args[@]}" --in-diff "$out/change.diff" --list | grep -q .; then
            echo "mutants: no mutants in the rule modules' lines changed since $(git -C "$tree" rev-parse --short "$base")"
            exit 0
        fi
        run "$out" "lines changed since $base_ref ($(git -C "$tree" rev-parse --short "$base"))" \
            "${file_args[@]}" --in-diff "$out/change.diff"
        ;;
    sample)
        n="${1:-10}" seed="${2:-1}"
        out="${MUTANTS_OUT:-$root/target/mutants/sample-$n-$seed}"
        mkdir -p "$out"
        select_modules $all_modules
        sample_names "$n" "$seed" >"$out/sample.txt"
        res=()
        while IFS= read -r name; do
            res+=(--re "^$(printf '%s' "$name" | sed 's/[][\\.+*?(){}|^$]/\\&/g')\$")
        done <"$out/sample.txt"
        # cargo-mutants 27.1 applies --re to every mutant but field deletions, which it always keeps: the
        # sample is the names in sample.txt plus the few field deletions of these files.
        run "$out" "1-in-$n sample (seed $seed) of the rule modules" "${file_args[@]}" "${res[@]}"
        ;;
    again)
        [ -f "${1:-}" ] || usage
        out="${MUTANTS_OUT:-$root/target/mutants/again}"
        mkdir -p "$out"
        select_modules $all_modules
        # Same file and description, any line: "core/src/x.rs:12:5: replace a with b" → "core/src/x.rs:[0-9]+:[0-9]+: …".
        sed -E 's/^([^:]+):[0-9]+:[0-9]+: (.*)$/\1\t\2/' "$1" | sort -u >"$out/wanted.txt"
        res=()
        while IFS=$'\t' read -r file desc; do
            res+=(--re "^$(printf '%s' "$file" | sed 's/[][\\.+*?(){}|^$]/\\&/g'):[0-9]+:[0-9]+: $(printf '%s' "$desc" | sed 's/[][\\.+*?(){}|^$]/\\&/g')\$")
        done <"$out/wanted.txt"
        run "$out" "the $(wc -l <"$out/wanted.txt") mutants of $1 again" "${file_args[@]}" "${res[@]}"
        ;;
    full)
        modules="${*:-$all_modules}"
        out="${MUTANTS_OUT:-$root/target/mutants/full-${modules// /-}}"
        select_modules $modules
        run "$out" "every mutant of $modules" "${file_args[@]}"
        ;;
    *) usage ;;
esac
