//! One case through the whole pipeline, and the checks on everything that comes out.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

use fleetplan::diag::MAX_PER_CODE;
use fleetplan::plan::Plan;
use fleetplan::time::{MAX_TIME, MIN_TIME};
use fleetplan::visible::is_hidden;
use fleetplan::{Diagnostic, Source};

use crate::gen::{Case, Input};

/// The name the input is loaded under.
pub const FILE: &str = "fuzz.yaml";

/// Plans looked at per case: enough to reach every kind, few enough to keep cases quick.
const MAX_PLANS: usize = 4;

#[derive(Debug, Default)]
pub struct Outcome {
    /// Every broken promise, in words; empty when the case passed.
    pub failures: Vec<String>,
    /// Clusters the scenarios declare (explicit and generated), for the bound that applies.
    pub clusters: u64,
    pub scenarios: usize,
}

static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Makes panics quiet and remembered, so a failing case is reported once, with its message and place.
pub fn install_panic_hook() {
    panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut p) = PANIC.lock() {
            *p = Some(format!("{what}{at}"));
        }
    }));
}

/// Runs the case; a panic anywhere is one failure.
pub fn run(case: &Case) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(|| pipeline(case))) {
        Ok(outcome) => outcome,
        Err(_) => {
            let why = PANIC
                .lock()
                .ok()
                .and_then(|mut p| p.take())
                .unwrap_or_default();
            Outcome {
                failures: vec![format!("panic: {why}")],
                ..Outcome::default()
            }
        }
    }
}

