//! The staged run's objects on their way into the hub, before the controller initializes anything:
//! the ClusterStagedUpdateStrategy and the ClusterStagedUpdateRun through the API server (schema,
//! then CEL rules), the placement through its own three layers (`placement::admission`). An object
//! the API server refuses never reaches the controller, so the controller's texts about it are not
//! shown.
//!
//! Markers and messages from `apis/placement/v1beta1/stageupdate_types.go`: stage name
//! `MaxLength=63`, `Pattern="^[a-z0-9]+$"`; `maxConcurrency` pattern and CEL "maxConcurrency must be
//! at least 1"; `afterStageTasks` `MaxItems=2`, `beforeStageTasks` `MaxItems=1`, each with its CEL
//! rules on the list; task `type` `Enum=TimedWait;Approval`; `waitTime` pattern; `stages`
//! `MaxItems=31`; the run's root rule "metadata.name max length is 63", `state`
//! `Enum=Initialize;Run;Stop`, the state-transition and immutability rules on `spec`.

use crate::admission::{api_server, FieldError, Object};
use crate::diag::Diagnostic;
use crate::labels;
use crate::model::{IntOrString, RunSpec, StageTask, StagedRun};
use crate::placement::admission::{self as crp, Crp, Paths};
use crate::time::is_kubefleet_wait_time;

use super::init::parse_percent;

pub const MAX_STAGES: usize = 31;
pub const MAX_NAME: usize = 63;
pub const MAX_PLACEMENT_NAME: usize = 255;
pub const STAGE_NAME_PATTERN: &str = "^[a-z0-9]+$";
pub const PERCENT_PATTERN: &str = "^(100|[1-9][0-9]?)%$";
pub const WAIT_TIME_PATTERN: &str = r"^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$";
const TASK_TYPES: &[&str] = &["TimedWait", "Approval"];
const STATES: &[&str] = &["Initialize", "Run", "Stop"];
const APPROVAL_WAIT: &str = "AfterStageTaskType is Approval, waitTime is not allowed";
/// The CEL transitions the run's `spec` forbids (old state, new state).
const FORBIDDEN: &[(&str, &str)] = &[
    ("Initialize", "Stop"),
    ("Run", "Initialize"),
    ("Stop", "Initialize"),
];

/// Which of the run's objects the hub accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    pub strategy: bool,
    pub run: bool,
    pub placement: bool,
}

impl Admitted {
    /// Every object exists: the controller gets to initialize the run.
    pub fn all(self) -> bool {
        self.strategy && self.run && self.placement
    }
}

pub fn admit(run: &StagedRun, diags: &mut Vec<Diagnostic>) -> Admitted {
    let strategy = Object {
        kind: if run.namespace.is_some() {
            "StagedUpdateStrategy"
        } else {
            "ClusterStagedUpdateStrategy"
        },
        name: &run.name,
    };
    let strategy_ok = api_server(strategy, strategy_schema(run), || strategy_cel(run), diags);
    let run_obj = Object {
        kind: if run.namespace.is_some() {
            "StagedUpdateRun"
        } else {
            "ClusterStagedUpdateRun"
        },
        name: &run.run.name,
    };
    let run_ok = api_server(run_obj, run_schema(run), || run_cel(&run.run, run), diags);
    let placement_ok = crp::admit(
        Crp {
            placement: &run.placement,
            rolling_update: run.placement.rolling_update.as_ref(),
            namespaced: run.namespace.is_some(),
        },
        Paths {
            placement: "strategy.placement",
            rolling_update: "strategy.placement.rollingUpdate",
        },
        diags,
    );
    Admitted {
        strategy: strategy_ok,
        run: run_ok,
        placement: placement_ok,
    }
}

/// `metadata.name` of a custom resource: a DNS subdomain (ObjectMeta validation, before the schema).
fn name_errors(code: &'static str, name: &str, at: &str) -> Vec<FieldError> {
    labels::subdomain_errors(name)
        .iter()
        .map(|m| FieldError::invalid(code, "metadata.name", name, m, at))
        .collect()
}

