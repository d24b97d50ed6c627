// Where a cold share link's time goes before its first bar (issue 13, goal 4), from a CDP trace of each load.
//
// Usage: node scripts/share-trace.mjs DIST [LOADS]   (LOADS=5; DIST a release build, as cold-share.mjs takes)
//
// Each load is cold-share.mjs's: a fresh context in one Chromium launched as the end-to-end test launches it,
// the e2e test's link (the staged example with staging's waitTime 3h), navigation start to the first
// `svg.rows rect.bar` entering the DOM; traced, so every time is longer than cold-share.mjs reads (compare
// the parts, not the totals). Printed per load, then the medians:
//   - when the page's inline script ran, when style.css, the glue and the main module had arrived (the
//     renderer's last byte of each), when the module's glue ran and when the viewer's task began;
//   - the viewer's task (the module's start through the first chart): its wasm functions compiled on first
//     call, the forced style and layout, and the synchronous font asks inside them (a size and weight's
//     first text asks the browser for the font's file and rendering);
//   - the main thread before the bar: busy and idle time, and the scripts evaluated between the module's
//     glue and the viewer (the harness's own: Playwright evaluates its script when `goto` returns);
//   - the thread's own time (CPU) of the inline script, of the viewer's task and of the main thread before
//     the bar: the page's serial work, which the other processes on the machine do not lengthen.
// A part that moves with the machine's load (every wall-clock part does) needs many loads: read the medians.
import fs from "node:fs";
import path from "node:path";

import { coldPage, launchChromium, median, sharePayload } from "./cold-load.mjs";
import { serveDist } from "./serve-dist.mjs";

const [distArg, loadsArg = "5"] = process.argv.slice(2);
if (!distArg) {
  console.error("usage: node scripts/share-trace.mjs DIST [LOADS]");
  process.exit(2);
}
const payload = sharePayload();
const { server, base } = await serveDist(path.resolve(distArg), "/tools/fleetplan/");
const browser = await launchChromium();
const categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading",
  "v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed", "fonts"];

/** One traced cold load: its trace events and the page's process. */
async function load() {
  const { context, page } = await coldPage(browser);
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__firstChart && document.querySelector("svg.rows rect.bar")) {
        window.__firstChart = performance.now();
        performance.mark("first-bar");
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await browser.startTracing(page, { categories });
  await page.goto(base + "#s=" + payload);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await page.waitForTimeout(50);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  await context.close();
  return events;
}

/** The parts of one load, in ms from navigation start. */
function parts(events) {
  const nav = events.filter((e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL?.startsWith("http")).at(-1);
  const { pid } = nav;
  const t = (us) => (us - nav.ts) / 1000;
  const bar = events.find((e) => e.pid === pid && e.name === "first-bar");
  const threads = events.filter((e) => e.pid === pid && e.ph === "M" && e.name === "thread_name");
  const main = threads.find((e) => e.args.name === "CrRendererMain").tid;
  const onMain = events.filter((e) => e.pid === pid && e.tid === main && e.ph === "X" && e.ts >= nav.ts && e.ts < bar.ts);
  const named = (name) => onMain.filter((e) => e.name === name);
  // The renderer's last byte of each file (by request id: the trace names the URL only when asking).
  const urls = new Map(events.filter((e) => e.pid === pid && e.name === "ResourceSendRequest").map((e) => [e.args.data.requestId, e.args.data.url]));
  const arrived = (file) => {
    const got = events.filter((e) => e.pid === pid && /^Resource(ReceivedData|Finish)$/.test(e.name) && urls.get(e.args.data.requestId)?.endsWith(file));
    return got.length ? t(Math.max(...got.map((e) => e.ts))) : NaN;
  };
  // The page's inline script: evaluated with the page's own address (Playwright's scripts have none).
  const inline = named("EvaluateScript").find((e) => e.args?.data?.url && !e.args.data.url.endsWith(".js"));
  const glue = named("v8.evaluateModule")[0];
  // The viewer's task: the one the first bar is written in.
  const task = events.find((e) => e.pid === pid && e.tid === main && e.ph === "X" && /RunTask$/.test(e.name) && e.ts <= bar.ts && e.ts + e.dur >= bar.ts);
  const inTask = (e) => e.ts >= task.ts && e.ts < bar.ts;
  const sum = (list) => list.reduce((n, e) => n + e.dur / 1000, 0);
  const lazy = named("wasm.CompileLazy").filter(inTask);
  const fonts = events.filter((e) => e.pid === pid && e.tid === main && /GetWebFontRenderStyleForStrike|onMatchFamilyStyle/.test(e.name) && inTask(e));
  // Top-level tasks of the main thread up to the bar, and the gaps between them.
  const tasks = events.filter((e) => e.pid === pid && e.tid === main && e.ph === "X" && /RunTask$/.test(e.name) && e.ts >= nav.ts && e.ts < bar.ts).sort((a, b) => a.ts - b.ts);
  let busy = 0;
  let cpu = 0;
  let end = nav.ts;
  for (const k of tasks) {
    if (k.ts < end) continue;
    busy += Math.min(k.ts + k.dur, bar.ts) - k.ts;
    // The thread's own time (tdur): what the machine's other processes do not lengthen. The viewer's
    // task is cut at the bar by its wall-clock share.
    cpu += (k.tdur ?? k.dur) * Math.min(1, (bar.ts - k.ts) / k.dur);
    end = k.ts + k.dur;
  }
  const between = named("EvaluateScript").filter((e) => glue && e.ts > glue.ts && e.ts < task.ts);
  return {
    "inline script at": inline ? t(inline.ts) : NaN,
    "inline script ms": inline ? inline.dur / 1000 : NaN,
    "- inline CPU ms": inline?.tdur ? inline.tdur / 1000 : NaN,
    "style.css in": arrived("style.css"),
    "glue in": arrived("fleetplan-web.js"),
    "module in": arrived("fleetplan-web_bg.wasm"),
    "glue ran at": glue ? t(glue.ts) : NaN,
    "viewer at": t(task.ts),
    "first bar": t(bar.ts),
    "viewer ms": (bar.ts - task.ts) / 1000,
    "- viewer CPU ms": ((task.tdur ?? task.dur) * Math.min(1, (bar.ts - task.ts) / task.dur)) / 1000,
    "- compiled on call": lazy.length,
    "- their compile ms": sum(lazy),
    "- style ms": sum(named("UpdateLayoutTree").filter(inTask)),
    "- layout ms": sum(named("Layout").filter(inTask)),
    "- font asks": fonts.length,
    "- font asks ms": sum(fonts),
    "main thread busy ms": busy / 1000,
    "main thread idle ms": (bar.ts - nav.ts - busy) / 1000,
    "main thread CPU ms": cpu / 1000,
    "scripts before viewer ms": sum(between),
  };
}

const rows = [];
for (let i = 0; i < Number(loadsArg); i++) rows.push(parts(await load()));
await browser.close();
server.close();
const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1)).padStart(7);
console.log(`${path.resolve(distArg)}, ${rows.length} traced loads; load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
for (const k of Object.keys(rows[0])) console.log(k.padEnd(26), rows.map((r) => fmt(r[k])).join(""), "  median", fmt(median(rows.map((r) => r[k]))));
