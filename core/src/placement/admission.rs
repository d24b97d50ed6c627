//! A ClusterResourcePlacement (or ResourcePlacement) on its way into the hub: the CRD's schema and
//! CEL rules, then KubeFleet's validating webhook, each with its real text, in that order (see
//! `crate::admission`). Covers the fields fleetplan reads: the policy, `strategy.type` and
//! `strategy.rollingUpdate`.
//!
//! Sources: `apis/placement/v1beta1/clusterresourceplacement_types.go` (markers),
//! `pkg/utils/validator/placement.go` (webhook texts, including its `rollingUpdateConifg` typo and
//! the double space of "field  is invalid"), `pkg/webhook/webhook.go` (only the cluster-scoped
//! placement's webhook is registered, `fleet.clusterresourceplacementv1beta1.validating`).

use crate::admission::{aggregate, api_server, webhook_denied, FieldError, Object};
use crate::diag::Diagnostic;
use crate::labels;
use crate::model::{IntOrString, Placement, RollingUpdateConfig};

/// The CRD's pattern for `maxUnavailable` and `maxSurge` (applied to strings only).
pub const INT_OR_PERCENT_PATTERN: &str = "^((100|[0-9]{1,2})%|[0-9]+)$";
const WEBHOOK: &str = "fleet.clusterresourceplacementv1beta1.validating";
const MAX_CLUSTER_NAMES: usize = 100;
/// `Enum=ClientSideApply;ServerSideApply;ReportDiff` on `spec.strategy.applyStrategy.type`.
const APPLY_STRATEGIES: &[&str] = &["ClientSideApply", "ServerSideApply", "ReportDiff"];
/// `validation.DNS1035LabelMaxLength`, which the webhook uses for names.
const MAX_NAME: usize = 63;

/// Where the placement's fields were written in the scenario.
#[derive(Clone, Copy, Debug)]
pub struct Paths<'a> {
    /// The placement (`strategy.placement`): policy fields and `strategyType` hang off it.
    pub placement: &'a str,
    /// The `rollingUpdate` block (`strategy.rollingUpdate` for a rolling update).
    pub rolling_update: &'a str,
}

/// The placement as the hub sees it: the placement, its `rollingUpdate` block if one is written, and
/// whether it is a namespaced ResourcePlacement.
#[derive(Clone, Copy, Debug)]
pub struct Crp<'a> {
    pub placement: &'a Placement,
    pub rolling_update: Option<&'a RollingUpdateConfig>,
    pub namespaced: bool,
}

/// The three layers for one placement. Returns whether the hub accepts it.
pub fn admit(crp: Crp<'_>, at: Paths<'_>, diags: &mut Vec<Diagnostic>) -> bool {
    let obj = Object {
        kind: if crp.namespaced {
            "ResourcePlacement"
        } else {
            "ClusterResourcePlacement"
        },
        name: &crp.placement.name,
    };
    if !api_server(obj, schema(crp, at), || cel(crp, at), diags) {
        return false;
    }
    if crp.namespaced {
        return true;
    }
    match webhook(crp, at) {
        None => true,
        Some((message, first)) => {
            diags.push(webhook_denied(
                "placement-webhook",
                WEBHOOK,
                &format!("deny create/update v1beta1 CRP has invalid fields {message}"),
                &first,
            ));
            false
        }
    }
}

fn schema(crp: Crp<'_>, at: Paths<'_>) -> Vec<FieldError> {
    let p = crp.placement;
    let mut errs = Vec::new();
    for m in labels::subdomain_errors(&p.name) {
        errs.push(FieldError::invalid(
            "placement-name",
            "metadata.name",
            &p.name,
            &m,
            &format!("{}.name", at.placement),
        ));
    }
    if !["PickAll", "PickN", "PickFixed"].contains(&p.placement_type.as_str()) {
        errs.push(FieldError::not_supported(
            "placement-type-unsupported",
            "spec.policy.placementType",
            &p.placement_type,
            &["PickAll", "PickN", "PickFixed"],
            &format!("{}.placementType", at.placement),
        ));
    }
    if p.cluster_names.len() > MAX_CLUSTER_NAMES {
        errs.push(FieldError::too_many(
            "placement-cluster-names",
            "spec.policy.clusterNames",
            p.cluster_names.len(),
            MAX_CLUSTER_NAMES,
            &format!("{}.clusterNames", at.placement),
        ));
    }
    if let Some(n) = p.number_of_clusters.filter(|n| *n < 0) {
        errs.push(FieldError::minimum(
            "placement-number-of-clusters",
            "spec.policy.numberOfClusters",
            i64::from(n),
            0,
            &format!("{}.numberOfClusters", at.placement),
        ));
    }
    // An absent type takes the schema's default, RollingUpdate.
    if !["", "RollingUpdate", "External"].contains(&p.strategy_type.as_str()) {
        errs.push(FieldError::not_supported(
            "rollout-strategy-type",
            "spec.strategy.type",
            &p.strategy_type,
            &["RollingUpdate", "External"],
            &format!("{}.strategyType", at.placement),
        ));
    }
    if let Some(t) = p
        .apply_strategy
        .as_deref()
        .filter(|t| !APPLY_STRATEGIES.contains(t))
    {
        errs.push(FieldError::not_supported(
            "apply-strategy-type",
            "spec.strategy.applyStrategy.type",
            t,
            APPLY_STRATEGIES,
            &format!("{}.applyStrategy", at.placement),
        ));
    }
    if let Some(ru) = crp.rolling_update {
        for (name, value) in [
            ("maxUnavailable", &ru.max_unavailable),
            ("maxSurge", &ru.max_surge),
        ] {
            if let Some(IntOrString::Str(s)) = value {
                if !matches_int_or_percent(s) {
                    errs.push(FieldError::pattern(
                        "rolling-schema",
                        &format!("spec.strategy.rollingUpdate.{name}"),
                        s,
                        INT_OR_PERCENT_PATTERN,
                        &format!("{}.{name}", at.rolling_update),
                    ));
                }
            }
        }
        if let Some(secs) = ru.unavailable_period_seconds.filter(|s| *s < 0) {
            errs.push(FieldError::minimum(
                "rolling-unavailable-period",
                "spec.strategy.rollingUpdate.unavailablePeriodSeconds",
                secs,
                0,
                &format!("{}.unavailablePeriodSeconds", at.rolling_update),
            ));
        }
    }
    errs
}

