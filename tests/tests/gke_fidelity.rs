//! GKE behaviours where fleetplan used to differ from GKE (issue 10, items 6–9 and 11), each test built
//! from the rule in ../shared/reference/gke.md and gcloud's own code, expectations derived by hand.

use fleetplan::plan::{Outcome, Plan};
use fleetplan::Diagnostic;
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

const START: &str = "start: 2026-11-23T09:00:00Z\n";

fn one_plan(yaml: &str) -> Plan {
    let (loaded, mut plans) = load_and_plan(yaml);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        loaded.diagnostics
    );
    assert_eq!(plans.len(), 1);
    plans.remove(0)
}

/// `code path line:column message` of the plan's errors.
fn errors(plan: &Plan) -> Vec<String> {
    plan.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(show)
        .collect()
}

fn show(d: &Diagnostic) -> String {
    let loc = d
        .location
        .as_ref()
        .map_or("-".to_string(), |l| format!("{}:{}", l.line, l.column));
    format!(
        "{} {} {loc} {}",
        d.code,
        d.path.as_deref().unwrap_or("-"),
        d.message
    )
}

// ---------------------------------------------------------------------------------------------------
// Item 8: a selector that does not parse makes the sequence invalid, and nothing is planned for it.

const DASHED: &str = "clusters:
  - {name: dev-1, fleet: dev, version: {controlPlane: 1.31.4-gke.1}}
  - {name: prod-1, fleet: prod, labels: {prod-region: us-west1}, version: {controlPlane: 1.31.4-gke.1}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
    - fleetProjects: [projects/prod]
      labelSelector: resource.labels.prod-region == 'us-west1'
      soakDuration: 1d
    - {fleetProjects: [projects/prod], soakDuration: 1d}
  versions: [1.31.5-gke.2]
";

/// gke.md §5: "`resource.labels.prod-region` reads as `resource.labels.prod - region` (a subtraction)
/// and fails; the message should give the fix. A selector that does not parse makes the sequence
/// invalid: nothing is planned for it."
#[wasm_bindgen_test(unsupported = test)]
fn a_selector_that_does_not_parse_makes_the_plan_invalid_and_plans_nothing() {
    let plan = one_plan(&format!("{START}{DASHED}"));
    assert_eq!(plan.outcome, Outcome::Invalid);
    // Line 11 is the labelSelector; `labelSelector: ` takes columns 7–21, so the selector's first
    // character (where `resource` starts, the error's column 1) is column 22.
    assert_eq!(
        errors(&plan),
        ["cel-syntax strategy.stages[1].labelSelector 11:22 label selector `resource.labels.prod-region == 'us-west1'`: `resource.labels.prod-region` reads as `resource.labels.prod - region` (a subtraction), not as the label `prod-region`: write resource.labels['prod-region']"]
    );
    // Nothing planned: no stage starts, no cluster upgrades, no end.
    assert_eq!(plan.end, None);
    assert!(
        plan.stages.iter().all(|s| s.start.is_none()),
        "{:?}",
        plan.stages
    );
    assert!(plan
        .events
        .iter()
        .all(|e| e.reason == "VERSION_RELEASED" || e.reason == "EXCLUDED_BY_FILTER"));
    assert!(plan.diagnostics.iter().any(|d| d.code == "nothing-planned"));
    // The JSON every front end prints says the same.
    let json = serde_json::to_value(&plan).unwrap_or_default();
    assert_eq!(json["outcome"], "invalid");
    assert!(json["diagnostics"].as_array().is_some_and(|ds| ds
        .iter()
        .any(|d| d["code"] == "cel-syntax"
            && d["location"]["line"] == 11
            && d["severity"] == "error")));
}

/// The same sequence with the fix the message names plans normally.
#[wasm_bindgen_test(unsupported = test)]
fn the_fix_the_message_names_parses() {
    let fixed = DASHED.replace(
        "labelSelector: resource.labels.prod-region == 'us-west1'",
        "labelSelector: resource.labels['prod-region'] == 'us-west1'",
    );
    let plan = one_plan(&format!("{START}{fixed}"));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    assert_eq!(plan.stages[1].clusters.len(), 1);
    assert_eq!(plan.stages[1].clusters[0].name, "prod-1");
}

// ---------------------------------------------------------------------------------------------------
// Item 11: cluster labels follow Google Cloud's label rules (gcloud labels_util).

fn with_labels(labels: &str) -> String {
    format!(
        "{START}clusters:
  - {{name: dev-1, fleet: dev, labels: {labels}, version: {{controlPlane: 1.31.4-gke.1}}}}
strategy:
  kind: gke-fleet-sequence
  name: seq
  groups: [{{fleet: dev, soaking: 1d}}]
  versions: [1.31.5-gke.2]
"
    )
}

const KEY_TEXT: &str = "Only hyphens (-), underscores (_), lowercase characters, and numbers are allowed. Keys must start with a lowercase character. International characters are allowed. Key length must not exceed 63 characters.";
const VALUE_TEXT: &str = "Only hyphens (-), underscores (_), lowercase characters, and numbers are allowed. International characters are allowed.";

/// gcloud: keys `[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}`, values `[\p{Ll}\p{Lo}\p{N}_-]{0,63}`;
/// refused with "Invalid key format: KEY\n…" / "Invalid value format: VALUE\n…".
#[wasm_bindgen_test(unsupported = test)]
fn cluster_labels_google_cloud_refuses_make_the_plan_invalid_with_gclouds_words() {
    let plan = one_plan(&with_labels(
        "{Env: prod, tier: Gold, ok: \"\", région: ünï-1}",
    ));
    assert_eq!(plan.outcome, Outcome::Invalid);
    // Each error points at the label's value as written: `prod` at column 45, `Gold` at 57.
    assert_eq!(
        errors(&plan),
        [
            format!("gke-label clusters[0].labels.Env 3:45 Invalid key format: Env\n{KEY_TEXT}"),
            format!(
                "gke-label clusters[0].labels.tier 3:57 Invalid value format: Gold\n{VALUE_TEXT}"
            ),
        ]
    );
    // Lowercase keys, empty values and international letters are allowed.
    let plan = one_plan(&with_labels(
        "{env: prod, ok: \"\", région: ünï-1, 日本: 東京}",
    ));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
}

/// Google Cloud: at most 64 labels on a resource; 64 pass, 65 are refused.
#[wasm_bindgen_test(unsupported = test)]
fn at_most_64_cluster_labels() {
    let labels = |n: usize| {
        let items: Vec<String> = (0..n).map(|i| format!("k{i}: v")).collect();
        format!("{{{}}}", items.join(", "))
    };
    assert_eq!(
        one_plan(&with_labels(&labels(64))).outcome,
        Outcome::Succeeded
    );
    let plan = one_plan(&with_labels(&labels(65)));
    assert_eq!(plan.outcome, Outcome::Invalid);
    // At the labels map, whose `{` is column 39.
    assert_eq!(
        errors(&plan),
        ["gke-too-many-labels clusters[0].labels 3:39 cluster `dev-1` has 65 labels; Google Cloud allows at most 64 labels on a resource"]
    );
}

/// Generated clusters: the generator's keys and values are checked once.
#[wasm_bindgen_test(unsupported = test)]
fn generated_cluster_labels_follow_the_same_rules() {
    let yaml = format!(
        "{START}generate:
  - {{count: 3, name: \"dev-{{i}}\", labels: {{Ring: [a, B]}}}}
strategy:
  kind: gke-fleet-sequence
  name: seq
  groups: [{{fleet: dev}}]
"
    );
    let plan = one_plan(&yaml);
    let codes: Vec<String> = plan
        .diagnostics
        .iter()
        .filter(|d| d.code == "gke-label")
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        codes,
        [
            format!("Invalid key format: Ring\n{KEY_TEXT}"),
            format!("Invalid value format: B\n{VALUE_TEXT}"),
        ]
    );
}

/// The labels of a RolloutSequence and of a fleet feature, read from GKE's own formats, follow the
/// same rules and are refused where they are written.
#[wasm_bindgen_test(unsupported = test)]
fn labels_in_gkes_own_formats_are_checked_where_written() {
    let json = r#"{"name": "projects/p/locations/global/rolloutSequences/s",
 "labels": {"team": "payments", "Owner": "x"},
 "stages": [{"fleetProjects": ["projects/p"], "soakDuration": "0s"}]}"#;
    let loaded = fleetplan_tests::load(json);
    let shown: Vec<String> = loaded.diagnostics.iter().map(show).collect();
    assert_eq!(
        shown,
        [format!(
            "gke-label labels.Owner 2:42 Invalid key format: Owner\n{KEY_TEXT}"
        )]
    );
    let feature = "- name: projects/dev/locations/global/features/clusterupgrade\n  labels: {env: Dev}\n  spec: {clusterupgrade: {postConditions: {soaking: 86400s}}}\n";
    let loaded = fleetplan_tests::load(feature);
    let shown: Vec<String> = loaded.diagnostics.iter().map(show).collect();
    assert_eq!(
        shown,
        [format!(
            "gke-label labels.env 2:17 Invalid value format: Dev\n{VALUE_TEXT}"
        )]
    );
}

// ---------------------------------------------------------------------------------------------------
// Item 9: the order of the input never changes a GKE plan.

/// A permutation of `0..n` from a small linear congruential generator (the test needs no randomness,
/// only many different orders).
fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let j = (state >> 33) as usize % (i + 1);
        order.swap(i, j);
    }
    order
}

