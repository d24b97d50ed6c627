//! The title bar: new scenario, open a file, the examples, undo/redo, share, export and print, and the
//! reader's preferences (time zone, theme). What its menus open, the share panel and the examples'
//! texts are parts of their own, fetched when first pointed at, focused or opened.
//!
//! The bar itself is fixed markup ([`header_html`]) handled by one click, change, pointer and focus
//! listener each on the `<header>` (`data-act`, the select's `data-testid`), with effects setting what
//! changes (Undo and Redo's `disabled`, the zone and theme chosen), instead of a Leptos view per
//! control: the first visit then carries no view code for it. What the menus open and the share panel
//! stay Leptos views, in their own part, mounted into the bar when it arrives.

use std::fmt::Write;
use std::sync::Arc;

use fleetplan::export::xml_escape;
use fleetplan::Plan;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::clock::{self, ClockCtx};
use crate::exports::{self, ExportsKit, Format};
use crate::history::History;
use crate::link::ShareKit;
use crate::on_demand::Part;
use crate::theme::Theme;
use crate::{browser, link, templates};

/// Closes the bar's `<details>` menus once something in one is chosen, as a menu does.
fn close(header: NodeRef<html::Header>) {
    let Some(Ok(open)) = header
        .get_untracked()
        .map(|h| h.query_selector_all("details.menu[open]"))
    else {
        return;
    };
    for i in 0..open.length() {
        if let Some(d) = open
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::HtmlDetailsElement>().ok())
        {
            d.set_open(false);
        }
    }
}

/// The examples' texts, an on-demand part: the menu lists their names and titles
/// (`fleetplan::examples::listed`), and a text comes when one is picked (asked for when the menu is
/// pointed at or focused, so it is nearly always here by then).
#[derive(Clone, Copy)]
struct ExampleTexts {
    text: fn(&str) -> Option<&'static str>,
}

crate::on_demand! {
    fn example_texts() -> ExampleTexts {
        ExampleTexts { text: |name| fleetplan::examples::get(name).map(|e| e.text) }
    }
}

/// What the share panel shows: the link, the iframe snippet, the web-component snippet, a warning.
type Shared = (String, String, String, Option<String>);

/// What the menus open and the share panel, an on-demand part: the title bar shows their buttons, and
/// what is behind them comes when one is first pointed at, focused or opened.
#[derive(Clone, Copy)]
struct Menus {
    new_items: fn(NewArgs) -> AnyView,
    export_items: fn(ExportArgs) -> AnyView,
    share_panel: fn(RwSignal<Option<Shared>>) -> AnyView,
}

#[derive(Clone, Copy)]
struct NewArgs {
    menu: NodeRef<html::Header>,
    replace_text: Callback<String>,
    note: RwSignal<Option<String>>,
}

#[derive(Clone, Copy)]
struct ExportArgs {
    menu: NodeRef<html::Header>,
    plan: Signal<Option<Arc<Plan>>>,
    export: Callback<Format>,
}

crate::on_demand! {
    fn menus() -> Menus {
        Menus { new_items, export_items, share_panel }
    }
}

/// The New menu: each kind's template, and a file to open.
fn new_items(a: NewArgs) -> AnyView {
    let NewArgs {
        menu,
        replace_text,
        note,
    } = a;
    let news = templates::TEMPLATES
        .iter()
        .map(|&(kind, label, _)| {
            view! {
                <button data-testid=format!("new-{kind}") on:click=move |_| {
                    close(menu);
                    if let Some(t) = templates::new_scenario(kind, browser::now()) {
                        replace_text.run(t);
                    }
                }>{label}</button>
            }
        })
        .collect_view();
    let open_file = move |ev: leptos::ev::Event| {
        close(menu);
        browser::read_chosen_file(&ev, move |name, text| match text {
            Ok(t) => replace_text.run(t),
            Err(e) => note.set(Some(format!("{name} could not be read: {e}"))),
        });
    };
    view! {
        {news}
        <label class="file-button">"Open a file…"
            <input type="file" accept=".yaml,.yml,.json,text/yaml,application/json" data-testid="open-file" on:change=open_file />
        </label>
    }
    .into_any()
}

/// The Export menu: each format, and print.
fn export_items(a: ExportArgs) -> AnyView {
    let ExportArgs { menu, plan, export } = a;
    let exports = Format::ALL
        .iter()
        .map(|&f| {
            view! {
                <button
                    data-testid=format!("export-{f:?}").to_lowercase()
                    disabled=move || f.needs_plan() && plan.with(|p| p.is_none())
                    on:click=move |_| export.run(f)
                >
                    {f.label()}
                </button>
            }
        })
        .collect_view();
    view! {
        {exports}
        <button data-testid="print" on:click=move |_| { close(menu); browser::print(); }>"Print (one page)"</button>
    }
    .into_any()
}

