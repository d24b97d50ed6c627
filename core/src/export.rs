//! Text exports of a plan: CSV for spreadsheets, JSON for tools, a Mermaid `gantt` block for docs.
//!
//! Every name and label in a scenario is user input that ends up in someone else's document, so each
//! format escapes it for where it lands: RFC 4180 quoting plus formula neutralisation for CSV, Mermaid
//! entity codes for the gantt block (which is often pasted into HTML), XML entities for SVG text. A
//! cluster named `<script>` stays text everywhere.

use std::fmt::Write as _;

use crate::plan::{ClusterPlan, ClusterStatus, Phase, PhaseKind, Plan, StagePlan};
use crate::time::{Duration, Time, HOUR};
use crate::visible::{push_visible, visible};

/// Above this many clusters in one stage, [`mermaid`] draws the stage's updates as one task: Mermaid
/// lays out a row per task, and a 10,000-row diagram is neither readable nor quick to render.
pub const MERMAID_MAX_CLUSTERS_PER_STAGE: usize = 200;

/// The CSV header, in column order.
pub const CSV_HEADER: &str = "stage,cluster,kind,start,end,duration_seconds,status,label";

/// The plan as RFC 4180 CSV (CRLF line ends): per stage, one row per phase (`before-approval`,
/// `updating`, `timed-wait`, `after-approval`, `stopped`), then one row per cluster (`cluster-update`),
/// including clusters that never start (their times are empty). Times are RFC 3339 UTC.
pub fn csv(plan: &Plan) -> String {
    let mut out = csv_buffer(std::slice::from_ref(plan));
    out.push_str(CSV_HEADER);
    out.push_str("\r\n");
    csv_rows(&mut out, plan, None);
    out
}

/// Several plans as one CSV: [`csv`]'s columns after a first `scenario` column (the scenario's name,
/// else its run's), so one input with several scenarios is still one document.
pub fn csv_many(plans: &[Plan]) -> String {
    let mut out = csv_buffer(plans);
    out.push_str("scenario,");
    out.push_str(CSV_HEADER);
    out.push_str("\r\n");
    for plan in plans {
        csv_rows(&mut out, plan, Some(scenario_label(plan)));
    }
    out
}

/// What names a plan among several: its scenario's name, else its run's.
pub fn scenario_label(plan: &Plan) -> &str {
    match plan.scenario.as_deref() {
        Some(name) if !name.is_empty() => name,
        _ => &plan.run,
    }
}

fn csv_buffer(plans: &[Plan]) -> String {
    let rows: usize = plans
        .iter()
        .flat_map(|p| &p.stages)
        .map(|s| s.phases.len() + s.clusters.len())
        .sum();
    String::with_capacity(64 + rows * 96)
}

fn csv_rows(out: &mut String, plan: &Plan, scenario: Option<&str>) {
    let mut scratch = String::new();
    let lead = scenario.map(Field::Text);
    for stage in &plan.stages {
        for phase in &stage.phases {
            let status = if phase.end.is_some() {
                "completed"
            } else {
                "never ends"
            };
            let fields = [
                Field::Text(&stage.name),
                Field::Text(""),
                Field::Text(phase.kind.slug()),
                Field::Time(Some(phase.start)),
                Field::Time(phase.end),
                Field::Seconds(phase.end.map(|e| e.since(phase.start))),
                Field::Text(status),
                Field::Text(plan.label(phase)),
            ];
            csv_row(out, &mut scratch, lead.iter().chain(&fields));
        }
        for cluster in &stage.clusters {
            let label = cluster_label(cluster);
            let fields = [
                Field::Text(&stage.name),
                Field::Text(&cluster.name),
                Field::Text("cluster-update"),
                Field::Time(cluster.start),
                Field::Time(cluster.end),
                Field::Seconds(match (cluster.start, cluster.end) {
                    (Some(s), Some(e)) => Some(e.since(s)),
                    _ => None,
                }),
                Field::Text(cluster_status_csv(cluster.status)),
                Field::Text(&label),
            ];
            csv_row(out, &mut scratch, lead.iter().chain(&fields));
        }
    }
}

