//! The Gantt chart as markup: the axis, the rows in view, the availability strip and the legend, written
//! as strings that one `innerHTML` per part turns into SVG, and the frame's controls (toolbar, playback
//! bar, foot) that both charts show.
//!
//! Both charts draw with it: the viewer that loads first (viewer.rs, in the main module, without
//! Leptos) and the interactive chart (chart.rs) that replaces it, which rewrites a part when its layout,
//! view or rows in view change. One writer, so the chart that takes the viewer's place shows the very
//! same elements, classes, texts and numbers, and a redraw costs one string and one parse instead of a
//! Leptos view per row and bar. Nothing here may reach Leptos (the main module holds it).
//! Coordinates along the time axis are whole tenths of a pixel ([`Tenths`]).

use std::fmt::Write;
use std::ops::Range;

use fleetplan::export::xml_escape;
use fleetplan::gantt::{self, BarKind, Chart, Row, RowKind, View};
use fleetplan::time::Time;
use fleetplan::zone::Zone;
use fleetplan::Plan;

use crate::px::Tenths;

/// Width of the label column left of the time area, px (the SVG export's too).
pub const LABEL_WIDTH: f64 = 180.0;
/// The label column on a narrow screen (a phone), so the time area keeps most of the width.
const NARROW_LABEL_WIDTH: f64 = 104.0;
/// Below this body width, px, the chart uses the narrow label column.
const NARROW: f64 = 640.0;
/// Height of the availability strip under a rolling update's chart, px.
pub const AVAILABILITY_HEIGHT: f64 = 72.0;

/// The label column for a chart body `inner` px wide: narrower on a phone, so the time area keeps most
/// of the width.
pub fn label_width_for(inner: f64) -> f64 {
    if inner < NARROW {
        NARROW_LABEL_WIDTH
    } else {
        LABEL_WIDTH
    }
}

/// The height of the chart body that can show rows: its own, but never more than the window's, so the
/// rows stay virtualised even where no stylesheet bounds the body (an embedding page, a test page).
pub fn viewport_height(el: &web_sys::HtmlElement) -> f64 {
    let own = el.client_height() as f64;
    let window = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(own);
    own.min(window).max(100.0)
}

/// A rolling update's available-cluster samples, its budget (N − maxUnavailable) and N.
pub type AvailabilitySamples = (Vec<(Time, usize)>, usize, usize);

pub fn availability_of(plan: &Plan) -> Option<AvailabilitySamples> {
    let r = plan.rolling.as_ref()?;
    let samples = r.availability.iter().map(|a| (a.at, a.available)).collect();
    Some((samples, r.min_available, r.target))
}

/// A number as an `f64` attribute is written (its `Display`).
pub fn num(x: f64) -> String {
    x.to_string()
}

