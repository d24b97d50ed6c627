// Where a pasted 1,000-cluster edit's time goes in Chromium (issue 13, goal 4), from a trace of each edit.
//
// Usage: node scripts/edit-trace.mjs DIST [staged|rolling|gke] [EDITS]
//   DIST: a release build (`trunk build --release --cargo-profile wasm-release --offline`). For the wasm
//   functions' names, build with FLEETPLAN_WASM_OPT_NAMES=1 (scripts/wasm-opt-hook.sh keeps the name
//   section); the code is the same, only the module is larger.
//   CALLERS=text also lists the app's frames under the first frame whose name contains `text`.
//   TIMELINE=1 also prints the last edit's main-thread events as a tree (start, duration, name; each
//   layout with its dirty and total objects). WITHIN=name keeps only the samples inside events so named,
//   UNDER=text only those with a frame whose name contains `text` on their stack.
//
// Each edit is the end-to-end test's pasted edit (tests/e2e/app.test.mjs: the whole text selected, a
// `paste` event carrying the next text, a `change`, then frames until the summary shows the new end and
// that frame is painted), on the same generated texts (tests/e2e/fleets.mjs), traced on its own.
// Printed: each edit's time
// (tracing makes it slower: read the shares), the renderer main thread's trace events by exclusive time
// (script, style, layout, the markup parser), and the sampling profiler's functions by self time, by time
// under them, and the app's frames by time under them. Times are per edit, averaged over the edits.
import path from "node:path";

import { editText, KINDS, launch, openEditor, paste, selectAll } from "./pasted-edit.mjs";
import { serveDist } from "./serve-dist.mjs";

const [distArg, kind = "gke", editsArg = "10"] = process.argv.slice(2);
if (!distArg || !KINDS.includes(kind)) {
  console.error("usage: node scripts/edit-trace.mjs DIST [staged|rolling|gke] [EDITS]");
  process.exit(2);
}
const edits = Number(editsArg);
const { server, base } = await serveDist(path.resolve(distArg));
const browser = await launch();
const page = await openEditor(browser, base, kind);

const sum = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const phases = new Map();
const selfs = new Map();
const under = new Map();
const app = new Map();
const callers = new Map();
const times = [];
let samples = 0;
const short = (n) => n.replace(/^_ZN/, "").replace(/17h[0-9a-f]{16}E$/, "").replace(/\$u7b\$\$u7b\$closure\$u7d\$\$u7d\$/g, "{closure}").slice(0, 110);

