//! The fleet: explicit clusters plus generated ones, expanded into one checked list.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::model::{Cluster, ClusterGenerator, FleetCluster, Scenario, SpreadMode};

/// Generated fleets above this size are refused: a typo such as `count: 10000000` must not freeze a browser tab.
pub const MAX_CLUSTERS: u64 = 1_000_000;

impl Scenario {
    /// Every cluster of the scenario, explicit ones first, each with the path that declared it.
    /// Duplicate names are reported and only the first declaration is kept.
    pub fn fleet(&self) -> (Vec<FleetCluster>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut out: Vec<FleetCluster> = Vec::with_capacity(self.clusters.len());
        for (i, c) in self.clusters.iter().enumerate() {
            let path = format!("clusters[{i}]");
            if c.name.is_empty() {
                diags.push(
                    Diagnostic::error("cluster-name-missing", "cluster has no name")
                        .at(format!("{path}.name")),
                );
                continue;
            }
            out.push(FleetCluster {
                cluster: c.clone(),
                path,
            });
        }
        let mut total: u64 = self.clusters.len() as u64;
        for (g, gen) in self.generate.iter().enumerate() {
            let path = format!("generate[{g}]");
            total += u64::from(gen.count);
            if total > MAX_CLUSTERS {
                diags.push(
                    Diagnostic::error("fleet-too-large", format!("the fleet would have more than {MAX_CLUSTERS} clusters; generator skipped"))
                        .at(format!("{path}.count")),
                );
                continue;
            }
            if !gen.name.contains("{i") {
                diags.push(
                    Diagnostic::error(
                        "generator-name-pattern",
                        format!("name pattern `{}` has no `{{i}}` placeholder, so every generated cluster would get the same name", gen.name),
                    )
                    .at(format!("{path}.name")),
                );
                continue;
            }
            out.reserve(gen.count as usize);
            out.extend((0..gen.count).map(|k| FleetCluster {
                cluster: generate_one(gen, k),
                path: path.clone(),
            }));
        }
        drop_duplicates(&mut out, &mut diags);
        (out, diags)
    }
}

/// Keeps the first declaration of each name and reports the others. Sorting indices by name finds
/// duplicates without hashing or copying a single name, which matters for generated fleets.
fn drop_duplicates(fleet: &mut Vec<FleetCluster>, diags: &mut Vec<Diagnostic>) {
    let mut order: Vec<u32> = (0..fleet.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        fleet[a as usize]
            .cluster
            .name
            .cmp(&fleet[b as usize].cluster.name)
            .then(a.cmp(&b))
    });
    let mut duplicate = vec![false; fleet.len()];
    let mut any = false;
    let mut run_start = 0usize;
    for k in 1..order.len() {
        let (first, dup) = (&fleet[order[run_start] as usize], &fleet[order[k] as usize]);
        if first.cluster.name != dup.cluster.name {
            run_start = k;
        } else {
            duplicate[order[k] as usize] = true;
            any = true;
            diags.push(
                Diagnostic::error(
                    "duplicate-cluster",
                    format!("cluster `{}` is declared twice (first at {}); member cluster names are unique", dup.cluster.name, first.path),
                )
                .at(dup.path.clone()),
            );
        }
    }
    if any {
        let mut i = 0;
        fleet.retain(|_| {
            i += 1;
            !duplicate[i - 1]
        });
    }
}

/// The `k`-th (0-based) cluster of a generator.
pub fn generate_one(gen: &ClusterGenerator, k: u32) -> Cluster {
    let i = u64::from(gen.first) + u64::from(k);
    let mut labels = BTreeMap::new();
    for (key, spread) in &gen.labels {
        let n = spread.values.len() as u64;
        let value = match spread.mode {
            SpreadMode::Index => i.to_string(),
            _ if n == 0 => String::new(),
            SpreadMode::Cycle => spread.values[(u64::from(k) % n) as usize].clone(),
            SpreadMode::Blocks => {
                // Nearly equal contiguous blocks: the first `count % n` blocks get one extra cluster.
                let count = u64::from(gen.count.max(1));
                let idx = (u64::from(k) * n / count).min(n - 1);
                spread.values[idx as usize].clone()
            }
        };
        // `{i}` / `{i:03}` in a value numbers it the way the name pattern is numbered (`order: "{i}"`).
        let value = if value.contains("{i") {
            format_name(&value, i)
        } else {
            value
        };
        labels.insert(key.clone(), value);
    }
    Cluster {
        name: format_name(&gen.name, i),
        labels,
        ..Default::default()
    }
}

/// Replaces `{i}` and `{i:0W}` (zero-padded to W digits) in a name pattern.
pub fn format_name(pattern: &str, i: u64) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut rest = pattern;
    while let Some(open) = rest.find("{i") {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let Some(close) = after.find('}') else {
            out.push_str(after);
            return out;
        };
        let spec = &after[2..close];
        match spec
            .strip_prefix(':')
            .map(|w| w.trim_start_matches('0').parse::<usize>())
        {
            None if spec.is_empty() => push_padded(&mut out, i, 0),
            Some(Ok(width)) => push_padded(&mut out, i, width),
            _ => out.push_str(&after[..=close]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Appends `i` in decimal, zero-padded to `width`; hand-rolled because `format!` dominated the cost of
/// generating large fleets.
fn push_padded(out: &mut String, i: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut n = i;
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for _ in len..width.min(64) {
        out.push('0');
    }
    for d in digits[..len].iter().rev() {
        out.push(char::from(*d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelSpread;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn names_are_padded_as_asked() {
        assert_eq!(format_name("prod-{i:03}", 7), "prod-007");
        assert_eq!(format_name("c{i}-x", 12), "c12-x");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn spreads_cycle_or_block() {
        let mut gen = ClusterGenerator {
            count: 6,
            name: "c{i}".into(),
            first: 1,
            labels: BTreeMap::new(),
        };
        gen.labels.insert(
            "r".into(),
            LabelSpread {
                values: vec!["a".into(), "b".into(), "c".into()],
                mode: SpreadMode::Cycle,
            },
        );
        gen.labels.insert(
            "z".into(),
            LabelSpread {
                values: vec!["x".into(), "y".into()],
                mode: SpreadMode::Blocks,
            },
        );
        let r: Vec<String> = (0..6)
            .map(|k| generate_one(&gen, k).labels["r"].clone())
            .collect();
        let z: Vec<String> = (0..6)
            .map(|k| generate_one(&gen, k).labels["z"].clone())
            .collect();
        assert_eq!(r, ["a", "b", "c", "a", "b", "c"]);
        assert_eq!(z, ["x", "x", "x", "y", "y", "y"]);
        assert_eq!(generate_one(&gen, 0).name, "c1");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn label_values_are_numbered_like_names() {
        // `{i}` and `{i:0W}` mean the same in a label value as in the name pattern: the cluster's number
        // (from `first`), zero-padded to W digits when asked.
        let mut gen = ClusterGenerator {
            count: 3,
            name: "c{i}".into(),
            first: 9,
            labels: BTreeMap::new(),
        };
        for (key, value) in [("order", "{i}"), ("slot", "s-{i:03}"), ("env", "prod")] {
            gen.labels.insert(
                key.into(),
                LabelSpread {
                    values: vec![value.into()],
                    mode: SpreadMode::Cycle,
                },
            );
        }
        let last = generate_one(&gen, 2);
        assert_eq!(last.name, "c11");
        assert_eq!(last.labels["order"], "11");
        assert_eq!(last.labels["slot"], "s-011");
        assert_eq!(last.labels["env"], "prod");
    }
}