fn json(plan: &Plan) -> String {
    serde_json::to_string(plan).unwrap_or_default()
}

/// GKE orders by its own keys (stage, then cluster name), so listing the clusters and the released
/// versions in another order gives the same plan, byte for byte: rows, same-instant events, skipped
/// clusters, version reach and the summary's ties.
#[wasm_bindgen_test(unsupported = test)]
fn shuffled_clusters_and_versions_give_the_same_json_plan() {
    use fleetplan::gke::model::VersionEvent;
    use fleetplan::model::Strategy;
    // Five clusters whose windows open at the same instant, so their events tie.
    let tied = format!(
        "{START}clusters:
  - {{name: dev-c, fleet: dev, version: {{controlPlane: 1.31.4-gke.1}}, maintenance: {{window: {{daily: '18:00'}}}}}}
  - {{name: dev-a, fleet: dev, version: {{controlPlane: 1.31.4-gke.1}}, maintenance: {{window: {{daily: '18:00'}}}}}}
  - {{name: dev-b, fleet: dev, version: {{controlPlane: 1.31.5-gke.2}}, maintenance: {{window: {{daily: '18:00'}}}}}}
  - {{name: prod-z, fleet: prod, version: {{controlPlane: 1.31.4-gke.1}}, maintenance: {{window: {{daily: '02:00'}}}}}}
  - {{name: prod-y, fleet: prod, version: {{controlPlane: 1.31.4-gke.1}}, maintenance: {{window: {{daily: '02:00'}}}}}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages:
    - {{fleetProjects: [projects/dev], soakDuration: 1d}}
    - {{fleetProjects: [projects/prod], soakDuration: 1d}}
  versions: [1.31.6-gke.3, 1.31.5-gke.2, {{version: 1.31.7-gke.1, at: 2026-11-24T00:00:00Z}}]
"
    );
    let bank = fleetplan::examples::get("gke-bank").map(|e| e.text.to_string());
    let pipelining = fleetplan::examples::get("gke-pipelining").map(|e| e.text.to_string());
    let mut checked = 0;
    for text in [Some(tied), bank, pipelining].into_iter().flatten() {
        let (_, plans) = load_and_plan(&text);
        let (loaded, _) = load_and_plan(&text);
        let scenario = &loaded.scenarios[0];
        let want = json(&plans[0]);
        for seed in 0..20u64 {
            let mut shuffled = scenario.clone();
            let order = permutation(shuffled.clusters.len(), seed);
            shuffled.clusters = order
                .iter()
                .map(|&i| scenario.clusters[i].clone())
                .collect();
            let versions: Option<&mut Vec<VersionEvent>> = match &mut shuffled.strategy {
                Strategy::GkeRolloutSequence(s) => Some(&mut s.versions),
                Strategy::GkeFleetSequence(s) => Some(&mut s.versions),
                _ => None,
            };
            if let Some(v) = versions {
                let order = permutation(v.len(), seed + 1000);
                *v = order.iter().map(|&i| v[i].clone()).collect();
            }
            assert_eq!(json(&fleetplan::plan(&shuffled)), want, "seed {seed}");
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}