fn pipeline(case: &Case) -> Outcome {
    let mut out = Outcome::default();
    let text = match &case.input {
        Input::Text(t) => t.clone(),
        Input::Link(payload) => match fleetplan::share::decode(payload) {
            Ok(text) => text,
            Err(e) => {
                let said = e.to_string();
                if said.is_empty() {
                    out.failures
                        .push("share link refused without a sentence".into());
                }
                return out;
            }
        },
    };
    let loaded = fleetplan::load(&[Source {
        name: FILE,
        text: &text,
    }]);
    let lines = text.lines().count().max(1) + 1;
    check_diagnostics("load", &loaded.diagnostics, lines, &mut out.failures);
    out.scenarios = loaded.scenarios.len();
    out.clusters = loaded
        .scenarios
        .iter()
        .map(|s| {
            s.clusters.len() as u64 + s.generate.iter().map(|g| u64::from(g.count)).sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    let plans: Vec<Plan> = loaded
        .scenarios
        .iter()
        .take(MAX_PLANS)
        .map(fleetplan::plan)
        .collect();
    for (k, plan) in plans.iter().enumerate() {
        let at = format!("plan {k}");
        check_diagnostics(&at, &plan.diagnostics, lines, &mut out.failures);
        check_times(&at, plan, &mut out.failures);
        if plan.summary.clusters as u64 <= crate::BIG_FLEET {
            check_exports(&at, plan, &mut out.failures);
        } else {
            produce_exports(&at, plan, &mut out.failures);
        }
        let scenario = &loaded.scenarios[k];
        check_yaml_round_trip(
            &at,
            &fleetplan::yaml_out::scenario_to_yaml(scenario),
            &mut out.failures,
        );
    }
    if plans.len() > 1 {
        check_csv(
            "csv of several plans",
            &fleetplan::export::csv_many(&plans),
            &mut out.failures,
        );
        check_mermaid(
            "mermaid of several plans",
            &fleetplan::export::mermaid_many(&plans),
            &mut out.failures,
        );
    }
    out
}

/// Every diagnostic says something; a located one points inside the input; no kind is listed more
/// than the cap; the text shown to people has no hidden character.
fn check_diagnostics(at: &str, diags: &[Diagnostic], lines: usize, failures: &mut Vec<String>) {
    let mut per_code: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for d in diags {
        if d.message.is_empty() {
            failures.push(format!("{at}: diagnostic {} has no message", d.code));
        }
        if let Some(l) = &d.location {
            if l.file != FILE || l.line == 0 || l.column == 0 || l.line > lines {
                failures.push(format!(
                    "{at}: {} located outside the input: {}:{}:{} ({lines} lines)",
                    d.code, l.file, l.line, l.column
                ));
            }
        }
        if d.code.starts_with("yaml-") && d.location.is_none() && d.omitted == 0 {
            failures.push(format!("{at}: a YAML problem without a place: {d}"));
        }
        *per_code.entry(d.code).or_default() += 1;
        let shown = d.to_string();
        if shown.chars().any(is_hidden) {
            failures.push(format!(
                "{at}: diagnostic shows a hidden character: {shown:?}"
            ));
        }
    }
    for (code, n) in per_code {
        if n > MAX_PER_CODE + 1 {
            failures.push(format!(
                "{at}: {n} diagnostics of {code}, past the cap of {MAX_PER_CODE}"
            ));
        }
    }
}

/// Every instant of the plan is inside the time cap, and a plan that reaches it says so.
fn check_times(at: &str, plan: &Plan, failures: &mut Vec<String>) {
    let mut times = vec![plan.start];
    times.extend(plan.end);
    for s in &plan.stages {
        times.extend(s.start.iter().chain(&s.end));
        for p in &s.phases {
            times.push(p.start);
            times.extend(p.end);
        }
        for c in &s.clusters {
            times.extend(c.start.iter().chain(&c.end));
            for p in &c.phases {
                times.push(p.start);
                times.extend(p.end);
            }
        }
    }
    times.extend(plan.events.iter().map(|e| e.at));
    if let Some(t) = times.iter().find(|t| **t < MIN_TIME || **t > MAX_TIME) {
        failures.push(format!("{at}: time {} ({} ms) outside the cap", t, t.0));
    }
    if times.contains(&MAX_TIME)
        && !plan
            .diagnostics
            .iter()
            .any(|d| d.code == "time-out-of-range")
    {
        failures.push(format!(
            "{at}: the plan reaches the time cap without saying so"
        ));
    }
}

fn check_exports(at: &str, plan: &Plan, failures: &mut Vec<String>) {
    check_csv(
        &format!("{at} csv"),
        &fleetplan::export::csv(plan),
        failures,
    );
    check_mermaid(
        &format!("{at} mermaid"),
        &fleetplan::export::mermaid(plan),
        failures,
    );
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&fleetplan::export::json(plan)) {
        failures.push(format!("{at} json: does not read back: {e}"));
    }
    let view = fleetplan::gantt::View::fit(plan, 1200.0);
    let svg = fleetplan::gantt::svg(&fleetplan::gantt::layout(plan, &view), 180.0);
    if let Err(e) = roxmltree::Document::parse_with_options(
        &svg,
        roxmltree::ParsingOptions {
            allow_dtd: false,
            nodes_limit: u32::MAX,
        },
    ) {
        failures.push(format!("{at} svg: not well-formed XML: {e}"));
    }
    if svg.chars().any(|c| is_hidden(c) && c != '\n') {
        failures.push(format!("{at} svg: a hidden character is drawn as it is"));
    }
}

/// A plan past 100,000 clusters: every export is made as a front end makes it, one at a time (JSON
/// streamed, as the CLI writes it), and scanned for hidden characters; reading them back whole would
/// measure the checker's copies rather than fleetplan.
fn produce_exports(at: &str, plan: &Plan, failures: &mut Vec<String>) {
    let hidden = |text: &str| {
        text.chars()
            .any(|c| is_hidden(c) && !matches!(c, '\r' | '\n'))
    };
    if hidden(&fleetplan::export::csv(plan)) || hidden(&fleetplan::export::mermaid(plan)) {
        failures.push(format!("{at}: a hidden character is written as it is"));
    }
    if let Err(e) = serde_json::to_writer(std::io::sink(), plan) {
        failures.push(format!("{at} json: {e}"));
    }
    let view = fleetplan::gantt::View::fit(plan, 1200.0);
    let svg = fleetplan::gantt::svg(&fleetplan::gantt::layout(plan, &view), 180.0);
    if hidden(&svg) || !svg.starts_with("<svg") || !svg.ends_with("</svg>") {
        failures.push(format!(
            "{at} svg: not one document without hidden characters"
        ));
    }
}

/// Strict RFC 4180: quoted fields closed, quotes doubled, CRLF rows all as wide as the header; and
/// written back with the same rule, the text is the same (so a spreadsheet reads what was meant).
fn check_csv(at: &str, csv: &str, failures: &mut Vec<String>) {
    let rows = match parse_csv(csv) {
        Ok(rows) => rows,
        Err(e) => {
            failures.push(format!("{at}: {e}"));
            return;
        }
    };
    let width = rows.first().map_or(0, Vec::len);
    if let Some(i) = rows.iter().position(|r| r.len() != width) {
        failures.push(format!(
            "{at}: row {i} has {} fields, the header {width}",
            rows[i].len()
        ));
    }
    let mut again = String::with_capacity(csv.len());
    for row in &rows {
        let fields: Vec<String> = row
            .iter()
            .map(|f| {
                if f.contains([',', '"', '\r', '\n']) {
                    format!("\"{}\"", f.replace('"', "\"\""))
                } else {
                    f.clone()
                }
            })
            .collect();
        again.push_str(&fields.join(","));
        again.push_str("\r\n");
    }
    if again != csv {
        failures.push(format!("{at}: does not round-trip"));
    }
    if csv.chars().any(|c| is_hidden(c) && c != '\r' && c != '\n') {
        failures.push(format!("{at}: a hidden character is written as it is"));
    }
}

fn parse_csv(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => {
                    quoted = false;
                    if !matches!(chars.peek(), Some(',' | '\r') | None) {
                        return Err("text after a closing quote".into());
                    }
                }
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            '"' => return Err("a quote inside an unquoted field".into()),
            ',' => {
                row.push(std::mem::take(&mut field));
                at_start = true;
            }
            '\r' => {
                if chars.next() != Some('\n') {
                    return Err("CR without LF".into());
                }
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                at_start = true;
            }
            '\n' => return Err("LF without CR".into()),
            c => {
                field.push(c);
                at_start = false;
            }
        }
    }
    if quoted {
        return Err("a quoted field is never closed".into());
    }
    if !field.is_empty() || !row.is_empty() {
        return Err("the last row has no CRLF".into());
    }
    Ok(rows)
}