/// The policy's CEL rules (on `spec.policy`, an object).
fn cel(crp: Crp<'_>, at: Paths<'_>) -> Vec<FieldError> {
    let p = crp.placement;
    let (names, count, affinity) = (
        !p.cluster_names.is_empty(),
        p.number_of_clusters.is_some(),
        !p.affinity.is_empty(),
    );
    let broken = match p.placement_type.as_str() {
        "PickFixed" if affinity || count => Some("affinity, numberOfClusters, topologySpreadConstraints, and tolerations cannot be set when placementType is PickFixed"),
        "PickAll" if names || count => Some("clusterNames, numberOfClusters, and topologySpreadConstraints cannot be set when placementType is PickAll"),
        "PickN" if names || !count => Some("clusterNames cannot be set and numberOfClusters must be set when placementType is PickN"),
        _ => None,
    };
    broken
        .map(|m| FieldError::cel("placement-policy", "spec.policy", "object", m, at.placement))
        .into_iter()
        .collect()
}

/// `validatePlacement`'s message for what fleetplan models, and where the first problem was
/// written; `None` when it allows the placement. Only what the schema and CEL rules let through can
/// reach it.
fn webhook(crp: Crp<'_>, at: Paths<'_>) -> Option<(String, String)> {
    let p = crp.placement;
    let mut all = Vec::new();
    let mut first: Option<String> = None;
    if p.name.len() > MAX_NAME {
        all.push(format!(
            "the name field cannot have length exceeding {MAX_NAME}"
        ));
        first.get_or_insert_with(|| format!("{}.name", at.placement));
    }
    if let Some(e) = policy_errors(p) {
        all.push(format!("the placement policy field is invalid: {e}"));
        first.get_or_insert_with(|| format!("{}.clusterNames", at.placement));
    }
    if let Some((e, field)) = strategy_errors(crp, at) {
        all.push(format!("the rollout Strategy field  is invalid: {e}"));
        first.get_or_insert(field);
    }
    Some((aggregate(&all), first?))
}

/// `validatePolicyForPickFixedPlacementType`: the cluster names (the other type rules are CEL's).
fn policy_errors(p: &Placement) -> Option<String> {
    if p.placement_type != "PickFixed" {
        return None;
    }
    let mut all = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for name in &p.cluster_names {
        let errs = labels::subdomain_errors(name);
        if !errs.is_empty() {
            all.push(format!(
                "PickFixed cluster name {name} is not a valid member name: {}",
                errs.join("; ")
            ));
        }
        if name.len() > MAX_NAME {
            all.push(format!(
                "PickFixed cluster name {name} cannot have length exceeding {MAX_NAME}"
            ));
        }
        if seen.contains(&name.as_str()) {
            all.push("cluster names must be unique for policy type PickFixed".to_string());
            break;
        }
        seen.push(name);
    }
    (!all.is_empty()).then(|| aggregate(&all))
}

/// `validateRolloutStrategy` for a written `rollingUpdate` block, with the first field it blames.
fn strategy_errors(crp: Crp<'_>, at: Paths<'_>) -> Option<(String, String)> {
    let ru = crp.rolling_update?;
    let mut all = Vec::new();
    let mut first = None;
    if crp.placement.strategy_type == "External" {
        all.push("rollingUpdateConifg is not valid for ExternalRollout strategy type".to_string());
        first = Some(format!("{}.strategyType", at.placement));
    }
    for (name, value) in [
        ("maxUnavailable", &ru.max_unavailable),
        ("maxSurge", &ru.max_surge),
    ] {
        let message = match value {
            Some(IntOrString::Int(i)) if *i < 0 => {
                format!("{name} must be greater than or equal to 0, got `{i}`")
            }
            // A string without `%` passed the pattern (`[0-9]+`) but is not a percentage for
            // intstr.GetScaledValueFromIntOrPercent.
            Some(IntOrString::Str(s)) if !s.ends_with('%') => format!(
                "{name} `{s}` is invalid: invalid value for IntOrString: invalid type: string is not a percentage"
            ),
            _ => continue,
        };
        all.push(message);
        first.get_or_insert_with(|| format!("{}.{name}", at.rolling_update));
    }
    Some((aggregate(&all), first?))
}

/// `^((100|[0-9]{1,2})%|[0-9]+)$`.
pub fn matches_int_or_percent(s: &str) -> bool {
    match s.strip_suffix('%') {
        Some(d) => {
            d == "100" || (matches!(d.len(), 1 | 2) && d.bytes().all(|b| b.is_ascii_digit()))
        }
        None => !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()),
    }
}

#[cfg(test)]
mod tests;
