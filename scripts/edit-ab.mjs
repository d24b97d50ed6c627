// Pasted 1,000-cluster edits on two builds, their pages alternated in one Chromium (issue 13, goal 4):
// `node scripts/edit-ab.mjs DIST_A DIST_B [staged|rolling|gke] [EDITS] [ROUNDS]` (15 edits, 2 rounds).
// Each edit is the end-to-end test's pasted edit (pasted-edit.mjs), timed to the painted frame that shows
// the new end and, as the test did until 2026-11-28, to the frame callback that first sees it. The two
// pages take turns edit by edit, in alternating order, so a shared machine's load falls on both alike;
// printed: each build's medians and the median of the paired differences B − A.
import path from "node:path";

import { editText, KINDS, launch, openEditor, paste, selectAll } from "./pasted-edit.mjs";
import { serveDist } from "./serve-dist.mjs";

const [distA, distB, kind = "staged", editsArg = "15", roundsArg = "2"] = process.argv.slice(2);
if (!distA || !distB || !KINDS.includes(kind)) {
  console.error("usage: node scripts/edit-ab.mjs DIST_A DIST_B [staged|rolling|gke] [EDITS] [ROUNDS]");
  process.exit(2);
}
const browser = await launch();
const served = await Promise.all([distA, distB].map((d) => serveDist(path.resolve(d))));
const sides = await Promise.all(served.map(async ({ base }) => ({ page: await openEditor(browser, base, kind), i: 1 })));
async function edit(side) {
  const previous = await selectAll(side.page);
  return paste(side.page, editText(kind, side.i++), previous);
}
for (let w = 0; w < 3; w++) for (const s of sides) await edit(s);
const res = [[], []];
for (let r = 0; r < Number(roundsArg); r++) {
  for (let k = 0; k < Number(editsArg); k++) {
    const order = (k + r) % 2 ? [0, 1] : [1, 0];
    for (const i of order) res[i].push(await edit(sides[i]));
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const fmt = (x) => x.toFixed(1).padStart(6);
console.log(`${kind}, ${res[0].length} pasted edits each, ms: seen in a frame callback, painted`);
["A", "B"].forEach((name, i) => console.log(`${name} ${fmt(median(res[i].map((x) => x[0])))} ${fmt(median(res[i].map((x) => x[1])))}  ${[distA, distB][i]}`));
const diff = (j) => median(res[0].map((a, i) => res[1][i][j] - a[j]));
console.log(`B − A, paired: ${fmt(diff(0))} ${fmt(diff(1))}`);
await browser.close();
served.forEach((s) => s.server.close());
