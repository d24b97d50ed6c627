//! Cases: each one a text (or a share link) built from a seed and its number. Structured generators
//! write scenarios of every kind, KubeFleet objects and GKE's formats with values from the edges of
//! every limit (int32, the time cap, 31 stages, 63/253-character names, 65,000 nodes, the fleet cap)
//! and hostile text (controls, bidirectional overrides, fences, markup, formulas); others damage the
//! examples or build YAML meant to hurt (deep nesting, alias bombs, duplicate keys, long scalars).

use std::fmt::Write as _;

use fleetplan::examples;

use crate::rng::Rng;

/// The largest input a case gets: the bounds in [`crate::bounds`] are stated for inputs up to this.
pub const MAX_INPUT: usize = 1 << 20;

/// What a case feeds the pipeline.
#[derive(Clone, Debug)]
pub enum Input {
    /// Scenario, manifest or GKE text.
    Text(String),
    /// A share link's payload (what follows `#s=`).
    Link(String),
}

#[derive(Clone, Debug)]
pub struct Case {
    /// Which generator made it (for the report).
    pub kind: &'static str,
    pub input: Input,
}

impl Case {
    pub fn bytes(&self) -> usize {
        match &self.input {
            Input::Text(t) | Input::Link(t) => t.len(),
        }
    }
}

/// How large generated fleets may get: the full cap for campaigns, less for a quick budget in a debug build.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub max_clusters: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_clusters: 1_100_000,
        }
    }
}

/// Case `index` of the run seeded with `seed`.
pub fn case(seed: u64, index: u64, config: Config) -> Case {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (kind, mut input) = match r.below(100) {
        0..=34 => ("scenario", Input::Text(scenario(&mut r, config))),
        35..=46 => ("manifests", Input::Text(manifests(&mut r))),
        47..=54 => ("gke-format", Input::Text(gke_format(&mut r))),
        55..=74 => ("damaged-example", Input::Text(damaged_example(&mut r))),
        75..=86 => ("hostile-yaml", Input::Text(hostile_yaml(&mut r))),
        _ => ("share-link", Input::Link(link(&mut r, config))),
    };
    let (Input::Text(t) | Input::Link(t)) = &mut input;
    truncate(t, MAX_INPUT);
    Case { kind, input }
}

fn truncate(t: &mut String, max: usize) {
    if t.len() > max {
        let mut cut = max;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
    }
}

/// Strings that have broken tools before.
const NASTY: &[&str] = &[
    "",
    "a",
    "prod-eu-1",
    "member1",
    "\u{202e}exe.txt",
    "evil\u{1b}]0;pwned\u{7}\u{1b}[2J",
    "zero\u{200b}width\u{200d}",
    "\u{feff}bom",
    "```",
    "<script>alert(1)</script>",
    "a:b;#c%d&e",
    "=cmd|' /C calc'!A0",
    "@SUM(1)",
    "line\nbreak",
    "tab\there",
    "\r\n",
    "-",
    "'",
    "\"",
    "\\",
    "{i}",
    "section evil",
    "2026-11-23 trick",
    "日本語",
    "🚀",
    "\u{0}nul",
    "\u{85}\u{2028}\u{2029}",
    "\u{e0041}tag",
    "\u{fffe}",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "31",
    "32",
    "63",
    "64",
    "100",
    "253",
    "254",
    "1000",
    "1001",
    "65000",
    "65001",
    "2147483647",
    "2147483648",
    "-1",
    "-2147483649",
    "4294967295",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "1e400",
    "0x7fffffff",
    "1.5",
    "\"3\"",
    "\"25%\"",
    "\"100%\"",
    "\"101%\"",
    "\"0%\"",
    "~",
    "[]",
    "{}",
];

const DURATIONS: &[&str] = &[
    "0s",
    "1s",
    "90",
    "30m",
    "1h30m",
    "1.5h",
    "3d",
    "30d",
    "31d",
    "3652424d",
    "3652425d",
    "315569519999",
    "315569520000",
    "9223372036854775807",
    "-1h",
    "1e9h",
    "0.0001ms",
    "h",
    "1d2h3m4s5ms",
];

const TIMES: &[&str] = &[
    "2026-11-23T09:00:00Z",
    "2026-11-28T23:59:59Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "9999-12-31T23:00:00-01:00",
    "0000-01-01T00:30:00+01:00",
    "2026-02-29",
    "2024-02-29T12:00",
    "next tuesday",
];

