//! Code loaded on demand: the parts of the app a first chart does not draw with, each split into its own
//! wasm chunk that the browser fetches when the part is first needed.
//!
//! [`on_demand!`] declares such a part's entry function. With the `split` feature (the release build,
//! split by scripts/wasm-split-hook.sh) it is a Leptos `#[lazy]` function: its code, and all code only it
//! reaches, leaves the main module. Without the feature (component tests, native builds) it is a plain
//! `async fn`, so the same calls work everywhere. An entry returns a small `Copy` kit of function
//! pointers; [`Part`] fetches it once and keeps it, so after the first load every call is synchronous.

use std::future::Future;

use leptos::prelude::*;
use leptos::task::spawn_local;

/// Declares `fn name(args) -> T` as the entry of an on-demand part; callers `.await` it.
#[macro_export]
macro_rules! on_demand {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(feature = "split")]
        $(#[$meta])*
        #[leptos::lazy]
        $vis fn $name($($arg: $ty),*) -> $ret $body

        #[cfg(not(feature = "split"))]
        $(#[$meta])*
        $vis async fn $name($($arg: $ty),*) -> $ret $body
    };
}

/// One on-demand part's kit: `None` until its chunk has loaded, then the kit. Reading it in a reactive
/// scope re-runs that scope once the part arrives.
pub struct Part<K: Copy + Send + Sync + 'static> {
    kit: RwSignal<Option<K>>,
    asked: StoredValue<bool>,
}

impl<K: Copy + Send + Sync + 'static> Clone for Part<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: Copy + Send + Sync + 'static> Copy for Part<K> {}

impl<K: Copy + Send + Sync + 'static> Part<K> {
    pub fn new() -> Self {
        Self {
            kit: RwSignal::new(None),
            asked: StoredValue::new(false),
        }
    }

    /// The kit if it is here (tracked), and starts fetching it otherwise.
    pub fn get<F: Future<Output = K> + 'static>(&self, load: impl FnOnce() -> F) -> Option<K> {
        let kit = self.kit.get();
        if kit.is_none() {
            self.fetch(load);
        }
        kit
    }

    /// The kit if it is here (tracked), without fetching it.
    pub fn loaded(&self) -> Option<K> {
        self.kit.get()
    }

    /// The kit if it is here, untracked (for event handlers).
    pub fn now(&self) -> Option<K> {
        self.kit.get_untracked()
    }

    /// Runs `f` with the kit: at once when it is here, else once its chunk has loaded (an event's
    /// action that needs the part; such actions keep their order, each waiting on the same load).
    pub fn then<F: Future<Output = K> + 'static>(
        &self,
        load: impl FnOnce() -> F,
        f: impl FnOnce(K) + 'static,
    ) {
        if let Some(k) = self.now() {
            return f(k);
        }
        self.start(load, f);
    }

    /// Starts fetching the part's chunk unless that has started already.
    pub fn fetch<F: Future<Output = K> + 'static>(&self, load: impl FnOnce() -> F) {
        if self.asked.get_value() {
            return;
        }
        self.start(load, |_| {});
    }

    /// Loads the part's chunk, keeps its kit, then runs `f` with it.
    fn start<F: Future<Output = K> + 'static>(
        &self,
        load: impl FnOnce() -> F,
        f: impl FnOnce(K) + 'static,
    ) {
        self.asked.set_value(true);
        let kit = self.kit;
        let future = load();
        spawn_local(async move {
            let k = future.await;
            kit.try_set(Some(k));
            f(k);
        });
    }
}

impl<K: Copy + Send + Sync + 'static> Default for Part<K> {
    fn default() -> Self {
        Self::new()
    }
}
