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

// Live projection: a staged run's JSON status read and projected (issue 11's budgets: 10,000 clusters
// within 1.5× the native time; 1,000 Monte Carlo samples of 1,000 clusters under 1 s).
const bench = require(path.resolve(modulePath));
if (bench.live_status) {
  console.log();
  console.log("live status (wasm)");
  console.log(`${pad("clusters", 9)} ${pad("samples", 8)} ${pad("median ms", 10)}`);
  for (const [clusters, samples] of [[10000, 0], [1000, 1000]]) {
    const text = bench.live_status(clusters);
    bench.live_project(text, samples);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      bench.live_project(text, samples);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`${pad(clusters, 9)} ${pad(samples, 8)} ${pad(times[Math.floor(RUNS / 2)].toFixed(1), 10)}`);
  }
}
