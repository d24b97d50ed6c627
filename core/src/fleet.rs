//! The fleet: explicit clusters plus generated ones, expanded into one checked list.

use crate::diag::{thousands, Cap, Diagnostic};
use std::borrow::Cow;

use crate::model::{Cluster, ClusterGenerator, FleetCluster, FleetPath, Scenario, Strategy};
use crate::quote::go_quote;

mod pattern;

pub use pattern::{Generator, Pattern};

/// Fleets above this size are refused: a typo such as `count: 10000000` must not freeze a browser tab.
pub const MAX_CLUSTERS: u64 = 1_000_000;
/// What the names and labels of generated clusters may take together: a 2,000-character pattern
/// times a million clusters once asked for 7.9 GB.
pub const MAX_GENERATED_BYTES: u64 = 64 * 1024 * 1024;
/// Kubernetes object names are DNS subdomains: at most 253 characters.
pub const MAX_NAME: usize = 253;
/// KubeFleet's MemberCluster allows 63 (`size(self.metadata.name) < 64` in its CRD).
pub const MAX_MEMBER_CLUSTER_NAME: usize = 63;

impl Scenario {
    /// Every cluster of the scenario, explicit ones first, each with the path that declared it.
    /// Duplicate names are reported and only the first declaration is kept; names too long for the
    /// real system are reported; fleets past [`MAX_CLUSTERS`] or [`MAX_GENERATED_BYTES`] stop there.
    pub fn fleet(&self) -> (Vec<FleetCluster<'_>>, Vec<Diagnostic>) {
        let (fleet, diags, _) = self.fleet_in_order();
        (fleet, diags)
    }

