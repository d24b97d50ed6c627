#!/usr/bin/env bash
# The web app's bundle per chunk, raw and gzipped (gzip -9, as servers send it), from the release
# build in dist/ (`trunk build --release --cargo-profile wasm-release --offline`). Prints only; CI
# runs it after that build so every run shows the sizes, per file and per way of opening the app.
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"

if [ ! -d "$dist" ]; then
    echo "bundle-report: no $dist/; build it with: trunk build --release --cargo-profile wasm-release --offline" >&2
    exit 1
fi

echo "web bundle ($dist/, $(date -u +%Y-%m-%d)): bytes per chunk"
printf '%-52s %10s %10s\n' chunk raw gzip
total_raw=0
total_gz=0
while IFS= read -r -d '' file; do
    raw=$(wc -c <"$file")
    gz=$(gzip -9 -c "$file" | wc -c)
    total_raw=$((total_raw + raw))
    total_gz=$((total_gz + gz))
    printf '%-52s %10d %10d\n' "${file#"$dist"/}" "$raw" "$gz"
done < <(find "$dist" -type f -not -path '*/.*' \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \) -print0 | sort -z)
printf '%-52s %10d %10d\n' "total" "$total_raw" "$total_gz"
awk -v g="$total_gz" 'BEGIN { printf "every file together, gzipped: %.1f KB (no view fetches them all)\n", g / 1024 }'
# Grouped by what each way of opening the app fetches (the split parts and the chunks they share).
node scripts/bundle-parts.mjs "$dist" --json target/bundle/parts.json
