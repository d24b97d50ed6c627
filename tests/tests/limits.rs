//! Hostile and huge inputs (issue 12): one regression test per finding, each input built here. Every
//! limit answers with a located diagnostic that names the limit, and the work past it is never done.
//! The limits themselves are listed in docs/limits.md; speed and memory figures live in bench/, not here.

use fleetplan::plan::{Phase, PhaseKind, Plan};
use fleetplan::{Diagnostic, Loaded};
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

/// `line:column: code: message` of every diagnostic with `code`, from loading and planning.
fn said(loaded: &Loaded, plans: &[Plan], code: &str) -> Vec<String> {
    loaded
        .diagnostics
        .iter()
        .chain(plans.iter().flat_map(|p| &p.diagnostics))
        .filter(|d| d.code == code)
        .map(located)
        .collect()
}

fn located(d: &Diagnostic) -> String {
    let at = d
        .location
        .as_ref()
        .map_or("-".to_string(), |l| format!("{}:{}", l.line, l.column));
    format!("{at}: {}", d.message)
}

/// The real API's IntOrString and PlacementPolicy.NumberOfClusters hold an `int32`
/// (apimachinery `intstr`, KubeFleet `apis/placement/v1beta1`). The API server does not enforce
/// `format: int32` on custom resources (kubernetes#136091), so the refusal comes from Go decoding the
/// object: encoding/json's UnmarshalTypeError, "json: cannot unmarshal number N into Go struct field
/// S.path of type int32"; intstr decodes the number on its own, so there the text has no field.
/// 2147483647 = 2^31 − 1 is the largest accepted.
#[wasm_bindgen_test(unsupported = test)]
fn rolling_numbers_are_int32_as_in_the_api() {
    let scenario = |n: &str, unavailable: &str, surge: &str| {
        format!(
            "clusters: [{{name: a}}]\nstrategy:\n  kind: kubefleet-rolling\n  placement: {{name: p, type: PickN, numberOfClusters: {n}}}\n  rollingUpdate: {{maxUnavailable: {unavailable}, maxSurge: {surge}}}\n  resources: [Namespace]\n  change: {{update: true}}\n"
        )
    };
    let max = i32::MAX.to_string();
    let (loaded, plans) = load_and_plan(&scenario(&max, &max, &max));
    assert_eq!(said(&loaded, &plans, "int32-range"), Vec::<String>::new());
    // N = 2^31 − 1 with maxSurge 2^31 − 1: maxToAdd = N + maxSurge − canBeReady = 4294967293, which an
    // int32 could not hold; the plan says it exactly.
    let rounds = &plans[0].rolling.as_ref().expect("a rolling plan").rounds;
    assert_eq!(rounds[0].max_to_add, 2 * i64::from(i32::MAX) - 1);

    let over = (i64::from(i32::MAX) + 1).to_string();
    let (loaded, plans) = load_and_plan(&scenario(&over, "-9223372036854775808", &over));
    assert_eq!(
        said(&loaded, &plans, "int32-range"),
        [
            "4:55: json: cannot unmarshal number 2147483648 into Go struct field PlacementPolicy.spec.policy.numberOfClusters of type int32",
            "5:35: json: cannot unmarshal number -9223372036854775808 into Go value of type int32",
            "5:67: json: cannot unmarshal number 2147483648 into Go value of type int32",
        ]
    );
}

