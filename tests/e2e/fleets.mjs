// The end-to-end test's generated 1,000-cluster texts of each kind, shared with scripts/edit-trace.mjs.

/** A scenario of `count` generated clusters in four rings; `wait` is ring0's soak. */
export function generated(count, wait = "1h") {
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

/** A KubeFleet rolling update over `count` clusters; `update` is each cluster's update duration. */
export function generatedRolling(count, update) {
  const clusters = Array.from({ length: count }, (_, i) => `  - {name: r-${String(i).padStart(5, "0")}, labels: {env: prod}}`);
  return `name: generated-rolling
start: 2026-11-23T09:00:00Z
clusters:
${clusters.join("\n")}
strategy:
  kind: kubefleet-rolling
  placement:
    name: web-app
    type: PickAll
    affinity: "env=prod"
  rollingUpdate: {maxUnavailable: "10%", maxSurge: "10%", unavailablePeriodSeconds: 60}
  resources: [Namespace, Deployment]
  change: {update: true}
assumptions:
  applyDuration: 30s
  updateDuration: ${update}
`;
}

/** A GKE rollout sequence over `count` clusters in three fleets; `soak` is the first stage's. */
export function generatedGke(count, soak) {
  const fleets = ["projects/testing", "projects/staging", "projects/production"];
  const clusters = Array.from({ length: count }, (_, i) => {
    const fleet = fleets[i < count / 10 ? 0 : i < count / 5 ? 1 : 2];
    return `  - {name: g-${String(i).padStart(5, "0")}, fleet: ${fleet}, version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}, releaseChannel: REGULAR, maintenance: {window: {daily: "18:00"}}}`;
  });
  return `name: generated-gke
start: 2026-11-23T09:00:00Z
clusters:
${clusters.join("\n")}
strategy:
  kind: gke-rollout-sequence
  name: generated-sequence
  stages:
    - {fleetProjects: [projects/testing], soakDuration: ${soak}}
    - {fleetProjects: [projects/staging], soakDuration: 2d}
    - {fleetProjects: [projects/production], soakDuration: 0s}
  versions:
    - {version: 1.31.5-gke.1200000, at: 2026-11-23T09:00:00Z}
`;
}
