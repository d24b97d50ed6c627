//! Collecting the Monte Carlo's samples (every stage's end, the run's end, every cluster's end when
//! the fleet is small enough to keep them all) into P10/P50/P90, for any kind of rollout.

use crate::model::Uncertainty;
use crate::plan::projection::{Forecast, Spread};
use crate::time::Time;
use crate::timing::calibrate::Calibration;
use crate::timing::montecarlo::{self, Settings};

/// Cluster ends are kept per sample only up to this many values (8 bytes each): beyond, clusters
/// get no range of their own, stages and the run still do.
pub const MAX_CLUSTER_CELLS: usize = 4_000_000;

pub struct Samples {
    stages: Vec<Vec<Option<Time>>>,
    clusters: Option<Vec<Vec<Option<Time>>>>,
    run: Vec<Option<Time>>,
    stage_spreads: Vec<Option<Spread>>,
    cluster_spreads: Vec<Option<Spread>>,
    run_spread: Option<Spread>,
}

impl Samples {
    pub fn new(stages: usize, clusters: usize, samples: usize) -> Samples {
        let keep = clusters.saturating_mul(samples) <= MAX_CLUSTER_CELLS;
        Samples {
            stages: vec![Vec::with_capacity(samples); stages],
            clusters: keep.then(|| vec![Vec::with_capacity(samples); clusters]),
            run: Vec::with_capacity(samples),
            stage_spreads: Vec::new(),
            cluster_spreads: Vec::new(),
            run_spread: None,
        }
    }

    pub fn push(&mut self, stages: &[Option<Time>], clusters: &[Option<Time>], run: Option<Time>) {
        for (v, e) in self.stages.iter_mut().zip(stages) {
            v.push(*e);
        }
        if let Some(cs) = &mut self.clusters {
            for (v, e) in cs.iter_mut().zip(clusters) {
                v.push(*e);
            }
        }
        self.run.push(run);
    }

    /// A stage whose end is a fact ends there in every sample.
    pub fn fix_stage(&mut self, stage: usize, end: Option<Time>) {
        if let Some(v) = self.stages.get_mut(stage) {
            v.iter_mut().for_each(|e| *e = end);
        }
    }

    /// Computes every percentile; call once, after the last sample.
    pub fn finish(&mut self) {
        self.stage_spreads = self
            .stages
            .iter_mut()
            .map(|v| montecarlo::spread(v))
            .collect();
        self.cluster_spreads = self
            .clusters
            .iter_mut()
            .flatten()
            .map(|v| montecarlo::spread(v))
            .collect();
        self.run_spread = montecarlo::spread(&mut self.run);
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
        self.run.iter().filter(|e| e.is_none()).count()
    }

    /// How many samples were taken.
    pub fn count(&self) -> usize {
        self.run.len()
    }
}

/// The run's range and what was drawn, for `Projection.forecast`.
pub fn summary(
    settings: &Settings,
    stated: Option<&Uncertainty>,
    calibration: Option<&Calibration>,
    samples: &Samples,
) -> Forecast {
    let mut draws = settings.describe(stated, calibration);
    if samples.clusters.is_none() {
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
