//! `fleetplan check`'s machine-readable outputs for CI: GitHub Actions workflow commands, SARIF 2.1.0
//! for code scanning, and JUnit XML for every other CI that shows test reports.
//!
//! Each renders the core's diagnostics as they are (code, severity, message, path, file:line:column);
//! none decides anything. Diagnostics read from standard input carry no file a CI could link to, so
//! they are reported without one.

use std::fmt::Write as _;

use fleetplan::{Diagnostic, Severity};

use crate::files::STDIN_NAME;

/// The message with the field path it is about, as the text format prints it.
fn text(d: &Diagnostic) -> String {
    match &d.path {
        Some(p) => format!("{} (at {p})", d.message),
        None => d.message.clone(),
    }
}

/// The file a diagnostic is located in, unless it is standard input.
fn file(d: &Diagnostic) -> Option<(&str, usize, usize)> {
    d.location
        .as_ref()
        .filter(|l| l.file != STDIN_NAME)
        .map(|l| (l.file.as_str(), l.line, l.column))
}

/// GitHub's escaping of a workflow command's message (`%`, CR, LF) …
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// … and of a property value, which also may not contain `:` or `,`.
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error file=…,line=…,col=…,title=…::message` line per diagnostic (warnings as `::warning`,
/// infos as `::notice`): GitHub Actions shows them on the pull request's lines.
pub fn github(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some((f, line, col)) = file(d) {
            props.push(format!("file={}", gh_property(f)));
            props.push(format!("line={line}"));
            props.push(format!("col={col}"));
        }
        props.push(format!(
            "title={}",
            gh_property(&format!("fleetplan {}", d.code))
        ));
        let _ = writeln!(
            out,
            "::{command} {}::{}",
            props.join(","),
            gh_data(&text(d))
        );
    }
    out
}

/// A SARIF 2.1.0 log with one run of the `fleetplan` tool: one rule per diagnostic code, one result per
/// diagnostic, located by file, line and column where known and by its field path always.
pub fn sarif(diags: &[Diagnostic]) -> String {
    use serde_json::{json, Value};
    let mut rules: Vec<&str> = Vec::new();
    for d in diags {
        if !rules.contains(&d.code) {
            rules.push(d.code);
        }
    }
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            let mut location = serde_json::Map::new();
            if let Some((f, line, col)) = file(d) {
                location.insert(
                    "physicalLocation".into(),
                    json!({
                        "artifactLocation": { "uri": uri(f) },
                        "region": { "startLine": line, "startColumn": col }
                    }),
                );
            }
            if let Some(p) = &d.path {
                location.insert(
                    "logicalLocations".into(),
                    json!([{ "fullyQualifiedName": p, "kind": "member" }]),
                );
            }
            let mut r = json!({
                "ruleId": d.code,
                "ruleIndex": rules.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": level,
                "message": { "text": text(d) },
            });
            if !location.is_empty() {
                r["locations"] = json!([Value::Object(location)]);
            }
            r
        })
        .collect();
    let log = json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "fleetplan",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|c| json!({ "id": c, "name": c })).collect::<Vec<_>>(),
            }},
            "results": results,
        }]
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

/// A file name as a SARIF artifact URI: relative paths stay relative (code scanning resolves them
/// against the checkout), spaces and `%` are percent-encoded, Windows separators become `/`.
fn uri(path: &str) -> String {
    let path = path.strip_prefix("./").unwrap_or(path).replace('\\', "/");
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            c => out.push(c),
        }
    }
    out
}

/// XML text and attribute escaping (the core's, shared with the SVG export).
fn xml(s: &str) -> String {
    fleetplan::export::xml_escape(s)
}

/// JUnit XML: one test suite per input file (and one for diagnostics without a file), one test case per
/// diagnostic, failed for errors; a file without problems gets one passing case, so a clean input
/// shows as passed tests rather than as none. `files` are the input names, in order.
pub fn junit(diags: &[Diagnostic], files: &[String]) -> String {
    let mut suites: Vec<(String, Vec<&Diagnostic>)> =
        files.iter().map(|f| (f.clone(), Vec::new())).collect();
    for d in diags {
        let name = d
            .location
            .as_ref()
            .map_or_else(|| "fleetplan".to_string(), |l| l.file.clone());
        match suites.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(d),
            None => suites.push((name, vec![d])),
        }
    }
    let total: usize = suites.iter().map(|(_, v)| v.len().max(1)).sum();
    let failures = diags.iter().filter(|d| d.is_error()).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"fleetplan check\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">"
    );
    for (name, ds) in &suites {
        let fails = ds.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\" errors=\"0\" skipped=\"0\">",
            xml(name),
            ds.len().max(1)
        );
        if ds.is_empty() {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"no problems\"/>",
                xml(name)
            );
        }
        for d in ds {
            let place = d
                .location
                .as_ref()
                .map(|l| format!(" at {}:{}", l.line, l.column))
                .unwrap_or_default();
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\">",
                xml(name),
                xml(&format!("{}{place}", d.code))
            );
            match d.severity {
                Severity::Error => {
                    let _ = write!(
                        out,
                        "<failure type=\"{}\" message=\"{}\">{}</failure>",
                        xml(d.code),
                        xml(&d.message),
                        xml(&d.to_string())
                    );
                }
                Severity::Warning | Severity::Info => {
                    let _ = write!(out, "<system-out>{}</system-out>", xml(&d.to_string()));
                }
            }
            out.push_str("</testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetplan::diag::Location;

    fn located(sev: Severity, file: &str) -> Diagnostic {
        let mut d = match sev {
            Severity::Error => Diagnostic::error("invalid-stage-name", "bad: 100%, a,b\nnext"),
            Severity::Warning => Diagnostic::warning("w", "careful"),
            Severity::Info => Diagnostic::info("i", "fyi"),
        }
        .at("strategy.stages[0].name");
        d.location = Some(Location {
            file: file.into(),
            line: 7,
            column: 11,
        });
        d
    }

    #[test]
    fn github_annotations_escape_data_and_properties() {
        // GitHub's workflow-command rules: `%`, CR and LF escaped in the message; also `:` and `,` in
        // property values.
        let out = github(&[
            located(Severity::Error, "dir/a,b:c.yaml"),
            located(Severity::Info, "<stdin>"),
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "::error file=dir/a%2Cb%3Ac.yaml,line=7,col=11,title=fleetplan invalid-stage-name::bad: 100%25, a,b%0Anext (at strategy.stages[0].name)"
        );
        // Standard input has no file to point at; the annotation still appears, unlocated.
        assert_eq!(
            lines[1],
            "::notice title=fleetplan i::fyi (at strategy.stages[0].name)"
        );
    }

    #[test]
    fn sarif_has_the_2_1_0_shape_code_scanning_reads() {
        let out = sarif(&[
            located(Severity::Error, "./my scenario.yaml"),
            located(Severity::Warning, "b.yaml"),
        ]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "fleetplan");
        assert_eq!(run["tool"]["driver"]["rules"][1]["id"], "w");
        let r = &run["results"][0];
        assert_eq!(r["level"], "error");
        assert_eq!(r["ruleId"], "invalid-stage-name");
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "my%20scenario.yaml");
        assert_eq!(loc["region"]["startLine"], 7);
        assert_eq!(loc["region"]["startColumn"], 11);
        assert_eq!(run["results"][1]["ruleIndex"], 1);
        assert_eq!(run["results"][1]["level"], "warning");
    }

    #[test]
    fn junit_fails_a_case_per_error_and_passes_clean_files() {
        let out = junit(
            &[
                located(Severity::Error, "a.yaml"),
                located(Severity::Warning, "a.yaml"),
            ],
            &["a.yaml".into(), "clean.yaml".into()],
        );
        assert!(out.contains("<testsuites name=\"fleetplan check\" tests=\"3\" failures=\"1\""));
        assert!(out.contains("<testsuite name=\"a.yaml\" tests=\"2\" failures=\"1\""));
        assert!(out.contains("<testcase classname=\"a.yaml\" name=\"invalid-stage-name at 7:11\"><failure type=\"invalid-stage-name\""));
        assert!(out.contains("<testsuite name=\"clean.yaml\" tests=\"1\" failures=\"0\""));
        assert!(out.contains("name=\"no problems\"/>"));
        // The message's newline and markup-like text stay text.
        assert!(!out.contains("<next"));
    }
}
