//! The core's optional parts in the browser: reading KubeFleet objects and the GKE kinds, each a chunk
//! of its own that is fetched the first time a text needs it (most charts are of a KubeFleet scenario
//! in fleetplan's format and never need either).

use fleetplan::parts::{Missing, Parts};

use crate::on_demand::Part;

crate::on_demand! {
    /// GKE's formats and planners.
    pub fn gke_part() -> Parts {
        Parts::NONE.with_gke()
    }
}

crate::on_demand! {
    /// KubeFleet objects (MemberCluster, ClusterResourcePlacement, strategies and runs).
    pub fn manifests_part() -> Parts {
        Parts::NONE.with_manifests()
    }
}

/// The optional parts this page has fetched.
#[derive(Clone, Copy)]
pub struct Kinds {
    gke: Part<Parts>,
    manifests: Part<Parts>,
}

impl Kinds {
    pub fn new() -> Self {
        Kinds {
            gke: Part::new(),
            manifests: Part::new(),
        }
    }

    /// The parts here now; reading them in a reactive scope re-runs it when one arrives.
    pub fn parts(&self) -> Parts {
        let gke = self.gke.loaded().unwrap_or(Parts::NONE);
        let manifests = self.manifests.loaded().unwrap_or(Parts::NONE);
        Parts {
            manifests: manifests.manifests,
            gke_import: gke.gke_import,
            gke_plan: gke.gke_plan,
        }
    }

    /// Starts fetching what a text needs.
    pub fn fetch(&self, missing: &[Missing]) {
        for m in missing {
            match m {
                Missing::Gke => self.gke.fetch(gke_part),
                Missing::Manifests => self.manifests.fetch(manifests_part),
            }
        }
    }
}

impl Default for Kinds {
    fn default() -> Self {
        Self::new()
    }
}
