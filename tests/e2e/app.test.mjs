// End-to-end test of the built browser app (dist/, from `trunk build --release`) in Debian's Chromium,
// driven by playwright-core. Run by scripts/test.sh as `node --test tests/e2e/`; screenshots and measured
// numbers go to target/e2e/. No browser is downloaded: /usr/bin/chromium is the browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import zlib from "node:zlib";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dist = path.resolve(process.env.FLEETPLAN_DIST || path.join(root, "dist"));
const out = path.join(root, "target", "e2e");
const HOUR = 3_600_000;

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
};

let server;
let base;
let browser;
const metrics = {};

/** Serves dist/ on 127.0.0.1 at a free port: static files only, index.html for the root. */
function serve() {
  return new Promise((resolve) => {
    const s = http.createServer((req, res) => {
      const url = new URL(req.url, "http://127.0.0.1");
      if (url.pathname === "/api-example.html") {
        res.writeHead(200, { "content-type": TYPES[".html"] }).end(apiPage());
        return;
      }
      const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
      const file = path.join(dist, rel);
      if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        res.writeHead(404).end("not found");
        return;
      }
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
      fs.createReadStream(file).pipe(res);
    });
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
}

/** The README's minimal page using the JavaScript API, with the staged example inlined. */
function apiPage() {
  const scenario = fs.readFileSync(path.join(root, "examples", "staged.yaml"), "utf8");
  return `<!doctype html>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
<body data-fleetplan="api">
  <p id="end"></p>
  <div id="chart" style="height: 420px"></div>
  <script type="module">
    import init, { plan, drawChart } from "./fleetplan-web.js";
    await init();
    const scenario = ${JSON.stringify(scenario)};
    const result = plan(scenario);
    document.getElementById("end").textContent = result.plan.end;
    document.getElementById("end").dataset.stages = result.plan.stages.map((s) => s.name).join(",");
    drawChart(document.getElementById("chart"), scenario);
  </script>
</body>`;
}

/** A scenario of `count` generated clusters in four rings; `wait` is ring0's soak. */
function generated(count, wait = "1h") {
  return `name: generated-fleet
start: 2026-11-23T09:00:00Z
generate:
  - count: ${count}
    name: "c-{i:05}"
    labels:
      ring: {values: ["0", "1", "2", "3"], spread: blocks}
strategy:
  kind: kubefleet-staged
  name: rings
  stages:
    - name: ring0
      labelSelector: "ring=0"
      maxConcurrency: "10%"
      afterStageTasks: [{type: TimedWait, waitTime: ${wait}}]
    - name: ring1
      labelSelector: "ring=1"
      maxConcurrency: "10%"
      afterStageTasks: [{type: TimedWait, waitTime: 1h}]
    - name: ring2
      labelSelector: "ring=2"
      maxConcurrency: "20%"
    - name: ring3
      labelSelector: "ring=3"
      maxConcurrency: "20%"
  run: rings-run
  placement: fleet-app
assumptions:
  updateDuration: 3m
`;
}

async function newPage() {
  // A fresh context per scenario step: no localStorage, no cache shared with the previous page.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  // Time to first chart: when the first bar of the chart enters the DOM, from navigation start.
  await page.addInitScript(() => {
    const seen = () => {
      if (!window.__firstChart && document.querySelector("svg.rows rect.bar")) {
        window.__firstChart = performance.now();
      }
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
  return { context, page, errors };
}

async function endTime(page) {
  const el = page.locator('[data-testid="plan-end"]').first();
  await el.waitFor();
  return el.getAttribute("data-time");
}

async function waitForEndChange(page, old) {
  await page.waitForFunction(
    (o) => {
      const t = document.querySelector('[data-testid="plan-end"]')?.getAttribute("data-time");
      return t && t !== o;
    },
    old,
    { timeout: 20_000 },
  );
  return endTime(page);
}

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, "index.html")), `no built app in ${dist}: run trunk build --release`);
  fs.mkdirSync(out, { recursive: true });
  // The release bundle's transfer size: wasm and JS glue, gzip level 9.
  const bundle = fs.readdirSync(dist).filter((f) => /\.(wasm|js)$/.test(f));
  metrics.bundleRawBytes = bundle.reduce((n, f) => n + fs.statSync(path.join(dist, f)).size, 0);
  metrics.bundleGzipBytes = bundle.reduce(
    (n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length,
    0,
  );
  server = await serve();
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
  fs.writeFileSync(path.join(out, "metrics.json"), JSON.stringify(metrics, null, 2) + "\n");
  console.log("e2e metrics:", JSON.stringify(metrics));
});

