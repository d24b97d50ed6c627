// Times the wasm build of the planner in Node: warm-up, then the median of several runs per fleet size.
"use strict";

const path = require("path");
const { performance } = require("perf_hooks");

const SIZES = [[10000, 10], [100000, 10]];
const RUNS = 7;

const modulePath = process.argv[2];
if (!modulePath) {
  console.error("usage: node bench-wasm.cjs <wasm-bindgen nodejs module>");
  process.exit(2);
}
const { plan_fleet } = require(path.resolve(modulePath));

const pad = (v, n) => String(v).padStart(n);
console.log("wasm (Node " + process.version + ")");
console.log(`${pad("clusters", 9)} ${pad("stages", 7)} ${pad("events", 9)} ${pad("median ms", 10)}`);
for (const [clusters, stages] of SIZES) {
  const events = plan_fleet(clusters, stages); // warm-up: compiles hot paths, grows linear memory
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    plan_fleet(clusters, stages);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(RUNS / 2)];
  console.log(`${pad(clusters, 9)} ${pad(stages, 7)} ${pad(events, 9)} ${pad(median.toFixed(1), 10)}`);
}