/// GKE supports at most 65,000 nodes per cluster (and 1,000 per node pool per zone): more is refused
/// with the limit in the text, and planned as 65,000 so the work stays bounded. With maxSurge 1 and
/// 10 minutes per batch, a daily 4-hour window starts ceil(4h / 10m) = 24 batches per opening (the
/// last one runs past the close), so 65,000 nodes take ceil(65,000 / 24) = 2,709 openings: one
/// node-upgrade bar each.
#[wasm_bindgen_test(unsupported = test)]
fn gke_node_counts_stop_at_the_largest_cluster_gke_supports() {
    let scenario = |nodes: u64| {
        format!(
            "start: 2026-11-23T09:00:00Z\nclusters:\n  - name: a\n    fleet: projects/p\n    version: {{controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}}\n    maintenance: {{window: {{daily: \"02:00\"}}}}\n    nodePools: [{{name: pool, nodes: {nodes}, maxSurge: 1}}]\nstrategy:\n  kind: gke-rollout-sequence\n  stages: [{{fleet: projects/p, soakDuration: 1d}}]\n  versions: [1.31.5-gke.1200000]\n"
        )
    };
    let node_bars = |plan: &Plan| {
        plan.stages[0].clusters[0]
            .phases
            .iter()
            .filter(|p: &&Phase| p.kind == PhaseKind::NodeUpgrade)
            .count()
    };
    let (loaded, plans) = load_and_plan(&scenario(65_000));
    assert_eq!(
        said(&loaded, &plans, "gke-too-many-nodes"),
        Vec::<String>::new()
    );
    assert_eq!(node_bars(&plans[0]), 2_709);

    let (loaded, plans) = load_and_plan(&scenario(u64::from(u32::MAX)));
    assert_eq!(
        said(&loaded, &plans, "gke-too-many-nodes"),
        ["7:16: cluster `a` has 4294967295 nodes in its node pools; GKE supports at most 65000 nodes per cluster (and 1000 per node pool per zone); planned as 65000"]
    );
    assert_eq!(node_bars(&plans[0]), 2_709);
}

/// Exclusions are looked up through an index, not scanned at every step. 20,000 NO_UPGRADES
/// exclusions, one over each day's 02:00–06:00 window from the day after the start, hold the control
/// plane until the window after the last one: day 20,001 at 02:00. (GKE allows 20 exclusions, 3 of
/// them NO_UPGRADES; both are said, and the rest is still planned.)
#[wasm_bindgen_test(unsupported = test)]
fn many_exclusions_are_indexed() {
    const DAY_MS: i64 = 86_400_000;
    let first = fleetplan::time::Time::parse("2026-11-24T02:00:00Z").unwrap();
    let mut text = String::from("start: 2026-11-23T09:00:00Z\nclusters:\n  - name: a\n    fleet: projects/p\n    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}\n    maintenance:\n      window: {daily: \"02:00\"}\n      exclusions:\n");
    for day in 0..20_000 {
        let from = fleetplan::time::Time(first.0 + day * DAY_MS);
        let to = fleetplan::time::Time(from.0 + 4 * 3_600_000);
        text.push_str(&format!(
            "        - {{name: x{day}, start: \"{from}\", end: \"{to}\", scope: NO_UPGRADES}}\n"
        ));
    }
    text.push_str("strategy:\n  kind: gke-rollout-sequence\n  stages: [{fleet: projects/p, soakDuration: 1d}]\n  versions: [1.31.5-gke.1200000]\n");
    let (loaded, plans) = load_and_plan(&text);
    assert_eq!(
        said(&loaded, &plans, "too-many-exclusions"),
        ["9:9: cluster `a` has 20000 maintenance exclusions; GKE allows at most 20"]
    );
    let control_plane = plans[0].stages[0].clusters[0]
        .phases
        .iter()
        .find(|p| p.kind == PhaseKind::ControlPlaneUpgrade)
        .expect("the control plane upgrades");
    assert_eq!(control_plane.start.0, first.0 + 20_000 * DAY_MS);
}

/// Anchors and aliases may copy at most 1,000,000 nodes and 16 MiB (16,777,216 bytes) of keys and
/// text per input (`source::MAX_ALIAS_*`), anchor snapshots included. Here `a` anchors 8,000 bytes,
/// and each level anchors ten aliases of the one before: a 8,000 (snapshot), b 10 × 8,000 copied +
/// 80,000 snapshot, c 800,000 + 800,000, d 8,000,000 copied = 9,768,000 so far; d's own snapshot would
/// bring it to 17,768,000, past the cap: refused where `d`'s list starts (line 4, column 7). Before,
/// such a document expanded 18 KB of text to 9.6 GB.
#[wasm_bindgen_test(unsupported = test)]
fn aliases_are_capped_in_bytes_as_well_as_nodes() {
    let text = |levels: &[&str]| {
        let mut t = format!("a: &a \"{}\"\n", "x".repeat(8_000));
        let mut prev = "a";
        for name in levels {
            let aliases = vec![format!("*{prev}"); 10].join(", ");
            t.push_str(&format!("{name}: &{name} [{aliases}]\n"));
            prev = name;
        }
        t
    };
    let (loaded, plans) = load_and_plan(&text(&["b", "c", "d"]));
    assert_eq!(
        said(&loaded, &plans, "yaml-alias"),
        ["4:7: anchors and aliases expand to more than 1,000,000 nodes or 16 MiB of text; fleetplan stops reading here"]
    );
    // One level less copies 1,768,000 bytes: read in full (no strategy, so only that is said).
    let (loaded, plans) = load_and_plan(&text(&["b", "c"]));
    assert_eq!(said(&loaded, &plans, "yaml-alias"), Vec::<String>::new());
    assert_eq!(
        loaded
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect::<Vec<_>>(),
        [
            "unknown-field",
            "unknown-field",
            "unknown-field",
            "no-scenario"
        ]
    );
}

