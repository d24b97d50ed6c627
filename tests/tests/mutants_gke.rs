//! GKE rules that mutation testing (scripts/mutants.sh, bench/mutants.md) found unguarded: reading and
//! writing GKE's own formats. Each test states the rule and its source, and fails if the rule changes.

use fleetplan::gke::export::{export, Format};
use fleetplan::gke::window::{Rule, Window};
use fleetplan::model::MaintenanceWindow;
use fleetplan::model::Strategy;
use fleetplan::{Scenario, Source};
use wasm_bindgen_test::wasm_bindgen_test;

fn load_one(name: &str, text: &str) -> Scenario {
    let mut loaded = fleetplan::load(&[Source { name, text }]);
    assert!(
        loaded.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        loaded.diagnostics
    );
    assert_eq!(loaded.scenarios.len(), 1);
    loaded.scenarios.remove(0)
}

fn sequence_name(s: &Scenario) -> &str {
    match &s.strategy {
        Strategy::GkeRolloutSequence(seq) => &seq.name,
        other => panic!("expected a rollout sequence, got {}", other.kind()),
    }
}

const STAGES: &str = r#""stages": [
    {"fleetProjects": ["projects/testing"], "soakDuration": "1.500s"},
    {"fleetProjects": ["projects/production"], "soakDuration": "259200s"}
  ]"#;

/// A RolloutSequence's resource name is `projects/{p}/locations/global/rolloutSequences/{id}` (gkehub
/// API); the sequence is known by its id. A resource without a name (a hand-written file) is named
/// after its file, like gcloud's stage config, so the plan never shows a sequence without a name.
#[wasm_bindgen_test(unsupported = test)]
fn an_api_sequence_is_named_by_its_id_or_else_by_its_file() {
    let named = format!(
        "{{\"name\": \"projects/testing/locations/global/rolloutSequences/bank-seq\", {STAGES}}}"
    );
    let s = load_one("exports/anything.json", &named);
    assert_eq!(sequence_name(&s), "bank-seq");
    assert_eq!(fleetplan::plan(&s).run, "bank-seq");

    let unnamed = format!("{{{STAGES}}}");
    let s = load_one("exports/canary-first.json", &unnamed);
    assert_eq!(sequence_name(&s), "canary-first");
    assert_eq!(fleetplan::plan(&s).run, "canary-first");
}

/// `fleetplan export --format NAME` takes exactly the names `Format::NAMES` lists, each to its own
/// format: gcloud's stage config (a YAML list of `- stage:` items), the API's RolloutSequence JSON, and
/// the clusterupgrade feature spec, which only a fleet-based chain has.
#[wasm_bindgen_test(unsupported = test)]
fn each_export_format_name_selects_that_format() {
    let s = load_one("seq.json", &format!("{{{STAGES}}}"));
    let by_name = |name: &str| {
        let format = Format::from_name(name).unwrap_or_else(|| panic!("{name} is listed"));
        export(&s, format)
    };
    assert_eq!(Format::NAMES.len(), 3);
    let stage_config = by_name("stage-config").unwrap();
    assert!(stage_config.starts_with("- stage:\n"), "{stage_config}");
    let json = by_name("rollout-sequence-json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stages"][1]["soakDuration"], "259200s");
    let err = by_name("feature-spec").unwrap_err();
    assert!(err.contains("gke-fleet-sequence"), "{err}");
    for unknown in ["", "json", "Stage-Config", "stage_config"] {
        assert_eq!(Format::from_name(unknown), None, "{unknown:?}");
    }
}