for (let i = 1; i <= edits; i++) {
  const previous = await selectAll(page);
  await browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "blink", "disabled-by-default-v8.cpu_profiler"],
  });
  const [, ms] = await paste(page, editText(kind, i), previous);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  times.push(ms);
  const mark = (name) => events.find((e) => e.name === name);
  const [start, end] = [mark("edit-start"), mark("edit-end")];
  if (!start || !end) throw new Error(`edit ${i}: the trace has no marks`);
  const { pid, tid } = start;
  const [t0, t1] = [start.ts, end.ts];

  // Complete events of the main thread inside the edit, each counted for the time none of its
  // children took.
  const xs = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.ts >= t0 && e.ts < t1);
  xs.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const open = [];
  const own = new Map();
  for (const e of xs) {
    while (open.length && open.at(-1).ts + open.at(-1).dur <= e.ts) open.pop();
    if (open.length) own.set(open.at(-1), own.get(open.at(-1)) - e.dur);
    own.set(e, e.dur);
    open.push(e);
  }
  if (process.env.TIMELINE && i === edits) {
    // The last edit's main-thread events as a tree: where each piece starts, how long it takes.
    const depth = [];
    for (const e of xs) {
      while (depth.length && depth.at(-1).ts + depth.at(-1).dur <= e.ts) depth.pop();
      if ((e.dur >= 100 && depth.length < 4) || e.name === "Layout" || e.name === "UpdateLayoutTree") {
        const what = e.args?.data?.type ?? e.args?.data?.functionName ?? "";
        const stack = e.args?.beginData?.stackTrace?.[0];
        const at = (stack ? ` <- ${stack.functionName || "?"}` : "") + (e.name === "Layout" ? ` ${JSON.stringify(e.args.beginData)} ${JSON.stringify(e.args.endData)}` : "");
        console.log(`${((e.ts - t0) / 1000).toFixed(2).padStart(7)} ${"  ".repeat(depth.length)}${(e.dur / 1000).toFixed(2)} ${e.name}${what ? ` (${what})` : ""}${at}`);
      }
      depth.push(e);
    }
  }
  for (const [e, us] of own) {
    const what = e.args?.data?.type ?? "";
    sum(phases, what && ["EventDispatch", "FunctionCall"].includes(e.name) ? `${e.name} (${what})` : e.name, us / 1000);
  }

  // The sampling profiler's stacks inside the edit.
  const nodes = new Map();
  let ts = null;
  // A minified glue function is named with its place (file:line:column), which finds it.
  const name = (n) => {
    const f = n.callFrame;
    const file = f.url?.split("/").pop();
    if (!f.functionName) return `(${file || "anonymous"})`;
    return f.functionName.length <= 2 && file ? `${f.functionName} ${file}:${f.lineNumber}:${f.columnNumber}` : f.functionName;
  };
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === "Profile") ts = e.args.data.startTime;
    if (e.name !== "ProfileChunk") continue;
    const { cpuProfile = {}, timeDeltas = [] } = e.args.data;
    for (const n of cpuProfile.nodes ?? []) nodes.set(n.id, n);
    (cpuProfile.samples ?? []).forEach((id, j) => {
      ts += timeDeltas[j] ?? 0;
      if (ts < t0 || ts >= t1) return;
      if (process.env.WITHIN) {
        const w = xs.find((e) => e.name === process.env.WITHIN && e.ts <= ts && ts < e.ts + e.dur);
        if (!w) return;
      }
      let n = nodes.get(id);
      if (process.env.UNDER) {
        let m = n;
        while (m && !name(m).includes(process.env.UNDER)) m = nodes.get(m.parent);
        if (!m) return;
      }
      samples++;
      sum(selfs, short(name(n)), 1);
      const seen = new Set();
      let hit = null;
      for (let m = n; m; m = nodes.get(m.parent)) {
        const nm = short(name(m));
        if (seen.has(nm)) continue;
        seen.add(nm);
        sum(under, nm, 1);
        if (/^\d+fleetplan/.test(nm)) sum(app, nm, 1);
        if (!hit && process.env.CALLERS && nm.includes(process.env.CALLERS)) hit = m;
      }
      if (hit) {
        const chain = [];
        for (let q = nodes.get(hit.parent); q && chain.length < 3; q = nodes.get(q.parent)) {
          if (/fleetplan|leptos|reactive|tachys/.test(name(q))) chain.push(short(name(q)));
        }
        sum(callers, chain.join(" < ") || "(no app frame)", 1);
      }
    });
  }
}
await browser.close();
server.close();

const sorted = [...times].sort((a, b) => a - b);
console.log(`${kind}, ${edits} pasted edits, traced: median ${sorted[Math.floor(edits / 2)].toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(" ")})`);
const table = (title, m, unit, n) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(unit === "ms" ? `${(v / edits).toFixed(2).padStart(7)} ms  ${k}` : `${((100 * v) / samples).toFixed(1).padStart(6)} %  ${k}`);
  }
};
table("main thread, trace events by exclusive time, per edit", phases, "ms", 20);
if (!samples) {
  console.log("\n(no profiler samples)");
} else {
  console.log(`\nprofiler: ${samples} samples in the edits`);
  table("functions by self time", selfs, "%", 25);
  table("the app's and the core's functions by time under them", app, "%", 25);
  if (process.env.CALLERS) table(`callers of ${process.env.CALLERS}`, callers, "%", 10);
}