/// The share panel: the link, the snippets, a warning when the link is long.
fn share_panel(share: RwSignal<Option<Shared>>) -> AnyView {
    (move || share.get().map(|(url, snippet, component, warning)| view! {
        <div class="share-panel" role="region" aria-label="share">
            <label>"Link (copied to the clipboard) "
                <input readonly data-testid="share-link" prop:value=url.clone() on:focus=|ev| select_all(&ev) />
            </label>
            <label>"Embed in a docs page (iframe) "
                <input readonly data-testid="embed-snippet" prop:value=snippet.clone() on:focus=|ev| select_all(&ev) />
            </label>
            <label>"Or as a web component "
                <input readonly data-testid="component-snippet" prop:value=component.clone() on:focus=|ev| select_all(&ev) />
            </label>
            {warning.map(|w| view! { <p class="warning">{w}</p> })}
            <button on:click=move |_| share.set(None) aria-label="close the share panel">"×"</button>
        </div>
    }))
    .into_any()
}

#[component]
pub fn Header(
    replace_text: impl Fn(String) + Copy + Send + Sync + 'static,
    /// The share codec's part (the workbench fetches it at the first edit; pointing at "Copy link" too).
    sharer: Part<ShareKit>,
    undo: impl Fn() + Copy + Send + Sync + 'static,
    redo: impl Fn() + Copy + Send + Sync + 'static,
    history: RwSignal<History>,
    committed: RwSignal<String>,
    plan: Signal<Option<Arc<Plan>>>,
) -> impl IntoView {
    let root = NodeRef::<html::Header>::new();
    // The share panel: the link, the iframe and web-component snippets, a warning when the link is long.
    let share: RwSignal<Option<Shared>> = RwSignal::new(None);
    let menus_part = Part::<Menus>::new();
    let open_share = move || {
        menus_part.fetch(menus);
        let t = committed.get_untracked();
        let show = move |k: ShareKit| {
            let payload = (k.encode)(&t);
            let base = browser::app_url();
            let url = link::link_to(&base, &payload);
            let snippet = link::iframe_snippet(&link::embed_link_to(&base, &payload));
            let component = link::component_snippet(&base, &url);
            let warning = fleetplan::share::link_warning(&payload);
            browser::copy_to_clipboard(&url);
            share.set(Some((url, snippet, component, warning)));
        };
        sharer.then(link::share_kit, show);
    };
    let note = RwSignal::new(None::<String>);
    let zone = clock::use_zone();
    // The exporters' code is fetched when the menu first opens, so a click finds it there.
    let exporters = Part::<ExportsKit>::new();
    let on_export = move |f: Format| {
        close(root);
        let t = committed.get_untracked();
        let p = plan.get_untracked();
        let zone = zone.get_untracked();
        let run = move |k: ExportsKit| {
            let ok = (k.download)(f, &t, p.as_deref(), &zone);
            note.set(
                (!ok).then(|| format!("{}: nothing to export until the scenario plans", f.label())),
            );
        };
        exporters.then(exports::exports_kit, run);
    };
    let texts = Part::<ExampleTexts>::new();
    let new_args = NewArgs {
        menu: root,
        replace_text: Callback::new(replace_text),
        note,
    };
    let export_args = ExportArgs {
        menu: root,
        plan,
        export: Callback::new(on_export),
    };
    let prefetch = move || menus_part.fetch(menus);
    // What the menus open, mounted into them when their part arrives (once: the part never changes).
    Effect::new(move |_| {
        let Some(k) = menus_part.loaded() else { return };
        let Some(header) = root.get_untracked() else {
            return;
        };
        let slot = |sel: &str| {
            header
                .query_selector(sel)
                .ok()
                .flatten()
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        };
        untrack(|| {
            if let Some(el) = slot("[data-menu=new] .menu-items") {
                leptos::mount::mount_to(el, move || (k.new_items)(new_args)).forget();
            }
            if let Some(el) = slot("[data-menu=export] .menu-items") {
                leptos::mount::mount_to(el, move || (k.export_items)(export_args)).forget();
            }
        });
    });

    // Preferences: the time zone and the theme.
    let ctx = use_context::<ClockCtx>();
    let on_zone = move |v: String| {
        let choice = (v != "browser").then_some(v);
        match &choice {
            Some(z) => {
                browser::storage_set(clock::ZONE_KEY, z);
            }
            None => browser::storage_remove(clock::ZONE_KEY),
        }
        if let Some(c) = ctx {
            c.choice.set(choice);
        }
    };
    let theme = RwSignal::new(Theme::saved());
    let find = move |sel: &str| root.get_untracked()?.query_selector(sel).ok().flatten();
    let select_of =
        move |sel: &str| find(sel).and_then(|el| el.dyn_into::<web_sys::HtmlSelectElement>().ok());
    Effect::new(move |_| {
        let (back, forth) = history.with(|h| (h.can_undo(), h.can_redo()));
        if root.get().is_none() {
            return;
        }
        for (act, can) in [("undo", back), ("redo", forth)] {
            if let Some(b) = find(&format!("[data-act={act}]")) {
                let _ = b.toggle_attribute_with_force("disabled", !can);
            }
        }
    });
    Effect::new(move |_| {
        let z = ctx
            .and_then(|c| c.choice.get())
            .unwrap_or_else(|| "browser".into());
        let t = theme.get();
        if root.get().is_none() {
            return;
        }
        if let Some(s) = select_of("[data-testid=zone]") {
            s.set_value(&z);
        }
        if let Some(s) = select_of("[data-testid=theme]") {
            s.set_value(t.key());
        }
    });

    // The bar's controls, by what the event's target is.
    let target_of = |ev: &web_sys::Event| {
        ev.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(el) = target_of(&ev) else { return };
        if el.closest("summary").ok().flatten().is_some() {
            // A menu opens: what it holds, and the exporters for the Export menu.
            prefetch();
            if el.closest("[data-menu=export]").ok().flatten().is_some() {
                exporters.fetch(exports::exports_kit);
            }
            return;
        }
        let act = el
            .closest("button[data-act]")
            .ok()
            .flatten()
            .and_then(|b| b.get_attribute("data-act"));
        match act.as_deref() {
            Some("undo") => undo(),
            Some("redo") => redo(),
            Some("share") => open_share(),
            _ => {}
        }
    };
    let on_change = move |ev: web_sys::Event| {
        let Some(sel) =
            target_of(&ev).and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        else {
            return;
        };
        let value = sel.value();
        match sel.get_attribute("data-testid").as_deref() {
            Some("examples") => {
                let open = move |k: ExampleTexts| {
                    if let Some(t) = (k.text)(&value) {
                        replace_text(t.to_string());
                    }
                };
                texts.then(example_texts, open);
                // Back to the prompt, so picking the same example again still works.
                sel.set_value("");
            }
            Some("zone") => on_zone(value),
            Some("theme") => {
                let t = Theme::from_key(&value);
                t.apply(true);
                theme.set(t);
            }
            _ => {}
        }
    };
    // Pointing at or focusing a control fetches what it will need: a menu's items, the share codec;
    // the examples' texts only once the list is pressed or focused (`hover` false).
    let prepare = move |el: Option<web_sys::Element>, hover: bool| {
        let Some(el) = el else { return };
        let is = |sel: &str| el.closest(sel).ok().flatten().is_some();
        if is("summary") {
            prefetch();
        } else if is("[data-testid=copy-link]") {
            sharer.fetch(link::share_kit);
        } else if !hover && is("[data-testid=examples]") {
            texts.fetch(example_texts);
        }
    };

    view! {
        <header
            class="top"
            node_ref=root
            inner_html=header_html(&clock::browser_zone(), &clock::zone_names())
            on:click=on_click
            on:change=on_change
            on:pointerover=move |ev| prepare(target_of(&ev), true)
            on:pointerdown=move |ev| prepare(target_of(&ev), false)
            on:focusin=move |ev| prepare(target_of(&ev), false)
        ></header>
        {move || note.get().map(|n| view! { <div class="note" role="status">{n}</div> })}
        {move || menus_part.loaded().map(|k| untrack(|| (k.share_panel)(share)))}
    }
}

