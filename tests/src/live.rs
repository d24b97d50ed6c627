//! Statuses of staged update runs written the way KubeFleet's controller writes them
//! (`pkg/controllers/updaterun/{initialization,execution,stop}.go`), step by step, so tests of the
//! live projection never start from fleetplan's own output.
//!
//! Every `mark*` follows the controller's helper of the same name: the condition type, status,
//! reason and message it sets, `lastTransitionTime` only changing when the status does
//! (`meta.SetStatusCondition`), `startTime`/`endTime` set once.

use serde_json::{json, Map, Value};

/// One stage of the strategy snapshot.
#[derive(Clone, Debug, Default)]
pub struct StageSpec {
    pub name: &'static str,
    pub clusters: Vec<&'static str>,
    pub max_concurrency: Option<u32>,
    pub before_approval: bool,
    pub wait: Option<&'static str>,
    pub after_approval: bool,
}

pub struct Run {
    pub name: String,
    pub generation: i64,
    pub state: Option<&'static str>,
    stages: Vec<StageSpec>,
    status: Value,
}

fn cond(kind: &str, status: &str, reason: &str, message: &str, at: &str, gen: i64) -> Value {
    json!({
        "lastTransitionTime": at,
        "message": message,
        "observedGeneration": gen,
        "reason": reason,
        "status": status,
        "type": kind,
    })
}

/// `meta.SetStatusCondition`: replaces the condition of the same type, keeping its
/// lastTransitionTime when the status does not change.
fn set(conds: &mut Value, new: Value) {
    let list = conds.as_array_mut().expect("conditions are a list");
    match list.iter_mut().find(|c| c["type"] == new["type"]) {
        Some(old) => {
            let keep = old["status"] == new["status"];
            let at = old["lastTransitionTime"].clone();
            *old = new;
            if keep {
                old["lastTransitionTime"] = at;
            }
        }
        None => list.push(new),
    }
}