enum Field<'a> {
    Text(&'a str),
    Time(Option<Time>),
    Seconds(Option<Duration>),
}

fn csv_row<'f, 'a: 'f>(
    out: &mut String,
    scratch: &mut String,
    fields: impl Iterator<Item = &'f Field<'a>>,
) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        scratch.clear();
        match field {
            Field::Text(t) => scratch.push_str(t),
            Field::Time(Some(t)) => {
                let _ = write!(scratch, "{t}");
            }
            Field::Seconds(Some(d)) => write_seconds(scratch, *d),
            Field::Time(None) | Field::Seconds(None) => {}
        }
        csv_field(out, scratch);
    }
    out.push_str("\r\n");
}

/// Whole seconds as an integer, otherwise with milliseconds (`90`, `1.5`), so spreadsheets read numbers.
fn write_seconds(out: &mut String, d: Duration) {
    let ms = d.millis();
    if ms % 1000 == 0 {
        let _ = write!(out, "{}", ms / 1000);
    } else {
        let sign = if ms < 0 { "-" } else { "" };
        let abs = ms.unsigned_abs();
        let frac = format!("{:03}", abs % 1000);
        let _ = write!(out, "{sign}{}.{}", abs / 1000, frac.trim_end_matches('0'));
    }
}

/// One CSV field: formula-neutralised, then quoted if RFC 4180 requires it.
fn csv_field(out: &mut String, value: &str) {
    // Spreadsheets show bidirectional overrides and zero-width characters as they act; write them out.
    let value = &*visible(value);
    // A spreadsheet runs a cell starting with = + - @ as a formula (CSV injection); tab and CR start
    // formulas in some too. A leading apostrophe makes the cell text, and shows nothing in Excel.
    let neutralise = value
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'));
    let quote = value.contains([',', '"', '\r', '\n']);
    if quote {
        out.push('"');
    }
    if neutralise {
        out.push('\'');
    }
    if quote {
        for ch in value.chars() {
            if ch == '"' {
                out.push('"');
            }
            out.push(ch);
        }
        out.push('"');
    } else {
        out.push_str(value);
    }
}

/// The plan's own status names (as in its JSON), so CSV and JSON agree.
fn cluster_status_csv(status: ClusterStatus) -> &'static str {
    match status {
        ClusterStatus::Succeeded => "succeeded",
        ClusterStatus::Failed => "failed",
        ClusterStatus::Untracked => "untracked",
        ClusterStatus::NotStarted => "notStarted",
    }
}

fn cluster_label(c: &ClusterPlan) -> String {
    let mut label = String::new();
    if let Some(v) = c.sort_value {
        let _ = write!(label, "sort value {v}");
    }
    if let Some(t) = c.stuck_at {
        if !label.is_empty() {
            label.push_str("; ");
        }
        let _ = write!(label, "run marked stuck at {t} (update over 5 minutes)");
    }
    label
}

/// The plan as pretty JSON, exactly as the CLI prints it and the golden files hold it (with a final
/// newline).
pub fn json(plan: &Plan) -> String {
    // A Plan serializes only strings, numbers, booleans and string-keyed maps: this cannot fail, and if
    // it ever did the caller still gets valid JSON saying so rather than a panic.
    let mut text = serde_json::to_string_pretty(plan).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("the plan could not be serialized: {e}") }).to_string()
    });
    text.push('\n');
    text
}

/// The plan as a Mermaid `gantt` block (without the surrounding code fence): one `section` per stage
/// with its waits and cluster updates as tasks, times as Unix milliseconds (`dateFormat x`) with
/// explicit end times. Mermaid draws the axis in the viewer's local time zone. Stages with more than
/// [`MERMAID_MAX_CLUSTERS_PER_STAGE`] clusters show their updates as one aggregated task.
pub fn mermaid(plan: &Plan) -> String {
    let mut out = mermaid_header(plan.summary.clusters, &title(plan));
    mermaid_plan(&mut out, plan, None);
    out
}