fn strategy_schema(run: &StagedRun) -> Vec<FieldError> {
    let mut errs = name_errors("strategy-name", &run.name, "strategy.name");
    if run.stages.len() > MAX_STAGES {
        errs.push(FieldError::too_many(
            "too-many-stages",
            "spec.stages",
            run.stages.len(),
            MAX_STAGES,
            "strategy.stages",
        ));
    }
    for (s, stage) in run.stages.iter().enumerate() {
        let field = format!("spec.stages[{s}]");
        let path = format!("strategy.stages[{s}]");
        let name_field = format!("{field}.name");
        let name_at = format!("{path}.name");
        if stage.name.is_empty() {
            errs.push(FieldError::required(
                "stage-name-missing",
                &name_field,
                &name_at,
            ));
        } else {
            // kube-openapi checks both: a long name with a capital gets both errors.
            if stage.name.len() > MAX_NAME {
                errs.push(FieldError::too_long(
                    "stage-name-too-long",
                    &name_field,
                    MAX_NAME,
                    &name_at,
                ));
            }
            if !stage
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                errs.push(FieldError::pattern(
                    "stage-name-pattern",
                    &name_field,
                    &stage.name,
                    STAGE_NAME_PATTERN,
                    &name_at,
                ));
            }
        }
        if let Some(IntOrString::Str(p)) = &stage.max_concurrency {
            if parse_percent(p).is_none() {
                errs.push(FieldError::pattern(
                    "max-concurrency-pattern",
                    &format!("{field}.maxConcurrency"),
                    p,
                    PERCENT_PATTERN,
                    &format!("{path}.maxConcurrency"),
                ));
            }
        }
        for (side, tasks, max) in [
            ("afterStageTasks", &stage.after_stage_tasks, 2usize),
            ("beforeStageTasks", &stage.before_stage_tasks, 1),
        ] {
            if tasks.len() > max {
                errs.push(FieldError::too_many(
                    "too-many-tasks",
                    &format!("{field}.{side}"),
                    tasks.len(),
                    max,
                    &format!("{path}.{side}"),
                ));
            }
            for (t, task) in tasks.iter().enumerate() {
                let tf = format!("{field}.{side}[{t}]");
                let tp = format!("{path}.{side}[{t}]");
                if task.kind.is_empty() {
                    errs.push(FieldError::required(
                        "task-type-missing",
                        &format!("{tf}.type"),
                        &format!("{tp}.type"),
                    ));
                } else if !TASK_TYPES.contains(&task.kind.as_str()) {
                    errs.push(FieldError::not_supported(
                        "task-type-unsupported",
                        &format!("{tf}.type"),
                        &task.kind,
                        TASK_TYPES,
                        &format!("{tp}.type"),
                    ));
                }
                if let Some(w) = task
                    .wait_time
                    .as_deref()
                    .filter(|w| !is_kubefleet_wait_time(w))
                {
                    errs.push(FieldError::pattern(
                        "wait-time-pattern",
                        &format!("{tf}.waitTime"),
                        w,
                        WAIT_TIME_PATTERN,
                        &format!("{tp}.waitTime"),
                    ));
                }
            }
        }
    }
    errs
}