/// Soaks are written as the duration they are: gcloud's `soak-duration` in the largest single unit
/// that states it exactly, falling back to (fractional) seconds; the API's protobuf Duration JSON as
/// seconds with the fraction in three digits. Reading the export back gives the same soak.
#[wasm_bindgen_test(unsupported = test)]
fn fractional_second_soaks_are_written_as_seconds() {
    let s = load_one("seq.json", &format!("{{{STAGES}}}"));
    let yaml = export(&s, Format::StageConfig).unwrap();
    assert!(yaml.contains("  soak-duration: 1.5s\n"), "{yaml}");
    assert!(yaml.contains("  soak-duration: 3d\n"), "{yaml}");
    let json = export(&s, Format::RolloutSequenceJson).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stages"][0]["soakDuration"], "1.500s");

    let back = load_one("seq-stage-config.yaml", &yaml);
    let soaks = |s: &Scenario| match &s.strategy {
        Strategy::GkeRolloutSequence(seq) => seq
            .stages
            .iter()
            .map(|st| {
                fleetplan::time::Duration::parse(st.soak_duration.as_deref().unwrap())
                    .unwrap()
                    .millis()
            })
            .collect::<Vec<_>>(),
        _ => unreachable!(),
    };
    assert_eq!(soaks(&back), vec![1_500, 259_200_000]);
    assert_eq!(soaks(&back), soaks(&s));

    // A fractional soak is a valid protobuf Duration and a valid gcloud soak: it plans (the reader
    // once rewrote `1.500s` as `1s500ms`, which the planner refused as a soak).
    for (name, text) in [
        ("seq.json", format!("{{{STAGES}}}")),
        ("seq-stage-config.yaml", yaml),
    ] {
        assert_eq!(all_errors(name, &text), Vec::<String>::new(), "{name}");
    }
}

fn t(s: &str) -> fleetplan::time::Time {
    fleetplan::time::Time::parse(s).unwrap()
}

/// A recurring window given by its first occurrence (RFC 3339 start and end) and an RRULE.
fn window(start: &str, end: &str, rrule: &str) -> Window {
    let w = MaintenanceWindow::Recurring {
        start: start.into(),
        end: end.into(),
        recurrence: rrule.into(),
    };
    Window::parse(&w, 0).unwrap_or_else(|e| panic!("{rrule}: {e:?}"))
}

/// `open → close` of the occurrence containing `at`, or else the next one.
fn occurrence(w: &Window, at: &str) -> String {
    let (open, close) = w.occurrence(t(at)).expect("an occurrence");
    format!("{open} → {close}")
}

/// RFC 5545 §3.3.10: INTERVAL counts in units of FREQ from the first occurrence (DTSTART), so
/// `FREQ=DAILY;INTERVAL=2` opens every other day, `FREQ=MONTHLY;INTERVAL=2` every other month (across
/// a year's end too), on the first occurrence's day of the month when no BYxxx part says otherwise.
#[wasm_bindgen_test(unsupported = test)]
fn rrule_intervals_count_from_the_first_occurrence() {
    let every_other_day = window(
        "2026-11-23T22:00:00Z",
        "2026-11-24T02:00:00Z",
        "FREQ=DAILY;INTERVAL=2",
    );
    // Inside the first occurrence, then the 25th (not the 24th), then the 27th.
    assert_eq!(
        occurrence(&every_other_day, "2026-11-24T01:00:00Z"),
        "2026-11-23T22:00:00Z → 2026-11-24T02:00:00Z"
    );
    assert_eq!(
        occurrence(&every_other_day, "2026-11-24T09:00:00Z"),
        "2026-11-25T22:00:00Z → 2026-11-26T02:00:00Z"
    );
    assert_eq!(
        occurrence(&every_other_day, "2026-11-26T02:00:00Z"),
        "2026-11-27T22:00:00Z → 2026-11-28T02:00:00Z"
    );

    let every_other_month = window(
        "2027-11-15T00:00:00Z",
        "2027-11-15T06:00:00Z",
        "FREQ=MONTHLY;INTERVAL=2",
    );
    assert_eq!(
        occurrence(&every_other_month, "2027-11-16T00:00:00Z"),
        "2028-01-15T00:00:00Z → 2028-01-15T06:00:00Z"
    );
    assert_eq!(
        occurrence(&every_other_month, "2028-01-16T00:00:00Z"),
        "2028-03-15T00:00:00Z → 2028-03-15T06:00:00Z"
    );
}