const VERSIONS: &[&str] = &[
    "1.31.4-gke.1000",
    "1.31.5-gke.1200000",
    "1.32.1-gke.1200",
    "1.33.0-gke.1",
    "1.30.0-gke.99",
    "2.0.0-gke.1",
    "1.31",
    "garbage",
];

/// A YAML double-quoted scalar holding `s` exactly: hidden characters as escapes, so the text parses.
fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if fleetplan::visible::is_hidden(c) => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn name(r: &mut Rng) -> String {
    match r.below(10) {
        0..=5 => format!("c{}", r.below(50)),
        6 => r.pick(NASTY).to_string(),
        7 => "n".repeat(r.size(300) as usize + 1),
        8 => format!("{}{}", r.pick(NASTY), r.below(9)),
        _ => format!("member-{:03}", r.below(1000)),
    }
}

fn label_value(r: &mut Rng) -> String {
    match r.below(8) {
        0..=4 => r
            .pick(&["a", "b", "c", "eastus", "1", "2", "10", "x"])
            .to_string(),
        5 => r.pick(NASTY).to_string(),
        6 => r.below(100_000).to_string(),
        _ => "v".repeat(r.size(100) as usize),
    }
}

fn labels(r: &mut Rng) -> String {
    let n = r.size(6) as usize;
    let items: Vec<String> = (0..n)
        .map(|_| {
            let key = match r.below(6) {
                0 => r.pick(NASTY).to_string(),
                1 => "example.com/ring".into(),
                _ => r
                    .pick(&["env", "region", "order", "ring", "canary"])
                    .to_string(),
            };
            format!("{}: {}", q(&key), q(&label_value(r)))
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

fn selector(r: &mut Rng) -> String {
    match r.below(8) {
        0 => "{}".into(),
        1 => "~".into(),
        2 => q("env=a,!canary"),
        3 => {
            let n = r.size(40_000) as usize;
            let values: Vec<String> = (0..n).map(|i| q(&(2 * i).to_string())).collect();
            let op = r.pick(&["In", "NotIn", "Exists", "DoesNotExist", "Gt", ""]);
            format!(
                "{{matchExpressions: [{{key: {}, operator: {op}, values: [{}]}}]}}",
                q(r.pick(&["order", "env", "n"])),
                values.join(",")
            )
        }
        _ => format!("{{matchLabels: {}}}", labels(r)),
    }
}

fn int_or(r: &mut Rng) -> &'static str {
    r.pick(NUMBERS)
}

fn clusters(r: &mut Rng, gke: bool) -> String {
    let n = {
        let max = if r.chance(20) { 3000 } else { 30 };
        r.size(max)
    } as usize;
    let mut out = String::from("clusters:\n");
    for _ in 0..n {
        let _ = write!(out, "  - {{name: {}, labels: {}", q(&name(r)), labels(r));
        if gke || r.chance(100) {
            let _ = write!(
                out,
                ", fleet: {}, version: {{controlPlane: {}, node: {}}}, releaseChannel: {}",
                q(r.pick(&["projects/p", "projects/q", "p", ""])),
                r.pick(VERSIONS),
                r.pick(VERSIONS),
                r.pick(&["REGULAR", "STABLE", "RAPID", "EXTENDED", "NOPE"])
            );
            if r.chance(500) {
                let window = match r.below(3) {
                    0 => format!(
                        "{{daily: {}}}",
                        q(r.pick(&["02:00", "23:59", "24:00", "x"]))
                    ),
                    1 => format!(
                        "{{start: {}, end: {}, recurrence: {}}}",
                        q(r.pick(TIMES)),
                        q(r.pick(TIMES)),
                        q(r.pick(&[
                            "FREQ=WEEKLY;BYDAY=SA",
                            "FREQ=DAILY;INTERVAL=400",
                            "FREQ=MONTHLY;BYMONTHDAY=31",
                            "FREQ=YEARLY",
                            "",
                        ]))
                    ),
                    _ => "~".into(),
                };
                let ex = {
                    let max = if r.chance(50) { 30_000 } else { 25 };
                    r.size(max)
                } as usize;
                let exclusions: Vec<String> = (0..ex)
                    .map(|_| {
                        format!(
                            "{{name: x, start: {}, end: {}, scope: {}}}",
                            q(r.pick(TIMES)),
                            q(r.pick(TIMES)),
                            r.pick(&[
                                "NO_UPGRADES",
                                "NO_MINOR_UPGRADES",
                                "NO_MINOR_OR_NODE_UPGRADES",
                                "X"
                            ])
                        )
                    })
                    .collect();
                let _ = write!(
                    out,
                    ", maintenance: {{window: {window}, exclusions: [{}]}}",
                    exclusions.join(", ")
                );
            }
            if r.chance(400) {
                let _ = write!(
                    out,
                    ", nodePools: [{{name: p, nodes: {}, maxSurge: {}}}]",
                    int_or(r),
                    int_or(r)
                );
            }
        }
        out.push_str("}\n");
    }
    out
}

fn generate(r: &mut Rng, config: Config) -> String {
    let n = r.below(3);
    let mut out = String::from("generate:\n");
    for _ in 0..n {
        let count = if r.chance(30) {
            // Both sides of the fleet cap: 1,000,000 plans, 1,000,001 is refused.
            let near = [1_000_000, 999_999, 1_000_001, 500_000, 100_001, 100_000];
            r.pick(&near).min(config.max_clusters)
        } else {
            r.size(config.max_clusters.min(2_000))
        };
        let pattern = match r.below(6) {
            0 => format!("{}{{i}}", "p".repeat(r.size(2_100) as usize)),
            1 => "same".into(),
            2 => format!("{}{{i:0{}}}", name(r), r.below(70)),
            _ => "member-{i:04}".into(),
        };
        let _ = writeln!(
            out,
            "  - {{count: {count}, name: {}, first: {}, labels: {{env: [a, b, c], order: {{index: true}}, ring: {{values: [x, y], spread: blocks}}}}}}",
            q(&pattern),
            r.pick(&["0", "1", "4294967295"])
        );
    }
    out
}

fn assumptions(r: &mut Rng) -> String {
    let mut out = String::from("assumptions:\n");
    let _ = writeln!(out, "  updateDuration: {}", q(r.pick(DURATIONS)));
    if r.chance(300) {
        let _ = writeln!(out, "  applyDuration: {}", q(r.pick(DURATIONS)));
        let _ = writeln!(out, "  deleteDuration: {}", q(r.pick(DURATIONS)));
    }
    if r.chance(300) {
        let n = {
            let max = if r.chance(30) { 50_000 } else { 10 };
            r.size(max)
        } as usize;
        let f: Vec<String> = (0..n).map(|_| q(&name(r))).collect();
        let _ = writeln!(out, "  failures: [{}]", f.join(", "));
    }
    if r.chance(300) {
        let _ = writeln!(
            out,
            "  approvals: {{delay: {}, businessHours: {{utcOffset: \"+01:00\", start: \"09:00\", end: {}, days: Mon-Fri}}}}",
            q(r.pick(DURATIONS)),
            q(r.pick(&["17:30", "09:00", "25:00"]))
        );
    }
    if r.chance(200) {
        let _ = writeln!(
            out,
            "  stops: [{{at: {}, resume: {}}}]",
            q(r.pick(TIMES)),
            q(r.pick(TIMES))
        );
    }
    if r.chance(200) {
        let _ = writeln!(
            out,
            "  uncertainty: {{seed: 7, samples: {}, updateSpread: 0.25, failureRate: 0.02}}",
            r.pick(&["10", "1000", "100000", "4294967295", "-1"])
        );
    }
    out
}

fn scenario(r: &mut Rng, config: Config) -> String {
    let kind = r.below(4);
    let gke = kind >= 2;
    let mut out = String::new();
    let _ = writeln!(out, "name: {}", q(&name(r)));
    let _ = writeln!(out, "start: {}", q(r.pick(TIMES)));
    out.push_str(&clusters(r, gke));
    out.push_str(&generate(r, config));
    out.push_str("strategy:\n");
    match kind {
        0 => {
            out.push_str("  kind: kubefleet-staged\n  stages:\n");
            let stages = if r.chance(100) {
                30 + r.below(5)
            } else {
                r.size(8) as usize
            };
            for _ in 0..stages {
                let _ = writeln!(
                    out,
                    "    - {{name: {}, labelSelector: {}, sortingLabelKey: {}, maxConcurrency: {}, beforeStageTasks: [{{type: Approval}}], afterStageTasks: [{{type: TimedWait, waitTime: {}}}]}}",
                    q(r.pick(&["staging", "canary", "prod", "a", "Bad-Name", ""])),
                    selector(r),
                    r.pick(&["~", "order", "env"]),
                    int_or(r),
                    q(r.pick(DURATIONS))
                );
            }
            let _ = writeln!(
                out,
                "  placement: {{name: crp, type: {}, numberOfClusters: {}}}",
                r.pick(&["PickAll", "PickN", "PickFixed", "Nope"]),
                int_or(r)
            );
        }
        1 => {
            let _ = writeln!(
                out,
                "  kind: kubefleet-rolling\n  placement: {{name: p, type: {}, numberOfClusters: {}, affinity: {}}}\n  rollingUpdate: {{maxUnavailable: {}, maxSurge: {}, unavailablePeriodSeconds: {}}}\n  resources: [Namespace, Deployment, Job, {{kind: Service, type: LoadBalancer}}]\n  change: {{update: {}}}",
                r.pick(&["PickAll", "PickN", "PickFixed"]),
                int_or(r),
                q(r.pick(&["env=a", "env in (a,b)", "", "!!!"])),
                int_or(r),
                int_or(r),
                int_or(r),
                r.pick(&["true", "false"])
            );
        }
        2 => {
            out.push_str("  kind: gke-rollout-sequence\n  stages:\n");
            for _ in 0..r.size(8) {
                let _ = writeln!(
                    out,
                    "    - {{fleet: {}, labelSelector: {}, soakDuration: {}}}",
                    q(r.pick(&["projects/p", "projects/q"])),
                    q(r.pick(&[
                        "resource.labels.env == 'a'",
                        "resource.labels['env'] in ['a', 'b']",
                        "has(resource.labels.canary) && !(resource.labels.env != 'c')",
                        "resource.labels.env ==",
                        "((((((((((((((((((((x))))))))))))))))))))",
                    ])),
                    q(r.pick(DURATIONS))
                );
            }
            let _ = writeln!(
                out,
                "  versions: [{}, {{version: {}, at: {}}}]",
                r.pick(VERSIONS),
                r.pick(VERSIONS),
                q(r.pick(TIMES))
            );
        }
        _ => {
            out.push_str("  kind: gke-fleet-sequence\n  groups:\n");
            let n = r.size(8);
            for g in 0..n {
                let up = if g == 0 {
                    String::new()
                } else {
                    format!(", upstreamFleets: [f{}]", g - 1)
                };
                let _ = writeln!(
                    out,
                    "    - {{fleet: f{g}, soaking: {}{up}}}",
                    q(r.pick(DURATIONS))
                );
            }
            let _ = writeln!(out, "  versions: [{}]", r.pick(VERSIONS));
        }
    }
    out.push_str(&assumptions(r));
    out
}

fn manifests(r: &mut Rng) -> String {
    let mut docs = Vec::new();
    for _ in 0..r.size(40) {
        docs.push(format!(
            "apiVersion: cluster.kubernetes-fleet.io/v1beta1\nkind: MemberCluster\nmetadata: {{name: {}, labels: {}}}\n",
            q(&name(r)),
            labels(r)
        ));
    }
    let stages: Vec<String> = (0..r.size(40))
        .map(|_| {
            format!(
                "{{name: {}, labelSelector: {}, maxConcurrency: {}}}",
                q(r.pick(&["a", "b", "prod"])),
                selector(r),
                int_or(r)
            )
        })
        .collect();
    docs.push(format!(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateStrategy\nmetadata: {{name: s}}\nspec: {{stages: [{}]}}\n",
        stages.join(", ")
    ));
    docs.push(format!(
        "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\nmetadata: {{name: p}}\nspec: {{policy: {{placementType: {}, numberOfClusters: {}}}, strategy: {{type: {}, rollingUpdate: {{maxUnavailable: {}, maxSurge: {}}}}}}}\n",
        r.pick(&["PickAll", "PickN", "PickFixed"]),
        int_or(r),
        r.pick(&["External", "RollingUpdate"]),
        int_or(r),
        int_or(r)
    ));
    if r.chance(800) {
        docs.push(format!(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateRun\nmetadata: {{name: {}}}\nspec: {{placementName: p, stagedRolloutStrategyName: s, state: {}}}\n",
            q(&name(r)),
            r.pick(&["Run", "Initialize", "Stop", "Bogus"])
        ));
    }
    docs.join("---\n")
}

fn gke_format(r: &mut Rng) -> String {
    if r.chance(500) {
        let stages: Vec<String> = (0..r.size(10))
            .map(|_| {
                format!(
                    "- stage:\n  fleet-projects:\n  - {}\n  soak-duration: {}\n  label-selector: {}\n",
                    q(r.pick(&["projects/a", "projects/b", ""])),
                    q(r.pick(DURATIONS)),
                    q(r.pick(&["resource.labels.canary == 'true'", "", "(("]))
                )
            })
            .collect();
        stages.concat()
    } else {
        let stages: Vec<String> = (0..r.size(10))
            .map(|_| {
                format!(
                    "{{\"fleetProjects\": [{}], \"soakDuration\": {}}}",
                    q(r.pick(&["projects/a", "projects/b"])),
                    q(r.pick(&["259200s", "0s", "-1s", "99999999999999999s", "x"]))
                )
            })
            .collect();
        format!(
            "{{\"name\": \"projects/p/locations/global/rolloutSequences/s\", \"stages\": [{}]}}",
            stages.join(", ")
        )
    }
}

fn damaged_example(r: &mut Rng) -> String {
    let all = examples::all();
    let mut text: Vec<u8> = if r.chance(150) {
        include_str!("../../core/src/decode/full.yaml")
            .as_bytes()
            .to_vec()
    } else {
        all[r.below(all.len())].text.as_bytes().to_vec()
    };
    for _ in 0..=r.below(4) {
        let at = r.below(text.len() + 1);
        match r.below(7) {
            0 => text.truncate(at),
            1 => {
                let end = (at + r.below(60)).min(text.len());
                text.drain(at..end);
            }
            2 => {
                let token = r.pick(&[
                    "[", "]", "{", "}", ": ", "- ", "&a ", "*a", "!!str ", "|", ">", "\t", "\n",
                    "#", "'", "\"", "---\n", "? ",
                ]);
                text.splice(at..at, token.bytes());
            }
            3 => {
                let token = q(r.pick(NASTY));
                text.splice(at..at, token.bytes());
            }
            4 => {
                // A line repeated many times: duplicate keys, long lists.
                let start = text[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = text[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |i| at + i + 1);
                let line = text[start..end].to_vec();
                for _ in 0..r.size(5_000) {
                    text.splice(end..end, line.iter().copied());
                }
            }
            5 => {
                let number = r.pick(NUMBERS);
                text.splice(at..at, number.bytes());
            }
            _ => {
                if let Some(b) = text.get_mut(at) {
                    *b ^= 1 << r.below(8);
                }
            }
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

fn hostile_yaml(r: &mut Rng) -> String {
    match r.below(6) {
        0 => {
            let depth = r.size(300) as usize;
            format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
        }
        1 => {
            let depth = r.size(200) as usize;
            (0..depth)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect()
        }
        2 => {
            // Alias bombs, by nodes or by bytes.
            let width = 2 + r.below(12);
            let mut t = format!("a0: &a0 {}\n", q(&"x".repeat(r.size(20_000) as usize)));
            for level in 1..=r.below(9) {
                let aliases = vec![format!("*a{}", level - 1); width].join(", ");
                let _ = writeln!(t, "a{level}: &a{level} [{aliases}]");
            }
            t
        }
        3 => {
            let keys = r.size(60_000) as usize;
            let distinct = 1 + r.below(keys + 1);
            let mut t = String::from("clusters:\n  - labels:\n");
            for k in 0..keys {
                let _ = writeln!(t, "      k{}: v", k % distinct);
            }
            t.push_str("    name: x\nstrategy: {stages: [{name: a, labelSelector: {}}]}\n");
            t
        }
        4 => format!(
            "name: {}\nstrategy: {{stages: []}}\n",
            q(&"s".repeat(r.size(900_000) as usize))
        ),
        _ => {
            let soup = [
                "[",
                "]",
                "{",
                "}",
                ":",
                ",",
                "-",
                "&x",
                "*x",
                "!",
                "|",
                ">",
                "'",
                "\"",
                "#",
                "?",
                "\n",
                " ",
                "\t",
                "a",
                "1",
                "%YAML 1.2\n",
                "---\n",
                "...\n",
            ];
            (0..r.size(5_000)).map(|_| r.pick(&soup)).collect()
        }
    }
}

fn link(r: &mut Rng, config: Config) -> String {
    match r.below(5) {
        0 => {
            let alphabet =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %#";
            let n = r.size(5_000) as usize;
            let body: String = (0..n).map(|_| char::from(r.pick(alphabet))).collect();
            format!("{}{body}", r.pick(&["1.", "2.", "", "1", "s=1."]))
        }
        _ => {
            let mut payload = fleetplan::share::encode(&scenario(r, config));
            if r.chance(500) && !payload.is_empty() {
                let at = r.below(payload.len());
                match r.below(3) {
                    0 => payload.truncate(at.max(2)),
                    1 => payload.insert(at, r.pick(&['!', 'é', '=', 'A', '\u{202e}'])),
                    _ => {
                        let mut bytes = payload.into_bytes();
                        bytes[at] = r.pick(b"AZaz09-_");
                        payload = String::from_utf8_lossy(&bytes).into_owned();
                    }
                }
            }
            payload
        }
    }
}
