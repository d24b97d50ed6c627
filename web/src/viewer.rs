//! The viewer that loads first: the read-only chart of the page's scenario, drawn with plain DOM calls
//! (markup written here, one `innerHTML` per part), no Leptos.
//!
//! A share link, an embedded chart and the app's first chart all start here ([`crate::start`],
//! [`crate::api`]): the core reads, plans and lays out the scenario (`analysis`, `gantt`), and this
//! module writes the same elements, classes and texts the Leptos summary writes (summary.rs) and
//! draws the chart with the interactive chart's own writer (chart_markup.rs), so the interactive app
//! that replaces it a moment later ([`crate::app_kit`], loaded on demand) changes nothing the reader
//! sees. Nothing here may reach Leptos: wasm-split keeps in the
//! main module only what the code reachable from the entry points needs, and the viewer is that code.
//! A text the main module cannot draw alone (a pasted run status, a kind whose planner is a chunk of
//! its own) is left to the app: [`draw`] then says so and draws nothing.

use std::fmt::Write;

use fleetplan::export::xml_escape;
use fleetplan::gantt::{self, View};
use fleetplan::parts::Parts;
use fleetplan::time::{Time, DAY};
use fleetplan::zone::Zone;
use fleetplan::Plan;
use wasm_bindgen::JsCast;

use crate::analysis::{self, Analysis};
use crate::chart_markup::{self as markup, num};
use crate::{browser, summary};

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
            None => summary::stale_note_html(&mut html, &a),
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

/// Embed mode's caption (summary.rs `embed_caption`).
fn embed_caption(out: &mut String, p: &Plan, payload: Option<&str>, zone: &Zone) {
    let app = browser::app_url();
    let open = match payload {
        Some(payload) => format!("{app}#s={payload}"),
        None => app,
    };
    out.push_str(r#"<p class="embed-caption">"#);
    summary::embed_caption_html(out, p, &open, zone);
    out.push_str("</p>");
}

/// The app's summary (summary.rs `summary`) of a first analysis (never stale: nothing came before).
fn summary_html(out: &mut String, a: &Analysis, replan_ms: f64, zone: &Zone) {
    let _ = write!(
        out,
        r#"<div class="{}" data-testid="summary" data-replan-ms="{replan_ms:.1}">"#,
        summary::summary_class(a)
    );
    summary::summary_html(out, a, zone);
    out.push_str("</div>");
}

/// The chart's frame (chart.rs `gantt_chart`, whose `chart_markup::frame_html` it is): toolbar, empty
/// axis and rows, foot. The buttons do nothing until the app takes over.
fn chart_skeleton(out: &mut String, has_plan: bool, embed: bool) {
    let _ = write!(
        out,
        r#"<section class="chart{}" data-testid="chart" aria-label="rollout chart">"#,
        if embed { " embed" } else { "" },
    );
    markup::frame_html(out, has_plan, embed);
    out.push_str("</section>");
}

/// Lays the plan out for the measured width and writes the axis, the rows in view, the availability
/// strip and the legend (with `chart_markup`, as the interactive chart does).
fn fill_chart(root: &web_sys::Element, p: &Plan, zone: &Zone) {
    let find = |sel: &str| root.query_selector(sel).ok().flatten();
    let (Some(body), Some(axis), Some(rows)) =
        (find(".chart-body"), find("svg.axis"), find("svg.rows"))
    else {
        return;
    };
    // As chart.rs measures: the label column by the body's width, the time area the rest.
    let inner = f64::from(body.client_width());
    let lw = markup::label_width_for(inner);
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
    axis.set_inner_html(&markup::axis_html(&c, lw));
    let viewport = body
        .dyn_ref::<web_sys::HtmlElement>()
        .map_or(600.0, markup::viewport_height);
    let shown = gantt::visible_rows(&c, 0.0, viewport);
    rows.set_inner_html(&markup::rows_html(p, &c, lw, shown, zone));
    if let (Some(svg), Some(slot)) = (
        markup::availability_html(p, &view, lw, total),
        find(".avail-box"),
    ) {
        slot.set_inner_html(&svg);
    }
    if let Some(legend) = find("ul.legend") {
        legend.set_inner_html(&markup::legend_html(&c));
    }
}