/// RFC 5545 §3.3.10: a MONTHLY rule's INTERVAL counts months from the first occurrence, whatever
/// the interval: `FREQ=MONTHLY;INTERVAL=5` from 2026-11-14 opens on the 14th of 2026-11, 2027-04,
/// 2027-09 and 2028-02 (five months on, across year ends), and `INTERVAL=3` on 2026-11, 2027-02,
/// 2027-05. The first occurrence is one of them.
#[wasm_bindgen_test(unsupported = test)]
fn monthly_intervals_count_months_from_the_first_occurrence() {
    for (interval, openings) in [
        (5, ["2026-11-14", "2027-04-14", "2027-09-14", "2028-02-14"]),
        (3, ["2026-11-14", "2027-02-14", "2027-05-14", "2027-08-14"]),
    ] {
        let w = window(
            "2026-11-14T01:00:00Z",
            "2026-11-14T07:00:00Z",
            &format!("FREQ=MONTHLY;INTERVAL={interval}"),
        );
        let mut at = "2026-11-14T00:00:00Z".to_string();
        for day in openings {
            assert_eq!(
                occurrence(&w, &at),
                format!("{day}T01:00:00Z → {day}T07:00:00Z"),
                "INTERVAL={interval}, after {at}"
            );
            at = format!("{day}T07:00:00Z");
        }
    }
}

/// RFC 5545 §3.3.10: BYxxx parts of one rule narrow each other; its own example
/// `FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13` is "every Friday the 13th". After Friday 2026-11-13 the next
/// ones are 2027-08-13 and 2028-10-13 (checked on a calendar).
#[wasm_bindgen_test(unsupported = test)]
fn bymonthday_and_byday_together_mean_both() {
    let w = window(
        "2026-11-13T00:00:00Z",
        "2026-11-13T08:00:00Z",
        "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
    );
    assert_eq!(
        occurrence(&w, "2026-11-14T00:00:00Z"),
        "2027-08-13T00:00:00Z → 2027-08-13T08:00:00Z"
    );
    assert_eq!(
        occurrence(&w, "2027-08-14T00:00:00Z"),
        "2028-10-13T00:00:00Z → 2028-10-13T08:00:00Z"
    );
}

/// RFC 5545 §3.3.10: "The BYMONTHDAY rule part MUST NOT be specified when the FREQ rule part is set
/// to WEEKLY"; with DAILY or MONTHLY it is allowed.
#[wasm_bindgen_test(unsupported = test)]
fn bymonthday_is_refused_with_a_weekly_rule_only() {
    let err = Rule::parse("FREQ=WEEKLY;BYMONTHDAY=1").unwrap_err();
    assert_eq!(
        err,
        "RRULE `FREQ=WEEKLY;BYMONTHDAY=1`: BYMONTHDAY cannot be used with FREQ=WEEKLY"
    );
    for ok in ["FREQ=DAILY;BYMONTHDAY=1", "FREQ=MONTHLY;BYMONTHDAY=1"] {
        assert!(Rule::parse(ok).is_ok(), "{ok}");
    }
}

/// A window's times of day are hours and minutes (GKE's `HH:MM`, UTC): a daily window at 22:30 opens
/// at 22:30 and, being GKE's 4-hour block, closes at 02:30.
#[wasm_bindgen_test(unsupported = test)]
fn window_times_keep_their_minutes() {
    let daily = MaintenanceWindow::Daily {
        start: "22:30".into(),
    };
    let monday = t("2026-11-23T09:00:00Z").0.div_euclid(86_400_000);
    let w = Window::parse(&daily, monday).unwrap();
    assert_eq!(
        occurrence(&w, "2026-11-23T09:00:00Z"),
        "2026-11-23T22:30:00Z → 2026-11-24T02:30:00Z"
    );
    assert_eq!(&*w.label, "window daily 22:30–02:30 UTC");
}

/// RFC 5545: a WEEKLY rule without BYDAY repeats on the first occurrence's weekday; the window's
/// label (shown on every wait bar) names that weekday.
#[wasm_bindgen_test(unsupported = test)]
fn a_weekly_rule_without_byday_repeats_on_the_first_days_weekday() {
    // 2026-11-28 is a Saturday, 2026-11-25 a Wednesday.
    let saturday = window(
        "2026-11-28T02:00:00Z",
        "2026-11-28T06:00:00Z",
        "FREQ=WEEKLY",
    );
    assert_eq!(&*saturday.label, "window Sat 02:00–06:00 UTC");
    assert_eq!(
        occurrence(&saturday, "2026-11-28T07:00:00Z"),
        "2026-12-05T02:00:00Z → 2026-12-05T06:00:00Z"
    );
    let wednesday = window(
        "2026-11-25T02:00:00Z",
        "2026-11-25T06:00:00Z",
        "FREQ=WEEKLY",
    );
    assert_eq!(&*wednesday.label, "window Wed 02:00–06:00 UTC");
}

