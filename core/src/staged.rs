//! KubeFleet staged update runs: validation and simulation. STUB.
use crate::model::{Scenario, StagedRun};
use crate::plan::{Outcome, Plan, Summary};

pub fn plan(scenario: &Scenario, run: &StagedRun) -> Plan {
    Plan {
        kind: "kubefleet-staged",
        scenario: scenario.name.clone(),
        run: run.run.name.clone(),
        start: scenario.start.unwrap_or(crate::model::DEFAULT_START),
        end: None,
        outcome: Outcome::Invalid,
        stages: vec![],
        events: vec![],
        diagnostics: vec![],
        summary: Summary::default(),
        assumptions: vec![],
    }
}
