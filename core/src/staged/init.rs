//! Run initialization as KubeFleet's controller does it: validate the strategy, assign the scheduled
//! clusters to stages, sort each stage, resolve maxConcurrency. Unlike the controller, which stops at
//! the first problem, every problem is reported; the stages are still computed as far as possible.
//!
//! Mirrors `pkg/controllers/updaterun/initialization.go` and the CRD schema of
//! `apis/placement/v1beta1/stageupdate_types.go`.

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostic;
use crate::model::{FleetCluster, IntOrString, StageConfig, StageTask, StagedRun};
use crate::plan::Name;
use crate::selector::{self, Selects};
use crate::time::{is_kubefleet_wait_time, Duration};

use crate::placement;

/// Every initialization failure reaches the user wrapped in this prefix.
pub const INIT_PREFIX: &str =
    "cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: ";
pub const DELETE_STAGE: &str = "kubernetes-fleet.io/deleteStage";

#[derive(Clone, Debug)]
pub struct Member {
    /// Shared with the cluster's row and its events' name table, which copy a pointer.
    pub name: Name,
    /// Index into the fleet; `None` for a to-be-deleted cluster that is no longer a member.
    pub fleet_index: Option<usize>,
    pub sort_value: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct InitStage {
    pub name: String,
    pub delete_stage: bool,
    pub members: Vec<Member>,
    pub max_concurrency: usize,
    pub before_approval: bool,
    pub after_wait: Option<Duration>,
    pub after_approval: bool,
}

pub struct Init {
    pub stages: Vec<InitStage>,
    /// False when the real controller would refuse to initialize the run.
    pub valid: bool,
    pub selected: usize,
    /// The placement's name and the run's namespace (`None`: cluster-scoped), which the controller's
    /// messages about bindings quote.
    pub placement: String,
    pub namespace: Option<String>,
    /// Selected clusters no stage takes (`cluster-in-no-stage`), sorted as the controller lists them.
    pub unstaged: Vec<String>,
    /// The placement's apply strategy is ReportDiff: a cluster is done once its diff is reported.
    pub report_diff: bool,
}

/// The strategy's identity as errors print it: `types.NamespacedName` renders as `namespace/name`,
/// hence `/name` for the cluster-scoped ClusterStagedUpdateStrategy.
pub fn strategy_key(run: &StagedRun) -> String {
    format!("{}/{}", run.namespace.as_deref().unwrap_or(""), run.name)
}

fn init_error(code: &'static str, msg: String) -> Diagnostic {
    Diagnostic::error(code, format!("{INIT_PREFIX}{msg}"))
}

/// Go's `strconv.Atoi` on a 64-bit platform, with its error text (`NumError` quotes the input with
/// `strconv.Quote`).
pub fn go_atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.Atoi: parsing {}: invalid syntax",
            crate::quote::go_quote(s)
        ));
    }
    // Up to 18 digits cannot overflow: summed directly, as wasm has no cheap overflow check for a
    // 64-bit multiply (`str::parse` calls a 128-bit multiply per digit there); a sorting label is
    // read for every cluster of a stage.
    if digits.len() <= 18 {
        let n = digits
            .bytes()
            .fold(0i64, |n, b| n * 10 + i64::from(b - b'0'));
        return Ok(if s.starts_with('-') { -n } else { n });
    }
    s.parse::<i64>().map_err(|_| {
        format!(
            "strconv.Atoi: parsing {}: value out of range",
            crate::quote::go_quote(s)
        )
    })
}

/// What the controller has when the API server refused the strategy outright (more stages than the
/// CRD allows): nothing to initialize, and nothing is matched against the fleet.
pub fn refused(run: &StagedRun) -> Init {
    // The run still has its (empty) delete stage: the simulation always ends with it.
    let delete = InitStage {
        name: DELETE_STAGE.into(),
        delete_stage: true,
        members: Vec::new(),
        max_concurrency: 1,
        before_approval: false,
        after_wait: None,
        after_approval: false,
    };
    Init {
        stages: vec![delete],
        valid: false,
        selected: 0,
        placement: run.placement.name.clone(),
        namespace: run.namespace.clone(),
        unstaged: Vec::new(),
        report_diff: run.placement.reports_diff(),
    }
}

