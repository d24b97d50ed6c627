//! Collecting the Monte Carlo's samples (every stage's end, the run's end, every cluster's end when
//! the fleet is small enough to keep them all) into P10/P50/P90, for any kind of rollout; in one go
//! or in chunks that a front end combines (so a page stays responsive while it draws).

use crate::model::Uncertainty;
use crate::plan::projection::{Forecast, SampleEnds, Spread};
use crate::time::Time;
use crate::timing::montecarlo::{self, Settings};

/// Cluster ends are kept per sample only up to this many values (8 bytes each): beyond, clusters
/// get no range of their own, stages and the run still do.
pub const MAX_CLUSTER_CELLS: usize = 4_000_000;

/// Whether and which samples to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forecasting {
    Off,
    /// Every sample the scenario asks for.
    All,
    /// Samples `first..end` only, their raw ends kept in the plan for [`super::combine`].
    Chunk(u32, u32),
}

impl Forecasting {
    pub fn on(self) -> bool {
        self != Forecasting::Off
    }

    /// The scenario's settings, narrowed to the chunk.
    pub fn settings(self, u: Option<&Uncertainty>) -> Settings {
        let mut s = Settings::from(u);
        if let Forecasting::Chunk(first, end) = self {
            s.first = first;
            s.samples = end
                .saturating_sub(first)
                .min(s.samples.saturating_sub(first));
        }
        s
    }

    pub fn keeps_samples(self) -> bool {
        matches!(self, Forecasting::Chunk(..))
    }
}

pub struct Samples {
    ends: SampleEnds,
    stage_spreads: Vec<Option<Spread>>,
    cluster_spreads: Vec<Option<Spread>>,
    run_spread: Option<Spread>,
}

impl Samples {
    pub fn new(stages: usize, clusters: usize, samples: usize) -> Samples {
        let keep = clusters.saturating_mul(samples) <= MAX_CLUSTER_CELLS;
        Samples::from_ends(SampleEnds {
            stages: vec![Vec::with_capacity(samples); stages],
            clusters: keep.then(|| vec![Vec::with_capacity(samples); clusters]),
            run: Vec::with_capacity(samples),
        })
    }

    pub fn from_ends(ends: SampleEnds) -> Samples {
        Samples {
            ends,
            stage_spreads: Vec::new(),
            cluster_spreads: Vec::new(),
            run_spread: None,
        }
    }

    pub fn push(&mut self, stages: &[Option<Time>], clusters: &[Option<Time>], run: Option<Time>) {
        for (v, e) in self.ends.stages.iter_mut().zip(stages) {
            v.push(*e);
        }
        if let Some(cs) = &mut self.ends.clusters {
            for (v, e) in cs.iter_mut().zip(clusters) {
                v.push(*e);
            }
        }
        self.ends.run.push(run);
    }

    /// A stage whose end is a fact ends there in every sample.
    pub fn fix_stage(&mut self, stage: usize, end: Option<Time>) {
        if let Some(v) = self.ends.stages.get_mut(stage) {
            v.iter_mut().for_each(|e| *e = end);
        }
    }

    /// The raw ends, before [`Samples::finish`] reorders them.
    pub fn ends(&self) -> &SampleEnds {
        &self.ends
    }

    /// Computes every percentile; call once, after the last sample.
    pub fn finish(&mut self) {
        self.stage_spreads = self
            .ends
            .stages
            .iter_mut()
            .map(|v| montecarlo::spread(v))
            .collect();
        self.cluster_spreads = self
            .ends
            .clusters
            .iter_mut()
            .flatten()
            .map(|v| montecarlo::spread(v))
            .collect();
        self.run_spread = montecarlo::spread(&mut self.ends.run);
    }

    pub fn stage(&self, i: usize) -> Option<Spread> {
        self.stage_spreads.get(i).copied().flatten()
    }

    pub fn cluster(&self, i: usize) -> Option<Spread> {
        self.cluster_spreads.get(i).copied().flatten()
    }

    pub fn run(&self) -> Option<Spread> {
        self.run_spread
    }

    pub fn never(&self) -> usize {
        self.ends.run.iter().filter(|e| e.is_none()).count()
    }

    /// How many samples were taken.
    pub fn count(&self) -> usize {
        self.ends.run.len()
    }

    pub fn keeps_clusters(&self) -> bool {
        self.ends.clusters.is_some()
    }
}

/// The run's range and what was drawn, for `Projection.forecast`. `observed`: how many stages draw
/// from observed durations; `approvals`: whether approvals draw from observed delays.
pub fn summary(
    settings: &Settings,
    stated: Option<&Uncertainty>,
    observed: usize,
    approvals: bool,
    samples: &Samples,
) -> Forecast {
    let mut draws = settings.describe(stated, observed, approvals);
    if !samples.keeps_clusters() {
        draws.push(format!(
            "clusters get no range of their own above {MAX_CLUSTER_CELLS} cluster-samples; stages and the run do"
        ));
    }
    Forecast {
        seed: settings.seed,
        samples: samples.count(),
        end: samples.run().unwrap_or(Spread {
            p10: None,
            p50: None,
            p90: None,
        }),
        never: samples.never(),
        draws,
    }
}
