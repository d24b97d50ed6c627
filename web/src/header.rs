//! The title bar: new scenario, open a file, the examples, undo/redo, share, export and print, and the
//! reader's preferences (time zone, theme). What its menus open, the share panel and the examples'
//! texts are parts of their own, fetched when first pointed at, focused or opened.

use std::sync::Arc;

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

/// Closes a `<details>` menu once something in it is chosen, as a menu does.
fn close(menu: NodeRef<html::Details>) {
    if let Some(d) = menu.get_untracked() {
        d.set_open(false);
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
    menu: NodeRef<html::Details>,
    replace_text: Callback<String>,
    note: RwSignal<Option<String>>,
}

#[derive(Clone, Copy)]
struct ExportArgs {
    menu: NodeRef<html::Details>,
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
    // The share panel: the link, the iframe and web-component snippets, a warning when the link is long.
    let share: RwSignal<Option<Shared>> = RwSignal::new(None);
    let menus_part = Part::<Menus>::new();
    let open_share = move |_| {
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
    let export_menu = NodeRef::<html::Details>::new();
    let new_menu = NodeRef::<html::Details>::new();
    let zone = clock::use_zone();
    // The exporters' code is fetched when the menu first opens, so a click finds it there.
    let exporters = Part::<ExportsKit>::new();
    let on_export = move |f: Format| {
        close(export_menu);
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
    let examples = fleetplan::examples::listed()
        .iter()
        .map(|&(name, title)| view! { <option value=name title=title>{format!("{name} — {title}")}</option> })
        .collect_view();
    let texts = Part::<ExampleTexts>::new();
    let new_args = NewArgs {
        menu: new_menu,
        replace_text: Callback::new(replace_text),
        note,
    };
    let export_args = ExportArgs {
        menu: export_menu,
        plan,
        export: Callback::new(on_export),
    };
    let prefetch = move || menus_part.fetch(menus);

    // Preferences: the time zone and the theme.
    let ctx = use_context::<ClockCtx>();
    let browser_zone = clock::browser_zone();
    let zones = clock::zone_names()
        .into_iter()
        .map(|z| view! { <option value=z.clone()>{z.clone()}</option> })
        .collect_view();
    let zone_value = move || {
        ctx.and_then(|c| c.choice.get())
            .unwrap_or_else(|| "browser".into())
    };
    let on_zone = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
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
    let themes = Theme::ALL
        .iter()
        .map(|t| view! { <option value=t.key()>{t.label()}</option> })
        .collect_view();

    view! {
        <header class="top">
            <h1>"fleetplan"</h1>
            <span class="tagline">"rollouts across fleets, projected before they run"</span>
            <details class="menu" node_ref=new_menu on:toggle=move |_| prefetch()>
                <summary data-testid="new-menu" on:pointerenter=move |_| prefetch() on:focus=move |_| prefetch()>"New"</summary>
                <div class="menu-items">
                    {move || menus_part.loaded().map(|k| untrack(|| (k.new_items)(new_args)))}
                </div>
            </details>
            <label class="examples">
                <span class="visually-hidden">"Examples"</span>
                <select
                    data-testid="examples"
                    on:pointerdown=move |_| texts.fetch(example_texts)
                    on:focus=move |_| texts.fetch(example_texts)
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        let open = move |k: ExampleTexts| {
                            if let Some(t) = (k.text)(&name) {
                                replace_text(t.to_string());
                            }
                        };
                        texts.then(example_texts, open);
                        // Back to the prompt, so picking the same example again still works.
                        if let Some(sel) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) {
                            sel.set_value("");
                        }
                    }
                >
                    <option value="" selected>"Examples…"</option>
                    {examples}
                </select>
            </label>
            <span class="spacer"></span>
            <button on:click=move |_| undo() disabled=move || history.with(|h| !h.can_undo()) title="undo (ctrl+z)">"Undo"</button>
            <button on:click=move |_| redo() disabled=move || history.with(|h| !h.can_redo()) title="redo (ctrl+shift+z)">"Redo"</button>
            <button class="primary" data-testid="copy-link" on:pointerenter=move |_| sharer.fetch(link::share_kit) on:focus=move |_| sharer.fetch(link::share_kit) on:click=open_share>"Copy link"</button>
            <details class="menu export-menu" node_ref=export_menu on:toggle=move |_| {
                prefetch();
                exporters.fetch(exports::exports_kit);
            }>
                <summary on:pointerenter=move |_| prefetch() on:focus=move |_| prefetch()>"Export"</summary>
                <div class="menu-items">
                    {move || menus_part.loaded().map(|k| untrack(|| (k.export_items)(export_args)))}
                </div>
            </details>
            <label class="pref">
                <span class="visually-hidden">"Time zone"</span>
                <select data-testid="zone" title="the time zone times are shown in (UTC on hover)" prop:value=zone_value on:change=on_zone>
                    <option value="browser">{format!("{browser_zone} (browser)")}</option>
                    {zones}
                </select>
            </label>
            <label class="pref">
                <span class="visually-hidden">"Theme"</span>
                <select data-testid="theme" prop:value=move || theme.get().key() on:change=move |ev| {
                    let t = Theme::from_key(&event_target_value(&ev));
                    t.apply(true);
                    theme.set(t);
                }>{themes}</select>
            </label>
        </header>
        {move || note.get().map(|n| view! { <div class="note" role="status">{n}</div> })}
        {move || menus_part.loaded().map(|k| untrack(|| (k.share_panel)(share)))}
    }
}

fn select_all(ev: &web_sys::FocusEvent) {
    if let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    {
        input.select();
    }
}
