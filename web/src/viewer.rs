//! The viewer that loads first: the read-only chart of the page's scenario, drawn with plain DOM calls
//! (markup written here, one `innerHTML` per part), no Leptos.
//!
//! A share link, an embedded chart and the app's first chart all start here ([`crate::start`],
//! [`crate::api`]): the core reads, plans and lays out the scenario (`analysis`, `gantt`), and this
//! module writes the same elements, classes and texts the Leptos components write (chart.rs,
//! summary.rs), so the interactive app that replaces it a moment later ([`crate::app_kit`], loaded on
//! demand) changes nothing the reader sees. Nothing here may reach Leptos: wasm-split keeps in the
//! main module only what the code reachable from the entry points needs, and the viewer is that code.
//! A text the main module cannot draw alone (a pasted run status, a kind whose planner is a chunk of
//! its own) is left to the app: [`draw`] then says so and draws nothing.

use std::fmt::Write;

use fleetplan::export::xml_escape;
use fleetplan::gantt::{self, BarKind, Chart, Row, RowKind, View};
use fleetplan::parts::Parts;
use fleetplan::time::{Time, DAY};
use fleetplan::zone::Zone;
use fleetplan::{Plan, Severity};
use wasm_bindgen::JsCast;

use crate::analysis::{self, Analysis};
use crate::px::Tenths;
use crate::{browser, chart, summary};

/// Marks the viewer's root element: the app removes it when it takes over.
pub const ROOT_ATTR: &str = "data-viewer";

/// What the page shows and where.
pub struct Page<'a> {
    pub text: &'a str,
    /// A message above everything (why a link could not be opened).
    pub banner: Option<&'a str>,
    /// Embed mode (iframe, web component, JavaScript API): caption and chart only.
    pub embed: bool,
    /// The chosen time zone (`None`: the browser's).
    pub zone: Option<&'a str>,
    /// The share link's payload the text came from, for the embed caption's "open in fleetplan" link.
    /// Without one the link opens the app until the app's caption replaces it: writing a payload would
    /// bring the share codec's compressor into the main module (about 7 KB gzipped) for a link that is
    /// right a moment later.
    pub payload: Option<&'a str>,
}

