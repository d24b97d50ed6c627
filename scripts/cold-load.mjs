// What the cold share-link scripts share (cold-share.mjs times the loads, share-trace.mjs traces them):
// the end-to-end test's link, Chromium launched as the end-to-end test launches it, a fresh context per
// load (nothing cached), and the median their figures are read by.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The link's fragment after `#s=`: the staged example with staging's waitTime 3h, as the e2e test shares it. */
export function sharePayload() {
  const text = fs.readFileSync(path.join(root, "examples", "staged.yaml"), "utf8").replace(/waitTime: 1h/, "waitTime: 3h");
  return "1." + zlib.deflateSync(Buffer.from(text), { level: 9 }).toString("base64url");
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** A page in a context of its own, as a first visit sees the app. */
export async function coldPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: "UTC" });
  return { context, page: await context.newPage() };
}

/** The median of the numbers among `xs` (a part a load did not show is NaN and left out). */
export function median(xs) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
