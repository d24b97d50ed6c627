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

// ---------------------------------------------------------------------------------------------------
// Shared renderings for items 6 and 7.

/// `stage type version: STATE +t, STATE +t … [supersedes …]` per stage upgrade.
fn upgrades(plan: &Plan) -> Vec<String> {
    let gke = plan.gke.as_ref().expect("a GKE plan");
    let at = |t| fleetplan_tests::render::offset(plan.start, t);
    gke.stages
        .iter()
        .flat_map(|s| {
            s.upgrades.iter().map(move |u| {
                let states: Vec<String> = u
                    .states
                    .iter()
                    .map(|st| format!("{} {}", st.state, at(st.start)))
                    .collect();
                let sup = if u.supersedes.is_empty() {
                    String::new()
                } else {
                    format!(" [supersedes {}]", u.supersedes.join(", "))
                };
                format!(
                    "{} {} {}: {}{sup}",
                    s.stage,
                    u.upgrade_type,
                    u.version,
                    states.join(", ")
                )
            })
        })
        .collect()
}

/// `reason cluster` of the upgrade events of one cluster, in order.
fn cluster_events(plan: &Plan, cluster: &str) -> Vec<String> {
    plan.events
        .iter()
        .filter(|e| e.cluster == Some(cluster))
        .map(|e| {
            format!(
                "{} {}",
                fleetplan_tests::render::offset(plan.start, e.at),
                e.message
            )
        })
        .collect()
}