/// KubeFleet's CRD allows at most 31 stages (`MaxItems=31`); the API server refuses more, so nothing
/// is initialized: no stage is matched against the fleet (100 duplicate stages over 20,000 clusters
/// once produced 1.98 million errors). 31 stages are planned.
#[wasm_bindgen_test(unsupported = test)]
fn more_than_31_stages_stop_planning() {
    let scenario = |stages: usize| {
        let mut t =
            String::from("generate: [{count: 2000, name: \"c{i}\"}]\nstrategy:\n  stages:\n");
        for s in 0..stages {
            t.push_str(&format!("    - {{name: s{s}, labelSelector: {{}}}}\n"));
        }
        t
    };
    let (loaded, plans) = load_and_plan(&scenario(32));
    assert_eq!(
        said(&loaded, &plans, "too-many-stages"),
        ["4:5: The ClusterStagedUpdateStrategy \"example-strategy\" is invalid: spec.stages: Too many: 32: must have at most 31 items"]
    );
    assert!(plans[0].stages.is_empty(), "nothing is planned");
    assert_eq!(
        said(&loaded, &plans, "cluster-in-two-stages"),
        Vec::<String>::new()
    );

    // 31 stages that all select every cluster: the first takes the 2,000 clusters, and each of the
    // other 30 finds all 2,000 already placed: 60,000 errors, of which the first 100 are listed.
    let (loaded, plans) = load_and_plan(&scenario(31));
    let twice = said(&loaded, &plans, "cluster-in-two-stages");
    assert_eq!(twice.len(), 101);
    assert_eq!(twice[100], "-: … and 59,900 more");
    let summary_counts = plans[0]
        .diagnostics
        .iter()
        .filter(|d| d.code == "cluster-in-two-stages");
    assert_eq!(summary_counts.map(Diagnostic::count).sum::<usize>(), 60_000);
    assert!(
        plans[0].summary.errors >= 60_000,
        "the summary counts them all"
    );
}

/// Every kind of diagnostic is listed at most 100 times (`diag::MAX_PER_CODE`), then counted: here a
/// mapping with 1,000 keys each written twice, so 1,000 duplicate-key warnings, found by an index
/// (a scan made 170,000 keys take 68 s). The later value wins.
#[wasm_bindgen_test(unsupported = test)]
fn duplicate_keys_are_indexed_and_their_warnings_capped() {
    let mut text = String::from("labels:\n");
    for pass in 0..2 {
        for k in 0..1_000 {
            text.push_str(&format!("  k{k}: v{pass}\n"));
        }
    }
    let (docs, diags) = fleetplan::source::parse(&text, "input.yaml");
    let dup: Vec<String> = diags.iter().map(located).collect();
    assert_eq!(dup.len(), 101);
    assert_eq!(
        dup[0],
        "1002:3: key `k0` appears twice in this mapping (first on line 2); the last value is used"
    );
    assert_eq!(dup[100], "-: … and 900 more");
    let labels = docs[0].get("labels").unwrap();
    assert_eq!(labels.get("k999").unwrap().scalar().unwrap().text, "v1");
}

