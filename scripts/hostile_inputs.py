#!/usr/bin/env python3
"""Issue 12's hostile inputs, built here, run through the release CLI: time and peak memory of each
against its budget. Usage: hostile_inputs.py FLEETPLAN_BINARY [OUT_DIR]. Exit 1 when a budget is broken.
Budgets: 10 s and 1 GiB each; the largest input (16 MiB) 60 s and 2 GiB; fleets at the 1,000,000-cluster
cap: 120 s and 4 GiB."""
import datetime, os, resource, subprocess, sys

BIN = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "target/hostile"
os.makedirs(OUT, exist_ok=True)
GIB = 1 << 30

def gke(clusters_yaml):
    return ("start: 2026-11-23T09:00:00Z\nclusters:\n" + clusters_yaml +
            "strategy:\n  kind: gke-rollout-sequence\n  stages: [{fleet: projects/p, soakDuration: 1d}]\n"
            "  versions: [1.31.5-gke.1200000]\n")

def cluster(extra):
    return ("  - name: a\n    fleet: projects/p\n    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}\n"
            "    maintenance:\n      window: {daily: \"02:00\"}\n" + extra)

def cases():
    yield "gke-nodes-4294967295", ["check"], gke(cluster("    nodePools: [{name: p, nodes: 4294967295, maxSurge: 1}]\n")), 10, GIB
    s = "x" * 8000
    levels = "".join(f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\n" for p, n in zip("abcdef", "bcdefg"))
    yield "yaml-alias-bytes", ["check"], f"a: &a \"{s}\"\n" + levels, 10, GIB
    st = "".join(f"    - {{name: s{i}, labelSelector: {{}}}}\n" for i in range(400))
    yield "stages-400x5000", ["check"], "generate: [{count: 5000, name: \"c{i}\"}]\nstrategy:\n  stages:\n" + st, 10, GIB
    st = "    - {name: s, labelSelector: {}}\n" * 100
    yield "duplicate-stages-100x20000", ["check"], "generate: [{count: 20000, name: \"c{i}\"}]\nstrategy:\n  stages:\n" + st, 10, GIB
    st = "    - {name: s, labelSelector: {}}\n" * 31
    yield "duplicate-stages-31x200000", ["check"], "generate: [{count: 200000, name: \"c{i}\"}]\nstrategy:\n  stages:\n" + st, 10, GIB
    yield "names-2000x1000000", ["check"], "generate: [{count: 1000000, name: \"" + "n" * 2000 + "{i}\"}]\nstrategy:\n  stages: [{name: a, labelSelector: {}}]\n", 10, GIB
    yield "duplicate-keys-170000", ["check"], "".join(f"k{i % 85000}: 1\n" for i in range(170000)), 10, GIB
    vals = ",".join(f"\"{2 * i}\"" for i in range(30000))
    yield "in-30000x1000000", ["check"], ("generate: [{count: 1000000, name: \"c{i}\", labels: {n: {index: true}}}]\nstrategy:\n  stages:\n"
        "    - {name: a, labelSelector: {matchExpressions: [{key: n, operator: In, values: [" + vals + "]}]}}\n    - {name: b, labelSelector: {}}\n"), 120, 4 * GIB
    base = datetime.datetime(2026, 11, 24, 2, 0)
    ex = "".join(f"        - {{name: x{i}, start: \"{(base + datetime.timedelta(days=i)).isoformat()}Z\", end: \"{(base + datetime.timedelta(days=i, hours=4)).isoformat()}Z\", scope: NO_UPGRADES}}\n" for i in range(60000))
    yield "gke-exclusions-60000", ["check"], gke(cluster("      exclusions:\n" + ex)), 10, GIB
    yield "rolling-int64", ["check"], ("clusters: [{name: a}]\nstrategy:\n  kind: kubefleet-rolling\n  placement: {name: p, type: PickN, numberOfClusters: 9223372036854775807}\n"
        "  rollingUpdate: {maxUnavailable: 9223372036854775807, maxSurge: 9223372036854775807}\n  resources: [Namespace]\n  change: {update: true}\n"), 10, GIB
    yield "bare-integer-duration", ["check"], "clusters: [{name: a}, {name: b}]\nstrategy:\n  stages: [{name: a, labelSelector: {}}]\nassumptions: {updateDuration: 9223372036854775}\n", 10, GIB
    yield "max-input-16MiB-listed-clusters", ["check"], "clusters:\n" + "".join(f"  - {{name: c{i}}}\n" for i in range(800000)), 60, 2 * GIB
    for kind, strategy in [("staged", "stages: [{name: a, labelSelector: {}, maxConcurrency: \"10%\"}]"),
                           ("rolling", "kind: kubefleet-rolling\n  placement: {name: p}\n  rollingUpdate: {maxUnavailable: \"10%\"}\n  resources: [Deployment]\n  change: {update: true}")]:
        yield f"fleet-cap-1000000-{kind}", ["plan", "--format", "json"], f"generate: [{{count: 1000000, name: \"member-{{i:07}}\", labels: {{env: [a, b, c]}}}}]\nstrategy:\n  {strategy}\n", 120, 4 * GIB

failed = False
print("| input | bytes | exit | seconds | peak RSS MiB | budget |")
print("|---|---:|---:|---:|---:|---|")
for name, args, text, seconds, memory in cases():
    path = os.path.join(OUT, name + ".yaml")
    with open(path, "w") as f:
        f.write(text)
    # HOSTILE_MEM_LIMIT (bytes) caps the address space, to measure an older fleetplan without
    # letting it take the machine; such a run ends with an allocation failure instead.
    limit = int(os.environ.get("HOSTILE_MEM_LIMIT", "0"))
    cap = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))) if limit else None
    try:
        t = subprocess.run(["/usr/bin/time", "-f", "%e %M", BIN, *args, path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, preexec_fn=cap, timeout=600)
    except subprocess.TimeoutExpired:
        print(f"| {name} | {len(text.encode()):,} | timeout | >600 | - | {seconds} s, {memory >> 20} MiB BROKEN |")
        failed = True
        continue
    used_s, rss_kb = t.stderr.strip().splitlines()[-1].split()
    used_s, rss = float(used_s), int(rss_kb) * 1024
    ok = t.returncode in (0, 1) and used_s <= seconds and rss <= memory
    failed |= not ok
    print(f"| {name} | {len(text.encode()):,} | {t.returncode} | {used_s:.2f} | {rss >> 20} | {seconds} s, {memory >> 20} MiB{'' if ok else ' BROKEN'} |")
sys.exit(1 if failed else 0)