fn warnings(plan: &Plan) -> Vec<String> {
    plan.diagnostics
        .iter()
        .filter(|d| d.severity == fleetplan::Severity::Warning)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// Item 6: a stage whose clusters are all held goes straight to the latest version qualified upstream.

fn held_prod(versions: &str) -> String {
    format!(
        "{START}clusters:
  - {{name: dev-1, fleet: dev, version: {{controlPlane: 1.31.4-gke.1}}}}
  - name: prod-1
    fleet: prod
    version: {{controlPlane: 1.31.4-gke.1}}
    maintenance:
      exclusions: [{{name: freeze, start: 2026-11-23T09:00:00Z, end: 2026-12-03T09:00:00Z, scope: NO_UPGRADES}}]
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages:
    - {{fleetProjects: [projects/dev], soakDuration: 1d}}
    - {{fleetProjects: [projects/prod], soakDuration: 1d}}
  versions: {versions}
"
    )
}

/// gke.md §3 (seed 000): "A stage whose clusters are all held (an exclusion, or no window) while
/// upstream qualifies several versions is PAUSED; when it can upgrade again it goes straight to the
/// LATEST version qualified upstream (within the one-minor cap) and never runs the versions in
/// between." dev (no window, control plane 30m, nodes 3×10m after it, soak 1d) qualifies 1.31.5 at
/// +1d00h30m (nodes +1d01h), 1.31.6 (released +2d) at +3d00h30m, 1.31.7 (released +4d) at +5d00h30m.
/// prod-1 is frozen (NO_UPGRADES) until +10d: prod is PAUSED from +1d00h30m (nodes +1d01h) and at +10d
/// takes 1.31.7 alone: control plane +10d–+10d00h30m, nodes after it –+10d01h.
#[wasm_bindgen_test(unsupported = test)]
fn a_paused_stage_goes_straight_to_the_latest_qualified_version() {
    let plan = one_plan(&held_prod(
        "[1.31.5-gke.1, {version: 1.31.6-gke.1, at: 2026-11-25T09:00:00Z}, {version: 1.31.7-gke.1, at: 2026-11-27T09:00:00Z}]",
    ));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    let prod: Vec<String> = upgrades(&plan)
        .into_iter()
        .filter(|u| u.starts_with("2 prod"))
        .collect();
    // One upgrade per type: 1.31.7, PAUSED from when it was qualified (the stage has been paused
    // since +1d00h30m / +1d01h), running when the freeze ends.
    assert_eq!(
        prod,
        [
            "2 prod controlPlane 1.31.7-gke.1: PAUSED +5d00h30m, RUNNING +10d00h00m, SOAKING +10d00h30m, COMPLETED +11d00h30m [supersedes 1.31.5-gke.1, 1.31.6-gke.1]",
            "2 prod node 1.31.7-gke.1: PAUSED +5d01h00m, RUNNING +10d00h00m, SOAKING +10d01h00m, COMPLETED +11d01h00m [supersedes 1.31.5-gke.1, 1.31.6-gke.1]",
        ]
    );
    let paused: Vec<String> = plan
        .events
        .iter()
        .filter(|e| e.reason == "STAGE_PAUSED")
        .map(|e| {
            format!(
                "{} {:?}",
                fleetplan_tests::render::offset(plan.start, e.at),
                e.stage
            )
        })
        .collect();
    assert_eq!(
        paused,
        ["+1d00h30m Some(\"2 prod\")", "+1d01h00m Some(\"2 prod\")"]
    );
    // prod-1 upgrades once per type, to 1.31.7, never through 1.31.5 or 1.31.6.
    assert_eq!(
        cluster_events(&plan, "prod-1"),
        [
            "+10d00h00m prod-1: control plane upgrade to 1.31.7-gke.1 starts",
            "+10d00h30m prod-1: control plane upgraded to 1.31.7-gke.1",
            "+10d00h30m prod-1: nodes upgrade to 1.31.7-gke.1 starts",
            "+10d01h00m prod-1: nodes upgraded to 1.31.7-gke.1",
        ]
    );
}

/// The same, with minor versions: 1.32.1 released at +2d and 1.33.1 at +4d. dev (no hold) goes
/// 1.31.4 → 1.31.5 → 1.32.1 → 1.33.1 (one minor at a time). When prod's freeze ends at +10d, dev has
/// qualified all three, but prod's control plane runs 1.31.4: the latest within one minor is 1.32.1
/// (1.33.1 is two minors ahead), so prod takes 1.32.1 (never 1.31.5), and 1.33.1 once that soaked.
#[wasm_bindgen_test(unsupported = test)]
fn the_latest_version_a_paused_stage_takes_is_capped_at_one_minor() {
    let plan = one_plan(&held_prod(
        "[1.31.5-gke.1, {version: 1.32.1-gke.1, at: 2026-11-25T09:00:00Z}, {version: 1.33.1-gke.1, at: 2026-11-27T09:00:00Z}]",
    ));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    let prod: Vec<String> = upgrades(&plan)
        .into_iter()
        .filter(|u| u.starts_with("2 prod controlPlane"))
        .collect();
    // 1.32.1: control plane +10d–+10d00h30m, soak 1d → +11d00h30m; then 1.33.1 at once (no hold):
    // +11d00h30m–+11d01h, soak → +12d01h.
    assert_eq!(
        prod,
        [
            "2 prod controlPlane 1.32.1-gke.1: PAUSED +3d00h30m, RUNNING +10d00h00m, SOAKING +10d00h30m, COMPLETED +11d00h30m [supersedes 1.31.5-gke.1]",
            "2 prod controlPlane 1.33.1-gke.1: PENDING +5d00h30m, RUNNING +11d00h30m, SOAKING +11d01h00m, COMPLETED +12d01h00m",
        ]
    );
}

// ---------------------------------------------------------------------------------------------------
// Item 7: fleet-based sequencing qualifies per-minor targets.

/// The 2022-R25 release of seed 003: 1.20 → 1.21.14-gke.4300, 1.22 → 1.23.8-gke.1900.
const R25: &str = "[{targets: {\"1.20\": 1.21.14-gke.4300, \"1.22\": 1.23.8-gke.1900}}]";

fn chain(clusters: &[(&str, &str, &str)], versions: &str) -> String {
    let list: String = clusters
        .iter()
        .map(|(n, f, v)| format!("  - {{name: {n}, fleet: {f}, version: {{controlPlane: {v}}}}}\n"))
        .collect();
    format!(
        "{START}clusters:\n{list}strategy:
  kind: gke-fleet-sequence
  name: chain
  groups:
    - {{fleet: dev, soaking: 1d}}
    - {{fleet: prod, upstreamFleets: [dev], soaking: 1d}}
  versions: {versions}
"
    )
}

/// gke.md §3: "The first group upgrades each cluster to its own eligible target"; "An upstream group
/// must qualify ONE version that all its clusters target, and it must match what the downstream group
/// targets". Both groups on 1.20: dev runs 1.21.14 (control plane +0m–+30m, nodes –+1h), qualifies it
/// after 1d (+1d00h30m, nodes +1d01h); prod's own target is the same: +1d00h30m–+1d01h, nodes
/// +1d01h–+1d01h30m.
#[wasm_bindgen_test(unsupported = test)]
fn groups_on_one_minor_qualify_its_target_for_the_next_group() {
    let plan = one_plan(&chain(
        &[
            ("dev-a", "dev", "1.20.15-gke.100"),
            ("dev-b", "dev", "1.20.14-gke.100"),
            ("prod-a", "prod", "1.20.15-gke.100"),
        ],
        R25,
    ));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    assert_eq!(
        upgrades(&plan),
        [
            "1 dev controlPlane 1.21.14-gke.4300: RUNNING +0m, SOAKING +30m, COMPLETED +1d00h30m",
            "1 dev node 1.21.14-gke.4300: RUNNING +0m, SOAKING +1h00m, COMPLETED +1d01h00m",
            "2 prod controlPlane 1.21.14-gke.4300: RUNNING +1d00h30m, SOAKING +1d01h00m, COMPLETED +2d01h00m",
            "2 prod node 1.21.14-gke.4300: RUNNING +1d01h00m, SOAKING +1d01h30m, COMPLETED +2d01h30m",
        ]
    );
    assert!(warnings(&plan).is_empty(), "{:#?}", warnings(&plan));
}

/// gke.md §3: "An upstream group must qualify ONE version that all its clusters target, and it must
/// match what the downstream group targets"; docs/scenario-format.md, per-minor targets: "Clusters of a
/// stage all upgrade at once". A middle group of three clusters on 1.20 (three different patches) has
/// one own target, 1.21.14 (R25's 1.20 target, for each of them), so it takes it once dev qualified it
/// and, all three running it at the end of its soak, qualifies it for prod. By hand (control plane
/// 30m, nodes 30m after it, soak 1d): dev control plane +0m–+30m, COMPLETED +1d00h30m, nodes –+1h,
/// COMPLETED +1d01h; staging control plane +1d00h30m–+1d01h, COMPLETED +2d01h, nodes +1d01h–+1d01h30m,
/// COMPLETED +2d01h30m; prod one soak later again.
#[wasm_bindgen_test(unsupported = test)]
fn a_group_of_several_clusters_on_one_minor_takes_and_qualifies_its_one_target() {
    let plan = one_plan(&format!(
        "{START}clusters:
  - {{name: dev-a, fleet: dev, version: {{controlPlane: 1.20.15-gke.100}}}}
  - {{name: st-a, fleet: staging, version: {{controlPlane: 1.20.15-gke.100}}}}
  - {{name: st-b, fleet: staging, version: {{controlPlane: 1.20.14-gke.100}}}}
  - {{name: st-c, fleet: staging, version: {{controlPlane: 1.20.13-gke.100}}}}
  - {{name: prod-a, fleet: prod, version: {{controlPlane: 1.20.15-gke.100}}}}
  - {{name: prod-b, fleet: prod, version: {{controlPlane: 1.20.12-gke.100}}}}
strategy:
  kind: gke-fleet-sequence
  name: chain
  groups:
    - {{fleet: dev, soaking: 1d}}
    - {{fleet: staging, upstreamFleets: [dev], soaking: 1d}}
    - {{fleet: prod, upstreamFleets: [staging], soaking: 1d}}
  versions: {R25}
"
    ));
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    assert_eq!(
        upgrades(&plan),
        [
            "1 dev controlPlane 1.21.14-gke.4300: RUNNING +0m, SOAKING +30m, COMPLETED +1d00h30m",
            "1 dev node 1.21.14-gke.4300: RUNNING +0m, SOAKING +1h00m, COMPLETED +1d01h00m",
            "2 staging controlPlane 1.21.14-gke.4300: RUNNING +1d00h30m, SOAKING +1d01h00m, COMPLETED +2d01h00m",
            "2 staging node 1.21.14-gke.4300: RUNNING +1d01h00m, SOAKING +1d01h30m, COMPLETED +2d01h30m",
            "3 prod controlPlane 1.21.14-gke.4300: RUNNING +2d01h00m, SOAKING +2d01h30m, COMPLETED +3d01h30m",
            "3 prod node 1.21.14-gke.4300: RUNNING +2d01h30m, SOAKING +2d02h00m, COMPLETED +3d02h00m",
        ]
    );
    for c in ["st-a", "st-b", "st-c", "prod-a", "prod-b"] {
        let start = if c.starts_with("st") {
            "+1d00h30m"
        } else {
            "+2d01h00m"
        };
        assert_eq!(
            cluster_events(&plan, c)[0],
            format!("{start} {c}: control plane upgrade to 1.21.14-gke.4300 starts")
        );
    }
    assert!(warnings(&plan).is_empty(), "{:#?}", warnings(&plan));
}

/// A first group on two minors runs both targets (each cluster its own), but qualifies neither: the
/// next group is not upgraded, and the plan says why and what to do.
#[wasm_bindgen_test(unsupported = test)]
fn a_group_on_two_minors_qualifies_nothing() {
    let plan = one_plan(&chain(
        &[
            ("dev-a", "dev", "1.20.15-gke.100"),
            ("dev-b", "dev", "1.22.9-gke.100"),
            ("prod-a", "prod", "1.20.15-gke.100"),
        ],
        R25,
    ));
    assert_eq!(
        cluster_events(&plan, "dev-a")[..2],
        [
            "+0m dev-a: control plane upgrade to 1.21.14-gke.4300 starts",
            "+30m dev-a: control plane upgraded to 1.21.14-gke.4300",
        ]
    );
    assert_eq!(
        cluster_events(&plan, "dev-b")[..2],
        [
            "+0m dev-b: control plane upgrade to 1.23.8-gke.1900 starts",
            "+30m dev-b: control plane upgraded to 1.23.8-gke.1900",
        ]
    );
    assert!(cluster_events(&plan, "prod-a").is_empty());
    let not_qualified = |stream: &str, v: &str, other: &str| {
        format!("group-not-qualified {stream} {v}: group dev finished this target, but not all its clusters run it ({other}): a group qualifies a version only when all its clusters ran that one target, so prod is not auto-upgraded to it. Put the group's clusters on one minor version (upgrade the others manually) so that one target qualifies")
    };
    let w = warnings(&plan);
    for (stream, v, other) in [
        (
            "control plane",
            "1.21.14-gke.4300",
            "dev-b runs 1.23.8-gke.1900",
        ),
        (
            "control plane",
            "1.23.8-gke.1900",
            "dev-a runs 1.21.14-gke.4300",
        ),
        ("nodes", "1.21.14-gke.4300", "dev-b runs 1.23.8-gke.1900"),
        ("nodes", "1.23.8-gke.1900", "dev-a runs 1.21.14-gke.4300"),
    ] {
        assert!(
            w.contains(&not_qualified(stream, v, other)),
            "{stream} {v}: {w:#?}"
        );
    }
}

/// A group on 1.20 qualifies 1.21.14, but the next group runs 1.22: its own target is 1.23.8, not the
/// qualified version, so it is not upgraded.
#[wasm_bindgen_test(unsupported = test)]
fn the_next_group_takes_only_its_own_target() {
    let plan = one_plan(&chain(
        &[
            ("dev-a", "dev", "1.20.15-gke.100"),
            ("prod-a", "prod", "1.22.9-gke.100"),
        ],
        R25,
    ));
    assert!(cluster_events(&plan, "prod-a").is_empty());
    assert!(upgrades(&plan).iter().all(|u| !u.starts_with("2 prod")));
    assert_eq!(
        warnings(&plan)
            .into_iter()
            .filter(|w| w.starts_with("group-target-mismatch"))
            .collect::<Vec<_>>(),
        [
            "group-target-mismatch control plane 1.21.14-gke.4300 was qualified by dev for clusters on 1.20, but prod's own target is 1.23.8-gke.1900 (prod-a): GKE auto-upgrades a group only to a version that is its own target and was qualified upstream, so prod is not upgraded. Put both groups on the same minor version (upgrade the clusters that differ manually), or upgrade prod manually",
            "group-target-mismatch nodes 1.21.14-gke.4300 was qualified by dev for clusters on 1.20, but prod's own target is 1.23.8-gke.1900 (prod-a): GKE auto-upgrades a group only to a version that is its own target and was qualified upstream, so prod is not upgraded. Put both groups on the same minor version (upgrade the clusters that differ manually), or upgrade prod manually",
        ]
    );
}

/// Custom stages qualify per minor (a stage's lastQualified…Versions is a map minor → version): a
/// stage on two minors runs both targets, each qualified for the next stage's clusters on that minor.
/// prod-b (1.22) gets 1.23.8 one soak after dev finished it, like prod-a gets 1.21.14.
#[wasm_bindgen_test(unsupported = test)]
fn custom_stages_qualify_each_minor_target() {
    let yaml = format!(
        "{START}clusters:
  - {{name: dev-a, fleet: dev, version: {{controlPlane: 1.20.15-gke.100}}}}
  - {{name: dev-b, fleet: dev, version: {{controlPlane: 1.22.9-gke.100}}}}
  - {{name: prod-a, fleet: prod, version: {{controlPlane: 1.20.15-gke.100}}}}
  - {{name: prod-b, fleet: prod, version: {{controlPlane: 1.22.9-gke.100}}}}
strategy:
  kind: gke-rollout-sequence
  name: seq
  stages:
    - {{fleetProjects: [projects/dev], soakDuration: 1d}}
    - {{fleetProjects: [projects/prod], soakDuration: 1d}}
  versions: {R25}
"
    );
    let plan = one_plan(&yaml);
    assert_eq!(plan.outcome, Outcome::Succeeded, "{:#?}", plan.diagnostics);
    let cp: Vec<String> = upgrades(&plan)
        .into_iter()
        .filter(|u| u.contains("controlPlane"))
        .collect();
    assert_eq!(
        cp,
        [
            "1 dev controlPlane 1.21.14-gke.4300: RUNNING +0m, SOAKING +30m, COMPLETED +1d00h30m",
            "1 dev controlPlane 1.23.8-gke.1900: RUNNING +0m, SOAKING +30m, COMPLETED +1d00h30m",
            "2 prod controlPlane 1.21.14-gke.4300: RUNNING +1d00h30m, SOAKING +1d01h00m, COMPLETED +2d01h00m",
            "2 prod controlPlane 1.23.8-gke.1900: RUNNING +1d00h30m, SOAKING +1d01h00m, COMPLETED +2d01h00m",
        ]
    );
    assert_eq!(
        cluster_events(&plan, "prod-b")[..2],
        [
            "+1d00h30m prod-b: control plane upgrade to 1.23.8-gke.1900 starts",
            "+1d01h00m prod-b: control plane upgraded to 1.23.8-gke.1900",
        ]
    );
}

/// The per-minor form is validated where it is written: a minor that is not MAJOR.MINOR, a target more
/// than one minor above its minor, the same minor twice, and a flat version among per-minor releases.
#[wasm_bindgen_test(unsupported = test)]
fn per_minor_targets_are_checked() {
    let plan = one_plan(&chain(
        &[("dev-a", "dev", "1.20.15-gke.100")],
        "[{targets: {\"1.20\": 1.22.1-gke.1, \"x\": 1.21.1-gke.1, \"1.19\": 1.20.1}}, 1.21.2-gke.1]",
    ));
    assert_eq!(plan.outcome, Outcome::Invalid);
    let shown: Vec<String> = plan
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {}: {}",
                d.code,
                d.path.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "bad-minor-target strategy.versions[0].targets.1.20: target 1.22.1-gke.1 for clusters on 1.20: a target is on the same minor version or the next one (GKE upgrades one minor version at a time)",
            "bad-minor-version strategy.versions[0].targets.x: `x` is not a minor version (write it as MAJOR.MINOR, e.g. \"1.31\")",
            "mixed-version-forms strategy.versions[1].version: version 1.21.2-gke.1 is one target for every minor, but other releases of this sequence give one target per minor (`targets`): write this one as `targets` too, so each cluster's target is known",
        ]
    );
    // Both `version` and `targets` in one release is a reading error.
    let loaded = fleetplan_tests::load(&chain(
        &[("dev-a", "dev", "1.20.15-gke.100")],
        "[{version: 1.21.1-gke.1, targets: {\"1.20\": 1.21.1-gke.1}}]",
    ));
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["conflicting-fields"]);
}