/// Fleets stop at 1,000,000 clusters, and generated names and labels at 64 MiB (67,108,864 bytes);
/// names at 253 bytes (any Kubernetes object, `IsDNS1123Subdomain`) and, for KubeFleet, 63 characters
/// (MemberCluster's CRD: `size(self.metadata.name) < 64`, "metadata.name max length is 63"; a rule at
/// the root is printed as `<nil>: Invalid value: "object": …`). None of it is generated to find out.
#[wasm_bindgen_test(unsupported = test)]
fn generated_fleets_are_capped_in_size_names_and_bytes() {
    let staged = |generate: &str| {
        format!("generate: [{generate}]\nstrategy:\n  stages: [{{name: a, labelSelector: {{}}}}]\n")
    };
    let (loaded, plans) = load_and_plan(&staged("{count: 1000001, name: \"c{i}\"}"));
    assert_eq!(
        said(&loaded, &plans, "fleet-too-large"),
        ["1:20: the fleet would have more than 1,000,000 clusters; generator skipped"]
    );
    assert_eq!(plans[0].summary.clusters, 0);

    // A 2,000-character pattern: every name is longer than 253 bytes, so none is generated.
    let long = format!("{{count: 1000000, name: \"{}{{i}}\"}}", "n".repeat(2_000));
    let (loaded, plans) = load_and_plan(&staged(&long));
    let first = format!("{}1", "n".repeat(2_000));
    assert_eq!(
        said(&loaded, &plans, "cluster-name-too-long"),
        [format!("1:35: The MemberCluster \"{first}\" is invalid: metadata.name: Invalid value: \"{first}\": must be no more than 253 characters")]
    );
    assert_eq!(said(&loaded, &plans, "generator-skipped").len(), 1);
    assert_eq!(plans[0].summary.clusters, 0);

    // `m{i}` padded to 62 digits: names of 63 characters pass, until index 10^62 — out of reach; the
    // same with one more `m` gives 64 characters from the first cluster on.
    let pattern = |prefix: &str| format!("{{count: 3, name: \"{prefix}{{i:062}}\"}}");
    let (loaded, plans) = load_and_plan(&staged(&pattern("m")));
    assert_eq!(
        said(&loaded, &plans, "member-cluster-name-too-long"),
        Vec::<String>::new()
    );
    let (loaded, plans) = load_and_plan(&staged(&pattern("mm")));
    let name = format!("mm{}1", "0".repeat(61));
    assert_eq!(
        said(&loaded, &plans, "member-cluster-name-too-long"),
        [format!("1:29: The MemberCluster \"{name}\" is invalid: <nil>: Invalid value: \"object\": metadata.name max length is 63")]
    );
    assert_eq!(plans[0].summary.clusters, 3, "still planned, as refused");

    // Names and labels are counted before anything is generated: per cluster its name (`gen-` and 7
    // digits: 11 bytes) and each label's key and longest value (at least 20 bytes, an index's digits).
    // 1,000 clusters with a 67,000-byte `env` value take 1,000 × (11 + 3 + 67,000) = 67,014,000
    // bytes, within 67,108,864; with 67,200 bytes, 67,214,000 are too many.
    let gke = |value: usize| {
        format!("generate: [{{count: 1000, name: \"gen-{{i:07}}\", labels: {{env: {}}}}}]\nstrategy: {{kind: gke-rollout-sequence, stages: []}}\n", "v".repeat(value))
    };
    let (loaded, plans) = load_and_plan(&gke(67_200));
    assert_eq!(
        said(&loaded, &plans, "fleet-too-large"),
        ["1:20: the generated clusters' names and labels would take 67,214,000 bytes; fleetplan holds at most 64 MiB of them; generator skipped"]
    );
    let (loaded, plans) = load_and_plan(&gke(67_000));
    assert_eq!(
        said(&loaded, &plans, "fleet-too-large"),
        Vec::<String>::new()
    );
    assert_eq!(loaded.scenarios[0].fleet().0.len(), 1_000);
}

/// `In` and `NotIn` values are looked up in a set: 30,000 values against 20,000 clusters numbered
/// 1..20000 by an `index` label. The values are the even numbers 2..60000, so `In` selects the 10,000
/// even-numbered clusters and `NotIn` the 10,000 odd ones.
#[wasm_bindgen_test(unsupported = test)]
fn in_lists_select_through_a_set() {
    let values: Vec<String> = (1..=30_000).map(|v| format!("\"{}\"", 2 * v)).collect();
    let scenario = |op: &str| {
        format!("generate: [{{count: 20000, name: \"c{{i}}\", labels: {{n: {{index: true}}}}}}]\nstrategy:\n  stages:\n    - {{name: a, labelSelector: {{matchExpressions: [{{key: n, operator: {op}, values: [{}]}}]}}}}\n    - {{name: rest, labelSelector: {{}}}}\n", values.join(","))
    };
    for (op, parity) in [("In", 0), ("NotIn", 1)] {
        let (_, plans) = load_and_plan(&scenario(op));
        let stage = &plans[0].stages[0];
        assert_eq!(stage.clusters.len(), 10_000, "{op}");
        assert!(
            stage
                .clusters
                .iter()
                .all(|c| c.name[1..].parse::<u32>().unwrap() % 2 == parity),
            "{op}"
        );
    }
}