/// GKE: a maintenance policy needs "at least 48h of availability in any 32 days" (gke.md §4), and the
/// error names the 32 days that fall short, from their first day. Saturdays 02:00–08:00 from Saturday
/// 2026-11-28 (the plan's day): the 32 days from the 28th hold five Saturdays (28, 5, 12, 19, 26: 30h),
/// the 32 days from Sunday the 29th only four (24h), the least any 32 days hold; so the error names
/// 24h (written 1d, as the plan writes durations) and 2026-11-29.
#[wasm_bindgen_test(unsupported = test)]
fn the_availability_error_names_the_first_32_days_that_fall_short() {
    let yaml = r#"
start: 2026-11-28T09:00:00Z
clusters:
  - name: c
    fleet: projects/dev
    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}
    releaseChannel: REGULAR
    maintenance: {window: {start: "02:00", end: "08:00", recurrence: "FREQ=WEEKLY;BYDAY=SA"}}
strategy:
  kind: gke-rollout-sequence
  name: s
  stages:
    - {fleetProjects: [projects/dev], soakDuration: 1d}
  versions:
    - {version: 1.31.5-gke.1200000, at: 2026-11-28T09:00:00Z}
"#;
    let (loaded, plans) = fleetplan_tests::load_and_plan(yaml);
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .chain(&plans[0].diagnostics)
        .filter(|d| d.code == "maintenance-window-too-short")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["Maintenance policy would go longer than 32d without 48h maintenance availability. (window Sat 02:00–08:00 UTC gives 1d of availability in the 32 days from 2026-11-29; GKE counts only spans of at least 4h)"]
    );
}

/// `n` labels `k0: v`, `k1: v`, … as a flow map (YAML or JSON with quotes).
fn n_labels(n: usize, quote: &str) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!("{quote}k{i}{quote}: {quote}v{quote}"))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// `code path message` of every error, from reading and from planning.
fn all_errors(name: &str, text: &str) -> Vec<String> {
    let loaded = fleetplan::load(&[Source { name, text }]);
    let planned: Vec<_> = loaded.scenarios.iter().map(fleetplan::plan).collect();
    loaded
        .diagnostics
        .iter()
        .chain(planned.iter().flat_map(|p| &p.diagnostics))
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {} {}",
                d.code,
                d.path.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect()
}

/// Google Cloud's "Requirements for labels": at most 64 labels on a resource (gke.md §5). A GKE
/// cluster made by a generator carries all the generator's labels, so 64 pass and 65 are refused at
/// the generator, with the limit in the text; a RolloutSequence read from the API's JSON is a resource
/// too, and its own `labels` follow the same count.
#[wasm_bindgen_test(unsupported = test)]
fn at_most_64_labels_on_generated_clusters_and_on_a_rollout_sequence() {
    let generated = |n: usize| {
        format!(
            "generate:
  - {{count: 2, name: \"dev-{{i}}\", fleet: dev, labels: {}}}
strategy:
  kind: gke-fleet-sequence
  name: seq
  groups: [{{fleet: dev}}]
",
            n_labels(n, "")
        )
    };
    assert_eq!(all_errors("s.yaml", &generated(64)), Vec::<String>::new());
    assert_eq!(
        all_errors("s.yaml", &generated(65)),
        ["gke-too-many-labels generate[0].labels the clusters of generate[0] have 65 labels; Google Cloud allows at most 64 labels on a resource"]
    );

    let sequence = |n: usize| format!("{{\"labels\": {}, {STAGES}}}", n_labels(n, "\""));
    assert_eq!(all_errors("seq.json", &sequence(64)), Vec::<String>::new());
    assert_eq!(
        all_errors("seq.json", &sequence(65)),
        ["gke-too-many-labels labels the RolloutSequence has 65 labels; Google Cloud allows at most 64 labels on a resource"]
    );
}
