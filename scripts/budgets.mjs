// Checks the browser app's measured figures (target/e2e/metrics.json, written by the end-to-end test)
// against bench/budgets.json, writes the report target/bench/web-report.md and fails on a breach.
// Run by scripts/bench.sh; timing goals live here, never in the tests themselves.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const metricsFile = path.join(root, "target", "e2e", "metrics.json");
const budgets = JSON.parse(fs.readFileSync(path.join(root, "bench", "budgets.json"), "utf8"));
if (!fs.existsSync(metricsFile)) {
  console.error(`budgets: ${path.relative(root, metricsFile)} is missing: run the end-to-end test first (scripts/test.sh)`);
  process.exit(1);
}
const metrics = JSON.parse(fs.readFileSync(metricsFile, "utf8"));
const rows = [];
let breached = 0;
for (const [name, budget] of Object.entries(budgets)) {
  if (name.startsWith("//")) continue;
  const value = metrics[name];
  const ok = typeof value === "number" && value <= budget.max;
  if (!ok) breached++;
  rows.push(`| ${name} | ${value ?? "not measured"} | ${budget.max} | ${ok ? "ok" : "OVER"} | ${budget.what} |`);
}
const report = [
  "# Browser app: measured against budgets",
  "",
  `Measured ${fs.statSync(metricsFile).mtime.toISOString()} by the end-to-end test; budgets in bench/budgets.json.`,
  "",
  "| figure | measured | budget | | what |",
  "|---|---:|---:|---|---|",
  ...rows,
  "",
].join("\n");
fs.mkdirSync(path.join(root, "target", "bench"), { recursive: true });
fs.writeFileSync(path.join(root, "target", "bench", "web-report.md"), report);
console.log(report);
if (breached) {
  console.error(`budgets: ${breached} figure(s) over budget`);
  process.exit(1);
}
