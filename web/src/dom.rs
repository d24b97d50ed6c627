//! The app's fixed elements built with plain DOM calls, and the few places where an on-demand part
//! mounts a Leptos view of its own.
//!
//! The planner's shell, the chart's section, the summary, the editor's frame, the problem list, the
//! title bar and the workbench's tabs and compare bar are elements made here, whose contents are
//! markup strings and whose changes are effects (signals stay): the first visit (the `app_kit` and
//! `bench_kit` parts) then carries no code of Leptos' renderer (`tachys`). What still is a Leptos view
//! (the form, the comparison, what the menus open, a live status's panel and layer) is mounted by its
//! own part with [`mount_view`], so the renderer comes with those parts.

use std::any::Any;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

pub fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// A new `<tag>` with `attrs` (name, value) set, or `None` without a document.
pub fn element(tag: &str, attrs: &[(&str, &str)]) -> Option<web_sys::HtmlElement> {
    let el = document()?.create_element(tag).ok()?;
    for (name, value) in attrs {
        let _ = el.set_attribute(name, value);
    }
    el.dyn_into().ok()
}

/// Sets attribute `name` of `el` to `value` unless it holds that already: the browser restyles and lays
/// out again on any set, even of the same value (the rows' SVG given its same width and height again
/// cost 1.3 ms of layout per edit at 1,000 clusters).
pub fn set_attribute_changed(el: &web_sys::Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

/// Calls `f` on each of the `kinds` of event on `target`, for as long as the page lives (the elements
/// these listen on live as long as the planner, or are dropped whole with their listener).
pub fn listen(target: &web_sys::EventTarget, kinds: &[&str], f: impl Fn(web_sys::Event) + 'static) {
    let f = Closure::<dyn Fn(web_sys::Event)>::new(f).into_js_value();
    for kind in kinds {
        let _ = target.add_event_listener_with_callback(kind, f.unchecked_ref());
    }
}

/// The element an event happened on.
pub fn target_of(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into().ok())
}

/// The value of `attr` on the nearest element matching `selector` around `el` (itself or an ancestor).
pub fn closest_attr(el: &web_sys::Element, selector: &str, attr: &str) -> Option<String> {
    el.closest(selector).ok()??.get_attribute(attr)
}

/// An element made before it is placed: what Leptos' `NodeRef` was for the views these elements
/// replace, always set; `None` once its owner is gone (never tracked: the element never changes).
pub struct Root<E: Clone + 'static>(StoredValue<E, LocalStorage>);

impl<E: Clone + 'static> Clone for Root<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E: Clone + 'static> Copy for Root<E> {}

impl<E: Clone + 'static> Root<E> {
    pub fn new(el: E) -> Self {
        Self(StoredValue::new_local(el))
    }
    pub fn get(&self) -> Option<E> {
        self.0.try_get_value()
    }
}

/// A Leptos view mounted by [`mount_view`]: dropping it unmounts the view and disposes of its
/// reactive owner.
pub type Mounted = Box<dyn Any>;

/// Mounts the view `f` makes into `parent`, before `before` (at the end without it), under a reactive
/// owner that is a child of the current one (so it sees the planner's contexts). Only on-demand parts
/// call it: it is where Leptos' renderer is reached from.
pub fn mount_view<N: IntoView + 'static>(
    parent: &web_sys::Element,
    before: Option<&web_sys::Node>,
    f: impl FnOnce() -> N,
) -> Mounted {
    use leptos::tachys::view::{Mountable, Render};
    struct Handle<M: Mountable> {
        _owner: Owner,
        mountable: M,
    }
    impl<M: Mountable> Drop for Handle<M> {
        fn drop(&mut self) {
            self.mountable.unmount();
        }
    }
    let owner = Owner::new();
    let mountable = owner.with(move || {
        let mut m = f().into_view().build();
        m.mount(parent, before);
        m
    });
    Box::new(Handle {
        _owner: owner,
        mountable,
    })
}

/// Runs `f` once, the first time `ready` gives something (tracked: an effect follows it until then),
/// under the owner current now: a view `f` mounts lives as long as that owner, not as the effect.
pub fn once_ready<K: 'static>(
    ready: impl Fn() -> Option<K> + 'static,
    f: impl FnOnce(K) + 'static,
) {
    let owner = Owner::current();
    let mut f = Some(f);
    effect(move |_| {
        if f.is_none() {
            return;
        }
        if let Some(k) = ready() {
            if let Some(f) = f.take() {
                let run = move || untrack(move || f(k));
                match &owner {
                    Some(o) => o.with(run),
                    None => run(),
                }
            }
        }
    });
}

/// Runs `f` once its owner's first effects run, and again whenever a signal it read changes, as
/// `Effect::new` does; `f` is told whether this is its first run. The app's effects all go through
/// here: Leptos' `Effect::new` is generic over its closure and compiles, for each, an async task that
/// waits for changes (about 1.2 KB of wasm each), so one instantiation ([`effect_boxed`]) serves them
/// all instead of one per effect.
pub fn effect(f: impl FnMut(bool) + 'static) {
    effect_boxed(Box::new(f));
}

fn effect_boxed(mut f: Box<dyn FnMut(bool)>) {
    Effect::new(move |before: Option<()>| f(before.is_none()));
}