/// Several plans as one `gantt` block: one chart whose sections are each scenario's stages, named
/// `scenario · stage` (and task ids prefixed per scenario), so one input with several scenarios is
/// still one diagram.
pub fn mermaid_many(plans: &[Plan]) -> String {
    let names: Vec<&str> = plans.iter().map(scenario_label).collect();
    let title = format!("{} scenarios: {}", plans.len(), names.join(", "));
    let clusters = plans.iter().map(|p| p.summary.clusters).sum();
    let mut out = mermaid_header(clusters, &title);
    for (k, plan) in plans.iter().enumerate() {
        mermaid_plan(&mut out, plan, Some((k, names[k])));
    }
    out
}

fn mermaid_header(clusters: usize, title: &str) -> String {
    let mut out = String::with_capacity(256 + clusters.min(10_000) * 64);
    out.push_str("gantt\n");
    let _ = writeln!(out, "    title {}", mermaid_text(title));
    // Milliseconds, not `X` seconds: Mermaid 11 reads a numeric start as milliseconds whatever the
    // format says (a task at 1795424400 s lands in January 1970) but parses ends by the format, so only
    // `x` gets both right. Checked against mermaid 11.17's parser.
    out.push_str("    dateFormat x\n");
    out.push_str("    axisFormat %m-%d %H:%M\n");
    // A projection is about the future: today's marker would sit far from the chart, or on it by chance.
    out.push_str("    todayMarker off\n");
    out
}

/// One plan's comment line and sections; `scenario` (its index and name) when it shares the chart.
fn mermaid_plan(out: &mut String, plan: &Plan, scenario: Option<(usize, &str)>) {
    // Something that never ends is drawn up to the last instant the plan knows (at least an hour),
    // and named so: Mermaid has no open-ended bars.
    let horizon = plan_horizon(plan);
    let _ = writeln!(
        out,
        "    %% fleetplan: run {}, starts {}, times in Unix milliseconds, drawn in the viewer's time zone",
        mermaid_text(&plan.run),
        plan.start
    );
    let id = scenario.map_or(String::new(), |(k, _)| format!("x{k}"));
    for (si, stage) in plan.stages.iter().enumerate() {
        let section = match scenario {
            Some((_, name)) => format!("{name} · {}", stage.name),
            None => stage.name.clone(),
        };
        let _ = writeln!(out, "    section {}", mermaid_text(&section));
        for (pi, phase) in stage.phases.iter().enumerate() {
            let (end, open) = match phase.end {
                Some(e) => (e, false),
                None => (horizon.max(phase.start.plus(HOUR)), true),
            };
            let mut name = phase_name(plan, phase);
            if open {
                name.push_str(" (never ends)");
            }
            let tag = if open { "active, " } else { "" };
            task(
                out,
                &name,
                tag,
                format_args!("{id}s{si}p{pi}"),
                phase.start,
                end,
            );
        }
        mermaid_clusters(out, &id, si, stage);
    }
}

fn title(plan: &Plan) -> String {
    match &plan.scenario {
        Some(s) if !s.is_empty() => format!("{s}, run {}", plan.run),
        _ => format!("run {}", plan.run),
    }
}