impl Run {
    /// `initialize`: the snapshot, every stage's clusters in order and its task statuses with the
    /// approval request names (`<run>-before-<stage>`, `<run>-after-<stage>`), the delete stage, and
    /// `Initialized=True` at `at`.
    pub fn initialized(name: &str, stages: Vec<StageSpec>, deleting: &[&str], at: &str) -> Run {
        let snapshot: Vec<Value> = stages
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("name".into(), json!(s.name));
                m.insert(
                    "labelSelector".into(),
                    json!({"matchLabels": {"stage": s.name}}),
                );
                if let Some(n) = s.max_concurrency {
                    m.insert("maxConcurrency".into(), json!(n));
                }
                if s.before_approval {
                    m.insert("beforeStageTasks".into(), json!([{"type": "Approval"}]));
                }
                let mut after = Vec::new();
                if let Some(w) = s.wait {
                    after.push(json!({"type": "TimedWait", "waitTime": w}));
                }
                if s.after_approval {
                    after.push(json!({"type": "Approval"}));
                }
                if !after.is_empty() {
                    m.insert("afterStageTasks".into(), Value::Array(after));
                }
                Value::Object(m)
            })
            .collect();
        let stages_status: Vec<Value> = stages
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("stageName".into(), json!(s.name));
                m.insert(
                    "clusters".into(),
                    Value::Array(s.clusters.iter().map(|c| json!({"clusterName": c})).collect()),
                );
                if s.before_approval {
                    m.insert(
                        "beforeStageTaskStatus".into(),
                        json!([{"type": "Approval", "approvalRequestName": format!("{name}-before-{}", s.name)}]),
                    );
                }
                let mut after = Vec::new();
                if s.wait.is_some() {
                    after.push(json!({"type": "TimedWait"}));
                }
                if s.after_approval {
                    after.push(json!({"type": "Approval", "approvalRequestName": format!("{name}-after-{}", s.name)}));
                }
                if !after.is_empty() {
                    m.insert("afterStageTaskStatus".into(), Value::Array(after));
                }
                Value::Object(m)
            })
            .collect();
        let mut sorted: Vec<&&str> = deleting.iter().collect();
        sorted.sort();
        let status = json!({
            "conditions": [cond("Initialized", "True", "UpdateRunInitializedSuccessfully", "The UpdateRun initialized successfully", at, 1)],
            "stagedUpdateStrategySnapshot": {"stages": snapshot},
            "stagesStatus": stages_status,
            "deletionStageStatus": {
                "stageName": "kubernetes-fleet.io/deleteStage",
                "clusters": sorted.iter().map(|c| json!({"clusterName": c})).collect::<Vec<_>>(),
            },
        });
        Run {
            name: name.into(),
            generation: 1,
            state: Some("Run"),
            stages,
            status,
        }
    }

    fn stage(&mut self, i: usize) -> &mut Value {
        &mut self.status["stagesStatus"][i]
    }

    fn stage_conds(&mut self, i: usize) -> &mut Value {
        let st = self.stage(i);
        if st.get("conditions").is_none() {
            st["conditions"] = json!([]);
        }
        &mut st["conditions"]
    }

    /// `markUpdateRunProgressing`.
    pub fn run_progressing(&mut self, at: &str) -> &mut Self {
        let g = self.generation;
        set(
            &mut self.status["conditions"],
            cond(
                "Progressing",
                "True",
                "UpdateRunProgressing",
                "The update run is making progress",
                at,
                g,
            ),
        );
        self
    }

    /// `markUpdateRunWaiting` with `UpdateRunWaitingMessageFmt`.
    pub fn run_waiting(&mut self, tasks: &str, stage: usize, at: &str) -> &mut Self {
        let g = self.generation;
        let msg = format!(
            "The updateRun is waiting for {tasks} tasks in stage {} to complete",
            self.stages[stage].name
        );
        set(
            &mut self.status["conditions"],
            cond("Progressing", "False", "UpdateRunWaiting", &msg, at, g),
        );
        self
    }

    /// `markUpdateRunStuck` for the named clusters.
    pub fn run_stuck(&mut self, stage: usize, names: &[&str], at: &str) -> &mut Self {
        let g = self.generation;
        let shown = names[..names.len().min(3)].join(", ");
        let more = if names.len() > 3 { "..." } else { "" };
        let msg = format!("The updateRun is stuck waiting for {shown}{more} cluster(s) in stage {} to finish updating, please check placement status for potential errors", self.stages[stage].name);
        set(
            &mut self.status["conditions"],
            cond("Progressing", "False", "UpdateRunStuck", &msg, at, g),
        );
        self
    }

    /// `markUpdateRunStopped` (controller.go) after `spec.state: Stop`.
    pub fn run_stopped(&mut self, at: &str) -> &mut Self {
        let g = self.generation;
        self.state = Some("Stop");
        set(
            &mut self.status["conditions"],
            cond(
                "Progressing",
                "False",
                "UpdateRunStopped",
                "The update run has been stopped",
                at,
                g,
            ),
        );
        self
    }

    /// `markUpdateRunSucceeded`.
    pub fn run_succeeded(&mut self, at: &str) -> &mut Self {
        let g = self.generation;
        set(
            &mut self.status["conditions"],
            cond(
                "Progressing",
                "False",
                "UpdateRunSucceeded",
                "All stages are completed",
                at,
                g,
            ),
        );
        set(
            &mut self.status["conditions"],
            cond(
                "Succeeded",
                "True",
                "UpdateRunSucceeded",
                "All stages are completed successfully",
                at,
                g,
            ),
        );
        self
    }

    /// The stage is reached: a before-stage approval request is created and the stage waits
    /// (`markStageTaskRequestCreated`, `markStageUpdatingWaiting`), or it starts updating
    /// (`markStageUpdatingProgressStarted`, which sets `startTime` once).
    pub fn stage_reached(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        if self.stages[i].before_approval {
            self.stage(i)["beforeStageTaskStatus"][0]["conditions"] = json!([cond(
                "ApprovalRequestCreated",
                "True",
                "StageTaskApprovalRequestCreated",
                "ApprovalRequest object is created",
                at,
                g
            )]);
            set(
                self.stage_conds(i),
                cond(
                    "Progressing",
                    "False",
                    "StageUpdatingWaiting",
                    "Not all before-stage tasks are completed, waiting for approval",
                    at,
                    g,
                ),
            );
            self.run_waiting("before-stage", i, at);
        } else {
            self.stage_started(i, at);
        }
        self
    }

    /// `markStageUpdatingProgressStarted`.
    pub fn stage_started(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        if self.stage(i).get("startTime").is_none() {
            self.stage(i)["startTime"] = json!(at);
        }
        set(
            self.stage_conds(i),
            cond(
                "Progressing",
                "True",
                "StageUpdatingStarted",
                "Clusters in the stage started updating",
                at,
                g,
            ),
        );
        self
    }

    /// The before-stage approval is approved (`markStageTaskRequestApproved`), then the stage starts.
    pub fn before_approved(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        let conds = &mut self.stage(i)["beforeStageTaskStatus"][0]["conditions"];
        set(
            conds,
            cond(
                "ApprovalRequestApproved",
                "True",
                "StageTaskApprovalRequestApproved",
                "ApprovalRequest object is approved",
                at,
                g,
            ),
        );
        self.stage_started(i, at);
        self.run_progressing(at);
        self
    }

    /// `markClusterUpdatingStarted`.
    pub fn cluster_started(&mut self, i: usize, c: usize, at: &str) -> &mut Self {
        let g = self.generation;
        let cl = &mut self.stage(i)["clusters"][c];
        if cl.get("conditions").is_none() {
            cl["conditions"] = json!([]);
        }
        set(
            &mut cl["conditions"],
            cond(
                "Started",
                "True",
                "ClusterUpdatingStarted",
                "Cluster update started",
                at,
                g,
            ),
        );
        self
    }

    /// `markClusterUpdatingSucceeded`.
    pub fn cluster_succeeded(&mut self, i: usize, c: usize, at: &str) -> &mut Self {
        let g = self.generation;
        set(
            &mut self.stage(i)["clusters"][c]["conditions"],
            cond(
                "Succeeded",
                "True",
                "ClusterUpdatingSucceeded",
                "Cluster update completed successfully",
                at,
                g,
            ),
        );
        self
    }

    /// Every cluster succeeded: `handleStageCompletion` marks the stage and the run waiting for the
    /// after-stage tasks and creates the approval request (its TimedWait counts from here).
    pub fn clusters_done(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        set(
            self.stage_conds(i),
            cond(
                "Progressing",
                "False",
                "StageUpdatingWaiting",
                "All clusters in the stage are updated, waiting for after-stage tasks to complete",
                at,
                g,
            ),
        );
        self.run_waiting("after-stage", i, at);
        let k = usize::from(self.stages[i].wait.is_some());
        if self.stages[i].after_approval {
            self.stage(i)["afterStageTaskStatus"][k]["conditions"] = json!([cond(
                "ApprovalRequestCreated",
                "True",
                "StageTaskApprovalRequestCreated",
                "ApprovalRequest object is created",
                at,
                g
            )]);
        }
        self
    }

    /// `markAfterStageWaitTimeElapsed`.
    pub fn wait_elapsed(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        self.stage(i)["afterStageTaskStatus"][0]["conditions"] = json!([cond(
            "WaitTimeElapsed",
            "True",
            "AfterStageTaskWaitTimeElapsed",
            "Wait time elapsed",
            at,
            g
        )]);
        self
    }

    /// The after-stage approval is approved (`markStageTaskRequestApproved`).
    pub fn after_approved(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        let k = usize::from(self.stages[i].wait.is_some());
        set(
            &mut self.stage(i)["afterStageTaskStatus"][k]["conditions"],
            cond(
                "ApprovalRequestApproved",
                "True",
                "StageTaskApprovalRequestApproved",
                "ApprovalRequest object is approved",
                at,
                g,
            ),
        );
        self
    }

    /// `markStageUpdatingSucceeded` (sets `endTime` once), then the run progresses.
    pub fn stage_succeeded(&mut self, i: usize, at: &str) -> &mut Self {
        let g = self.generation;
        if self.stage(i).get("endTime").is_none() {
            self.stage(i)["endTime"] = json!(at);
        }
        set(
            self.stage_conds(i),
            cond(
                "Progressing",
                "False",
                "StageUpdatingSucceeded",
                "All clusters in the stage are updated and after-stage tasks are completed",
                at,
                g,
            ),
        );
        set(
            self.stage_conds(i),
            cond(
                "Succeeded",
                "True",
                "StageUpdatingSucceeded",
                "Stage update completed successfully",
                at,
                g,
            ),
        );
        self.run_progressing(at);
        self
    }

    /// The delete stage finished (`executeDeleteStage` with nothing left to delete).
    pub fn delete_stage_succeeded(&mut self, at: &str) -> &mut Self {
        let g = self.generation;
        let d = &mut self.status["deletionStageStatus"];
        d["startTime"] = json!(at);
        d["endTime"] = json!(at);
        d["conditions"] = json!([
            cond(
                "Progressing",
                "False",
                "StageUpdatingSucceeded",
                "All clusters in the stage are updated and after-stage tasks are completed",
                at,
                g
            ),
            cond(
                "Succeeded",
                "True",
                "StageUpdatingSucceeded",
                "Stage update completed successfully",
                at,
                g
            ),
        ]);
        self
    }

    /// Direct access for tests of damaged statuses.
    pub fn status_mut(&mut self) -> &mut Value {
        &mut self.status
    }

    /// The object as `kubectl get clusterstagedupdaterun NAME -o json` prints it.
    pub fn json(&self) -> String {
        let mut spec = json!({
            "placementName": "example-placement",
            "stagedRolloutStrategyName": "example-strategy",
        });
        if let Some(s) = self.state {
            spec["state"] = json!(s);
        }
        serde_json::to_string_pretty(&json!({
            "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
            "kind": "ClusterStagedUpdateRun",
            "metadata": {"name": self.name, "generation": self.generation},
            "spec": spec,
            "status": self.status,
        }))
        .expect("a JSON value serializes")
    }
}
