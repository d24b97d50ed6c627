//! The core's optional parts in the browser: reading KubeFleet objects, the GKE kinds, the rolling
//! update's planner and the full YAML reader, each a chunk of its own that is fetched the first time a text needs it (most charts
//! are of a KubeFleet staged scenario in fleetplan's format, in the YAML the fast reader knows, and never
//! need any of them; the full reader comes with the first text it cannot read, a typing error most
//! often). The memo part (an edited text's unchanged `clusters` taken from the last reading, and the
//! chart's redraw in place of rows an edit moved) comes with the first edit.

use fleetplan::parts::{Missing, Parts};

use crate::analysis::AnalyseFn;

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

crate::on_demand! {
    /// The event parser with every YAML diagnostic (and JSON's fallbacks).
    pub fn yaml_part() -> Parts {
        Parts::NONE.with_yaml()
    }
}

crate::on_demand! {
    /// The KubeFleet rolling update's planner.
    pub fn rolling_part() -> Parts {
        Parts::NONE.with_rolling()
    }
}

crate::on_demand! {
    /// The page's answer for an edited text, its unchanged `clusters` list taken from the last
    /// reading (`fleetplan::memo`): `analyse_with`'s answer, in less time at 1,000 clusters. It also
    /// brings the summary's and the chart's redraw in place of what an edit changed (`morph::patch`),
    /// which only edits need.
    pub fn memo_part() -> AnalyseFn {
        let _ = crate::morph::PATCH.set(crate::morph::patch);
        crate::analysis::analyse_again
    }
}

/// The optional parts this page has fetched.
#[derive(Clone, Copy)]
pub struct Kinds {
    gke: Part<Parts>,
    manifests: Part<Parts>,
    yaml: Part<Parts>,
    rolling: Part<Parts>,
    memo: Part<AnalyseFn>,
}

impl Kinds {
    pub fn new() -> Self {
        Kinds {
            gke: Part::new(),
            manifests: Part::new(),
            yaml: Part::new(),
            rolling: Part::new(),
            memo: Part::new(),
        }
    }

    /// The memo part's analysis of an edited text, once it is here. Untracked: its arrival changes
    /// no answer, so it re-runs nothing.
    pub fn again(&self) -> Option<AnalyseFn> {
        self.memo.now()
    }

    /// Starts fetching the memo part (at the first edit: a text that is never edited, an embed's
    /// or a shared link's, never needs it).
    pub fn fetch_memo(&self) {
        self.memo.fetch(memo_part);
    }

    /// The parts here now; reading them in a reactive scope re-runs it when one arrives.
    pub fn parts(&self) -> Parts {
        let gke = self.gke.loaded().unwrap_or(Parts::NONE);
        let manifests = self.manifests.loaded().unwrap_or(Parts::NONE);
        let yaml = self.yaml.loaded().unwrap_or(Parts::NONE);
        let rolling = self.rolling.loaded().unwrap_or(Parts::NONE);
        Parts {
            manifests: manifests.manifests,
            gke_import: gke.gke_import,
            gke_plan: gke.gke_plan,
            gke_decode: gke.gke_decode,
            yaml: yaml.yaml,
            rolling_plan: rolling.rolling_plan,
        }
    }

    /// Starts fetching what a text needs.
    pub fn fetch(&self, missing: &[Missing]) {
        for m in missing {
            match m {
                Missing::Gke => self.gke.fetch(gke_part),
                Missing::Manifests => self.manifests.fetch(manifests_part),
                Missing::Yaml => self.yaml.fetch(yaml_part),
                Missing::Rolling => self.rolling.fetch(rolling_part),
            }
        }
    }
}

impl Default for Kinds {
    fn default() -> Self {
        Self::new()
    }
}