test("edit, share, embed and a damaged link, as a person would", async () => {
  // Load: the example's three stages are charted.
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  metrics.firstChartMs = Math.round(await page.evaluate(() => window.__firstChart));
  const stages = await page.locator("g.row-stage text.label").allTextContents();
  assert.deepEqual(
    stages.map((s) => s.replace(/^[▾▸]\s*/, "")),
    ["staging", "canary", "production"],
  );
  const before = await endTime(page);
  assert.equal(before, "2026-11-23T12:15:00Z");
  await page.screenshot({ path: path.join(out, "app.png") });

  // The form tab shows the same scenario as fields, with each stage's selection from the plan.
  await page.locator('[data-testid="tab-form"]').click();
  await page.locator('[data-testid="selects"]').first().waitFor();
  assert.match(await page.locator('[data-testid="selects"]').nth(2).textContent(), /^selects 5 clusters: member3/);
  await page.screenshot({ path: path.join(out, "form.png") });
  await page.locator('[data-testid="tab-yaml"]').click();

  // Edit: staging's TimedWait 1h → 3h moves the end by two hours.
  const yaml = page.locator('[data-testid="yaml"]');
  const text = await yaml.inputValue();
  const edited = text.replace(/waitTime: 1h/, "waitTime: 3h");
  assert.notEqual(edited, text);
  await yaml.fill(edited);
  const after = await waitForEndChange(page, before);
  assert.equal(Date.parse(after) - Date.parse(before), 2 * HOUR, `${before} → ${after}`);
  await page.screenshot({ path: path.join(out, "edited.png") });

  // Playback: the timer moves the cursor; the snapshot says what the run is doing then.
  await page.locator('[data-testid="play"]').click();
  await page.locator('[data-testid="snapshot"]').waitFor();
  await page.waitForTimeout(1500);
  await page.locator('[data-testid="play"]').click();
  assert.match(await page.locator('[data-testid="snapshot"]').textContent(), /\d+ done · \d+ updating/);
  await page.screenshot({ path: path.join(out, "playback.png") });

  // Invalid text: the last chart stays, marked stale, with a located error.
  await yaml.fill(edited + "\n  - {broken: [\n");
  await page.locator('[data-testid="stale-note"]').waitFor();
  const diag = await page.locator(".diag-error .diag-place").first().textContent();
  assert.match(diag, /^\d+:\d+$/);
  assert.equal(await endTime(page), after);
  await page.screenshot({ path: path.join(out, "stale.png") });
  await yaml.fill(edited);
  await page.locator('[data-testid="stale-note"]').waitFor({ state: "detached" });

  // Share: the link opens the same plan in a fresh browser context.
  await page.locator('[data-testid="copy-link"]').click();
  const link = await page.locator('[data-testid="share-link"]').inputValue();
  assert.match(link, /#s=1\./);
  const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
  assert.match(snippet, /^<iframe src="[^"]*\?embed=1#s=1\./);

  // Autosave: the base address (no fragment) in the same context restores the edit.
  const again = await context.newPage();
  await again.goto(base);
  await again.locator("svg.rows rect.bar").first().waitFor();
  assert.equal(await endTime(again), after);
  assert.match(await again.locator('[data-testid="yaml"]').inputValue(), /waitTime: 3h/);
  await again.close();

  const fresh = await newPage();
  await fresh.page.goto(link);
  await fresh.page.locator("svg.rows rect.bar").first().waitFor();
  assert.equal(await endTime(fresh.page), after);
  assert.equal(await fresh.page.locator('[data-testid="yaml"]').inputValue(), edited);
  await fresh.page.screenshot({ path: path.join(out, "shared.png") });
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();

  // Embed: the chart alone, no editor, same plan.
  const embed = await newPage();
  await embed.page.goto(link.replace("#", "?embed=1#"));
  await embed.page.locator("svg.rows rect.bar").first().waitFor();
  assert.equal(await embed.page.locator('[data-testid="yaml"]').count(), 0);
  assert.equal(await embed.page.locator('[data-testid="copy-link"]').count(), 0);
  assert.equal(await endTime(embed.page), after);
  await embed.page.screenshot({ path: path.join(out, "embed.png") });
  await embed.context.close();

  // A damaged link: a clear message and the example, not a blank page.
  const bad = await newPage();
  await bad.page.goto(base + "#s=1.this-is-not-a-scenario!!");
  const banner = bad.page.locator('[data-testid="banner"]');
  await banner.waitFor();
  assert.match(await banner.textContent(), /could not be opened/);
  await bad.page.locator("svg.rows rect.bar").first().waitFor();
  assert.equal(await endTime(bad.page), before);
  await bad.page.screenshot({ path: path.join(out, "bad-link.png") });
  // A cut link (the tail lost in a chat tool) is also explained.
  const cut = await bad.context.newPage();
  await cut.goto(link.slice(0, link.length - 12));
  await cut.locator('[data-testid="banner"]').waitFor();
  assert.match(await cut.locator('[data-testid="banner"]').textContent(), /could not be opened/);
  assert.deepEqual(bad.errors, []);
  await bad.context.close();

  assert.deepEqual(errors, []);
  await context.close();
});

test("10,000 clusters stay under 3,000 DOM elements; a 1,000-cluster edit re-plans quickly", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  const yaml = page.locator('[data-testid="yaml"]');

  // 10,000 clusters: only the rows in view are in the DOM, also after scrolling to the middle.
  let old = await endTime(page);
  await yaml.fill(generated(10_000));
  old = await waitForEndChange(page, old);
  const count = () => page.evaluate(() => document.getElementsByTagName("*").length);
  const top = await count();
  await page.locator(".chart-body").evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await page.waitForFunction(() => [...document.querySelectorAll("g.row-cluster")].some((g) => /c-0[45]\d{3}/.test(g.dataset.row)));
  const middle = await count();
  metrics.domElements10k = Math.max(top, middle);
  await page.screenshot({ path: path.join(out, "large.png") });
  // Zooming lays out all 10,000 rows again (bars culled to the window): from the click to the next frame.
  metrics.zoom10kMs = Math.round(
    await page.evaluate(async () => {
      const t0 = performance.now();
      document.querySelector('.chart-toolbar button[title^="zoom in"]').click();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - t0;
    }),
  );
  assert.ok(metrics.domElements10k < 3000, `DOM elements: ${top} at the top, ${middle} in the middle`);

  // 1,000 clusters: from the edit being committed (change event, no debounce) to the redrawn end time.
  // (Another soak than the 10,000 fleet's: with percentage concurrency both would end at the same time.)
  await yaml.fill(generated(1_000, "30m"));
  old = await waitForEndChange(page, old);
  const timings = [];
  for (const wait of ["2h", "3h", "4h", "5h", "6h"]) {
    const ms = await page.evaluate(async ({ text, previous }) => {
      const ta = document.querySelector('[data-testid="yaml"]');
      const t0 = performance.now();
      ta.value = text;
      ta.dispatchEvent(new Event("input", { bubbles: true }));
      ta.dispatchEvent(new Event("change", { bubbles: true }));
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = document.querySelector('[data-testid="plan-end"]')?.getAttribute("data-time");
        if (now && now !== previous) return performance.now() - t0;
      }
    }, { text: generated(1_000, wait), previous: old });
    old = await endTime(page);
    timings.push(ms);
  }
  timings.sort((a, b) => a - b);
  metrics.replanRedraw1kMedianMs = Math.round(timings[Math.floor(timings.length / 2)]);
  metrics.replanOnly1kMs = Number(await page.locator('[data-testid="summary"]').getAttribute("data-replan-ms"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("the JavaScript API plans a scenario and draws a read-only chart into an element", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base + "api-example.html");
  await page.locator("#chart svg.rows rect.bar").first().waitFor();
  assert.equal(await page.locator("#end").textContent(), "2026-11-23T12:15:00Z");
  assert.equal(await page.locator("#end").getAttribute("data-stages"), "staging,canary,production");
  assert.equal(await page.locator("textarea").count(), 0, "the module mounted no app of its own");
  assert.equal(await page.locator("#chart g.row-stage").count(), 3);
  await page.screenshot({ path: path.join(out, "api.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("every export downloads, names escaped, and the PNG is a picture", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  // A cluster named like markup must stay text in every export.
  const yaml = page.locator('[data-testid="yaml"]');
  const old = await endTime(page);
  await yaml.fill((await yaml.inputValue()).replace("name: member1", 'name: "<b>member1</b>"'));
  await page.waitForFunction(() => document.querySelector('g.row-cluster[data-row="<b>member1</b>"]'));
  assert.equal(await endTime(page), old);
  const files = {};
  for (const format of ["yaml", "json", "csv", "mermaid", "svg", "png"]) {
    await page.locator(".export-menu summary").click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator(`[data-testid="export-${format}"]`).click(),
    ]);
    const file = path.join(out, `export-${download.suggestedFilename()}`);
    await download.saveAs(file);
    files[format] = fs.readFileSync(file);
  }
  assert.match(files.yaml.toString(), /<b>member1<\/b>/, "the scenario is the text as typed");
  assert.equal(JSON.parse(files.json.toString()).end, old);
  assert.match(files.csv.toString(), /^stage,cluster,kind,start,end/);
  assert.match(files.mermaid.toString(), /gantt/);
  assert.ok(!files.mermaid.toString().includes("<b>"), "Mermaid text is escaped");
  assert.match(files.svg.toString(), /^<svg[^>]*xmlns/);
  assert.ok(!files.svg.toString().includes("<b>"), "SVG text is escaped");
  assert.ok(files.svg.toString().includes("&lt;b&gt;member1"));
  assert.deepEqual([...files.png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(files.png.length > 5_000, `PNG of ${files.png.length} bytes`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the gallery opens real KubeFleet objects, which plan like the scenario they mirror", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  const staged = await endTime(page);
  await page.selectOption('[data-testid="examples"]', "kubefleet-manifests");
  await page.waitForFunction(() => /kind: ClusterStagedUpdateRun/.test(document.querySelector('[data-testid="yaml"]').value));
  await page.locator('.diagnostics p.ok').waitFor();
  assert.equal(await endTime(page), staged);
  // Undo goes back to the example that was open before.
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => !/ClusterStagedUpdateRun/.test(document.querySelector('[data-testid="yaml"]').value));
  assert.deepEqual(errors, []);
  await context.close();
});

/** Opens a built-in example from the gallery and waits for its chart. */
async function openExample(page, name) {
  await page.selectOption('[data-testid="examples"]', name);
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="summary"] .run-name') && document.querySelector("svg.rows rect.bar"),
    name,
  );
}

/** x extents of the bars matching `selector`, from their SVG attributes. */
async function extents(page, selector) {
  return page.locator(selector).evaluateAll((els) =>
    els.map((e) => [Number(e.getAttribute("x")), Number(e.getAttribute("x")) + Number(e.getAttribute("width"))]),
  );
}

test("GKE: the bank's five stages, soaks, control-plane and node bars, hatched window waits, version reach", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await openExample(page, "gke-bank");
  await page.locator("rect.bar-control-plane").first().waitFor();
  const stages = await page.locator("g.row-stage text.label").allTextContents();
  assert.equal(stages.length, 5, stages.join(" | "));
  for (const kind of ["control-plane", "node", "soaking", "window-wait"]) {
    assert.ok((await page.locator(`rect.bar-${kind}`).count()) > 0, `no ${kind} bars`);
  }
  // Window waits are hatched: their fill is the SVG pattern, not a colour.
  const fill = await page.locator("rect.bar-window-wait").first().evaluate((e) => getComputedStyle(e).fill);
  assert.match(fill, /url\(.*#hatch-window/);
  // Control plane and nodes of one cluster overlap: they share the row in two lanes.
  const lanes = await page.locator('g.row-cluster[data-row="prod-west-1"] rect.bar-node').evaluateAll((els) => els.map((e) => Number(e.getAttribute("height"))));
  assert.ok(lanes.length > 0);
  // The summary answers "when does the version reach every production cluster?".
  const reach = await page.locator('[data-testid="version-reach"]').allTextContents();
  assert.ok(reach.some((t) => /1\.31\.5-gke\.1200000 reaches every cluster of fleet production \(6\) at Sat 12 Dec 2026/.test(t)), reach.join("\n"));
  // prod-east-2 opens its window on Saturdays only: it waits, hatched, until a Saturday.
  const wait = page.locator('g.row-cluster[data-row="prod-east-2"] rect.bar-window-wait').first();
  await wait.waitFor();
  const title = await wait.locator("title").textContent();
  const until = title.match(/→ (\S+)/)[1];
  assert.equal(new Date(until).getUTCDay(), 6, `prod-east-2 waits until ${until}`);
  await page.screenshot({ path: path.join(out, "gke-bank.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("GKE: a second version released mid-rollout pipelines behind the first", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await openExample(page, "gke-pipelining");
  await page.locator("rect.bar-control-plane.v1").first().waitFor();
  assert.equal(await page.locator('[data-testid="legend-version"]').count(), 2);
  // The first stage starts the second version (v1) while a later stage still runs the first (v0).
  const v0 = await extents(page, 'g.row-stage rect.v0:not(.bar-soaking)');
  const v1 = await extents(page, 'g.row-stage rect.v1:not(.bar-soaking)');
  const lastV0End = Math.max(...v0.map((e) => e[1]));
  const firstV1Start = Math.min(...v1.map((e) => e[0]));
  assert.ok(firstV1Start < lastV0End, `v1 starts at x=${firstV1Start}, v0 ends at x=${lastV0End}`);
  await page.screenshot({ path: path.join(out, "gke-pipelining.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("rolling updates: the bad image stalls; moving west to east never breaks the availability budget", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await openExample(page, "rolling-bad-image");
  const stall = page.locator('[data-testid="stall"]');
  await stall.waitFor();
  assert.match(await stall.textContent(), /wait forever/);
  assert.equal(await endTime(page), "never");
  const strip = page.locator('[data-testid="availability"]');
  await strip.waitFor();
  assert.ok(Number(await strip.getAttribute("data-lowest")) >= Number(await strip.getAttribute("data-budget")));
  await page.screenshot({ path: path.join(out, "rolling-bad-image.png"), fullPage: true });

  await openExample(page, "rolling-move-west-east");
  await page.waitForFunction(() => !document.querySelector('[data-testid="stall"]'));
  assert.notEqual(await endTime(page), "never");
  await strip.waitFor();
  const lowest = Number(await strip.getAttribute("data-lowest"));
  const budget = Number(await strip.getAttribute("data-budget"));
  assert.ok(lowest >= budget, `lowest ${lowest} under the budget ${budget}`);
  // Drawn: the line's every point lies on or above the budget line (smaller y is higher).
  const ok = await strip.evaluate((svg) => {
    const budgetY = Number(svg.querySelector(".avail-budget").getAttribute("y1"));
    const pts = svg.querySelector(".avail-line").getAttribute("points").trim().split(/\s+/);
    return pts.every((p) => Number(p.split(",")[1]) <= budgetY + 0.01);
  });
  assert.ok(ok, "the availability line dips under the budget");
  for (const kind of ["remove", "add"]) {
    assert.ok((await page.locator(`rect.bar-${kind}`).count()) > 0, `no ${kind} bars`);
  }
  await page.screenshot({ path: path.join(out, "rolling-move.png"), fullPage: true });
  // The form edits the rolling update's settings.
  await page.locator('[data-testid="tab-form"]').click();
  await page.locator('[data-testid="rolling-update-form"] input.max-surge').waitFor();
  await page.screenshot({ path: path.join(out, "rolling-form.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("side by side: the staged example next to a rolling update of the same fleet, on one time axis", async () => {
  const { context, page, errors } = await newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await page.locator('[data-testid="compare-toggle"]').click();
  const table = page.locator('[data-testid="compare-table"]');
  await table.waitFor();
  assert.equal(await page.locator("section.chart").count(), 2);
  const kinds = await table.locator("tbody tr td:first-child").allTextContents();
  assert.deepEqual(kinds, ["kubefleet-staged", "kubefleet-rolling"]);
  assert.match(await page.locator('[data-testid="compare-verdict"]').textContent(), /sooner|same time|never/);
  // One time axis: both charts label the same first day at the same place.
  const firstTicks = await page.locator("svg.axis").evaluateAll((svgs) =>
    svgs.map((s) => [...s.querySelectorAll("text.axis-minor")].map((t) => `${t.getAttribute("x")}:${t.textContent}`).join(",")),
  );
  assert.equal(firstTicks.length, 2);
  assert.equal(firstTicks[0], firstTicks[1]);
  await page.screenshot({ path: path.join(out, "compare.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