/// The CEL rules on each stage; they run only when the schema found nothing blocking.
fn strategy_cel(run: &StagedRun) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (s, stage) in run.stages.iter().enumerate() {
        let field = format!("spec.stages[{s}]");
        let path = format!("strategy.stages[{s}]");
        if let Some(IntOrString::Int(n)) = stage.max_concurrency {
            if n < 1 {
                // An int-or-string node has no schema type: the bad value is "".
                errs.push(FieldError::cel(
                    "max-concurrency-too-small",
                    &format!("{field}.maxConcurrency"),
                    "",
                    "maxConcurrency must be at least 1",
                    &format!("{path}.maxConcurrency"),
                ));
            }
        }
        let approval_wait = |tasks: &[StageTask]| {
            tasks
                .iter()
                .any(|t| t.kind == "Approval" && t.wait_time.is_some())
        };
        let after = &stage.after_stage_tasks;
        let list = |side: &str, code, message: &str| {
            FieldError::cel(
                code,
                &format!("{field}.{side}"),
                "array",
                message,
                &format!("{path}.{side}"),
            )
        };
        if approval_wait(after) {
            errs.push(list("afterStageTasks", "approval-wait-time", APPROVAL_WAIT));
        }
        if after
            .iter()
            .any(|t| t.kind == "TimedWait" && t.wait_time.is_none())
        {
            errs.push(list(
                "afterStageTasks",
                "timed-wait-without-wait-time",
                "AfterStageTaskType is TimedWait, waitTime is required",
            ));
        }
        let before = &stage.before_stage_tasks;
        // The CRD carries the after-stage text for before-stage tasks too.
        if approval_wait(before) {
            errs.push(list(
                "beforeStageTasks",
                "approval-wait-time",
                APPROVAL_WAIT,
            ));
        }
        if before.iter().any(|t| t.kind == "TimedWait") {
            errs.push(list(
                "beforeStageTasks",
                "before-stage-timed-wait",
                "BeforeStageTaskType cannot be TimedWait",
            ));
        }
    }
    errs
}

fn run_schema(run: &StagedRun) -> Vec<FieldError> {
    let spec = &run.run;
    let mut errs = name_errors("run-name", &spec.name, "strategy.run.name");
    let placement = &run.placement.name;
    if placement.is_empty() {
        errs.push(FieldError::required(
            "placement-name-missing",
            "spec.placementName",
            "strategy.placement.name",
        ));
    } else if placement.len() > MAX_PLACEMENT_NAME {
        errs.push(FieldError::too_long(
            "placement-name-too-long",
            "spec.placementName",
            MAX_PLACEMENT_NAME,
            "strategy.placement.name",
        ));
    }
    if run.name.is_empty() {
        errs.push(FieldError::required(
            "strategy-name-missing",
            "spec.stagedRolloutStrategyName",
            "strategy.name",
        ));
    }
    if !STATES.contains(&spec.state.as_str()) {
        errs.push(FieldError::not_supported(
            "run-state-unsupported",
            "spec.state",
            &spec.state,
            STATES,
            "strategy.run.state",
        ));
    }
    errs
}

/// The run's CEL rules: its name's length (a rule on the whole object, hence no field), and, when
/// the file describes an update of an existing run, the state transitions and immutable fields.
fn run_cel(spec: &RunSpec, run: &StagedRun) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if spec.name.chars().count() > MAX_NAME {
        errs.push(FieldError::cel(
            "run-name-too-long",
            "<nil>",
            "object",
            "metadata.name max length is 63",
            "strategy.run.name",
        ));
    }
    let Some(old) = &spec.previous else {
        return errs;
    };
    if let Some(from) = &old.state {
        if FORBIDDEN.contains(&(from.as_str(), spec.state.as_str())) {
            errs.push(FieldError::cel(
                "run-state-transition",
                "spec",
                "object",
                &format!(
                    "invalid state transition: cannot transition from {from} to {}",
                    spec.state
                ),
                "strategy.run.state",
            ));
        }
    }
    // A transition rule on a field runs only when the field is in both objects.
    for (field, old_value, new_value, at) in [
        (
            "placementName",
            &old.placement_name,
            Some(run.placement.name.as_str()),
            "strategy.placement.name",
        ),
        (
            "resourceSnapshotIndex",
            &old.resource_snapshot_index,
            spec.resource_snapshot_index.as_deref(),
            "strategy.run.resourceSnapshotIndex",
        ),
        (
            "stagedRolloutStrategyName",
            &old.strategy_name,
            Some(run.name.as_str()),
            "strategy.name",
        ),
    ] {
        if matches!((old_value.as_deref(), new_value), (Some(o), Some(n)) if o != n) {
            errs.push(FieldError::cel(
                "run-field-immutable",
                &format!("spec.{field}"),
                "string",
                &format!("{field} is immutable"),
                at,
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests;
