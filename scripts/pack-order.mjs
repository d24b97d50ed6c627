//! The order in which the app asks for its on-demand parts, as scripts/wasm-pack.mjs packs by it and the
//! end-to-end test (tests/e2e/app.test.mjs) checks it in every view it opens.

/**
 * The parts that are asked for only by code that other parts bring, and the parts whose code asks for
 * them (web/src; a part follows another when each of its askers is that part or follows it): the app's
 * Planner (app_kit, lib.rs) asks for the workbench (bench_kit), the kinds' parts and, after an edit, the
 * memo part (kinds.rs), a live status's part (status_view.rs) and, with the embed caption (summary.rs), the share codec, which the
 * workbench (workbench.rs, header.rs) asks for too, with the form, the comparison, the menus, the
 * examples' texts and the exports. A part not named here (app_kit, planner_kit: the JavaScript API's
 * plan() needs no app) counts as one any view may load first. Naming a part here that some view loads
 * earlier would make that view download the whole pack of the part it is said to follow: the e2e fails
 * when a part is asked for before any of the parts named for it ([`outOfOrder`]).
 */
export const AFTER = {
  bench_kit: ["app_kit"],
  gke_part: ["app_kit"],
  manifests_part: ["app_kit"],
  yaml_part: ["app_kit"],
  rolling_part: ["app_kit"],
  memo_part: ["app_kit"],
  live_kit: ["app_kit"],
  share_kit: ["app_kit", "bench_kit"],
  form_kit: ["bench_kit"],
  compare_kit: ["bench_kit"],
  menus: ["bench_kit"],
  example_texts: ["bench_kit"],
  exports_kit: ["bench_kit"],
};

/**
 * Why `part`, asked for after the parts `asked` (in the order a page asked for them), breaks `AFTER`:
 * none of the parts whose code asks for it was asked for first. `null` when it keeps to the table.
 */
export function outOfOrder(part, asked, after = AFTER) {
  const askers = after[part] || [];
  if (askers.length === 0 || askers.some((p) => asked.includes(p))) return null;
  return `part ${part} was asked for before any of ${askers.join(", ")} (asked so far: ${asked.join(", ") || "none"}), `
    + "so its view downloads the packs of parts it does not use: scripts/pack-order.mjs's AFTER says otherwise";
}