/// `in_name_order`: the fleet's names increase along it ([`crate::model::Scenario::fleet_in_order`]).
pub fn initialize(
    run: &StagedRun,
    fleet: &[FleetCluster],
    in_name_order: bool,
    diags: &mut Vec<Diagnostic>,
) -> Init {
    let before = diags.iter().filter(|d| d.is_error()).count();
    check_objects(run, diags);
    let selected = placement::schedule(&run.placement, fleet, diags);
    if let Some(expected) = placement::expected_count(&run.placement) {
        if expected != selected.len() {
            diags.push(
                init_error(
                    "placement-count-mismatch",
                    format!(
                        "the number of selected bindings {} is not equal to the observed cluster count {expected}",
                        selected.len()
                    ),
                )
                .at("strategy.placement"),
            );
        }
    }
    let mut is_selected = vec![false; fleet.len()];
    for &i in &selected {
        is_selected[i] = true;
    }
    let key = strategy_key(run);

    let mut placed = vec![false; fleet.len()];
    let mut placed_count = 0usize;
    let mut stages = Vec::with_capacity(run.stages.len() + 1);
    let mut seen_names: HashMap<&str, usize> = HashMap::new();
    // Each cluster can be wrong in every stage: listed a hundred times per kind, then counted.
    let mut cap = crate::diag::Cap::default();
    for (s, stage) in run.stages.iter().enumerate() {
        let path = format!("strategy.stages[{s}]");
        if let Some(first) = seen_names.insert(stage.name.as_str(), s) {
            diags.push(
                Diagnostic::warning(
                    "duplicate-stage-name",
                    format!(
                        "stages[{first}] and stages[{s}] are both named `{}`: KubeFleet documents stage names as unique but does not enforce it, and both stages' approval requests get the same name",
                        stage.name
                    ),
                )
                .at(format!("{path}.name")),
            );
        }
        let (before_approval, after_wait, after_approval) = check_tasks(run, stage, s, &key, diags);

        let selector_ok = match &stage.label_selector {
            Some(sel) => match selector::validate(sel) {
                Ok(()) => true,
                Err(err) => {
                    diags.push(
                        init_error(
                            "invalid-stage-selector",
                            format!("the stage label selector is invalid, updateStrategy: `{key}`, stage: {}, err: {err}", stage.name),
                        )
                        .at(format!("{path}.labelSelector")),
                    );
                    false
                }
            },
            None => {
                diags.push(
                    Diagnostic::warning(
                        "stage-without-selector",
                        format!("stage `{}` has no labelSelector, so it selects no cluster (an absent selector selects none; `{{}}` selects all)", stage.name),
                    )
                    .at(path.clone()),
                );
                true
            }
        };

        let mut members = Vec::new();
        if selector_ok {
            let stage_selector = selector::Compiled::new(stage.label_selector.as_ref());
            for (idx, fc) in fleet.iter().enumerate() {
                if !is_selected[idx] || !stage_selector.matches(&fc.cluster.labels) {
                    continue;
                }
                if placed[idx] {
                    cap.push(
                        diags,
                        init_error(
                            "cluster-in-two-stages",
                            format!(
                                "cluster `{}` appears in more than one stages",
                                fc.cluster.name
                            ),
                        )
                        .at(format!("{path}.labelSelector")),
                    );
                    continue;
                }
                let sort_value = match &stage.sorting_label_key {
                    None => None,
                    Some(k) => {
                        let raw = fc.cluster.labels.get(k).unwrap_or("");
                        match go_atoi(raw) {
                            Ok(v) => Some(v),
                            Err(err) => {
                                cap.push(
                                    diags,
                                    init_error(
                                        "invalid-sorting-label",
                                        format!("the sorting label `{k}:{raw}` on cluster `{}` is not valid: {err}", fc.cluster.name),
                                    )
                                    .at(fc.path),
                                );
                                // The controller's text reads `order:` for an empty value; say so plainly.
                                if raw.is_empty() {
                                    let why = if fc.cluster.labels.contains_key(k) {
                                        "is empty"
                                    } else {
                                        "is missing (so it reads as empty)"
                                    };
                                    diags.push(
                                        Diagnostic::info(
                                            "sorting-label-empty",
                                            format!("the value of label `{k}` on cluster `{}` {why}; stage `{}` sorts its clusters by this label, so every one of them needs an integer value", fc.cluster.name, stage.name),
                                        )
                                        .at(fc.path),
                                    );
                                }
                                // The controller's comparator reads a bad value as 0 (it ignores Atoi's error).
                                Some(0)
                            }
                        }
                    }
                };
                placed[idx] = true;
                placed_count += 1;
                members.push(Member {
                    name: fc.cluster.name.clone(),
                    fleet_index: Some(idx),
                    sort_value,
                });
            }
        }
        // Sort by the label's integer (ties by name) or by name alone, comparing bytes as Go does.
        // Members are taken in the fleet's order: in a fleet in name order that is their name
        // order, so ties go by place and a stage without a sorting label is sorted already (no
        // name compared: in wasm each comparison was a byte-by-byte `memcmp` call).
        // One comparator for both cases: a second would be a second copy of the sort in the app.
        if !in_name_order || stage.sorting_label_key.is_some() {
            crate::sort::sort_by(&mut members, |a, b| {
                a.sort_value.cmp(&b.sort_value).then_with(|| {
                    if in_name_order {
                        a.fleet_index.cmp(&b.fleet_index)
                    } else {
                        a.name.as_bytes().cmp(b.name.as_bytes())
                    }
                })
            });
        }
        let max_concurrency =
            effective_max_concurrency(stage.max_concurrency.as_ref(), members.len());
        if members.is_empty()
            && matches!(
                selector::selects(stage.label_selector.as_ref()),
                Selects::Some | Selects::Everything
            )
        {
            diags.push(
                Diagnostic::info(
                    "empty-stage",
                    format!("stage `{}` selects no scheduled cluster: the run skips it together with its before- and after-stage tasks", stage.name),
                )
                .at(format!("{path}.labelSelector")),
            );
        }
        if let Some(IntOrString::Str(p)) = &stage.max_concurrency {
            if let Some(pct) = parse_percent(p) {
                if !members.is_empty() && pct * members.len() < 100 {
                    diags.push(
                        Diagnostic::info(
                            "max-concurrency-floor",
                            format!(
                                "maxConcurrency {p} of {} clusters rounds down to 0; the controller uses 1",
                                members.len()
                            ),
                        )
                        .at(format!("{path}.maxConcurrency")),
                    );
                }
            }
        }
        stages.push(InitStage {
            name: stage.name.clone(),
            delete_stage: false,
            members,
            max_concurrency,
            before_approval,
            after_wait,
            after_approval,
        });
    }

    let mut unstaged = Vec::new();
    if placed_count != selected.len() {
        let mut missing: Vec<&str> = selected
            .iter()
            .filter(|&&i| !placed[i])
            .map(|&i| fleet[i].cluster.name.as_str())
            .collect();
        crate::sort::sort_by(&mut missing, |a, b| a.as_bytes().cmp(b.as_bytes()));
        let shown = missing[..missing.len().min(10)].join(", ");
        diags.push(
            init_error(
                "cluster-in-no-stage",
                format!("some clusters are not placed in any stage, total {}, showing up to 10: {shown}", missing.len()),
            )
            .at("strategy.stages"),
        );
        unstaged = missing.into_iter().map(str::to_string).collect();
    }

    stages.push(delete_stage(run, fleet, &is_selected, diags));
    let valid = diags.iter().filter(|d| d.is_error()).count() == before;
    Init {
        stages,
        valid,
        selected: selected.len(),
        placement: run.placement.name.clone(),
        namespace: run.namespace.clone(),
        unstaged,
        report_diff: run.placement.reports_diff(),
    }
}