/// Draws `page` into `host` (appended). False, with nothing drawn, when the main module cannot plan
/// the text alone; the app draws it then.
pub fn draw(host: &web_sys::Element, page: &Page<'_>) -> bool {
    if fleetplan::status::looks_live(page.text) {
        return false;
    }
    let t0 = browser::now_ms();
    let a = analysis::analyse_with(page.text, None, &Parts::NONE);
    if !a.missing.is_empty() {
        return false;
    }
    let replan_ms = browser::now_ms() - t0;
    let zone = zone_for(a.plan.as_deref(), page.zone);
    let Some(doc) = host.owner_document() else {
        return false;
    };
    let Ok(root) = doc.create_element("div") else {
        return false;
    };
    root.set_class_name(if page.embed { "app app-embed" } else { "app" });
    let _ = root.set_attribute(ROOT_ATTR, "");

    let mut html = String::with_capacity(4096);
    if !page.embed {
        html.push_str(r#"<header class="top"><h1>fleetplan</h1><span class="tagline">rollouts across fleets, projected before they run</span></header>"#);
    }
    if let Some(b) = page.banner {
        let _ = write!(
            html,
            r#"<div class="banner" role="alert" data-testid="banner"><span>{}</span><button aria-label="dismiss this message">×</button></div>"#,
            xml_escape(b)
        );
    }
    if page.embed {
        match &a.plan {
            Some(p) => embed_caption(&mut html, p, page.payload, &zone),
            None => no_plan_note(&mut html, &a),
        }
        chart_skeleton(&mut html, a.plan.is_some(), true);
    } else {
        html.push_str(r#"<main class="layout"><section class="editor" aria-label="scenario"></section><section class="results" aria-label="plan">"#);
        summary_html(&mut html, &a, replan_ms, &zone);
        chart_skeleton(&mut html, a.plan.is_some(), false);
        html.push_str("</section></main>");
    }
    root.set_inner_html(&html);
    let _ = host.append_child(&root);
    if let Some(p) = &a.plan {
        fill_chart(&root, p, &zone);
    }
    true
}

/// Removes the viewer's chart from `host` (the app has drawn its own).
pub fn remove(host: &web_sys::Element) {
    if let Ok(Some(el)) = host.query_selector(&format!(":scope > [{ROOT_ATTR}]")) {
        el.remove();
    }
}

/// What can hold the keyboard's focus in the viewer's markup, and in the app's that replaces it (the
/// same elements in the same order).
const FOCUSABLE: &str = "button, a[href], input, summary, [tabindex]";

/// Where the keyboard's focus is in `host`'s viewer: its place among the focusable elements, when the
/// reader has tabbed into it (an embed's first key brings the app, which must not drop the focus).
pub fn focused_place(host: &web_sys::Element) -> Option<u32> {
    let active = host.owner_document()?.active_element()?;
    let root = host
        .query_selector(&format!(":scope > [{ROOT_ATTR}]"))
        .ok()??;
    let all = root.query_selector_all(FOCUSABLE).ok()?;
    (0..all.length()).find(|&i| all.item(i).is_some_and(|n| n.is_same_node(Some(&active))))
}

/// Focuses the element at `place` among `host`'s focusable elements (see [`focused_place`]).
pub fn focus_place(host: &web_sys::Element, place: u32) {
    let Some(node) = host
        .query_selector_all(FOCUSABLE)
        .ok()
        .and_then(|all| all.item(place))
    else {
        return;
    };
    if let Some(el) = node.dyn_ref::<web_sys::HtmlElement>() {
        let _ = el.focus();
    } else if let Some(el) = node.dyn_ref::<web_sys::SvgElement>() {
        let _ = el.focus();
    }
}

/// The reader's zone over the weeks around the plan, as the app's clock computes it (lib.rs
/// `provide_clock`): the same weeks, so the same offsets and abbreviations.
fn zone_for(plan: Option<&Plan>, name: Option<&str>) -> Zone {
    let week = 7 * DAY.0;
    let (from, to) = plan.map_or((0, 1), |p| {
        let end = p.end.unwrap_or(p.start).max(p.start);
        (
            (p.start.0 - 60 * DAY.0).div_euclid(week),
            (end.0 + 120 * DAY.0).div_euclid(week),
        )
    });
    crate::clock::zone_over(name, Time(from * week), Time(to * week))
}

/// A time as summary.rs's `time_view` writes it.
fn time_html(out: &mut String, t: Option<Time>, testid: &str, zone: &Zone) {
    match t {
        Some(t) => {
            let exact = t.to_string();
            let _ = write!(
                out,
                r#"<time data-testid="{testid}" data-time="{exact}" datetime="{exact}" title="{exact} (UTC)">{}</time>"#,
                xml_escape(&zone.human(t))
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<span data-testid="{testid}" data-time="never">never</span>"#
            );
        }
    }
}

/// Embed mode's caption (summary.rs `EmbedCaption`).
fn embed_caption(out: &mut String, p: &Plan, payload: Option<&str>, zone: &Zone) {
    let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
    let app = browser::app_url();
    let open = match payload {
        Some(payload) => format!("{app}#s={payload}"),
        None => app,
    };
    let _ = write!(
        out,
        r#"<p class="embed-caption"><strong>{}</strong> · ends "#,
        xml_escape(&name)
    );
    time_html(out, p.end, "plan-end", zone);
    let _ = write!(
        out,
        r#" · <a href="{}" target="_blank" rel="noopener">open in fleetplan</a></p>"#,
        xml_escape(&open)
    );
}

/// Why there is no chart: the first error and its line (an embedded link whose text does not load).
fn no_plan_note(out: &mut String, a: &Analysis) {
    if let Some(why) = &a.stale_reason {
        let _ = write!(
            out,
            r#"<p class="stale-reason" role="status" data-testid="stale-reason"><strong>No plan: the text does not load. </strong>{}</p>"#,
            xml_escape(why)
        );
    }
}

/// The app's summary (summary.rs `Summary`) of a first analysis (never stale: nothing came before).
fn summary_html(out: &mut String, a: &Analysis, replan_ms: f64, zone: &Zone) {
    let errors = a.count(Severity::Error);
    let warnings = a.count(Severity::Warning);
    let counts = summary::counts_text(errors, warnings);
    let _ = write!(
        out,
        r#"<div class="summary" data-testid="summary" data-replan-ms="{replan_ms:.1}">"#
    );
    let Some(p) = &a.plan else {
        no_plan_note(out, a);
        let _ = write!(out, r#"<p class="counts">{counts}</p></div>"#);
        return;
    };
    let (outcome, class) = summary::outcome_words(p.outcome);
    let name = p.scenario.clone().unwrap_or_else(|| p.run.clone());
    let _ = write!(
        out,
        r#"<div class="summary-main"><h2 class="run-name">{}</h2><span class="outcome {class}" data-testid="outcome">The run {outcome}</span><span class="counts{}">{counts}</span></div><dl class="facts"><div><dt>start</dt><dd>"#,
        xml_escape(&name),
        if errors > 0 { " has-errors" } else { "" },
    );
    time_html(out, Some(p.start), "plan-start", zone);
    out.push_str("</dd></div><div><dt>end</dt><dd>");
    time_html(out, p.end, "plan-end", zone);
    let total = &p.summary.total_duration;
    let _ = write!(
        out,
        r#"</dd></div><div><dt>total</dt><dd data-testid="plan-duration" data-duration="{}">{}</dd></div><div><dt>clusters updated</dt><dd>{} of {}</dd></div></dl><ul class="kind-lines">"#,
        total.map_or_else(String::new, |d| d.to_string()),
        total.map_or_else(|| "—".to_string(), |d| d.human()),
        p.summary.clusters_updated,
        p.summary.clusters
    );
    for (id, text) in summary::kind_lines(p, zone) {
        let _ = write!(out, r#"<li data-testid="{id}">{}</li>"#, xml_escape(&text));
    }
    out.push_str(r#"</ul><ol class="etas" aria-label="end of each stage">"#);
    for e in &p.summary.stage_etas {
        let _ = write!(
            out,
            r#"<li><span class="eta-stage">{}</span> "#,
            xml_escape(&e.stage)
        );
        time_html(out, e.end, "stage-eta", zone);
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    if a.runs > 1 {
        let _ = write!(
            out,
            r#"<p class="note">the input has {} update runs; showing the first</p>"#,
            a.runs
        );
    }
    let waits = &p.summary.longest_waits;
    if !waits.is_empty() {
        let _ = write!(
            out,
            r#"<details class="summary-more" data-testid="longest-waits"><summary>Longest waits ({})</summary><table class="waits"><thead><tr><th>stage</th><th>waiting for</th><th>from</th><th>for</th></tr></thead><tbody>"#,
            waits.len()
        );
        for w in waits {
            let _ = write!(
                out,
                r#"<tr><td>{}</td><td>{}</td><td>{}</td><td class="num">{}</td></tr>"#,
                xml_escape(&w.stage),
                xml_escape(&w.label),
                xml_escape(&zone.human(w.start)),
                w.duration
                    .map_or_else(|| "forever".to_string(), |d| d.human())
            );
        }
        out.push_str("</tbody></table></details>");
    }
    if !p.assumptions.is_empty() {
        let defaulted = p.assumptions.iter().filter(|a| a.defaulted).count();
        let _ = write!(
            out,
            r#"<details class="summary-more" data-testid="assumptions"><summary>Assumptions ({}, {defaulted} by default)</summary><ul class="assumptions">"#,
            p.assumptions.len()
        );
        for x in &p.assumptions {
            let _ = write!(
                out,
                r#"<li><span class="assumption-field">{}</span>{}: {}</li>"#,
                xml_escape(&x.field),
                if x.defaulted {
                    r#"<span class="assumption-default"> (default)</span>"#
                } else {
                    ""
                },
                xml_escape(&x.value)
            );
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</div>");
}

/// The chart's frame (chart.rs `GanttChart`): toolbar, empty axis and rows, foot. The buttons do
/// nothing until the app takes over.
fn chart_skeleton(out: &mut String, has_plan: bool, embed: bool) {
    let _ = write!(
        out,
        r#"<section class="chart{}" data-testid="chart" aria-label="rollout chart"><div class="chart-toolbar" role="toolbar" aria-label="chart view"><button title="zoom out" aria-label="zoom out">−</button><button title="zoom in (or ctrl + mouse wheel, or pinch)" aria-label="zoom in">+</button><button title="earlier (or drag the chart)" aria-label="show earlier times">◀</button><button title="later" aria-label="show later times">▶</button><button data-testid="fit" title="show the whole run in the width">Fit</button>"#,
        if embed { " embed" } else { "" }
    );
    if embed {
        out.push_str(r#"<button data-testid="play" title="replay the run">▶ Play</button>"#);
    } else {
        out.push_str(r#"<button title="hide the cluster rows">Collapse all</button><button title="show every cluster row">Expand all</button>"#);
    }
    out.push_str("</div>");
    if has_plan {
        out.push_str(r#"<svg class="axis" aria-hidden="true"></svg>"#);
    } else {
        out.push_str(
            r#"<p class="chart-empty">No plan to draw yet: fix the errors in the scenario.</p>"#,
        );
    }
    out.push_str(r#"<div class="chart-body"><svg class="rows" role="group" aria-label="rollout timeline: one row per stage and cluster; Tab to the bars, then the arrow keys move between them and Enter describes one"></svg></div>"#);
    if !embed {
        out.push_str(r#"<div class="playback" data-testid="playback"><button data-testid="play" title="replay the run">▶ Play</button><input type="range" min="0" max="1000" aria-label="time cursor" value="0"><label class="cursor-at"><span class="visually-hidden">go to a time</span><input data-testid="cursor-input" size="17" placeholder="YYYY-MM-DD HH:MM" title="a time on the clock shown (or RFC 3339 with Z or an offset)" aria-invalid="false"></label><span class="cursor-time" data-testid="cursor-time" data-time="">drag on the time axis, type a time or press play to replay the run</span></div>"#);
    }
    let _ = write!(
        out,
        r#"<div class="chart-foot"><p class="selection" data-testid="selection" aria-live="polite">Hover or focus a bar for its times and reason; click or press Enter to keep it here.</p><details class="legend-box"{}><summary>Legend</summary><ul class="legend" aria-label="legend"></ul></details></div></section>"#,
        if embed { "" } else { " open" }
    );
}

/// Lays the plan out for the measured width and writes the axis, the rows in view, the availability
/// strip and the legend.
fn fill_chart(root: &web_sys::Element, p: &Plan, zone: &Zone) {
    let find = |sel: &str| root.query_selector(sel).ok().flatten();
    let (Some(body), Some(axis), Some(rows)) =
        (find(".chart-body"), find("svg.axis"), find("svg.rows"))
    else {
        return;
    };
    // As chart.rs measures: the label column by the body's width, the time area the rest.
    let inner = f64::from(body.client_width());
    let lw = chart::label_width_for(inner);
    let view = View {
        zone: zone.clone(),
        ..View::fit(p, (inner - lw - 4.0).max(60.0))
    };
    let c = gantt::layout_untitled(p, &view);
    let total = c.width + lw;
    let _ = axis.set_attribute("width", &num(total));
    let _ = axis.set_attribute("height", &num(gantt::AXIS_HEIGHT));
    let _ = rows.set_attribute("width", &num(total));
    let _ = rows.set_attribute("height", &num(c.height));
    axis.set_inner_html(&axis_html(&c, lw));
    let viewport = body
        .dyn_ref::<web_sys::HtmlElement>()
        .map_or(600.0, chart::viewport_height);
    let shown = gantt::visible_rows(&c, 0.0, viewport);
    rows.set_inner_html(&rows_html(p, &c, lw, shown, zone));
    if let Some(svg) = availability_html(p, &view, lw, total) {
        if let Some(foot) = find(".chart-foot") {
            let _ = foot.insert_adjacent_html("beforebegin", &svg);
        }
    }
    if let Some(legend) = find("ul.legend") {
        legend.set_inner_html(&legend_html(&c));
    }
}

/// A number as Leptos writes an `f64` attribute (its `Display`).
fn num(x: f64) -> String {
    x.to_string()
}

fn axis_html(c: &Chart, lw: f64) -> String {
    let h = gantt::AXIS_HEIGHT;
    let mut s = String::with_capacity(256 + 160 * (c.axis.major.len() + c.axis.minor.len()));
    s.push_str("<title>drag here to move the time cursor</title>");
    let _ = write!(s, r#"<g transform="translate({lw},0)">"#);
    weekend_rects(&mut s, c, h);
    for t in &c.axis.major {
        let _ = write!(
            s,
            r#"<line class="tick-major" x1="{x}" y1="0" x2="{x}" y2="18"></line><text class="axis-major" x="{}" y="13">{}</text>"#,
            Tenths::of(t.x).plus(3),
            xml_escape(&t.label),
            x = Tenths::of(t.x)
        );
    }
    for t in &c.axis.minor {
        let _ = write!(
            s,
            r#"<line class="tick-minor" x1="{x}" y1="22" x2="{x}" y2="{h}"></line><text class="axis-minor" x="{}" y="34">{}</text>"#,
            Tenths::of(t.x).plus(3),
            xml_escape(&t.label),
            x = Tenths::of(t.x)
        );
    }
    let _ = write!(
        s,
        r#"<line class="start-marker" x1="{x}" y1="0" x2="{x}" y2="{h}"><title>start of the run</title></line></g>"#,
        x = Tenths::of(c.start_x)
    );
    s
}

/// The weekends' shading, `h` tall: behind the axis and behind the rows alike.
fn weekend_rects(s: &mut String, c: &Chart, h: f64) {
    for w in &c.weekends {
        let (x, width) = Tenths::span(w.x, w.width, 0.0);
        let _ = write!(
            s,
            r#"<rect class="weekend" x="{x}" y="0" width="{width}" height="{h}"></rect>"#
        );
    }
}

/// The rows' SVG: clip path, patterns, backdrop and the rows in `shown` (chart.rs `row_element`).
fn rows_html(p: &Plan, c: &Chart, lw: f64, shown: std::ops::Range<usize>, zone: &Zone) -> String {
    let h = c.height;
    let mut s = String::with_capacity(1024 + 600 * shown.len());
    let _ = write!(
        s,
        r#"<defs><clipPath id="label-clip"><rect x="0" y="0" width="{}" height="{h}"></rect></clipPath></defs><g>{}</g><g class="backdrop" transform="translate({lw},0)">"#,
        lw - 8.0,
        gantt::SVG_DEFS
    );
    weekend_rects(&mut s, c, h);
    for t in &c.axis.minor {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x}" y1="0" x2="{x}" y2="{h}"></line>"#,
            x = Tenths::of(t.x)
        );
    }
    let _ = write!(
        s,
        r#"<line class="start-marker" data-testid="start-marker" x1="{x}" y1="0" x2="{x}" y2="{h}"></line>"#,
        x = Tenths::of(c.start_x)
    );
    if let Some(x) = c.end_x.map(Tenths::of) {
        let _ = write!(
            s,
            r#"<line class="end-marker" data-testid="end-marker" x1="{x}" y1="0" x2="{x}" y2="{h}"></line>"#
        );
    }
    s.push_str("</g>");
    let n = c.rows.len();
    let range = shown.start.min(n)..shown.end.min(n);
    // The chart's one tab stop: the first bar of the rows drawn.
    let tab_stop = range
        .clone()
        .find(|&i| !c.rows[i].bars.is_empty())
        .map(|i| (i, 0));
    for i in range {
        row_html(&mut s, p, &c.rows[i], i, lw, tab_stop, zone);
    }
    s
}

fn row_html(
    s: &mut String,
    p: &Plan,
    row: &Row,
    index: usize,
    lw: f64,
    tab_stop: Option<(usize, usize)>,
    zone: &Zone,
) {
    let (y, h) = (row.y, row.height);
    let (is_stage, folded) = match row.kind {
        RowKind::Stage { collapsed, .. } => (true, collapsed),
        _ => (false, false),
    };
    let unstaged_heading = matches!(row.kind, RowKind::Unstaged { cluster: None });
    let class = match row.kind {
        RowKind::Stage { .. } => "row row-stage",
        RowKind::Cluster { .. } => "row row-cluster",
        RowKind::Unstaged { .. } => "row row-unstaged",
    };
    let _ = write!(
        s,
        r#"<g class="{class}" data-row="{}">"#,
        xml_escape(&row.label)
    );
    if is_stage || unstaged_heading {
        let band = if is_stage {
            "stage-band"
        } else {
            "unstaged-band"
        };
        let _ = write!(
            s,
            r#"<rect class="{band}" x="0" y="{y}" width="100%" height="{h}"></rect>"#
        );
    }
    let _ = write!(s, r#"<g transform="translate({lw},0)">"#);
    for (bi, b) in row.bars.iter().enumerate() {
        let title = xml_escape(&gantt::title_in(p, row, b, zone));
        let (bar_y, bar_h) = b.vertical(y, h);
        let (x, w) = Tenths::span(b.x, b.width, 1.0);
        let _ = write!(
            s,
            r#"<rect class="bar {}{}" x="{x}" y="{bar_y}" width="{w}" height="{bar_h}" rx="2" role="button" data-pos="{index}:{bi}" tabindex="{}" aria-label="{title}"><title>{title}</title></rect>"#,
            b.classes(),
            if b.open_end { " open-end" } else { "" },
            if tab_stop == Some((index, bi)) {
                "0"
            } else {
                "-1"
            },
        );
        // Text on the bar only where it fits (chart.rs: about 6.5 px per character, 9 px of height).
        let fits = b.width > 6.5 * b.label.chars().count() as f64 + 6.0 && bar_h >= 9.0;
        if !b.label.is_empty() && fits {
            let font = if bar_h < 13.0 { 8.5 } else { 10.5 };
            let _ = write!(
                s,
                r#"<text class="bar-label" x="{}" y="{}" font-size="{font}" aria-hidden="true">{}</text>"#,
                x.plus(3),
                bar_y + bar_h / 2.0 + font * 0.36,
                xml_escape(&b.label)
            );
        }
    }
    s.push_str("</g>");
    let label_class = if is_stage {
        "label label-stage"
    } else if unstaged_heading {
        "label label-unstaged"
    } else {
        "label"
    };
    let x = if is_stage || unstaged_heading {
        4.0
    } else {
        14.0
    };
    let _ = write!(
        s,
        r#"<text class="{label_class}" x="{x}" y="{}"{} tabindex="{}"{}>{}{}</text></g>"#,
        y + h * 0.68,
        if unstaged_heading {
            ""
        } else {
            r#" clip-path="url(#label-clip)""#
        },
        if is_stage { "0" } else { "-1" },
        if is_stage {
            if folded {
                r#" role="button" aria-expanded="false""#
            } else {
                r#" role="button" aria-expanded="true""#
            }
        } else {
            ""
        },
        if is_stage {
            if folded {
                "▸ "
            } else {
                "▾ "
            }
        } else {
            ""
        },
        xml_escape(&row.label)
    );
}

/// A rolling update's availability strip (chart.rs `avail_view`).
fn availability_html(p: &Plan, view: &View, lw: f64, total: f64) -> Option<String> {
    let (samples, min, n) = chart::availability_of(p)?;
    let a = gantt::availability(&samples, min, n, view, chart::AVAILABILITY_HEIGHT);
    let mut s = String::with_capacity(512 + 16 * a.line.len());
    let _ = write!(
        s,
        r#"<svg class="availability" data-testid="availability" data-lowest="{}" data-budget="{}" width="{total}" height="{}" role="img" aria-label="available clusters over time: never fewer than {} (budget {} of {})"><text class="avail-title" x="4" y="14">available</text>"#,
        a.lowest, a.min_available, a.height, a.lowest, a.min_available, a.target
    );
    for (y, t) in &a.labels {
        let _ = write!(
            s,
            r#"<text class="avail-label" x="{}" y="{}">{}</text>"#,
            lw - 6.0,
            y + 4.0,
            xml_escape(t)
        );
    }
    let _ = write!(
        s,
        r#"<g transform="translate({lw},0)"><line class="avail-target" x1="0" y1="{ty}" x2="{w}" y2="{ty}"></line><line class="avail-budget" x1="0" y1="{by}" x2="{w}" y2="{by}"></line><polyline class="avail-line" points=""#,
        ty = a.target_y,
        by = a.budget_y,
        w = a.width
    );
    for (i, (x, y)) in a.line.iter().enumerate() {
        let _ = write!(s, "{}{x:.1},{y:.1}", if i == 0 { "" } else { " " });
    }
    s.push_str(r#""></polyline></g></svg>"#);
    Some(s)
}

/// The legend: the kinds of bar this chart draws, then a swatch per version (chart.rs `legend`).
fn legend_html(c: &Chart) -> String {
    let mut s = String::new();
    for k in BarKind::used(c) {
        let _ = write!(
            s,
            r#"<li><svg width="14" height="10" aria-hidden="true"><rect class="{}" x="0" y="0" width="14" height="10"></rect></svg>{}</li>"#,
            k.css_class(),
            xml_escape(k.legend())
        );
    }
    for (i, v) in c.versions.iter().enumerate() {
        let _ = write!(
            s,
            r#"<li data-testid="legend-version"><svg width="14" height="10" aria-hidden="true"><rect class="bar-control-plane{}" x="0" y="0" width="14" height="10"></rect></svg>version {}</li>"#,
            gantt::version_class(Some(i.min(255) as u8)),
            xml_escape(v)
        );
    }
    s
}