    /// [`Scenario::fleet`], and whether its names increase along it (the usual listed or generated
    /// fleet), which its duplicate check finds anyway: a planner can then order clusters by name by
    /// their places, without comparing names (in wasm a `memcmp` call each, byte by byte).
    pub fn fleet_in_order(&self) -> (Vec<FleetCluster<'_>>, Vec<Diagnostic>, bool) {
        let mut diags = Vec::new();
        let mut cap = Cap::default();
        let member_clusters = matches!(
            self.strategy,
            Strategy::KubefleetStaged(_) | Strategy::KubefleetRolling(_)
        );
        let explicit = self.clusters.len().min(MAX_CLUSTERS as usize);
        if self.clusters.len() > explicit {
            diags.push(
                Diagnostic::error(
                    "fleet-too-large",
                    format!(
                        "the fleet has {} clusters; fleetplan plans at most {}, the rest are left out",
                        thousands(self.clusters.len()),
                        thousands(MAX_CLUSTERS as usize)
                    ),
                )
                .at(format!("clusters[{explicit}]")),
            );
        }
        let mut out: Vec<FleetCluster> = Vec::with_capacity(explicit);
        for (i, c) in self.clusters[..explicit].iter().enumerate() {
            let path = FleetPath::Listed(i);
            if c.name.is_empty() {
                cap.push(
                    &mut diags,
                    Diagnostic::error("cluster-name-missing", "cluster has no name")
                        .at(format!("{path}.name")),
                );
                continue;
            }
            if cap.admits("cluster-name-too-long") || cap.admits("member-cluster-name-too-long") {
                for d in name_length(&c.name, member_clusters) {
                    cap.push(&mut diags, d.at(format!("{path}.name")));
                }
            }
            out.push(FleetCluster {
                cluster: Cow::Borrowed(c),
                path,
            });
        }
        let mut total: u64 = explicit as u64;
        let mut bytes: u64 = 0;
        for (g, gen) in self.generate.iter().enumerate() {
            let path = format!("generate[{g}]");
            if total + u64::from(gen.count) > MAX_CLUSTERS {
                diags.push(
                    Diagnostic::error(
                        "fleet-too-large",
                        format!(
                            "the fleet would have more than {} clusters; generator skipped",
                            thousands(MAX_CLUSTERS as usize)
                        ),
                    )
                    .at(format!("{path}.count")),
                );
                continue;
            }
            if !crate::substr::contains(&gen.name, "{i") {
                diags.push(
                    Diagnostic::error(
                        "generator-name-pattern",
                        format!("name pattern `{}` has no `{{i}}` placeholder, so every generated cluster would get the same name", gen.name),
                    )
                    .at(format!("{path}.name")),
                );
                continue;
            }
            if gen.count == 0 {
                continue;
            }
            // Names grow with their index, so the last is the longest and the first too long is
            // found by bisection; neither needs the fleet to be generated.
            // The pattern is split once for the last name and every probe of the bisection.
            let pattern = Pattern::new(&gen.name);
            let name_at = |k: u32| pattern.format(u64::from(gen.first) + u64::from(k));
            let last = name_at(gen.count - 1);
            // Kubernetes measures object names in bytes, CEL's `size()` in characters.
            let first_longer = |limit: usize, measure: fn(&str) -> usize| {
                (measure(&last) > limit).then(|| {
                    let (mut lo, mut hi) = (0u32, gen.count - 1);
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        let name = name_at(mid);
                        if measure(&name) > limit {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    name_at(lo)
                })
            };
            if let Some(name) = first_longer(MAX_NAME, str::len) {
                for d in name_length(&name, member_clusters) {
                    diags.push(d.at(format!("{path}.name")));
                }
                diags.push(
                    Diagnostic::error(
                        "generator-skipped",
                        "this generator's names are longer than any Kubernetes object name: no cluster is generated",
                    )
                    .at(format!("{path}.name")),
                );
                continue;
            }
            if let Some(name) = first_longer(MAX_MEMBER_CLUSTER_NAME, |n| n.chars().count())
                .filter(|_| member_clusters)
            {
                diags.extend(
                    name_length(&name, true)
                        .into_iter()
                        .map(|d| d.at(format!("{path}.name"))),
                );
            }
            let label_bytes: u64 = gen
                .labels
                .iter()
                .map(|(k, spread)| {
                    let longest = spread.values.iter().map(String::len).max().unwrap_or(0);
                    // An index label's value is the cluster's number: at most 20 digits.
                    (k.len() + longest.max(20)) as u64
                })
                .sum();
            let cost = u64::from(gen.count) * (last.len() as u64 + label_bytes);
            if bytes + cost > MAX_GENERATED_BYTES {
                diags.push(
                    Diagnostic::error(
                        "fleet-too-large",
                        format!(
                            "the generated clusters' names and labels would take {} bytes; fleetplan holds at most {} MiB of them; generator skipped",
                            thousands(usize::try_from(bytes + cost).unwrap_or(usize::MAX)),
                            MAX_GENERATED_BYTES / (1024 * 1024)
                        ),
                    )
                    .at(format!("{path}.count")),
                );
                continue;
            }
            total += u64::from(gen.count);
            bytes += cost;
            out.reserve(gen.count as usize);
            let mut generator = Generator::new(gen);
            out.extend((0..gen.count).map(|k| FleetCluster {
                cluster: Cow::Owned(generator.cluster(k)),
                path: FleetPath::Generated(g),
            }));
        }
        let in_order = drop_duplicates(&mut out, &mut diags, &mut cap);
        (out, diags, in_order)
    }
}

/// The API server's refusals of a cluster name too long: any Kubernetes object name (a DNS subdomain,
/// `metadata.name: Invalid value: …: must be no more than 253 characters`), then, for a KubeFleet
/// MemberCluster, its CRD's rule (`<nil>: Invalid value: "object": metadata.name max length is 63`).
/// kubectl lists both when both fail.
fn name_length(name: &str, member_cluster: bool) -> Vec<Diagnostic> {
    // A name has at most as many characters as bytes: most are short enough not to be counted.
    if name.len() <= MAX_NAME && (!member_cluster || name.len() <= MAX_MEMBER_CLUSTER_NAME) {
        return Vec::new();
    }
    let chars = name.chars().count();
    let mut out = Vec::new();
    let refusal = |cause: String| {
        if member_cluster {
            format!("The MemberCluster {} is invalid: {cause}", go_quote(name))
        } else {
            format!("cluster {} is invalid: {cause}", go_quote(name))
        }
    };
    if name.len() > MAX_NAME {
        out.push(Diagnostic::error(
            "cluster-name-too-long",
            refusal(format!(
                "metadata.name: Invalid value: {}: must be no more than {MAX_NAME} characters",
                go_quote(name)
            )),
        ));
    }
    if member_cluster && chars > MAX_MEMBER_CLUSTER_NAME {
        out.push(Diagnostic::error(
            "member-cluster-name-too-long",
            refusal(format!(
                "<nil>: Invalid value: \"object\": metadata.name max length is {MAX_MEMBER_CLUSTER_NAME}"
            )),
        ));
    }
    out
}

/// Keeps the first declaration of each name and reports the others. Sorting indices by name finds
/// duplicates without hashing or copying a single name, which matters for generated fleets. Whether
/// the names increase along the fleet.
fn drop_duplicates(
    fleet: &mut Vec<FleetCluster<'_>>,
    diags: &mut Vec<Diagnostic>,
    cap: &mut Cap,
) -> bool {
    // Names that increase along the list are all different: a fleet listed or generated in name
    // order (the usual case) needs no sort.
    if fleet
        .windows(2)
        .all(|w| w[0].cluster.name < w[1].cluster.name)
    {
        return true;
    }
    let mut order: Vec<u32> = (0..fleet.len() as u32).collect();
    // Ties are broken by position, so the one shared stable sort gives the unstable order exactly.
    crate::sort::sort_by(&mut order, |&a, &b| {
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
            cap.push(
                diags,
                Diagnostic::error(
                    "duplicate-cluster",
                    format!("cluster `{}` is declared twice (first at {}); member cluster names are unique", dup.cluster.name, first.path),
                )
                .at(dup.path),
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
    false
}

/// The `k`-th (0-based) cluster of a generator.
pub fn generate_one(gen: &ClusterGenerator, k: u32) -> Cluster {
    Generator::new(gen).cluster(k)
}

/// Replaces `{i}` and `{i:0W}` (zero-padded to W digits) in a name pattern.
pub fn format_name(pattern: &str, i: u64) -> String {
    Pattern::new(pattern).format(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LabelSpread, SpreadMode};
    use crate::sorted_map::SortedMap;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn names_are_padded_as_asked() {
        assert_eq!(format_name("prod-{i:03}", 7), "prod-007");
        assert_eq!(format_name("c{i}-x", 12), "c12-x");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn one_generator_names_every_cluster_as_its_pattern_numbered_alone() {
        // A generator writes each name where it wrote the last one: whatever order clusters are made
        // in, and however the digits grow or shrink between them (9 → 10, 100 → 99, padded or not),
        // every name is its pattern numbered on its own, with no text left from the name before.
        let gen = ClusterGenerator {
            count: 120,
            name: "{i}-zoné-{i:03}{i}.x".into(),
            first: 8,
            labels: SortedMap::new(),
        };
        let expect = |k: u32| format_name(&gen.name, u64::from(gen.first + k));
        let mut generator = Generator::new(&gen);
        for k in (0..gen.count)
            .chain((0..gen.count).rev())
            .chain([5, 110, 0])
        {
            assert_eq!(generator.cluster(k).name, expect(k), "cluster {k}");
        }
        assert_eq!(expect(1), "9-zoné-0099.x");
        assert_eq!(expect(100), "108-zoné-108108.x");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn spreads_cycle_or_block() {
        let mut gen = ClusterGenerator {
            count: 6,
            name: "c{i}".into(),
            first: 1,
            labels: SortedMap::new(),
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
            .map(|k| generate_one(&gen, k).labels["r"].to_string())
            .collect();
        let z: Vec<String> = (0..6)
            .map(|k| generate_one(&gen, k).labels["z"].to_string())
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
            labels: SortedMap::new(),
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
        assert_eq!(&last.labels["order"], "11");
        assert_eq!(&last.labels["slot"], "s-011");
        assert_eq!(&last.labels["env"], "prod");
    }
}
