//! Downloads: the scenario as YAML, the plan as JSON, CSV and Mermaid, the chart as SVG and PNG.
//!
//! The file contents come from the core (`export`, `gantt::svg`); this module only names the files and
//! hands them to the browser. The chart export lays out the whole run (every row, fitted), not the part
//! the screen happens to show, under a caption with the scenario's name, its end on the reader's clock
//! and its outcome, so a picture pasted into a ticket says what it shows.

use fleetplan::export;
use fleetplan::gantt::{self, View};
use fleetplan::zone::Zone;
use fleetplan::Plan;

use crate::browser;
use crate::chart_markup::LABEL_WIDTH;

/// Width of the time area in exported charts, px: readable on a docs page, not too wide for a slide.
const EXPORT_WIDTH: f64 = 1100.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
    Csv,
    Mermaid,
    Svg,
    Png,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Yaml,
        Format::Json,
        Format::Csv,
        Format::Mermaid,
        Format::Svg,
        Format::Png,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Format::Yaml => "Scenario YAML",
            Format::Json => "Plan JSON",
            Format::Csv => "Plan CSV",
            Format::Mermaid => "Mermaid gantt",
            Format::Svg => "Chart SVG",
            Format::Png => "Chart PNG",
        }
    }

    /// Whether the format needs a plan (everything but the scenario text itself).
    pub fn needs_plan(self) -> bool {
        self != Format::Yaml
    }
}

/// A file name from the run's name, kept to characters every file system accepts.
pub fn file_stem(plan: Option<&Plan>) -> String {
    let raw = plan
        .map(|p| p.scenario.clone().unwrap_or_else(|| p.run.clone()))
        .unwrap_or_else(|| "scenario".into());
    let stem: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    if stem.trim_matches('-').is_empty() {
        "fleetplan".into()
    } else {
        stem
    }
}

/// The caption of an exported chart: the name, then the end, total and outcome on `zone`'s clock.
pub fn caption(plan: &Plan, zone: &Zone) -> Vec<String> {
    let name = plan.scenario.clone().unwrap_or_else(|| plan.run.clone());
    let end = plan.end.map_or_else(
        || "never ends under the assumptions".to_string(),
        |e| format!("ends {}", zone.human(e)),
    );
    let total = plan
        .summary
        .total_duration
        .map(|d| format!(" · total {}", d.human()))
        .unwrap_or_default();
    let outcome = crate::summary::outcome_words(plan.outcome).0;
    vec![
        format!("{name} ({})", plan.kind),
        format!(
            "{end}{total} · the run {outcome} · {} of {} clusters updated",
            plan.summary.clusters_updated, plan.summary.clusters
        ),
    ]
}

/// The whole run laid out for export (on `zone`'s clock), and its standalone, captioned SVG.
pub fn chart_svg(plan: &Plan, zone: &Zone) -> (String, f64, f64) {
    let view = View {
        zone: zone.clone(),
        ..View::fit(plan, EXPORT_WIDTH)
    };
    let chart = gantt::layout(plan, &view);
    let svg = gantt::svg_captioned(&chart, LABEL_WIDTH, &caption(plan, zone));
    // The document's own size, as `gantt::svg` wrote it on its root element.
    let size = |attr: &str| {
        svg.split_once(&format!("{attr}=\""))
            .and_then(|(_, rest)| rest.split_once('"'))
            .and_then(|(n, _)| n.parse::<f64>().ok())
    };
    let w = size("width").unwrap_or(LABEL_WIDTH + EXPORT_WIDTH);
    let h = size("height").unwrap_or(chart.height + 80.0);
    (svg, w, h)
}

/// The text of one export, with its file name and MIME type; `None` for PNG (drawn by the browser) and
/// for plan formats without a plan. Names and labels are escaped by the core's exporters.
pub fn render(
    format: Format,
    text: &str,
    plan: Option<&Plan>,
    zone: &Zone,
) -> Option<(String, &'static str, String)> {
    let stem = file_stem(plan);
    match format {
        Format::Yaml => Some((format!("{stem}.yaml"), "application/yaml", text.to_string())),
        Format::Json => plan.map(|p| {
            (
                format!("{stem}.plan.json"),
                "application/json",
                export::json(p),
            )
        }),
        Format::Csv => plan.map(|p| (format!("{stem}.plan.csv"), "text/csv", export::csv(p))),
        Format::Mermaid => plan.map(|p| (format!("{stem}.mmd"), "text/plain", export::mermaid(p))),
        Format::Svg => plan.map(|p| (format!("{stem}.svg"), "image/svg+xml", chart_svg(p, zone).0)),
        Format::Png => None,
    }
}

/// The exports as an on-demand part: their code loads when the Export menu is first opened.
#[derive(Clone, Copy)]
pub struct ExportsKit {
    pub download: fn(Format, &str, Option<&Plan>, &Zone) -> bool,
}

crate::on_demand! {
    pub fn exports_kit() -> ExportsKit {
        ExportsKit { download }
    }
}

/// Starts the download of one export in the browser.
pub fn download(format: Format, text: &str, plan: Option<&Plan>, zone: &Zone) -> bool {
    if format == Format::Png {
        let Some(p) = plan else { return false };
        let (svg, w, h) = chart_svg(p, zone);
        // Twice the pixels: crisp on high-density screens and when zoomed in a document.
        return browser::download_svg_as_png(&svg, w, h, 2.0, &format!("{}.png", file_stem(plan)));
    }
    match render(format, text, plan, zone) {
        Some((name, mime, content)) => browser::download_text(&name, mime, &content),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_text_export_of_the_example_has_content() {
        let text = crate::link::example_text();
        let a = analyse(text, None);
        let plan = a.plan.as_deref();
        for f in Format::ALL {
            if f == Format::Png {
                continue;
            }
            let (name, _, content) = render(f, text, plan, &Zone::utc()).unwrap();
            assert!(name.starts_with("staged-rollout"), "{name}");
            assert!(!content.is_empty(), "{f:?}");
        }
        let (svg, w, h) = chart_svg(plan.unwrap(), &Zone::utc());
        assert!(svg.starts_with("<svg"));
        assert!(w > EXPORT_WIDTH && h > 100.0, "{w}x{h}");
        // The picture says what it shows: the scenario's name and its end (12:15 UTC, the example's).
        assert!(svg.contains("staged-rollout (kubefleet-staged)"), "{svg}");
        assert!(svg.contains("ends Mon 23 Nov 2026 12:15 UTC · total 3h 15m · the run succeeds"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn file_names_are_safe() {
        assert_eq!(file_stem(None), "scenario");
        let mut plan = (*analyse(crate::link::example_text(), None).plan.unwrap()).clone();
        plan.scenario = Some("../<script>".into());
        assert_eq!(file_stem(Some(&plan)), "----script-");
        plan.scenario = Some("///".into());
        assert_eq!(file_stem(Some(&plan)), "fleetplan");
    }
}
