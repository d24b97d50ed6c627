// Screenshots of the built app (dist/) in Debian's Chromium, desktop and phone-sized, to look at before
// landing UI work: `trunk build --offline && node scripts/screenshots.mjs` → target/screenshots/*.png.
// Served under a sub-path, as a docs portal would host it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

import { serveDist } from "./serve-dist.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.resolve(process.env.FLEETPLAN_DIST || path.join(root, "dist"));
const out = path.join(root, "target", "screenshots");
const PREFIX = "/tools/fleetplan/";

fs.mkdirSync(out, { recursive: true });
const { server, base } = await serveDist(dist, PREFIX);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });

const shots = [
  ["desktop", { width: 1400, height: 900 }, ""],
  ["phone", { width: 390, height: 844 }, ""],
  ["desktop-dark", { width: 1400, height: 900 }, "", "dark"],
  ["embed-400", { width: 800, height: 400 }, "?embed=1"],
  ["gke-desktop", { width: 1400, height: 900 }, "", null, "gke-bank"],
  ["no-stage-phone", { width: 390, height: 844 }, "", null, "cluster-in-no-stage"],
];
for (const [name, viewport, query, scheme, example] of shots) {
  const context = await browser.newContext({ viewport, colorScheme: scheme || "light", hasTouch: viewport.width < 500 });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(name, e));
  await page.goto(base + query);
  await page.locator("svg.rows rect.bar").first().waitFor();
  // The viewer draws the first chart; the app's editor comes with its on-demand part (not in an embed).
  if (!query) await page.locator('[data-testid="yaml"]').waitFor({ state: "attached" });
  if (example) {
    await page.selectOption('[data-testid="examples"]', example);
    await page.waitForTimeout(600);
  }
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: !query });
  console.log(path.join(out, `${name}.png`));
  await context.close();
}
await browser.close();
server.close();