/// One cap for every time value (`time::MIN_TIME`..`MAX_TIME`, years 0000–9999 as RFC 3339 writes
/// them; durations at most their span, 315,569,519,999,999 ms ≈ 3,652,424.99 days). A bare number of
/// seconds obeys it like `1000d` does (it once skipped it), and a plan that runs into the cap says so.
#[wasm_bindgen_test(unsupported = test)]
fn time_values_stay_inside_one_cap() {
    use fleetplan::time::Duration;
    for ok in ["3652424d", "315569519999"] {
        assert!(Duration::parse(ok).is_ok(), "{ok}");
    }
    for over in ["3652425d", "315569520000", "9223372036854775807"] {
        assert_eq!(
            Duration::parse(over),
            Err(format!("duration `{over}` is longer than 3,652,424 days, the longest fleetplan represents (the span from year 0000 to 9999)")),
        );
    }
    let staged = |duration: &str| {
        format!("start: 2026-11-23T09:00:00Z\nclusters: [{{name: a}}, {{name: b}}, {{name: c}}]\nstrategy:\n  stages: [{{name: s, labelSelector: {{}}}}]\nassumptions:\n  updateDuration: {duration}\n")
    };
    let (loaded, plans) = load_and_plan(&staged("9223372036854775"));
    assert_eq!(
        said(&loaded, &plans, "invalid-value"),
        ["6:19: duration `9223372036854775` is longer than 3,652,424 days, the longest fleetplan represents (the span from year 0000 to 9999)"]
    );
    // Three updates of 1,000,000 days one after another end 3,000,000 days (≈ 8,214 years) after
    // 2026: past 9999-12-31, so the last ones are shown at the cap, and the plan says so.
    let (loaded, plans) = load_and_plan(&staged("1000000d"));
    assert_eq!(
        said(&loaded, &plans, "time-out-of-range"),
        ["-: the plan reaches 9999-12-31T23:59:59.999Z, the last instant fleetplan represents: later times are shown as that instant"]
    );
    assert_eq!(plans[0].end, Some(fleetplan::time::MAX_TIME));
    // Offsets cannot push a four-digit year past it either.
    assert_eq!(
        fleetplan::time::Time::parse("9999-12-31T23:00:00-01:00"),
        Err("`9999-12-31T23:00:00-01:00` is outside the years 0000 to 9999 in UTC, the times fleetplan represents".into())
    );
}

/// unavailablePeriodSeconds is a Go `int`; the controller multiplies it into a `time.Duration` (int64
/// nanoseconds), which wraps past 9,223,372,036 seconds. 9223372037 × 10^9 − 2^64 is negative: the
/// readiness cut-off lies in the future, so the controller waits nothing.
#[wasm_bindgen_test(unsupported = test)]
fn unavailable_period_wraps_like_the_controllers_duration() {
    let scenario = |secs: &str| {
        format!("clusters: [{{name: a}}]\nstrategy:\n  kind: kubefleet-rolling\n  placement: {{name: p}}\n  rollingUpdate: {{unavailablePeriodSeconds: {secs}}}\n  resources: [Job]\n  change: {{update: true}}\n")
    };
    let (loaded, plans) = load_and_plan(&scenario("9223372036"));
    assert_eq!(
        said(&loaded, &plans, "unavailable-period-wraps"),
        Vec::<String>::new()
    );
    let (loaded, plans) = load_and_plan(&scenario("9223372037"));
    assert_eq!(
        said(&loaded, &plans, "unavailable-period-wraps"),
        ["5:45: unavailablePeriodSeconds 9223372037 overflows the controller's time.Duration (it wraps past 9223372036 seconds): it waits 0s instead"]
    );
}