fn delete_stage(
    run: &StagedRun,
    fleet: &[FleetCluster],
    selected: &[bool],
    diags: &mut Vec<Diagnostic>,
) -> InitStage {
    let mut members: Vec<Member> = Vec::new();
    let index: HashMap<&str, usize> = if run.delete_clusters.is_empty() {
        HashMap::new()
    } else {
        fleet
            .iter()
            .enumerate()
            .map(|(i, fc)| (fc.cluster.name.as_str(), i))
            .collect()
    };
    let mut listed: HashSet<&str> = HashSet::new();
    for (i, name) in run.delete_clusters.iter().enumerate() {
        let fleet_index = index.get(name.as_str()).copied();
        if fleet_index.is_some_and(|idx| selected[idx]) {
            diags.push(
                Diagnostic::error(
                    "delete-scheduled-cluster",
                    format!("cluster `{name}` is both scheduled by the placement and listed for deletion; a binding is either scheduled or unscheduled"),
                )
                .at(format!("strategy.deleteClusters[{i}]")),
            );
            continue;
        }
        if !listed.insert(name.as_str()) {
            continue;
        }
        members.push(Member {
            name: name.as_str().into(),
            fleet_index,
            sort_value: None,
        });
    }
    crate::sort::sort_by(&mut members, |a, b| {
        a.name.as_bytes().cmp(b.name.as_bytes())
    });
    let n = members.len().max(1);
    InitStage {
        name: DELETE_STAGE.into(),
        delete_stage: true,
        members,
        max_concurrency: n,
        before_approval: false,
        after_wait: None,
        after_approval: false,
    }
}

