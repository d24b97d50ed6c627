//! Which placed resources KubeFleet's work applier can track for availability, and so how a cluster
//! becomes ready after its resources are applied: at once (data objects), when the workload is
//! available (trackable kinds), or `unavailablePeriodSeconds` later (anything it cannot track).

use crate::diag::Diagnostic;
use crate::rolling::model::PlacedResource;

/// How the work applier treats one resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracking {
    /// Available once applied (Namespace, ConfigMap, Secret, RBAC objects, …).
    Immediate,
    /// Available when its status says so (Deployment, StatefulSet, DaemonSet, CRD, PodDisruptionBudget,
    /// LoadBalancer Service).
    Workload,
    /// Available at once for a ClusterIP or NodePort Service: an IP is assigned on creation.
    AssignedIp,
    /// Not trackable: the binding counts as ready `unavailablePeriodSeconds` after it was applied.
    Untrackable,
}

/// Data objects the applier treats as available as soon as they exist (`isDataResource` in
/// `pkg/controllers/workapplier/availability_tracker.go`).
pub const DATA_KINDS: &[&str] = &[
    "Namespace",
    "Secret",
    "ConfigMap",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "ServiceAccount",
    "NetworkPolicy",
    "CSIDriver",
    "CSINode",
    "StorageClass",
    "CSIStorageCapacity",
    "ControllerRevision",
    "IngressClass",
    "LimitRange",
    "ResourceQuota",
    "PriorityClass",
];

/// Kinds whose own status says when they are available (`trackInMemberClusterObjAvailabilityByGVR`):
/// workloads by their replicas, a CRD by Established and NamesAccepted, a PodDisruptionBudget by its
/// conditions being up to date.
pub const STATUS_KINDS: &[&str] = &[
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "CustomResourceDefinition",
    "PodDisruptionBudget",
];

pub fn tracking(r: &PlacedResource) -> Tracking {
    match r.kind.as_str() {
        k if STATUS_KINDS.contains(&k) => Tracking::Workload,
        // An empty type is the default, ClusterIP.
        "Service" => match r
            .service_type
            .as_deref()
            .filter(|t| !t.is_empty())
            .unwrap_or("ClusterIP")
        {
            "ClusterIP" | "NodePort" => Tracking::AssignedIp,
            "LoadBalancer" => Tracking::Workload,
            _ => Tracking::Untrackable,
        },
        k if DATA_KINDS.contains(&k) => Tracking::Immediate,
        _ => Tracking::Untrackable,
    }
}

/// `Service (LoadBalancer)` or `Deployment`.
pub fn describe(r: &PlacedResource) -> String {
    match (&r.kind[..], &r.service_type) {
        ("Service", Some(t)) => format!("Service ({t})"),
        _ => r.kind.clone(),
    }
}

/// What a cluster's availability depends on, for the whole set of placed resources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Workloads whose availability is awaited, e.g. `Deployment, Service (LoadBalancer)`; empty when
    /// nothing needs waiting for.
    pub workloads: Vec<String>,
    /// Resources the applier cannot track: their presence adds `unavailablePeriodSeconds`.
    pub untrackable: Vec<String>,
}

impl Profile {
    /// Every resource trackable: no `unavailablePeriodSeconds` wait.
    pub fn trackable(&self) -> bool {
        self.untrackable.is_empty()
    }

    pub fn workload_label(&self) -> String {
        format!("waiting for {} availability", self.workloads.join(", "))
    }
}

/// An empty list is read as one Deployment (stated in the plan's assumptions). `applied`: false under
/// the ReportDiff apply strategy, where nothing is applied and availability is not awaited.
pub fn profile(
    resources: &[PlacedResource],
    applied: bool,
    diags: &mut Vec<Diagnostic>,
) -> Profile {
    let default = [PlacedResource {
        kind: "Deployment".into(),
        service_type: None,
    }];
    let list = if resources.is_empty() {
        &default[..]
    } else {
        resources
    };
    let mut p = Profile {
        workloads: Vec::new(),
        untrackable: Vec::new(),
    };
    for (i, r) in list.iter().enumerate() {
        let name = describe(r);
        if r.kind == "Service" {
            if let Some(t) = &r.service_type {
                if !["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"].contains(&t.as_str())
                {
                    diags.push(
                        Diagnostic::warning(
                            "rolling-service-type",
                            format!("Service type `{t}` is not one of ClusterIP, NodePort, LoadBalancer, ExternalName: treated as not trackable"),
                        )
                        .at(format!("strategy.resources[{i}].type")),
                    );
                }
            }
        }
        let list = match tracking(r) {
            Tracking::Workload => &mut p.workloads,
            Tracking::Untrackable => &mut p.untrackable,
            Tracking::Immediate | Tracking::AssignedIp => continue,
        };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    if applied && !p.untrackable.is_empty() {
        diags.push(
            Diagnostic::info(
                "rolling-untrackable",
                format!(
                    "KubeFleet cannot track the availability of {}: a cluster counts as ready unavailablePeriodSeconds after its resources were applied (after its trackable workloads are available), whether or not they work",
                    p.untrackable.join(", ")
                ),
            )
            .at("strategy.resources"),
        );
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(kind: &str, t: Option<&str>) -> PlacedResource {
        PlacedResource {
            kind: kind.into(),
            service_type: t.map(Into::into),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn kinds_are_classified_as_the_work_applier_does() {
        let cases = [
            (r("Deployment", None), Tracking::Workload),
            (r("StatefulSet", None), Tracking::Workload),
            (r("DaemonSet", None), Tracking::Workload),
            (r("Service", None), Tracking::AssignedIp),
            (r("Service", Some("NodePort")), Tracking::AssignedIp),
            (r("Service", Some("LoadBalancer")), Tracking::Workload),
            (r("Service", Some("ExternalName")), Tracking::Untrackable),
            (r("ConfigMap", None), Tracking::Immediate),
            (r("Namespace", None), Tracking::Immediate),
            (r("PodDisruptionBudget", None), Tracking::Workload),
            (r("CustomResourceDefinition", None), Tracking::Workload),
            (r("Service", Some("")), Tracking::AssignedIp),
            (r("Job", None), Tracking::Untrackable),
            (r("PersistentVolumeClaim", None), Tracking::Untrackable),
            (r("HorizontalPodAutoscaler", None), Tracking::Untrackable),
            (r("CronJob", None), Tracking::Untrackable),
            (r("Ingress", None), Tracking::Untrackable),
            (r("MyCustomThing", None), Tracking::Untrackable),
        ];
        for (res, want) in cases {
            assert_eq!(tracking(&res), want, "{res:?}");
        }
        // Every data kind of isDataResource is available at once, and no other kind is.
        for k in DATA_KINDS {
            assert_eq!(tracking(&r(k, None)), Tracking::Immediate, "{k}");
        }
        assert_eq!(DATA_KINDS.len(), 18);
    }
}