fn mermaid_clusters(out: &mut String, id: &str, si: usize, stage: &StagePlan) {
    let started = stage.clusters.iter().filter(|c| c.start.is_some()).count();
    let never = stage.clusters.len() - started;
    if never > 0 {
        let _ = writeln!(
            out,
            "    %% {never} of {} clusters in stage {} never start and are not drawn",
            stage.clusters.len(),
            mermaid_text(&stage.name)
        );
    }
    if stage.clusters.len() > MERMAID_MAX_CLUSTERS_PER_STAGE {
        let mut first: Option<Time> = None;
        let mut last: Option<Time> = None;
        let mut failed = 0usize;
        for c in &stage.clusters {
            if let Some(s) = c.start {
                first = Some(first.map_or(s, |f| f.min(s)));
                let e = c.end.unwrap_or(s);
                last = Some(last.map_or(e, |l| l.max(e)));
            }
            failed += usize::from(c.status == ClusterStatus::Failed);
        }
        let _ = writeln!(
            out,
            "    %% stage {} has {} clusters, more than {MERMAID_MAX_CLUSTERS_PER_STAGE}: their updates \
             are one aggregated task",
            mermaid_text(&stage.name),
            stage.clusters.len()
        );
        if let (Some(first), Some(last)) = (first, last) {
            let mut name = format!("{started} cluster updates");
            if failed > 0 {
                let _ = write!(name, ", {failed} failed");
            }
            let tag = if failed > 0 { "crit, " } else { "" };
            task(out, &name, tag, format_args!("{id}s{si}all"), first, last);
        }
        return;
    }
    for (ci, c) in stage.clusters.iter().enumerate() {
        let Some(start) = c.start else { continue };
        let end = c.end.unwrap_or(start);
        let mut name = String::with_capacity(c.name.len() + 16);
        if starts_like_a_keyword(&c.name) {
            // Mermaid reads a line starting with `section`, `title`, a date, … as that statement.
            name.push_str("cluster ");
        }
        name.push_str(&c.name);
        let tag = match c.status {
            ClusterStatus::Failed => {
                name.push_str(" (failed)");
                "crit, "
            }
            ClusterStatus::Untracked => {
                name.push_str(" (untracked)");
                ""
            }
            _ => "",
        };
        task(out, &name, tag, format_args!("{id}s{si}c{ci}"), start, end);
    }
}

fn task(out: &mut String, name: &str, tag: &str, id: std::fmt::Arguments<'_>, s: Time, e: Time) {
    let _ = writeln!(
        out,
        "    {} :{tag}{id}, {}, {}",
        mermaid_text(name),
        s.0,
        e.max(s).0
    );
}

fn phase_name(plan: &Plan, p: &Phase) -> String {
    // Fixed leading words keep the task name from starting with a Mermaid keyword.
    let label = plan.label(p);
    match p.kind {
        PhaseKind::BeforeStageApproval => format!("before-stage approval {label}"),
        PhaseKind::Updating => format!("updating, {label}"),
        PhaseKind::AfterStageTimedWait => format!("after-stage {label}"),
        PhaseKind::AfterStageApproval => format!("after-stage approval {label}"),
        PhaseKind::Stopped => format!("stopped {label}"),
        other => format!("{} {label}", other.slug()),
    }
}

/// The last instant the plan mentions: where never-ending bars stop.
fn plan_horizon(plan: &Plan) -> Time {
    let mut h = plan.end.unwrap_or(plan.start).max(plan.start);
    for stage in &plan.stages {
        for t in [stage.start, stage.end].into_iter().flatten() {
            h = h.max(t);
        }
        for p in &stage.phases {
            h = h.max(p.end.unwrap_or(p.start));
        }
    }
    if let Some(e) = plan.events.last() {
        h = h.max(e.at);
    }
    h
}

/// Words the Mermaid gantt lexer matches before a task name (case-insensitively), plus a leading date.
fn starts_like_a_keyword(name: &str) -> bool {
    const KEYWORDS: [&str; 19] = [
        "gantt",
        "dateformat",
        "inclusiveenddates",
        "topaxis",
        "axisformat",
        "tickinterval",
        "includes",
        "excludes",
        "todaymarker",
        "weekday",
        "title",
        "accdescription",
        "acctitle",
        "accdescr",
        "section",
        "click",
        "href",
        "call",
        "weekend",
    ];
    let t = name.trim_start();
    let lower: String = t.chars().take(20).flat_map(char::to_lowercase).collect();
    let b = t.as_bytes();
    let date = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit);
    date || KEYWORDS.iter().any(|k| lower.starts_with(k))
}