/// A Mermaid `gantt` block that renders what it says: no fence, no hidden character, every line a
/// statement of the gantt grammar (a task has its `:` and two times).
fn check_mermaid(at: &str, text: &str, failures: &mut Vec<String>) {
    if text.contains("```") {
        failures.push(format!("{at}: a Markdown fence inside the block"));
    }
    if text.chars().any(|c| is_hidden(c) && c != '\n') {
        failures.push(format!("{at}: a hidden character is written as it is"));
    }
    let mut lines = text.lines();
    if lines.next() != Some("gantt") {
        failures.push(format!("{at}: does not start with `gantt`"));
    }
    for line in lines {
        let Some(body) = line.strip_prefix("    ") else {
            failures.push(format!("{at}: unindented line {line:?}"));
            continue;
        };
        let statement = [
            "title ",
            "dateFormat ",
            "axisFormat ",
            "todayMarker ",
            "%% ",
            "section ",
        ]
        .iter()
        .any(|k| body.starts_with(k));
        if statement {
            continue;
        }
        // `name :tags id, start, end` with the name free of `:`.
        let ok = body
            .split_once(" :")
            .is_some_and(|(name, rest)| !name.contains(':') && rest.split(", ").count() >= 3);
        if !ok {
            failures.push(format!("{at}: not a gantt statement: {line:?}"));
        }
    }
}

/// fleetplan writes scenarios back as YAML (the form editor, downloads): what it writes must read.
fn check_yaml_round_trip(at: &str, yaml: &str, failures: &mut Vec<String>) {
    let (_, diags) = fleetplan::source::parse(yaml, "written.yaml");
    if let Some(d) = diags.iter().find(|d| d.code.starts_with("yaml-")) {
        failures.push(format!("{at}: the scenario written back is not YAML: {d}"));
    }
}
