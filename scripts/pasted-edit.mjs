// The end-to-end test's pasted 1,000-cluster edit, for the scripts that time or trace it (edit-trace.mjs,
// edit-ab.mjs): the texts it pastes, a page opened on a build, and one edit timed to its painted frame.
import { chromium } from "playwright-core";

import { generated, generatedGke, generatedRolling } from "../tests/e2e/fleets.mjs";

export const KINDS = ["staged", "rolling", "gke"];

/** The `i`th text of a kind's edits: each moves the run's end (a longer soak or update). */
export function editText(kind, i) {
  return {
    staged: () => generated(1000, `${i + 1}h`),
    rolling: () => generatedRolling(1000, `${(i % 50) + 3}m`),
    gke: () => generatedGke(1000, `${(i % 20) + 1}d`),
  }[kind]();
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
}

/** A page on the app at `base`, its editing side loaded, holding the kind's first text. */
export async function openEditor(browser, base, kind) {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: "UTC" })).newPage();
  await page.goto(base);
  await page.locator("svg.rows rect.bar").first().waitFor();
  await page.waitForFunction(() => !document.querySelector("[data-viewer]"));
  await installUntilPainted(page);
  const yaml = page.locator('[data-testid="yaml"]');
  const old = await endTime(page);
  await yaml.focus();
  await page.keyboard.press("Control+a");
  await yaml.fill(editText(kind, 0));
  await page.waitForFunction((o) => {
    const t = document.querySelector('[data-testid="plan-end"]')?.getAttribute("data-time");
    return t && t !== o;
  }, old, { timeout: 30_000 });
  return page;
}

export const endTime = (page) => page.locator('[data-testid="plan-end"]').first().getAttribute("data-time");

/** Selects the whole text as the test does (its time is not the edit's). */
export async function selectAll(page) {
  await page.locator('[data-testid="yaml"]').evaluate((ta) => ta.focus({ preventScroll: true }));
  await page.keyboard.press("Control+a");
  return endTime(page);
}

/**
 * Defines `window.fleetplanUntilPainted(previous, t0)` in the page (again after each navigation): it
 * resolves to [ms from `t0` until a frame callback sees an end other than `previous`, ms until that
 * frame is painted]. Painted: a task posted from that callback runs once the frame's other callbacks,
 * style, layout and paint are done. It marks `edit-seen` and `edit-end` for traces, and throws when the
 * end has not changed 20 s after `t0`. The end-to-end test times its edits with it too.
 */
export function installUntilPainted(page) {
  return page.evaluate(() => {
    window.fleetplanUntilPainted = async (previous, t0) => {
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = document.querySelector('[data-testid="plan-end"]')?.getAttribute("data-time");
        if (now && now !== previous) {
          performance.mark("edit-seen");
          const seen = performance.now() - t0;
          await new Promise((r) => {
            const c = new MessageChannel();
            c.port1.onmessage = r;
            c.port2.postMessage(0);
          });
          performance.mark("edit-end");
          return [seen, performance.now() - t0];
        }
        if (performance.now() - t0 > 20_000) throw new Error(`the end stayed ${previous}`);
      }
    };
  });
}

/**
 * Pastes `text` over the selected text and commits it (a `paste` event carrying it, then `change`);
 * resolves to `fleetplanUntilPainted`'s two times (see `installUntilPainted`). Marks `edit-start`.
 */
export function paste(page, text, previous) {
  return page.evaluate(
    ({ text, previous }) => {
      const ta = document.querySelector('[data-testid="yaml"]');
      const data = new DataTransfer();
      data.setData("text/plain", text);
      performance.mark("edit-start");
      const t0 = performance.now();
      ta.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      ta.dispatchEvent(new Event("change", { bubbles: true }));
      return window.fleetplanUntilPainted(previous, t0);
    },
    { text, previous },
  );
}