/// What the controller checks of the run's objects at initialization (the API server's checks are in
/// `admission`), and what their state means for the plan.
fn check_objects(run: &StagedRun, diags: &mut Vec<Diagnostic>) {
    match run.run.state.as_str() {
        "Initialize" => diags.push(
            Diagnostic::warning(
                "run-state-initialize",
                "the run's state is Initialize: the controller computes the stages and waits; nothing updates until the state is set to Run. The plan shows what happens once it is",
            )
            .at("strategy.run.state"),
        ),
        "Stop" => diags.push(
            Diagnostic::warning(
                "run-state-stop",
                "the run's state is Stop: no cluster starts until the state is set to Run. The plan shows what happens once it is",
            )
            .at("strategy.run.state"),
        ),
        _ => {}
    }
    if let Some(index) = &run.run.resource_snapshot_index {
        if !index.is_empty() && go_atoi(index).map_or(true, |v| v < 0) {
            diags.push(
                init_error(
                    "invalid-resource-snapshot-index",
                    format!("invalid resource snapshot index `{index}` provided, expected an integer >= 0"),
                )
                .at("strategy.run.resourceSnapshotIndex"),
            );
        }
    }
    let placement = &run.placement;
    if placement.strategy_type != "External" {
        diags.push(
            init_error(
                "placement-not-external",
                format!("parent placement does not have an external rollout strategy, current strategy: {}", placement.strategy_type),
            )
            .at("strategy.placement.strategyType"),
        );
    }
}

