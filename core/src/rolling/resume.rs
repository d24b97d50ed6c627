//! A rolling update continued from where its placement's status says each cluster stands: clusters
//! available on the new resources are done (with their real times), clusters whose rollout started
//! become ready when the assumptions say (never before now), clusters whose resources failed keep
//! failing, the others still wait for their turn under the budget.

use crate::diag::Diagnostic;
use crate::plan::{Labels, NameId, Phase, PhaseKind};
use crate::time::{Duration, Time};
use crate::timing::Timing;

use super::availability::Profile;
use super::rounds::Action;
use super::simulate::{Binding, BindingState};

/// Where the rollout stands, per cluster, at `now`.
#[derive(Clone, Debug, PartialEq)]
pub struct Resume {
    pub now: Time,
    pub clusters: Vec<(String, Fact)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// RolloutStarted=False (RolloutNotStartedYet): waits for its turn on the old resources.
    Waiting,
    /// RolloutStarted since the first time; applied since the second, if it was.
    Rolling(Time, Option<Time>),
    /// Available on the new resources: rollout started, applied, available.
    Available(Time, Option<Time>, Time),
    /// Its new resources failed to apply or to become available, since then.
    Failed(Time, Time),
}

pub fn apply(
    bindings: &mut [Binding],
    resume: &Resume,
    timing: &Timing,
    unavailable_period: Duration,
    profile: &Profile,
    labels: &mut Labels,
    diags: &mut Vec<Diagnostic>,
) {
    let now = resume.now;
    let texts = FactLabels {
        applying: labels.add("applying the new resources"),
        waiting: labels.add("waiting for availability"),
    };
    for (name, fact) in &resume.clusters {
        let Some(b) = bindings.iter_mut().find(|b| b.cluster == *name) else {
            diags.push(Diagnostic::warning(
                "status-unknown-cluster",
                format!("the placement's status lists `{name}`, which the placement in the input does not pick: it is left out of the projection"),
            ));
            continue;
        };
        match *fact {
            Fact::Waiting => {}
            Fact::Available(started, applied, available) => {
                b.state = BindingState::Bound;
                b.up_to_date = true;
                b.ready = true;
                b.failed = false;
                b.moved = Some(Action::Update);
                b.phases = fact_phases(&texts, started, applied, Some(available));
            }
            Fact::Rolling(started, applied) => {
                b.state = BindingState::Bound;
                b.up_to_date = true;
                b.ready = false;
                b.failed = false;
                b.moved = Some(Action::Update);
                let applied_at = applied.unwrap_or(started.plus(timing.apply()));
                let mut ready = applied_at.plus(timing.update(&b.cluster, b.fleet_index));
                if !profile.trackable() {
                    ready = ready.plus(unavailable_period);
                }
                let ready = ready.max(now);
                b.phases = fact_phases(&texts, started, applied, Some(ready));
                b.ready_at = Some(ready);
            }
            Fact::Failed(started, at) => {
                b.state = BindingState::Bound;
                b.up_to_date = true;
                b.ready = false;
                b.never_ready = true;
                b.moved = Some(Action::Update);
                let mut phases = fact_phases(&texts, started, Some(at), None);
                phases.push(Phase {
                    kind: PhaseKind::FailedRetrying,
                    start: at,
                    end: None,
                    label: labels.add("failed to apply or to become available; holds one unit of maxUnavailable until fixed"),
                    version: None,
                });
                b.phases = phases;
            }
        }
    }
}

/// The labels of the bars the status's facts give, in the plan's table once each.
struct FactLabels {
    applying: NameId,
    waiting: NameId,
}

fn fact_phases(
    texts: &FactLabels,
    started: Time,
    applied: Option<Time>,
    ready: Option<Time>,
) -> Vec<Phase> {
    let applied_end = applied.or(ready);
    let mut out = vec![Phase {
        kind: PhaseKind::Update,
        start: started,
        end: applied_end,
        label: texts.applying,
        version: None,
    }];
    if let (Some(a), Some(r)) = (applied, ready) {
        out.push(Phase {
            kind: PhaseKind::AvailabilityWait,
            start: a,
            end: Some(r),
            label: texts.waiting,
            version: None,
        });
    }
    out
}
