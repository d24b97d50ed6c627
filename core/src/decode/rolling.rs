//! The `kubefleet-rolling` kind of the fleetplan format.

use super::read::{get, Path, Reader};
use crate::model::Strategy;
use crate::rolling::model::RollingRun;
use crate::source::Node;

const ROLLING_KEYS: &[&str] = &["kind", "placement"];

impl Reader<'_> {
    pub(crate) fn rolling_strategy(&mut self, n: &Node, p: &Path) -> Strategy {
        let mut run = RollingRun::default();
        if let Some(m) = self.map(n, p, ROLLING_KEYS) {
            if let Some(v) = get(m, "placement") {
                run.placement = self.placement(v, &p.field("placement"));
            }
        }
        Strategy::KubefleetRolling(run)
    }
}