/// Text safe inside a Mermaid gantt line: a task name, section name, title or comment.
///
/// Every Mermaid version ends a task name at `:` or a newline; older grammars also at `#` or `;`; and
/// `%` at the start of a token opens a comment. Mermaid's own escape is an entity code (`#lt;`, `#58;`),
/// replaced before parsing and drawn as the character, whereas HTML's `&lt;` would be drawn literally
/// (task names are set as text). Entity codes also keep `<`, `>` and `&` out of the block, so it can be
/// pasted into an HTML page (`<pre class="mermaid">`) without a cluster named `<script>` becoming a tag.
/// Checked against mermaid 11.17's parser. Hidden characters are written out (`\u{202e}`), see
/// [`crate::visible`].
pub fn mermaid_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        match ch {
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            ':' => out.push_str("#58;"),
            ';' => out.push_str("#59;"),
            '#' => out.push_str("#35;"),
            '%' => out.push_str("#37;"),
            // Three of them close the Markdown fence a Mermaid block usually sits in.
            '`' => out.push_str("#96;"),
            // Controls, bidirectional overrides, zero-width characters: written out, never passed on
            // (line and paragraph separators among them end lines in editors and JavaScript).
            c => push_visible(&mut out, c),
        }
    }
    let trimmed = out.trim();
    if trimmed.is_empty() {
        // An empty task name does not parse; say what is there.
        return "(unnamed)".into();
    }
    if trimmed.len() != out.len() {
        return trimmed.to_string();
    }
    out
}