/// The most text one input may have is 16 MiB, all sources together; past it nothing is read, and
/// the refusal points at where the limit is crossed: here the second file, after the 16 MiB less 100
/// bytes of the first, on its line 2 (after 99 bytes of line 1) at column 2.
#[wasm_bindgen_test(unsupported = test)]
fn inputs_past_16_mib_are_refused_where_they_cross_the_limit() {
    let limit = fleetplan::input::MAX_INPUT_BYTES;
    let first = format!("#{}\n", "x".repeat(limit - 102));
    let second = format!("#{}\n#x\n", "y".repeat(97));
    let loaded = fleetplan::load(&[
        fleetplan::Source {
            name: "a.yaml",
            text: &first,
        },
        fleetplan::Source {
            name: "b.yaml",
            text: &second,
        },
    ]);
    let shown: Vec<String> = loaded.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        shown,
        ["b.yaml:2:2: error[input-too-large]: the input goes on past 16 MiB (16,777,216 bytes, here), the most fleetplan reads: nothing was read"]
    );
    // At the limit exactly: read (and found empty).
    let exact = format!("#{}\n", "x".repeat(limit - 2));
    let loaded = fleetplan_tests::load(&exact);
    assert_eq!(
        loaded
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect::<Vec<_>>(),
        ["no-scenario"]
    );
}

/// Names are user input that lands in terminals, documents and spreadsheets: control characters,
/// bidirectional overrides (U+202E), zero-width characters and the byte-order mark are written out as
/// `\u{202e}` wherever a person reads them; backticks cannot close the Markdown fence around Mermaid;
/// the SVG stays XML (no character XML 1.0 forbids).
#[wasm_bindgen_test(unsupported = test)]
fn hidden_characters_are_shown_not_obeyed() {
    let text = "clusters: [{name: \"a\\e[2J\\u202e\\u200b\\ufeff```\"}]\nstrategy:\n  stages: [{name: \"s\\u202e\", labelSelector: {}}]\n";
    let (_, plans) = load_and_plan(text);
    let plan = &plans[0];
    let shown = "a\\u{1b}[2J\\u{202e}\\u{200b}\\u{feff}```";
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "stage-name-pattern")
        .expect("the stage name is refused");
    assert!(d.to_string().contains("\\u{202e}"), "{d}");
    assert!(!d.to_string().contains('\u{202e}'), "{d}");

    let mermaid = fleetplan::export::mermaid(plan);
    assert!(
        mermaid.contains("a\\u{1b}[2J\\u{202e}\\u{200b}\\u{feff}#96;#96;#96; :s0c0,"),
        "{mermaid}"
    );
    assert!(!mermaid.contains("```"));

    let csv = fleetplan::export::csv(plan);
    assert!(
        csv.contains(&format!("s\\u{{202e}},{shown},cluster-update,")),
        "{csv}"
    );

    let svg = fleetplan::gantt::svg(
        &fleetplan::gantt::layout(plan, &fleetplan::gantt::View::fit(plan, 800.0)),
        180.0,
    );
    assert!(svg.contains(shown), "the name is drawn written out");
    for doc in [&mermaid, &csv, &svg] {
        assert!(!doc
            .chars()
            .any(|c| fleetplan::visible::is_hidden(c) && !matches!(c, '\n' | '\r')));
    }
}

/// Several scenarios in one input are one document per export: one CSV whose first column names the
/// scenario, one Mermaid chart whose sections are `scenario · stage`, with ids unique per scenario.
#[wasm_bindgen_test(unsupported = test)]
fn several_scenarios_export_as_one_document() {
    let text = "name: blue\nclusters: [{name: c1}]\nstrategy: {stages: [{name: a, labelSelector: {}}]}\n---\nname: green\nclusters: [{name: c2}]\nstrategy: {stages: [{name: a, labelSelector: {}}]}\n";
    let (_, plans) = load_and_plan(text);
    let csv = fleetplan::export::csv_many(&plans);
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[0],
        format!("scenario,{}", fleetplan::export::CSV_HEADER)
    );
    assert_eq!(
        lines.len(),
        5,
        "a header, then a stage row and a cluster row per scenario"
    );
    assert!(lines[1].starts_with("blue,a,,updating,") && lines[2].starts_with("blue,a,c1,"));
    assert!(lines[3].starts_with("green,a,,updating,") && lines[4].starts_with("green,a,c2,"));

    let mermaid = fleetplan::export::mermaid_many(&plans);
    assert_eq!(mermaid.matches("gantt\n").count(), 1);
    assert!(mermaid.contains("    title 2 scenarios#58; blue, green\n"));
    assert!(
        mermaid.contains("    section blue · a\n") && mermaid.contains("    section green · a\n")
    );
    assert!(mermaid.contains(" :x0s0c0, ") && mermaid.contains(" :x1s0c0, "));
}

