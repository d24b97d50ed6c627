// What each way of opening the app downloads, gzipped: the embed/share view (the main module and its
// glue), the whole app at first load (plus the workbench and its chunks), and each on-demand part on top
// of the app. Reads the split loader (__wasm_split.js) that scripts/wasm-split-hook.sh wrote into dist/
// to know which chunks each part pulls in. Run by scripts/bundle-report.sh; `--json FILE` also writes
// the figures for scripts/budgets.mjs.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dist = path.resolve(process.argv[2] || "dist");
const jsonOut = process.argv[3] === "--json" ? process.argv[4] : null;
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** What the parts are, by the name of their entry (web/src/on_demand.rs users). */
const WHAT = {
  app_kit: "the interactive app: Leptos, the planner's components, the interactive chart (fetched once the viewer's first chart is painted)",
  bench_kit: "workbench: header, YAML editor, diagnostics, undo, share (fetched while the first chart draws)",
  form_kit: "form tab",
  compare_kit: "comparison",
  exports_kit: "exports (YAML, JSON, CSV, Mermaid, SVG, PNG)",
  gke_part: "GKE formats and planners (a GKE text)",
  manifests_part: "KubeFleet objects (a text of MemberClusters, CRPs, runs)",
  rolling_part: "the KubeFleet rolling update's planner (a rolling scenario)",
  memo_part: "an edited text's unchanged clusters list taken from the last reading (the first edit)",
  yaml_part: "the full YAML reader (a text the fast reader gives up on: a typing error, anchors, multi-line scalars)",
  planner_kit: "JavaScript API's plan()",
  share_kit: "the share codec's compressor (the first edit mirrored into the address bar, Copy link, an embed's caption)",
  example_texts: "the examples' texts (one picked from the menu)",
  menus: "what the New and Export menus open, and the share panel (one pointed at, focused or opened)",
  live_kit: "live status: reading and projecting a pasted run status (KubeFleet objects, GKE), its panel and chart layer",
};

const present = (files) => files.filter((f) => fs.existsSync(path.join(dist, f)));
const first = present(["index.html", "style.css", "fleetplan-web.js", "fleetplan-web_bg.wasm", "__wasm_split.js"]);
// Stylesheets the app adds with a part (browser::stylesheet): the editing side's with the app, a live
// status's with its part.
const STYLES = { bench_kit: present(["editor.css"]), live_kit: present(["live.css"]) };
const loader = path.join(dist, "__wasm_split.js");
const parts = new Map();
if (fs.existsSync(loader)) {
  const js = fs.readFileSync(loader, "utf8");
  // As wasm-split-cli writes it, as scripts/wasm-pack.mjs rewrites it or as scripts/minify-hook.sh leaves
  // it (whitespace gone, the declarations joined by commas, names kept). A chunk's load fetches its file
  // (`"./chunk_N.wasm"`), a pack's its pack (`__pack_I = loadPack("./pack_….wasm")`: every module in it);
  // a part's load fetches its own module, unless it is packed, and names the chunks and packs it needs.
  const decls = [...js.matchAll(/(?:\bconst\s+|,\s*)(?:(__chunk_\d+|__pack_\d+)|__wasm_split_load_(\w+?)_\d+)\s*=\s*(?:wrapAsyncCb\()?(?:makeLoad|loadPack)\(/g)];
  const loads = decls.map((m, i) => {
    const body = js.slice(m.index + m[0].length, i + 1 < decls.length ? decls[i + 1].index : js.length);
    const deps = [...body.matchAll(/\[([^\]]*)\]\)/g)].at(-1)?.[1].match(/__(?:chunk|pack)_\d+/g) || [];
    return { chunk: m[1], part: m[2], file: body.match(/"\.\/([^"]+\.wasm)"/)?.[1], deps };
  });
  const chunks = new Map(loads.filter((l) => l.chunk).map((l) => [l.chunk, l.file]));
  for (const l of loads.filter((l) => l.part)) {
    const files = [l.file, ...l.deps.map((c) => chunks.get(c)), ...(STYLES[l.part] || [])];
    parts.set(l.part, [...new Set(files.filter(Boolean))]);
  }
}

const sum = (files) => files.reduce((n, f) => n + gz(f), 0);
const embed = sum(first);
const interactive = [...new Set([...first, ...(parts.get("app_kit") || [])])];
const appFiles = [...new Set([...interactive, ...(parts.get("bench_kit") || [])])];
const app = sum(appFiles);
const rows = [
  ["embed or share-link view: first load (main module, glue, loader, page, CSS)", embed, 200 * 1024],
  ["embed or share-link view once interactive (+ the app's chunk, after the first chart)", sum(interactive), Infinity],
  ["whole app at first load (+ the app's chunk and the workbench)", app, 300 * 1024],
];
console.log(`\nwhat each view downloads, gzip -9 (issue 13 goals: embed ≤ 200 KB, app ≤ 300 KB)`);
for (const [what, n, goal] of rows) console.log(`  ${kb(n).padStart(9)}  ${n <= goal ? "ok  " : "OVER"}  ${what}`);
const onDemand = {};
for (const [name, files] of [...parts].sort()) {
  if (name === "bench_kit" || name === "app_kit") continue;
  const extra = files.filter((f) => !appFiles.includes(f));
  const n = sum(extra);
  onDemand[name] = n;
  console.log(`  ${("+" + kb(n)).padStart(9)}        on demand: ${WHAT[name] || name} (${extra.length} file${extra.length === 1 ? "" : "s"})`);
}
if (jsonOut) {
  fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
  fs.writeFileSync(jsonOut, JSON.stringify({ embedGzipBytes: embed, appGzipBytes: app, onDemandGzipBytes: onDemand }, null, 2) + "\n");
}
