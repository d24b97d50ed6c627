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
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::clock::{self, ClockCtx};
use crate::dom::{self, mount_view, Root};
use crate::exports::{self, ExportsKit, Format};
use crate::history::History;
use crate::link::ShareKit;
use crate::on_demand::Part;
use crate::theme::Theme;
use crate::{browser, link, templates};

/// Closes the bar's `<details>` menus once something in one is chosen, as a menu does.
fn close(header: Root<web_sys::HtmlElement>) {
    let Some(Ok(open)) = header
        .get()
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
/// what is behind them comes when one is first pointed at, focused or opened. `mount` mounts them
/// (they are Leptos views, so the renderer comes with this part): the menus' items into the bar, the
/// share panel before the node given.
#[derive(Clone, Copy)]
struct Menus {
    mount: fn(NewArgs, ExportArgs, RwSignal<Option<Shared>>, &web_sys::Node),
}

#[derive(Clone, Copy)]
struct NewArgs {
    menu: Root<web_sys::HtmlElement>,
    replace_text: Callback<String>,
    note: RwSignal<Option<String>>,
}

#[derive(Clone, Copy)]
struct ExportArgs {
    menu: Root<web_sys::HtmlElement>,
    plan: Signal<Option<Arc<Plan>>>,
    export: Callback<Format>,
}

crate::on_demand! {
    fn menus() -> Menus {
        Menus { mount: mount_menus }
    }
}

/// Mounts what the menus open into the bar's `<details>`, and the share panel before `share_at`. They
/// live as long as the bar (the page).
fn mount_menus(
    new_args: NewArgs,
    export_args: ExportArgs,
    share: RwSignal<Option<Shared>>,
    share_at: &web_sys::Node,
) {
    let Some(header) = new_args.menu.get() else {
        return;
    };
    let slot = |sel: &str| header.query_selector(sel).ok().flatten();
    if let Some(el) = slot("[data-menu=new] .menu-items") {
        std::mem::forget(mount_view(&el, None, move || new_items(new_args)));
    }
    if let Some(el) = slot("[data-menu=export] .menu-items") {
        std::mem::forget(mount_view(&el, None, move || export_items(export_args)));
    }
    if let Some(parent) = share_at.parent_element() {
        std::mem::forget(mount_view(&parent, Some(share_at), move || {
            share_panel(share)
        }));
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

/// What the title bar works with. `sharer`: the share codec's part (the workbench fetches it at the
/// first edit; pointing at "Copy link" too).
pub struct HeaderArgs<R, U, D> {
    pub replace_text: R,
    pub sharer: Part<ShareKit>,
    pub undo: U,
    pub redo: D,
    pub history: RwSignal<History>,
    pub committed: RwSignal<String>,
    pub plan: Signal<Option<Arc<Plan>>>,
}

/// The title bar, then the places of its note and of the share panel (empty comments until they
/// show), as one fragment to insert where the bar goes.
pub fn header(
    args: HeaderArgs<
        impl Fn(String) + Copy + Send + Sync + 'static,
        impl Fn() + Copy + Send + Sync + 'static,
        impl Fn() + Copy + Send + Sync + 'static,
    >,
) -> web_sys::DocumentFragment {
    let HeaderArgs {
        replace_text,
        sharer,
        undo,
        redo,
        history,
        committed,
        plan,
    } = args;
    let doc = dom::document().expect("a document");
    let bar = dom::element("header", &[("class", "top")]).expect("a document");
    bar.set_inner_html(&header_html(&clock::browser_zone(), &clock::zone_names()));
    let root = Root::new(bar.clone());
    let note_at = doc.create_comment("");
    let share_at = doc.create_comment("");
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
    // What the menus open and the share panel, mounted when their part arrives (once: the part never
    // changes).
    let at: web_sys::Node = share_at.clone().into();
    dom::once_ready(
        move || menus_part.loaded(),
        move |k| (k.mount)(new_args, export_args, share, &at),
    );
    // The note (a file that could not be read, an export with no plan), where its comment is.
    let note_el =
        dom::element("div", &[("class", "note"), ("role", "status")]).expect("a document");
    let at: web_sys::Node = note_at.clone().into();
    dom::effect(move |_| match note.get() {
        Some(n) => {
            note_el.set_text_content(Some(&n));
            if !note_el.is_connected() {
                if let Some(parent) = at.parent_node() {
                    let _ = parent.insert_before(&note_el, at.next_sibling().as_ref());
                }
            }
        }
        None => note_el.remove(),
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
    let find = move |sel: &str| root.get()?.query_selector(sel).ok().flatten();
    let select_of =
        move |sel: &str| find(sel).and_then(|el| el.dyn_into::<web_sys::HtmlSelectElement>().ok());
    dom::effect(move |_| {
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
    dom::effect(move |_| {
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
    let target_of = dom::target_of;
    let on_click = move |ev: web_sys::Event| {
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

    dom::listen(
        &bar,
        &["click", "change", "pointerover", "pointerdown", "focusin"],
        move |ev| match ev.type_().as_str() {
            "click" => on_click(ev),
            "change" => on_change(ev),
            kind => prepare(target_of(&ev), kind == "pointerover"),
        },
    );
    let fragment = doc.create_document_fragment();
    let _ = fragment.append_child(&bar);
    let _ = fragment.append_child(&note_at);
    let _ = fragment.append_child(&share_at);
    fragment
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