/// The controller's task validation (initialization errors) and what the tasks mean for the simulation.
fn check_tasks(
    run: &StagedRun,
    stage: &StageConfig,
    s: usize,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> (bool, Option<Duration>, bool) {
    let path = format!("strategy.stages[{s}]");
    let before_err = |msg: String| {
        init_error(
            "invalid-before-stage-tasks",
            format!("the before stage tasks are invalid, updateStrategy: `{key}`, stage: {}, err: {msg}", stage.name),
        )
        .at(format!("{path}.beforeStageTasks"))
    };
    let before = &stage.before_stage_tasks;
    if before.len() > 1 {
        diags.push(before_err(
            "beforeStageTasks can have at most one task".into(),
        ));
    }
    for (t, task) in before.iter().enumerate() {
        if task.kind != "Approval" {
            diags.push(before_err(format!(
                "task {t} of type {} is not allowed in beforeStageTasks, allowed type: Approval",
                task.kind
            )));
        } else if task.wait_time.is_some() {
            diags.push(before_err(format!(
                "task {t} of type Approval cannot have wait duration set"
            )));
        }
    }
    let before_approval = before.iter().any(|t| t.kind == "Approval");

    let after = &stage.after_stage_tasks;
    let after_err = |msg: String| {
        init_error(
            "invalid-after-stage-tasks",
            format!(
                "the after stage tasks are invalid, updateStrategy: `{key}`, stage: {}, err: {msg}",
                stage.name
            ),
        )
        .at(format!("{path}.afterStageTasks"))
    };
    if after.len() == 2 && after[0].kind == after[1].kind {
        diags.push(after_err(format!(
            "afterStageTasks cannot have two tasks of the same type: {}",
            after[0].kind
        )));
    }
    let mut after_wait = None;
    for (t, task) in after
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind == "TimedWait")
    {
        match &task.wait_time {
            None => diags.push(after_err(format!(
                "task {t} of type TimedWait has wait duration set to nil"
            ))),
            Some(w) if is_kubefleet_wait_time(w) => match Duration::parse_go(w) {
                Some(d) if d.0 > 0 => after_wait = after_wait.or(Some(d)),
                _ => diags.push(after_err(format!(
                    "task {t} of type TimedWait has wait duration <= 0"
                ))),
            },
            Some(_) => {} // refused by the API server's schema
        }
    }
    let after_approval = after.iter().any(|t: &StageTask| t.kind == "Approval");
    let _ = run;
    (before_approval, after_wait, after_approval)
}

/// `N%` → N when it matches the CRD pattern `^(100|[1-9][0-9]?)%$`.
pub fn parse_percent(text: &str) -> Option<usize> {
    let digits = text.strip_suffix('%')?;
    let ok = digits == "100"
        || (matches!(digits.len(), 1 | 2)
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        digits.parse().ok()
    } else {
        None
    }
}