/// The axis SVG's content: its tooltip, then the ticks moved right of the label column.
pub fn axis_html(c: &Chart, lw: f64) -> String {
    let mut s = String::from("<title>drag here to move the time cursor</title>");
    let _ = write!(s, r#"<g transform="translate({lw},0)">"#);
    s.push_str(&axis_ticks(c));
    s.push_str("</g>");
    s
}

/// The axis inside the time area: weekends, the two tiers of ticks and labels, the run's start.
pub fn axis_ticks(c: &Chart) -> String {
    let h = gantt::AXIS_HEIGHT;
    let mut s = String::with_capacity(256 + 160 * (c.axis.major.len() + c.axis.minor.len()));
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
        r#"<line class="start-marker" x1="{x}" y1="0" x2="{x}" y2="{h}"><title>start of the run</title></line>"#,
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

/// The rows SVG's first parts: the labels' clip path and the bars' hatching.
pub fn rows_defs(lw: f64, height: f64) -> String {
    format!(
        r#"<defs><clipPath id="label-clip"><rect x="0" y="0" width="{}" height="{height}"></rect></clipPath></defs><g>{}</g>"#,
        lw - 8.0,
        gantt::SVG_DEFS
    )
}

/// The full-height background of the rows inside the time area: weekend shading, the minor ticks'
/// grid, the start and end markers.
pub fn backdrop(c: &Chart) -> String {
    let h = c.height;
    let mut s = String::with_capacity(256 + 80 * (c.weekends.len() + c.axis.minor.len()));
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
    s
}

/// The rows SVG as the viewer writes it at once: clip path, hatching, backdrop and, in the group the
/// interactive chart rewrites, the rows in `shown` with the chart's one tab stop on the first bar.
pub fn rows_html(p: &Plan, c: &Chart, lw: f64, shown: Range<usize>, zone: &Zone) -> String {
    let shown = clamp(c, shown);
    let mut s = rows_defs(lw, c.height);
    let _ = write!(s, r#"<g class="backdrop" transform="translate({lw},0)">"#);
    s.push_str(&backdrop(c));
    s.push_str(r#"</g><g class="rows-in-view">"#);
    let tab_stop = first_bar(c, shown.clone());
    s.push_str(&rows_in_view(p, c, lw, shown, tab_stop, zone));
    s.push_str("</g>");
    s
}

/// `shown` within the chart's rows.
pub fn clamp(c: &Chart, shown: Range<usize>) -> Range<usize> {
    let n = c.rows.len();
    shown.start.min(n)..shown.end.min(n)
}

/// The first bar of the rows in `shown`: the chart's tab stop until a bar has had the focus.
pub fn first_bar(c: &Chart, shown: Range<usize>) -> Option<(usize, usize)> {
    clamp(c, shown)
        .find(|&i| !c.rows[i].bars.is_empty())
        .map(|i| (i, 0))
}

/// The rows in `shown`, the bar at `tab_stop` (row, bar) being the one in the page's tab order.
pub fn rows_in_view(
    p: &Plan,
    c: &Chart,
    lw: f64,
    shown: Range<usize>,
    tab_stop: Option<(usize, usize)>,
    zone: &Zone,
) -> String {
    let shown = clamp(c, shown);
    let mut s = String::with_capacity(600 * shown.len());
    for i in shown {
        row_html(&mut s, p, &c.rows[i], i, lw, tab_stop, zone);
    }
    s
}

/// One row: label (a stage's toggles its cluster rows: `data-stage` names it), bars with tooltips and
/// text labels. Each bar is focusable (one tab stop for the chart) and named by its tooltip (an SVG
/// element's `<title>` is its accessible name: an `aria-label` too only doubled the rows' markup); `data-pos`
/// says which bar of the layout it is, for the chart's listeners on the whole body.
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
    let stage = match row.kind {
        RowKind::Stage { stage, collapsed } => Some((stage, collapsed)),
        _ => None,
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
    if stage.is_some() || unstaged_heading {
        let band = if stage.is_some() {
            "stage-band"
        } else {
            "unstaged-band"
        };
        let _ = write!(
            s,
            r#"<rect class="{band}" x="0" y="{y}" width="100%" height="{h}"></rect>"#
        );
    }
    // Bars come before the label in the DOM: from the chart's tab stop, Tab reaches the bars first.
    let _ = write!(s, r#"<g transform="translate({lw},0)">"#);
    for (bi, b) in row.bars.iter().enumerate() {
        let title = xml_escape(&gantt::title_in(p, row, b, zone));
        // Parallel phases (a soak beside an approval) share the row in lanes the core assigned.
        let (bar_y, bar_h) = b.vertical(y, h);
        let (x, w) = Tenths::span(b.x, b.width, 1.0);
        let _ = write!(
            s,
            r#"<rect class="bar {}{}" x="{x}" y="{bar_y}" width="{w}" height="{bar_h}" rx="2" role="button" data-pos="{index}:{bi}" tabindex="{}"><title>{title}</title></rect>"#,
            b.classes(),
            if b.open_end { " open-end" } else { "" },
            if tab_stop == Some((index, bi)) {
                "0"
            } else {
                "-1"
            },
        );
        // Text on the bar only where it fits (about 6.5 px per character, 9 px of height).
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
    let label_class = if stage.is_some() {
        "label label-stage"
    } else if unstaged_heading {
        "label label-unstaged"
    } else {
        "label"
    };
    let x = if stage.is_some() || unstaged_heading {
        4.0
    } else {
        14.0
    };
    let _ = write!(
        s,
        r#"<text class="{label_class}" x="{x}" y="{}"{}"#,
        y + h * 0.68,
        if unstaged_heading {
            ""
        } else {
            r#" clip-path="url(#label-clip)""#
        },
    );
    match stage {
        Some((i, folded)) => {
            let name = p.stages.get(i).map_or("", |st| st.name.as_str());
            let _ = write!(
                s,
                r#" tabindex="0" role="button" aria-expanded="{}" data-stage="{}">{} "#,
                !folded,
                xml_escape(name),
                if folded { "▸" } else { "▾" },
            );
        }
        None => s.push_str(r#" tabindex="-1">"#),
    }
    let _ = write!(s, "{}</text></g>", xml_escape(&row.label));
}

/// A rolling update's availability strip, `total` px wide; `None` for other kinds.
pub fn availability_html(p: &Plan, view: &View, lw: f64, total: f64) -> Option<String> {
    let (samples, min, n) = availability_of(p)?;
    let a = gantt::availability(&samples, min, n, view, AVAILABILITY_HEIGHT);
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

/// The legend: the kinds of bar this chart draws (a staged run's does not list GKE's), then a swatch
/// per version.
pub fn legend_html(c: &Chart) -> String {
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

// The frame's fixed texts, as macros so `concat!` can build each part's markup as one constant.
macro_rules! toolbar_buttons {
    () => {
        r#"<button data-act="zoom-out" title="zoom out" aria-label="zoom out">−</button><button data-act="zoom-in" title="zoom in (or ctrl + mouse wheel, or pinch)" aria-label="zoom in">+</button><button data-act="earlier" title="earlier (or drag the chart)" aria-label="show earlier times">◀</button><button data-act="later" title="later" aria-label="show later times">▶</button><button data-act="fit" data-testid="fit" title="show the whole run in the width">Fit</button>"#
    };
}
macro_rules! no_cursor {
    () => {
        "drag on the time axis, type a time or press play to replay the run"
    };
}
macro_rules! no_selection {
    () => {
        "Hover or focus a bar for its times and reason; click or press Enter to keep it here."
    };
}
macro_rules! selection_start {
    () => {
        concat!(
            r#"<p class="selection" data-testid="selection" aria-live="polite">"#,
            no_selection!(),
            r#"</p><details class="legend-box""#
        )
    };
}

/// What a chart's `<section>` holds before it is laid out: the toolbar, the axis (or, with no plan,
/// why there is none), the scrolling body with the rows SVG's three groups (clip path and hatching,
/// backdrop, rows in view), the availability strip's box, the playback bar (not in an embed) and the
/// foot. The viewer writes it whole, then fills it; the interactive chart writes it once and its effects
/// set only the parts that change.
pub fn frame_html(out: &mut String, has_plan: bool, embed: bool) {
    out.push_str(r#"<div class="chart-toolbar" role="toolbar" aria-label="chart view">"#);
    out.push_str(toolbar_html(embed));
    out.push_str("</div>");
    out.push_str(if has_plan { AXIS_EMPTY } else { NO_PLAN });
    out.push_str(r#"<div class="chart-body"><svg class="rows" role="group" aria-label="rollout timeline: one row per stage and cluster; Tab to the bars, then the arrow keys move between them and Enter describes one"><g></g><g class="backdrop"></g><g class="rows-in-view"></g></svg></div><div class="avail-box"></div>"#);
    if !embed {
        out.push_str(r#"<div class="playback" data-testid="playback">"#);
        out.push_str(PLAYBACK_HTML);
        out.push_str("</div>");
    }
    out.push_str(r#"<div class="chart-foot">"#);
    out.push_str(foot_html(embed));
    out.push_str("</div>");
}

/// The axis before it is drawn (its height is fixed; its width and ticks follow the layout).
pub const AXIS_EMPTY: &str = r#"<svg class="axis" aria-hidden="true"></svg>"#;

/// What the chart shows instead of its axis while there is no plan.
pub const NO_PLAN: &str =
    r#"<p class="chart-empty">No plan to draw yet: fix the errors in the scenario.</p>"#;

/// The toolbar's buttons (inside `div.chart-toolbar`). Each says what it does in `data-act`, which the
/// interactive chart's one click listener on its root reads; in the viewer they do nothing until the
/// app takes over. An embed has its play button here, since it shows no playback bar.
pub fn toolbar_html(embed: bool) -> &'static str {
    if embed {
        concat!(
            toolbar_buttons!(),
            r#"<button data-act="play" data-testid="play" title="replay the run">▶ Play</button>"#
        )
    } else {
        concat!(
            toolbar_buttons!(),
            r#"<button data-act="collapse" title="hide the cluster rows">Collapse all</button><button data-act="expand" title="show every cluster row">Expand all</button>"#
        )
    }
}

/// The note the toolbar ends with while the plan belongs to an earlier text.
pub const STALE_NOTE: &str = r#"<span class="stale-note" data-testid="stale-note">stale: the text has errors; this is the last plan that could be computed</span>"#;

/// What the cursor's time says while there is no cursor.
pub const NO_CURSOR: &str = no_cursor!();

/// What the selection line says until a bar is chosen.
pub const NO_SELECTION: &str = no_selection!();

/// The playback bar's controls (inside `div.playback`), with no cursor: play, the slider, the typed
/// time and the cursor's time.
pub const PLAYBACK_HTML: &str = concat!(
    r#"<button data-act="play" data-testid="play" title="replay the run">▶ Play</button><input type="range" min="0" max="1000" aria-label="time cursor" value="0"><label class="cursor-at"><span class="visually-hidden">go to a time</span><input data-testid="cursor-input" size="17" placeholder="YYYY-MM-DD HH:MM" title="a time on the clock shown (or RFC 3339 with Z or an offset)" aria-invalid="false"></label><span class="cursor-time" data-testid="cursor-time" data-time="">"#,
    no_cursor!(),
    "</span>"
);

/// The foot (inside `div.chart-foot`): the selected bar's description and the legend, empty until the
/// chart is laid out; an embed's legend starts folded.
pub fn foot_html(embed: bool) -> &'static str {
    if embed {
        concat!(
            selection_start!(),
            r#"><summary>Legend</summary><ul class="legend" aria-label="legend"></ul></details>"#
        )
    } else {
        concat!(
            selection_start!(),
            r#" open><summary>Legend</summary><ul class="legend" aria-label="legend"></ul></details>"#
        )
    }
}