/// The bar's markup: the title, the New menu, the examples, undo and redo, Copy link, the Export
/// menu, the time zone (the browser's `browser_zone` first, then `zones`) and the theme. The menus'
/// items come with their part ([`menus`]).
pub fn header_html(browser_zone: &str, zones: &[String]) -> String {
    let mut out = String::with_capacity(8192 + 40 * zones.len());
    out.push_str(r#"<h1>fleetplan</h1><span class="tagline">rollouts across fleets, projected before they run</span><details class="menu" data-menu="new"><summary data-testid="new-menu">New</summary><div class="menu-items"></div></details><label class="examples"><span class="visually-hidden">Examples</span><select data-testid="examples"><option value="" selected>Examples…</option>"#);
    for &(name, title) in fleetplan::examples::listed() {
        let _ = write!(
            out,
            r#"<option value="{n}" title="{t}">{n} — {t}</option>"#,
            n = xml_escape(name),
            t = xml_escape(title)
        );
    }
    out.push_str(r#"</select></label><span class="spacer"></span><button data-act="undo" title="undo (ctrl+z)" disabled>Undo</button><button data-act="redo" title="redo (ctrl+shift+z)" disabled>Redo</button><button class="primary" data-testid="copy-link" data-act="share">Copy link</button><details class="menu export-menu" data-menu="export"><summary>Export</summary><div class="menu-items"></div></details><label class="pref"><span class="visually-hidden">Time zone</span><select data-testid="zone" title="the time zone times are shown in (UTC on hover)">"#);
    let _ = write!(
        out,
        r#"<option value="browser">{} (browser)</option>"#,
        xml_escape(browser_zone)
    );
    for z in zones {
        let z = xml_escape(z);
        let _ = write!(out, r#"<option value="{z}">{z}</option>"#);
    }
    out.push_str(r#"</select></label><label class="pref"><span class="visually-hidden">Theme</span><select data-testid="theme">"#);
    for t in Theme::ALL {
        let _ = write!(out, r#"<option value="{}">{}</option>"#, t.key(), t.label());
    }
    out.push_str("</select></label>");
    out
}

fn select_all(ev: &web_sys::FocusEvent) {
    if let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    {
        input.select();
    }
}