/// Escapes text for SVG/XML character data and attribute values: `&`, `<`, `>`, `"`, `'`. Hidden
/// characters, among them every one XML 1.0 forbids, are written out (`\u{1b}`, see
/// [`crate::visible`]), so an odd name can neither make the file unreadable nor reorder its text.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => push_visible(&mut out, c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;
    use crate::input::{load, Source};
    use crate::plan::{ClusterPlan, StageStatus};

    fn example_plan(name: &str) -> Plan {
        let text = examples::get(name).unwrap().text;
        let loaded = load(&[Source { name, text }]);
        crate::plan(&loaded.scenarios[0])
    }

    /// The staged plan with hostile names swapped in for some stages and clusters.
    fn hostile_plan() -> Plan {
        let mut plan = example_plan("staged");
        plan.stages[0].name = "<script>alert(1)</script>".into();
        plan.stages[0].clusters[0].name = "a,b".into();
        plan.stages[1].clusters[0].name = "\"q\"".into();
        plan.stages[2].clusters[0].name = "=cmd|' /C calc'!A0".into();
        plan.stages[2].clusters[1].name = "line\nbreak: #1; 50%".into();
        plan.stages[2].clusters[2].name = "section evil".into();
        plan.stages[2].clusters[3].name = "@SUM(1)".into();
        plan.stages[2].phases[0].label = plan.labels.add("-2+3");
        plan
    }

    /// A minimal RFC 4180 reader, to check what a spreadsheet would see.
    fn parse_csv(text: &str) -> Vec<Vec<String>> {
        let mut rows = vec![];
        let mut row = vec![];
        let mut field = String::new();
        let mut quoted = false;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if quoted {
                match c {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => quoted = false,
                    c => field.push(c),
                }
                continue;
            }
            match c {
                '"' => quoted = true,
                ',' => row.push(std::mem::take(&mut field)),
                '\r' => {
                    assert_eq!(chars.next(), Some('\n'), "bare CR outside quotes");
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                '\n' => panic!("bare LF outside quotes"),
                c => field.push(c),
            }
        }
        assert!(
            field.is_empty() && row.is_empty(),
            "last row not terminated"
        );
        rows
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn csv_has_a_row_per_phase_and_cluster() {
        for e in examples::all() {
            let plan = example_plan(e.name);
            let rows = parse_csv(&csv(&plan));
            let expected: usize = plan
                .stages
                .iter()
                .map(|s| s.phases.len() + s.clusters.len())
                .sum();
            assert_eq!(rows.len(), expected + 1, "{}", e.name);
            assert_eq!(rows[0].join(","), CSV_HEADER);
            assert!(rows.iter().all(|r| r.len() == 8), "{}", e.name);
            let clusters = rows.iter().filter(|r| r[2] == "cluster-update").count();
            assert_eq!(
                clusters,
                plan.stages.iter().map(|s| s.clusters.len()).sum::<usize>()
            );
        }
        let plan = example_plan("staged");
        let text = csv(&plan);
        let rows = parse_csv(&text);
        assert_eq!(
            rows[1],
            [
                "staging",
                "",
                "updating",
                "2026-11-23T09:00:00Z",
                "2026-11-23T09:03:00Z",
                "180",
                "completed",
                "maxConcurrency 1"
            ]
        );
        assert!(
            text.contains(
                "production,member3,cluster-update,2026-11-23T11:06:00Z,2026-11-23T11:09:00Z,180,succeeded,sort value 1\r\n"
            ),
            "{text}"
        );
        assert!(text.contains(
            "canary,,after-approval,2026-11-23T10:06:00Z,2026-11-23T10:36:00Z,1800,completed,example-run-after-canary\r\n"
        ));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn csv_escapes_and_neutralises() {
        let plan = hostile_plan();
        let text = csv(&plan);
        let rows = parse_csv(&text);
        let cell = |cluster_prefix: &str| {
            rows.iter()
                .find(|r| r[2] == "cluster-update" && r[1].contains(cluster_prefix))
                .map(|r| r[1].clone())
                .unwrap()
        };
        assert_eq!(cell("a,b"), "a,b");
        assert_eq!(cell("\"q\""), "\"q\"");
        assert_eq!(cell("cmd"), "'=cmd|' /C calc'!A0");
        assert_eq!(cell("SUM"), "'@SUM(1)");
        // A line break is written out: spreadsheets and terminals show what the name holds.
        assert_eq!(cell("break"), "line\\nbreak: #1; 50%");
        assert!(text.contains("\"a,b\""));
        assert!(text.contains("\"\"\"q\"\"\""));
        assert!(rows.iter().any(|r| r[7] == "'-2+3"));
        assert!(rows.iter().all(|r| r[0] != "=" && !r[0].starts_with('=')));
        assert_eq!(rows[1][0], "<script>alert(1)</script>", "CSV is not HTML");
        let mut out = String::new();
        for (v, want) in [
            ("", ""),
            ("+1", "'+1"),
            ("\tx", "\\tx"),
            ("a\r\nb", "a\\r\\nb"),
            ("\u{202e}cod.exe", "\\u{202e}cod.exe"),
            ("-x,y", "\"'-x,y\""),
        ] {
            out.clear();
            csv_field(&mut out, v);
            assert_eq!(out, want, "{v:?}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn csv_writes_open_ends_and_fractions() {
        let mut plan = example_plan("staged");
        plan.stages[1].phases[1].end = None;
        plan.stages[2].clusters[4] = ClusterPlan {
            name: "late".into(),
            sort_value: None,
            status: ClusterStatus::NotStarted,
            start: None,
            end: None,
            stuck_at: None,
            phases: Vec::new(),
            reason: None,
        };
        plan.stages[2].clusters[3].end = plan.stages[2].clusters[3].end.map(|t| Time(t.0 + 1500));
        plan.stages[2].clusters[3].stuck_at = Some(Time(0));
        let rows = parse_csv(&csv(&plan));
        let canary_wait = rows.iter().find(|r| r[2] == "after-approval").unwrap();
        assert_eq!(canary_wait[4..7], ["", "", "never ends"]);
        let late = rows.iter().find(|r| r[1] == "late").unwrap();
        assert_eq!(late[3..7], ["", "", "", "notStarted"]);
        let m6 = rows.iter().find(|r| r[1] == "member6").unwrap();
        assert_eq!(m6[5], "181.5");
        assert_eq!(
            m6[7],
            "sort value 4; run marked stuck at 1970-01-01T00:00:00Z (update over 5 minutes)"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn json_is_the_golden_plan() {
        let plan = example_plan("staged");
        let text = json(&plan);
        assert_eq!(
            text,
            include_str!("../../examples/staged.plan.json"),
            "JSON export differs from the golden plan"
        );
        let mut hostile = hostile_plan();
        hostile.stages[0].name = "</script><script>x()</script>\u{2028}".into();
        let back: serde_json::Value = serde_json::from_str(&json(&hostile)).unwrap();
        assert_eq!(
            back["stages"][0]["name"],
            "</script><script>x()</script>\u{2028}"
        );
    }

    /// Checks a Mermaid gantt block line by line the way Mermaid's gantt lexer reads it, after its
    /// entity pre-pass; returns the sections and the tasks as (name, data fields).
    fn parse_mermaid(text: &str) -> (Vec<String>, Vec<(String, Vec<String>)>) {
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("gantt"));
        let mut sections = vec![];
        let mut tasks = vec![];
        for line in lines {
            // Mermaid replaces `#name;` and `#123;` before parsing.
            let decoded = decode_mermaid_entities(line);
            assert!(!line.contains(['<', '>', '&']), "raw markup in {line:?}");
            let l = decoded.trim();
            if l.starts_with("%%") {
                continue;
            }
            for directive in ["title ", "dateFormat ", "axisFormat ", "todayMarker "] {
                if let Some(rest) = l.strip_prefix(directive) {
                    assert!(!rest.contains(['#', ';', '\n']), "{line}");
                }
            }
            if l.starts_with("title ")
                || l.starts_with("dateFormat ")
                || l.starts_with("axisFormat ")
                || l.starts_with("todayMarker ")
            {
                continue;
            }
            if let Some(name) = l.strip_prefix("section ") {
                assert!(!name.contains(['#', ':', ';']), "{line}");
                sections.push(name.to_string());
                continue;
            }
            let (name, data) = l.split_once(':').unwrap_or_else(|| panic!("{line}"));
            assert!(!name.trim().is_empty(), "{line}");
            assert!(!name.contains(['#', ';', '%']), "{line}");
            assert!(!starts_like_a_keyword(name), "{line}");
            assert!(!data.contains([':', '#', ';']), "{line}");
            let fields: Vec<String> = data.split(',').map(|f| f.trim().to_string()).collect();
            // Shape: tags…, id, start, end.
            let n = fields.len();
            assert!(n >= 3, "{line}");
            for tag in &fields[..n - 3] {
                assert!(["active", "crit", "done"].contains(&tag.as_str()), "{line}");
            }
            let id = &fields[n - 3];
            assert!(
                id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{line}"
            );
            let start: i64 = fields[n - 2].parse().unwrap();
            let end: i64 = fields[n - 1].parse().unwrap();
            assert!(end >= start, "{line}");
            tasks.push((name.trim().to_string(), fields));
        }
        (sections, tasks)
    }

    fn decode_mermaid_entities(line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find('#') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            match after.find(';') {
                Some(j) if j > 0 && after[..j].chars().all(|c| c.is_ascii_alphanumeric()) => {
                    out.push('\u{FFFC}');
                    rest = &after[j + 1..];
                }
                _ => {
                    out.push('#');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn mermaid_of_the_staged_example() {
        let plan = example_plan("staged");
        let text = mermaid(&plan);
        let (sections, tasks) = parse_mermaid(&text);
        assert_eq!(sections, ["staging", "canary", "production"]);
        let phases: usize = plan.stages.iter().map(|s| s.phases.len()).sum();
        assert_eq!(tasks.len(), phases + 7);
        assert!(
            text.contains("    dateFormat x\n    axisFormat %m-%d %H:%M\n"),
            "{text}"
        );
        // 2026-11-23T09:00:00Z is 1795424400000 ms.
        assert!(
            text.contains("    updating, maxConcurrency 1 :s0p0, 1795424400000, 1795424580000\n"),
            "{text}"
        );
        assert!(text.contains(
            "    after-stage approval example-run-after-canary :s1p1, 1795428360000, 1795430160000\n"
        ));
        assert!(text.contains("    member7 :s2c4, 1795432320000, 1795432500000\n"));
        assert_eq!(mermaid(&plan), text, "deterministic");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn mermaid_escapes_names() {
        let mut plan = hostile_plan();
        plan.stages[1].phases[1].end = None;
        plan.stages[1].clusters[0].status = ClusterStatus::Failed;
        let text = mermaid(&plan);
        let (sections, tasks) = parse_mermaid(&text);
        assert_eq!(sections.len(), 3);
        assert!(!text.contains("<script>"));
        assert!(
            text.contains("section #lt;script#gt;alert(1)#lt;/script#gt;\n"),
            "{text}"
        );
        assert!(
            text.contains("    line\\nbreak#58; #35;1#59; 50#37; :s2c1,"),
            "{text}"
        );
        assert!(text.contains("    cluster section evil :s2c2,"), "{text}");
        assert!(text.contains("    =cmd|' /C calc'!A0 :s2c0,"));
        assert!(text.contains(
            "    after-stage approval example-run-after-canary (never ends) :active, s1p1, "
        ));
        assert!(text.contains("    \"q\" (failed) :crit, s1c0, "), "{text}");
        let phases: usize = plan.stages.iter().map(|s| s.phases.len()).sum();
        assert_eq!(tasks.len(), phases + 7);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn mermaid_aggregates_large_stages() {
        // The example's rings hold 200 clusters each, exactly the cap: merge two into 400.
        let mut plan = example_plan("large-fleet");
        let moved = std::mem::take(&mut plan.stages[1].clusters);
        plan.stages[0].clusters.extend(moved);
        plan.stages[0].clusters[5].status = ClusterStatus::Failed;
        let text = mermaid(&plan);
        let (sections, tasks) = parse_mermaid(&text);
        assert_eq!(sections.len(), plan.stages.len());
        let big: Vec<_> = plan
            .stages
            .iter()
            .filter(|s| s.clusters.len() > MERMAID_MAX_CLUSTERS_PER_STAGE)
            .collect();
        assert!(
            !big.is_empty(),
            "the example should have a stage over the cap"
        );
        for stage in &big {
            assert!(text.contains(&format!(
                "%% stage {} has {} clusters, more than 200",
                stage.name,
                stage.clusters.len()
            )));
        }
        let expected: usize = plan
            .stages
            .iter()
            .map(|s| {
                let started = s.clusters.iter().filter(|c| c.start.is_some()).count();
                let rows = if s.clusters.len() > MERMAID_MAX_CLUSTERS_PER_STAGE {
                    usize::from(started > 0)
                } else {
                    started
                };
                s.phases.len() + rows
            })
            .sum();
        assert_eq!(tasks.len(), expected);
        assert!(
            tasks
                .iter()
                .any(|(n, f)| n == "400 cluster updates, 1 failed" && f[0] == "crit"),
            "{text}"
        );
        // The ring at the cap keeps a row per cluster.
        assert!(tasks.iter().any(|(_, f)| f.contains(&"s2c199".to_string())));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn mermaid_survives_odd_plans() {
        let mut plan = example_plan("staged");
        plan.run = String::new();
        plan.scenario = None;
        plan.stages[0].name = "   ".into();
        plan.stages[0].status = StageStatus::Skipped;
        plan.stages[0].clusters.clear();
        plan.stages[0].phases.clear();
        plan.stages[1].clusters[0].name = "2026-01-01 hotfix".into();
        plan.stages[1].clusters[0].end = Some(Time(0));
        plan.stages[2].phases[0].label = plan.labels.add("\u{0}\u{7}");
        let text = mermaid(&plan);
        let (sections, _) = parse_mermaid(&text);
        assert_eq!(sections[0], "(unnamed)");
        assert!(
            text.contains("    cluster 2026-01-01 hotfix :s1c0, 1795428180000, 1795428180000\n")
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn xml_escape_covers_markup_and_quotes() {
        assert_eq!(
            xml_escape("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &apos;b&apos;&lt;/script&gt;"
        );
        assert_eq!(
            xml_escape("a\u{0}b\u{1b}c\nd\u{202e}e\u{fffe}"),
            "a\\u{0}b\\u{1b}c\\nd\\u{202e}e\\u{fffe}"
        );
        assert_eq!(xml_escape("ünï ✓"), "ünï ✓");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn exports_are_deterministic() {
        for e in examples::all() {
            let a = example_plan(e.name);
            let b = example_plan(e.name);
            assert_eq!(csv(&a), csv(&b));
            assert_eq!(json(&a), json(&b));
            assert_eq!(mermaid(&a), mermaid(&b));
        }
    }
}