/// A sequence follows at most 1,000 version events (`decode::gke::MAX_VERSION_EVENTS`): the planner's
/// work grows with their square, and 5,000 copies of one event (found by the fuzzer) took seconds.
/// The 1,001st is where the rest is left out.
#[wasm_bindgen_test(unsupported = test)]
fn version_events_are_capped() {
    let mut text = String::from("clusters: [{name: a, fleet: projects/p, version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}}]\nstrategy:\n  kind: gke-rollout-sequence\n  stages: [{fleet: projects/p, soakDuration: 1d}]\n  versions:\n");
    for _ in 0..1_500 {
        text.push_str("    - {version: 1.31.6-gke.1100000, at: 2026-11-25T09:00:00Z}\n");
    }
    let (loaded, plans) = load_and_plan(&text);
    assert_eq!(
        said(&loaded, &plans, "too-many-versions"),
        ["1006:7: 1,500 version events; fleetplan follows at most 1,000 per sequence (a release channel names a few a month), the rest are left out"]
    );
}

/// Columns count characters, not bytes, and a reader finds each one by counting on from the last
/// one it found on that line, never from the line's start again. A share link decodes to one line of
/// flow YAML: here 30,000 clusters (about 800 KB) after a name with one `é`, then a cluster with an
/// unknown field. Its warning points at the field's character column: one less than its byte offset
/// plus one, for the two bytes of `é`. (Counting from the line's start for every node made such a
/// link, found by the fuzzer, take 18 s to read.)
#[wasm_bindgen_test(unsupported = test)]
fn columns_on_one_long_line_are_counted_on() {
    let mut text = String::from("{name: café, start: \"2026-11-23T09:00:00Z\", clusters: [");
    for k in 0..30_000 {
        text.push_str(&format!("{{name: c{k}, labels: {{tier: t{}}}}}, ", k % 7));
    }
    let before_field = text.len() + "{name: last, ".len();
    text.push_str(
        "{name: last, colour: blue}], strategy: {kind: staged, stages: [{name: all}]}}\n",
    );
    let column = text[..before_field].chars().count() + 1;
    assert_eq!(column, before_field, "one two-byte character before it");

    let (loaded, plans) = load_and_plan(&text);
    assert_eq!(
        said(&loaded, &plans, "unknown-field"),
        [format!(
            "1:{column}: unknown field `colour` in `clusters[30000]`"
        )]
    );
    assert_eq!(plans[0].summary.clusters, 30_001);
}

/// A maintenance window whose next opening lies past the time cap opens, as every later time is shown,
/// at the cap, and the plan says it reaches it. Here the run starts at 23:00 on 9999-12-31 and the
/// daily window opens at 02:00: the next one would be 10000-01-01T02:00, which RFC 3339 cannot write
/// (found by the fuzzer as case 12:27151, whose plan held instants of the year 10000).
#[wasm_bindgen_test(unsupported = test)]
fn a_window_past_the_time_cap_opens_at_the_cap() {
    let text = "start: 9999-12-31T23:00:00Z\nclusters:\n  - name: a\n    fleet: projects/p\n    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}\n    maintenance: {window: {daily: \"02:00\"}}\nstrategy:\n  kind: gke-rollout-sequence\n  stages: [{fleet: projects/p, soakDuration: 1d}]\n  versions: [1.31.5-gke.1200000]\n";
    let (loaded, plans) = load_and_plan(text);
    let cap = fleetplan::time::MAX_TIME;
    let plan = &plans[0];
    let mut times = vec![plan.start];
    for s in &plan.stages {
        for c in &s.clusters {
            for p in &c.phases {
                times.push(p.start);
                times.extend(p.end);
            }
        }
    }
    times.extend(plan.events.iter().map(|e| e.at));
    assert!(times.len() > 1, "the cluster's wait is drawn");
    assert_eq!(times.iter().max(), Some(&cap));
    assert_eq!(
        said(&loaded, &plans, "time-out-of-range"),
        ["-: the plan reaches 9999-12-31T23:59:59.999Z, the last instant fleetplan represents: later times are shown as that instant"]
    );
}
