//! The `kubefleet-rolling` kind of the fleetplan format: the placement, `rollingUpdate`, the placed
//! resource kinds and the change being rolled. Values the webhook checks are kept as written.

use super::read::{get, Path, Reader};
use crate::model::{Placement, Strategy};
use crate::rolling::model::{Change, PlacedResource, RollingRun, RollingUpdateConfig};
use crate::source::{Node, Value};

const ROLLING_KEYS: &[&str] = &["kind", "placement", "rollingUpdate", "resources", "change"];
const ROLLING_UPDATE_KEYS: &[&str] = &["maxUnavailable", "maxSurge", "unavailablePeriodSeconds"];
const RESOURCE_KEYS: &[&str] = &["kind", "type"];
const CHANGE_KEYS: &[&str] = &["update", "from", "failedToApply"];

impl Reader<'_> {
    pub(crate) fn rolling_strategy(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut run = RollingRun::default();
        if let Some(m) = self.map(n, p, ROLLING_KEYS) {
            if let Some(v) = get(m, "placement") {
                run.placement = self.rolling_placement(v, &p.field("placement"), None);
            }
            if let Some(v) = get(m, "rollingUpdate") {
                run.rolling_update = self.rolling_update(v, &p.field("rollingUpdate"));
            }
            if let Some(v) = get(m, "resources") {
                run.resources = self.placed_resources(v, &p.field("resources"));
            }
            if let Some(v) = get(m, "change") {
                run.change = self.change(v, &p.field("change"), &run.placement.name);
            }
        }
        Strategy::KubefleetRolling(run)
    }

    /// A placement whose strategy type defaults to the CRP default, `RollingUpdate` (the shared reader
    /// defaults to `External`, what staged runs need). `name` defaults to the given one.
    fn rolling_placement(&mut self, n: &Node, p: &Path, name: Option<&str>) -> Placement {
        let mut pl = self.placement(n, p);
        if n.get("strategyType").is_none_or(Node::is_null) {
            pl.strategy_type = "RollingUpdate".into();
        }
        if let (Some(name), true) = (name, n.get("name").is_none()) {
            pl.name = name.to_string();
        }
        pl
    }

    pub(crate) fn rolling_update(&mut self, n: &Node, p: &Path) -> RollingUpdateConfig {
        let mut ru = RollingUpdateConfig::default();
        let Some(m) = self.map(n, p, ROLLING_UPDATE_KEYS) else {
            return ru;
        };
        if let Some(v) = get(m, "maxUnavailable") {
            ru.max_unavailable = self.int_or_string(v, &p.field("maxUnavailable"));
        }
        if let Some(v) = get(m, "maxSurge") {
            ru.max_surge = self.int_or_string(v, &p.field("maxSurge"));
        }
        if let Some(v) = get(m, "unavailablePeriodSeconds") {
            ru.unavailable_period_seconds = self.int(v, &p.field("unavailablePeriodSeconds"));
        }
        ru
    }

    /// `[Deployment, {kind: Service, type: LoadBalancer}]`; a plain string is a kind.
    fn placed_resources(&mut self, n: &Node, p: &Path) -> Vec<PlacedResource> {
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let ip = p.index(i);
            if let Value::Scalar(_) = item.value {
                if let Some(kind) = self.string(item, &ip) {
                    out.push(PlacedResource {
                        kind,
                        service_type: None,
                    });
                }
                continue;
            }
            let Some(m) = self.map(item, &ip, RESOURCE_KEYS) else {
                continue;
            };
            let mut r = PlacedResource::default();
            match get(m, "kind") {
                Some(v) => r.kind = self.string(v, &ip.field("kind")).unwrap_or_default(),
                None => self.missing("kind", &ip, item),
            }
            if let Some(v) = get(m, "type") {
                r.service_type = self.string(v, &ip.field("type"));
            }
            out.push(r);
        }
        out
    }

    fn change(&mut self, n: &Node, p: &Path, placement_name: &str) -> Change {
        let mut c = Change::default();
        let Some(m) = self.map(n, p, CHANGE_KEYS) else {
            return c;
        };
        if let Some(v) = get(m, "update") {
            if let Some(b) = self.boolean(v, &p.field("update")) {
                c.update = b;
            }
        }
        if let Some(v) = get(m, "from") {
            c.from = Some(self.rolling_placement(v, &p.field("from"), Some(placement_name)));
        }
        if let Some(v) = get(m, "failedToApply") {
            c.failed_to_apply = self.strings(v, &p.field("failedToApply"));
        }
        c
    }
}
