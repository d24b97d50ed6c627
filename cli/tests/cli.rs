//! End-to-end tests of the `fleetplan` binary: exit codes, messages, stdin, formats, closed pipes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_fleetplan");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary starts")
}

fn run_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // A child that exits before reading everything closes the pipe; that is its business, not a test failure.
    let _ = child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("the binary finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The built-in `staged` example as the binary prints it.
fn staged_example() -> String {
    let o = run(&["example", "staged"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    stdout(&o)
}

/// A file under the system temp dir, unique per test, so tests can run in parallel.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("fleetplan-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("temp file is writable");
    path
}

fn repo_file(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "panic output: {err}"
    );
    assert_ne!(
        o.status.code(),
        Some(101),
        "exit code of a panic; stderr: {err}"
    );
}

#[test]
fn example_lists_names_and_titles() {
    let o = run(&["example"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let staged = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some("staged"));
    let staged = staged.unwrap_or_else(|| panic!("no `staged` line in:\n{out}"));
    assert!(
        staged.split_whitespace().count() > 1,
        "`staged` has no title: {staged:?}"
    );
}

#[test]
fn unknown_example_is_a_usage_error_listing_the_names() {
    let o = run(&["example", "no-such-example"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no-such-example") && err.contains("staged"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn every_example_passes_check() {
    let list = stdout(&run(&["example"]));
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!names.is_empty());
    for name in names {
        let text = stdout(&run(&["example", name]));
        let o = run_with_stdin(&["check", "-"], &text);
        assert_no_panic(&o);
        // Some examples demonstrate a mistake on purpose; those must say so with an error, not be silent.
        let out = stdout(&o);
        match o.status.code() {
            Some(0) => assert!(
                !out.contains("error["),
                "{name}: exit 0 with errors:\n{out}"
            ),
            Some(1) => assert!(
                out.contains("error["),
                "{name}: exit 1 without an error:\n{out}{}",
                stderr(&o)
            ),
            other => panic!("{name}: exit {other:?}"),
        }
    }
}

#[test]
fn staged_example_plans_from_stdin_as_a_table() {
    let o = run_with_stdin(&["plan", "-"], &staged_example());
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    for section in [
        "stages",
        "clusters",
        "summary",
        "diagnostics",
        "assumptions",
    ] {
        assert!(
            out.lines().any(|l| l == section),
            "no `{section}` section in:\n{out}"
        );
    }
    assert!(
        out.contains("  STAGE ") && out.contains("succeeded"),
        "{out}"
    );
}

#[test]
fn json_format_parses_and_is_the_plan() {
    let o = run_with_stdin(&["plan", "--format", "json", "-"], &staged_example());
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(v["kind"], "kubefleet-staged", "{v:#}");
    assert!(
        v["stages"].as_array().is_some_and(|s| !s.is_empty()),
        "no stages: {v:#}"
    );
    assert_eq!(v["outcome"], "succeeded");
}

#[test]
fn start_overrides_the_scenario_start() {
    let o = run_with_stdin(
        &[
            "plan",
            "--format",
            "json",
            "--start",
            "2030-02-03T04:05:06+01:00",
            "-",
        ],
        &staged_example(),
    );
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(v["start"], "2030-02-03T03:05:06Z");
}

#[test]
fn yaml_format_prints_the_plan() {
    let o = run_with_stdin(&["plan", "--format", "yaml", "-"], &staged_example());
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(
        stdout(&o).contains("kind: kubefleet-staged"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn two_files_give_a_json_array() {
    let text = staged_example();
    let a = temp_file("a.yaml", &text);
    let o = run_with_stdin(
        &["plan", "--format", "json", a.to_str().unwrap(), "-"],
        &text.replace("staged", "staged-copy"),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    let _ = std::fs::remove_file(&a);
    assert_eq!(v.as_array().map(Vec::len), Some(2), "{v:#}");
}

#[test]
fn check_of_a_clean_example_exits_0_with_a_count() {
    let o = run_with_stdin(&["check", "-"], &staged_example());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let last = stdout(&o).lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with("0 errors, "), "{last}");
}

#[test]
fn check_of_a_cluster_in_no_stage_exits_1() {
    let o = run(&["check", &repo_file("examples/cluster-in-no-stage.yaml")]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("some clusters are not placed in any stage"),
        "{out}"
    );
    assert!(out.contains("error[cluster-in-no-stage]"), "{out}");
}

#[test]
fn check_of_malformed_yaml_exits_1_with_a_located_error() {
    let bad = temp_file("bad.yaml", "strategy:\n  stages: [\n    - name: x\n");
    let o = run(&["check", bad.to_str().unwrap()]);
    let _ = std::fs::remove_file(&bad);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("error[") && out.contains(bad.to_str().unwrap()),
        "{out}"
    );
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("1 error") || last.contains(" errors, "),
        "{last}"
    );
}

#[test]
fn plan_with_errors_still_prints_and_exits_1() {
    let o = run(&["plan", &repo_file("examples/cluster-in-no-stage.yaml")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("error[cluster-in-no-stage]"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn unreadable_file_is_named_and_exits_1() {
    let o = run(&["plan", "does-not-exist.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "fleetplan: cannot read `does-not-exist.yaml`: No such file or directory\n"
    );
    assert!(o.stdout.is_empty());
    let o = run(&["check", "does-not-exist.yaml"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["plan"][..],
        &["plan", "--format", "xml", "x.yaml"],
        &["plan", "--start", "soon", "x.yaml"],
        &["frobnicate"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(BIN)
        .args(["plan", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Close the reading end before the child can have written anything: its first write fails.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(staged_example().as_bytes())
        .expect("child reads stdin");
    drop(stdin);
    let o = child.wait_with_output().expect("the binary finishes");
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn json_output_is_the_golden_plan() {
    let o = run(&[
        "plan",
        "--format",
        "json",
        &repo_file("examples/staged.yaml"),
    ]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let golden = std::fs::read_to_string(repo_file("examples/staged.plan.json"))
        .expect("golden plan exists");
    assert!(
        stdout(&o) == golden,
        "CLI JSON differs from examples/staged.plan.json (same Plan, same serializer)"
    );
}

#[test]
fn exports_for_spreadsheets_docs_and_images() {
    let file = repo_file("examples/staged.yaml");
    let csv = run(&["plan", "--format", "csv", &file]);
    assert!(csv.status.success(), "{}", stderr(&csv));
    let text = stdout(&csv);
    assert_eq!(
        text.lines().next(),
        Some("stage,cluster,kind,start,end,duration_seconds,status,label"),
        "{text}"
    );
    assert!(text.contains("\r\n"), "RFC 4180 line endings");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(",cluster-update,"))
            .count(),
        7,
        "a row per cluster"
    );

    let mermaid = stdout(&run(&["plan", "--format", "mermaid", &file]));
    assert!(mermaid.starts_with("gantt\n"), "{mermaid}");
    assert_eq!(
        mermaid
            .lines()
            .filter(|l| l.trim_start().starts_with("section "))
            .count(),
        3
    );

    let svg = stdout(&run(&["plan", "--format", "svg", &file]));
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("example-run-after-canary"),
        "tooltips name the approval request"
    );
}

#[test]
fn export_writes_gke_formats_that_read_back() {
    let o = run(&[
        "export",
        "--format",
        "stage-config",
        &repo_file("examples/gke-bank-sequence.json"),
    ]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let yaml = stdout(&o);
    assert!(
        yaml.starts_with(
            "- stage:\n  fleet-projects:\n  - projects/testing\n  soak-duration: 3d\n"
        ),
        "{yaml}"
    );
    // The exported stage config is itself an input: back to the API's JSON.
    let o = run_with_stdin(&["export", "--format", "rollout-sequence-json", "-"], &yaml);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(json["stages"][3]["soakDuration"], "345600s");
    assert_eq!(
        json["stages"][2]["clusterSelector"]["labelSelector"],
        "resource.labels['prod-region'] == 'us-west1'"
    );
    // The wrong kind is an error naming both kinds, and exits 1.
    let o = run(&[
        "export",
        "--format",
        "feature-spec",
        &repo_file("examples/staged.yaml"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("feature-spec writes a gke-fleet-sequence, but this scenario's strategy is kubefleet-staged"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "export",
        "--format",
        "yaml",
        &repo_file("examples/staged.yaml"),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_stalled_rolling_update_prints_its_rounds_line_and_stall() {
    let o = run(&["plan", &repo_file("examples/rolling-bad-image.yaml")]);
    assert_no_panic(&o);
    let out = stdout(&o);
    for expected in [
        "end       never: stalled",
        "maxUnavailable  1 (from 1)",
        "2026-11-23T09:00:00Z      4         0             4           1        1  update member1",
        "waiting forever  member1, member2, member3, member4",
        "so member2, member3, member4 keep the old resources and stay available",
        "(before the rollout: 4; never below 3 by the budget)",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in\n{out}");
    }
}

#[test]
fn the_gke_bank_table_says_when_every_production_cluster_has_the_version() {
    let text = stdout(&run(&["example", "gke-bank"]));
    let o = run_with_stdin(&["plan", "-"], &text);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    for section in [
        "upgrades by stage",
        "skipped clusters",
        "versions (when every cluster of a fleet runs it, or newer)",
    ] {
        assert!(
            out.lines().any(|l| l == section),
            "no `{section}` section in:\n{out}"
        );
    }
    let production_nodes = out
        .lines()
        .find(|l| l.contains("1.31.5-gke.1200000  nodes") && l.contains("production"))
        .unwrap_or_else(|| panic!("no production line for nodes in:\n{out}"));
    assert!(
        production_nodes.ends_with("2026-12-12T01:00:00Z"),
        "{production_nodes}"
    );
    assert!(
        out.contains("test-2   1 testing  control plane  1.31.5-gke.1200000  ALREADY_UPGRADED"),
        "{out}"
    );
    assert!(
        out.contains("waiting for window  2026-12-09T19:30:00Z  2026-12-12T00:00:00Z   2d4h30m  window Sat 00:00–12:00 UTC"),
        "{out}"
    );
}

#[test]
fn help_names_all_four_kinds_and_the_exit_codes() {
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let top = out.lines().next().unwrap_or_default();
    for kind in [
        "KubeFleet staged update runs",
        "rolling updates",
        "GKE rollout sequences",
        "fleet-based chains",
    ] {
        assert!(top.contains(kind), "the top line lacks {kind}: {top}");
    }
    assert!(out.contains("Exit codes:"), "{out}");
    let check = stdout(&run(&["check", "--help"]));
    for code in ["0  no errors", "1  errors in the input", "2  usage error"] {
        assert!(check.contains(code), "{check}");
    }
    for format in ["github", "sarif", "junit"] {
        assert!(check.contains(format), "{check}");
    }
}

#[test]
fn check_annotates_github_pull_requests_at_the_line() {
    let path = repo_file("examples/cluster-in-no-stage.yaml");
    let o = run(&["check", "--format", "github", &path]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let first = out.lines().next().unwrap_or_default();
    // `strategy.stages` is located where its first item is written: `- name: staging`, column 5.
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with("- name: staging"))
        .unwrap()
        + 1;
    assert!(
        first.starts_with(&format!(
            "::error file={path},line={line},col=5,title=fleetplan cluster-in-no-stage::"
        )),
        "{first}"
    );
    assert!(first.contains("dev1, dev2"), "{first}");
}

#[test]
fn check_writes_sarif_and_junit_for_ci() {
    let path = repo_file("examples/cluster-in-no-stage.yaml");
    let o = run(&["check", "--format", "sarif", &path]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().unwrap();
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "cluster-in-no-stage")
        .expect("the error is a result");
    assert_eq!(r["level"], "error");
    assert!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("examples/cluster-in-no-stage.yaml")
    );

    let clean = run_with_stdin(&["check", "--format", "junit", "-"], &staged_example());
    assert_eq!(clean.status.code(), Some(0));
    let xml = stdout(&clean);
    assert!(xml.contains("failures=\"0\""), "{xml}");
    let bad = stdout(&run(&["check", "--format", "junit", &path]));
    assert!(
        bad.contains("<failure type=\"cluster-in-no-stage\""),
        "{bad}"
    );
}

#[test]
fn status_reports_where_the_run_stands_and_exits_3_past_a_deadline() {
    let example = repo_file("examples/staged-in-progress.yaml");
    let now = "2026-11-24T10:12:00Z";
    let o = run(&["status", &example, "--now", now]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("stage     canary (1 of 2 stages done)"),
        "{out}"
    );
    assert!(
        out.contains("member-cluster-01  2026-11-24T10:09:49Z"),
        "{out}"
    );
    assert!(out.contains("kubectl patch clusterapprovalrequest example-staged-update-run-canary --type=merge --subresource=status"), "{out}");
    // The example's projected P90 is 10:53:27: a deadline of 11:00 is met, 10:50 is not.
    let o = run(&[
        "status",
        &example,
        "--now",
        now,
        "--deadline",
        "2026-11-24T11:00:00Z",
    ]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let o = run(&[
        "status",
        &example,
        "--now",
        now,
        "--deadline",
        "2026-11-24T10:50:00Z",
    ]);
    assert_eq!(o.status.code(), Some(3), "stderr: {}", stderr(&o));
    assert!(stdout(&o).contains("P90 misses it"));
    // JSON: the plan with its projection.
    let o = run(&["status", &example, "--now", now, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["projection"]["position"]["stage"], "canary");
    assert_eq!(v["projection"]["forecast"]["samples"], 1000);
    // Errors in the input win over the deadline.
    let bad = temp_file(
        "status-bad.yaml",
        "apiVersion: v1\nkind: ClusterStagedUpdateRun\nstatus: [\n",
    );
    let o = run(&[
        "status",
        bad.to_str().unwrap(),
        "--now",
        now,
        "--deadline",
        now,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_no_panic(&o);
}

#[test]
fn status_reads_kubectl_describe_from_stdin() {
    let text =
        std::fs::read_to_string(repo_file("examples/staged-in-progress.describe.txt")).unwrap();
    let o = run_with_stdin(
        &["status", "-", "--now", "2026-11-24T10:12:00Z", "--no-range"],
        &text,
    );
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(stdout(&o).contains("clusters  2 of 3 updated, 1 updating"));
}

/// A name with a terminal escape, a bell and a right-to-left override reaches the table, its
/// diagnostics and the CLI's own errors written out (`\u{1b}`), never as the bytes a terminal obeys.
#[test]
fn the_table_writes_hidden_characters_out() {
    let input = "clusters: [{name: \"evil\\e]0;pwned\\a\\e[2J\\u202e\\u200b\"}]\nstrategy:\n  stages: [{name: \"s\\u202e\", labelSelector: {}}]\n";
    let o = run_with_stdin(&["plan", "-"], input);
    assert_no_panic(&o);
    let out = stdout(&o);
    assert!(
        out.contains("evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}\\u{200b}"),
        "{out}"
    );
    assert!(out.contains("s\\u{202e}"), "{out}");
    for hidden in ['\u{1b}', '\u{7}', '\u{202e}', '\u{200b}'] {
        assert!(!out.contains(hidden), "{hidden:?} in {out}");
    }
    let path = temp_file("evil\u{1b}[31m\u{202e}.yaml", "strategy: {stages: [}\n");
    let o = run(&["check", path.to_str().unwrap()]);
    let err = stdout(&o) + &stderr(&o);
    assert!(err.contains("\\u{1b}[31m\\u{202e}.yaml:1:"), "{err}");
    assert!(
        !err.contains('\u{1b}') && !err.contains('\u{202e}'),
        "{err}"
    );
    let _ = std::fs::remove_file(path);
}

/// An SVG holds one chart: several scenarios are refused with a usage error naming `--scenario`,
/// which picks one by name or number; CSV and Mermaid write one document for all of them.
#[test]
fn several_scenarios_need_a_choice_for_svg_only() {
    let input = "name: blue\nclusters: [{name: c1}]\nstrategy: {stages: [{name: a, labelSelector: {}}]}\n---\nname: green\nclusters: [{name: c2}]\nstrategy: {stages: [{name: b, labelSelector: {}}]}\n";
    let o = run_with_stdin(&["plan", "--format", "svg", "-"], input);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "fleetplan: the input has 2 scenarios (`blue`, `green`) and an SVG holds one chart: choose one with --scenario NAME (or its number, from 1)\n"
    );
    assert!(stdout(&o).is_empty());
    for pick in ["green", "2"] {
        let o = run_with_stdin(&["plan", "--format", "svg", "--scenario", pick, "-"], input);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let svg = stdout(&o);
        assert_eq!(svg.matches("<svg").count(), 1);
        assert!(svg.contains(">b<") && !svg.contains(">a<"), "{svg}");
    }
    let o = run_with_stdin(
        &["plan", "--format", "svg", "--scenario", "red", "-"],
        input,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "fleetplan: no scenario is named `red`; the input has `blue`, `green`\n"
    );
    let o = run_with_stdin(&["plan", "--format", "csv", "-"], input);
    assert_eq!(o.status.code(), Some(0));
    let csv = stdout(&o);
    assert_eq!(csv.matches("scenario,stage,cluster,").count(), 1, "{csv}");
    assert!(
        csv.contains("\r\nblue,a,c1,") && csv.contains("\r\ngreen,b,c2,"),
        "{csv}"
    );
    let o = run_with_stdin(&["plan", "--format", "mermaid", "-"], input);
    assert_eq!(stdout(&o).matches("gantt").count(), 1);
}

/// A file past the 16 MiB input limit is refused without being read whole.
#[test]
fn a_file_past_the_input_limit_is_refused() {
    let limit = 16 * 1024 * 1024;
    let path = temp_file("huge.yaml", &format!("#{}\n", "x".repeat(limit + 10)));
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let file = path.to_str().unwrap();
    assert_eq!(
        stdout(&o),
        format!("{file}:1:16777217: error[input-too-large]: the input goes on past 16 MiB (16,777,216 bytes, here), the most fleetplan reads: nothing was read\n1 error, 0 warnings\n")
    );
    let _ = std::fs::remove_file(path);
}

/// `fleetplan status --deadline T` (issue 11): exit 3 exactly when the run's P90 end is after T, so a
/// monitoring job can alert on it; at the P90 itself the run is on time. The P90 is read from the
/// JSON output of the same command, not written here.
#[test]
fn status_deadline_exits_3_only_when_the_p90_end_is_past_it() {
    let file = repo_file("examples/staged-in-progress.yaml");
    let now = "2026-11-24T10:12:00Z";
    let o = run(&["status", &file, "--now", now, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let plan: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let p90 = plan["projection"]["forecast"]["end"]["p90"]
        .as_str()
        .expect("a P90 end");
    let p90 = fleetplan::time::Time::parse(p90).expect("an RFC 3339 time");
    let deadline = |t: fleetplan::time::Time| {
        run(&["status", &file, "--now", now, "--deadline", &t.to_string()])
            .status
            .code()
    };
    assert_eq!(deadline(p90), Some(0));
    assert_eq!(deadline(p90.plus(fleetplan::time::SECOND)), Some(0));
    assert_eq!(
        deadline(p90.plus(fleetplan::time::Duration(-1000))),
        Some(3)
    );
}

/// The status table is for people: the time to the ETA and to each end of the range is written the
/// way screens show durations (two units, rounded: `32m 49s`, `15d 4h`), and it is the difference
/// between the printed instant and `--now`.
#[test]
fn status_table_says_how_long_until_the_eta_in_two_units() {
    use fleetplan::time::Time;
    let now_text = "2026-11-24T10:12:00Z";
    let now = Time::parse(now_text).unwrap();
    for file in [
        vec![repo_file("examples/staged-in-progress.yaml")],
        vec![
            repo_file("examples/gke-bank.yaml"),
            repo_file("examples/gke-rollout-in-progress.json"),
        ],
    ] {
        let mut args = vec!["status"];
        args.extend(file.iter().map(String::as_str));
        args.extend(["--now", now_text]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
        let out = stdout(&o);
        let eta = out
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("ETA"))
            .unwrap_or_else(|| panic!("an ETA line in {out}"))
            .trim();
        let (at, rest) = eta.split_once(' ').expect("ETA instant (in …)");
        let at = Time::parse(at).expect("an instant");
        let expected = if at > now {
            at.since(now)
        } else {
            fleetplan::time::Duration::ZERO
        };
        assert_eq!(rest, format!("(in {})", expected.human()), "{eta}");
    }
}

#[test]
fn a_closed_stdout_ends_json_output_quietly_too() {
    // The same rule as the table's (out.rs: a closed pipe keeps the status already earned), for JSON,
    // whose writer reports the pipe's error through its own error type.
    let mut child = Command::new(BIN)
        .args([
            "plan",
            "--format",
            "json",
            &repo_file("examples/large-fleet.yaml"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("the binary finishes");
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(stderr(&o), "");
}