/// `calculateMaxConcurrencyValue`: percentages scale down against the stage's cluster count, and a
/// result of 0 becomes 1. Invalid values (already reported) fall back to the default, 1.
pub fn effective_max_concurrency(value: Option<&IntOrString>, clusters: usize) -> usize {
    let v = match value {
        None => 1,
        Some(IntOrString::Int(n)) => usize::try_from(*n).unwrap_or(1),
        Some(IntOrString::Str(p)) => parse_percent(p).map_or(1, |pct| pct * clusters / 100),
    };
    v.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn atoi_matches_go() {
        assert_eq!(go_atoi("+5"), Ok(5));
        assert_eq!(go_atoi("-3"), Ok(-3));
        assert_eq!(go_atoi("007"), Ok(7));
        assert_eq!(
            go_atoi("1.0"),
            Err("strconv.Atoi: parsing \"1.0\": invalid syntax".into())
        );
        assert_eq!(
            go_atoi(" 1"),
            Err("strconv.Atoi: parsing \" 1\": invalid syntax".into())
        );
        assert_eq!(
            go_atoi(""),
            Err("strconv.Atoi: parsing \"\": invalid syntax".into())
        );
        assert_eq!(
            go_atoi("99999999999999999999"),
            Err("strconv.Atoi: parsing \"99999999999999999999\": value out of range".into())
        );
        // NumError quotes with strconv.Quote: a bell is `\a`, a tab `\t` (Rust's `{:?}` writes `\u{7}`).
        assert_eq!(
            go_atoi("1\u{7}\t"),
            Err("strconv.Atoi: parsing \"1\\a\\t\": invalid syntax".into())
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn atoi_is_int64_on_both_sides_of_its_range() {
        // strconv.Atoi on a 64-bit platform: i64::MAX and MIN parse, one beyond does not.
        assert_eq!(go_atoi("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(go_atoi("-9223372036854775808"), Ok(i64::MIN));
        assert!(go_atoi("9223372036854775808")
            .unwrap_err()
            .ends_with("value out of range"));
        assert!(go_atoi("-9223372036854775809")
            .unwrap_err()
            .ends_with("value out of range"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn atoi_reads_every_length_of_digits_as_a_signed_decimal() {
        // Rule: what Go's Atoi gives is the decimal value with its sign, for 1 to 19 digits, with and
        // without leading zeros (Rust's i64 parse agrees with it on these).
        for len in 1..=19 {
            for digits in ["9".repeat(len), "1".repeat(len), format!("{:0>len$}", 7)] {
                for sign in ["", "+", "-"] {
                    let s = format!("{sign}{digits}");
                    assert_eq!(go_atoi(&s).ok(), s.parse::<i64>().ok(), "{s}");
                }
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_percent_pattern_accepts_1_to_100_exactly() {
        // ^(100|[1-9][0-9]?)%$: 1%..99% without a leading zero, and 100%.
        for ok in ["1%", "9%", "10%", "99%", "100%"] {
            assert!(parse_percent(ok).is_some(), "{ok}");
        }
        for bad in ["0%", "01%", "101%", "1000%", "100", "%", "1.5%", " 1%"] {
            assert_eq!(parse_percent(bad), None, "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn percent_max_concurrency_rounds_down_on_both_sides_of_each_step() {
        // calculateMaxConcurrencyValue: GetScaledValueFromIntOrPercent(.., roundUp=false), then 0 → 1.
        let p = |s: &str| IntOrString::Str(s.into());
        // 50% of 3 = 1.5 → 1 (not 2); of 4 = 2 exactly.
        assert_eq!(effective_max_concurrency(Some(&p("50%")), 3), 1);
        assert_eq!(effective_max_concurrency(Some(&p("50%")), 4), 2);
        // 25% of 7 = 1.75 → 1; of 8 = 2.
        assert_eq!(effective_max_concurrency(Some(&p("25%")), 7), 1);
        assert_eq!(effective_max_concurrency(Some(&p("25%")), 8), 2);
        // 10% of 9 = 0.9 → 0 → the minimum 1; of 10 = 1; of 19 = 1.9 → 1; of 20 = 2.
        assert_eq!(effective_max_concurrency(Some(&p("10%")), 9), 1);
        assert_eq!(effective_max_concurrency(Some(&p("10%")), 10), 1);
        assert_eq!(effective_max_concurrency(Some(&p("10%")), 19), 1);
        assert_eq!(effective_max_concurrency(Some(&p("10%")), 20), 2);
        // An integer is taken as it is, above the cluster count too; 1 is the default.
        assert_eq!(effective_max_concurrency(Some(&IntOrString::Int(1)), 5), 1);
        assert_eq!(effective_max_concurrency(Some(&IntOrString::Int(6)), 5), 6);
        assert_eq!(effective_max_concurrency(None, 5), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn percent_max_concurrency_floors_with_minimum_one() {
        let p = |s: &str| IntOrString::Str(s.into());
        assert_eq!(effective_max_concurrency(Some(&p("25%")), 10), 2);
        assert_eq!(effective_max_concurrency(Some(&p("10%")), 5), 1);
        assert_eq!(effective_max_concurrency(Some(&p("100%")), 7), 7);
        assert_eq!(
            effective_max_concurrency(Some(&IntOrString::Int(50)), 3),
            50
        );
        assert_eq!(effective_max_concurrency(None, 9), 1);
        assert_eq!(parse_percent("0%"), None);
        assert_eq!(parse_percent("05%"), None);
        assert_eq!(parse_percent("101%"), None);
    }
}
