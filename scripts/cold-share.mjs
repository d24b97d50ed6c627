// Cold loads of a share link, builds alternated: `node scripts/cold-share.mjs DIST_A [DIST_B ...]`
// (ROUNDS=15 by default, one warm-up round dropped). Each load is a fresh browser context (nothing
// cached) in one Chromium launched as the end-to-end test launches it, the link is the e2e test's
// (the staged example with staging's waitTime 3h), and the measure is the e2e's firstChartShareMs:
// navigation start to the first `svg.rows rect.bar` entering the DOM. Also printed: first contentful
// paint and the end of the frame after the bar (a requestAnimationFrame, then a task), so a change
// that only moves work after the bar's insertion shows as such. The builds take turns in each round
// (A B A B ...), in alternating order, so a shared machine's load falls on both alike.
import path from "node:path";

import { coldPage, launchChromium, median, root, sharePayload } from "./cold-load.mjs";
import { serveDist } from "./serve-dist.mjs";

// An argument `quiet:DIR` waits for the page's own console message instead of asking the page (the
// end-to-end test's locator evaluates Playwright's injected script in the page while it loads).
const args = process.argv.slice(2);
if (args.length === 0) args.push(path.join(root, "dist"));
const modes = args.map((a) => (a.startsWith("quiet:") ? "quiet" : "e2e"));
const dists = args.map((a) => path.resolve(a.replace(/^quiet:/, "")));
const rounds = Number(process.env.ROUNDS || 15);
const PREFIX = "/tools/fleetplan/";

const payload = sharePayload();

const served = await Promise.all(dists.map((d) => serveDist(d, PREFIX)));
const servers = served.map((s) => s.server);
const bases = served.map((s) => s.base);
const browser = await launchChromium();

async function load(base, mode) {
  const { context, page } = await coldPage(browser);
  await page.addInitScript(() => {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) if (e.name === "first-contentful-paint") window.__fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
    const seen = () => {
      if (!window.__firstChart && document.querySelector("svg.rows rect.bar")) {
        window.__firstChart = performance.now();
        requestAnimationFrame(() => setTimeout(() => {
          window.__barFrame = performance.now();
          const fcp = () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
          const done = () => console.log("cold-share " + JSON.stringify([window.__firstChart, fcp(), window.__barFrame]));
          if (fcp()) done();
          else new PerformanceObserver(() => fcp() && done()).observe({ type: "paint" });
        }));
      }
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
  let r;
  if (mode === "quiet") {
    const msg = page.waitForEvent("console", (m) => m.text().startsWith("cold-share "));
    await page.goto(base + "#s=" + payload, { waitUntil: "commit" });
    r = JSON.parse((await msg).text().slice("cold-share ".length));
  } else {
    // As the end-to-end test's openApp does.
    await page.goto(base + "#s=" + payload);
    await page.locator("svg.rows rect.bar").first().waitFor();
    await page.waitForFunction(() => window.__barFrame && window.__fcp);
    r = await page.evaluate(() => [window.__firstChart, window.__fcp, window.__barFrame]);
  }
  await context.close();
  return r;
}

const results = dists.map(() => []);
for (let round = 0; round <= rounds; round++) {
  const order = dists.map((_, i) => i);
  if (round % 2) order.reverse();
  for (const i of order) {
    const r = await load(bases[i], modes[i]);
    if (round > 0) results[i].push(r);
  }
}
dists.forEach((d, i) => {
  const col = (k) => results[i].map((r) => r[k]);
  const fmt = (k) => `median ${median(col(k)).toFixed(0)} (${col(k).map((x) => x.toFixed(0)).join(" ")})`;
  console.log(`${args[i]}\n  first bar   ${fmt(0)}\n  FCP         ${fmt(1)}\n  bar's frame ${fmt(2)}`);
});
await browser.close();
servers.forEach((s) => s.close());
