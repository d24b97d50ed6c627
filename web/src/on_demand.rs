//! Code loaded on demand: the parts of the app a first chart does not draw with, each split into its own
//! wasm chunk that the browser fetches when the part is first needed.
//!
//! [`on_demand!`] declares such a part's entry function. With the `split` feature (the release build,
//! split by scripts/wasm-split-hook.sh) it is a Leptos `#[lazy]` function: its code, and all code only it
//! reaches, leaves the main module. Without the feature (component tests, native builds) it is a plain
//! `async fn`, so the same calls work everywhere. An entry returns a small `Copy` kit of function
//! pointers; [`Part`] fetches it once and keeps it, so after the first load every call is synchronous.

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

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

/// A loaded kit, whatever its part: every [`Part`] keeps its kit in a signal of this one type, so the
/// first visit carries one copy of Leptos' signal code for all of them (a `RwSignal<Option<K>>` per
/// kit type was a copy each).
type Kit = Arc<dyn Any + Send + Sync>;

/// One on-demand part's kit: `None` until its chunk has loaded, then the kit. Reading it in a reactive
/// scope re-runs that scope once the part arrives.
pub struct Part<K: Copy + Send + Sync + 'static> {
    kit: RwSignal<Option<Kit>>,
    asked: StoredValue<bool>,
    kind: PhantomData<fn() -> K>,
}

impl<K: Copy + Send + Sync + 'static> Clone for Part<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: Copy + Send + Sync + 'static> Copy for Part<K> {}

/// The `K` in `kit` (always a `K`: only its own part sets it).
fn kit_of<K: Copy + 'static>(kit: Option<&Kit>) -> Option<K> {
    kit?.downcast_ref::<K>().copied()
}

impl<K: Copy + Send + Sync + 'static> Part<K> {
    pub fn new() -> Self {
        Self {
            kit: RwSignal::new(None),
            asked: StoredValue::new(false),
            kind: PhantomData,
        }
    }

    /// The kit if it is here (tracked), and starts fetching it otherwise.
    pub fn get<F: Future<Output = K> + 'static>(&self, load: impl FnOnce() -> F) -> Option<K> {
        let kit = self.loaded();
        if kit.is_none() {
            self.fetch(load);
        }
        kit
    }

    /// The kit if it is here (tracked), without fetching it.
    pub fn loaded(&self) -> Option<K> {
        self.kit.with(|k| kit_of(k.as_ref()))
    }

    /// The kit if it is here, untracked (for event handlers).
    pub fn now(&self) -> Option<K> {
        self.kit.with_untracked(|k| kit_of(k.as_ref()))
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
        self.start(
            load,
            Some(Box::new(move |k: &Kit| {
                if let Some(k) = kit_of(Some(k)) {
                    f(k);
                }
            })),
        );
    }

    /// Starts fetching the part's chunk unless that has started already.
    pub fn fetch<F: Future<Output = K> + 'static>(&self, load: impl FnOnce() -> F) {
        if self.asked.get_value() {
            return;
        }
        self.start(load, None);
    }

    /// Loads the part's chunk, keeps its kit, then runs `f` with it.
    fn start<F: Future<Output = K> + 'static>(&self, load: impl FnOnce() -> F, f: Option<Then>) {
        self.asked.set_value(true);
        let future = load();
        run(
            self.kit,
            Box::pin(async move { Arc::new(future.await) as Kit }),
            f,
        );
    }
}

/// What runs once a kit has loaded.
type Then = Box<dyn FnOnce(&Kit)>;

/// Waits for `load`, keeps its kit in `kit` and runs `f` with it: one task type for every part, where a
/// task per part and action compiled Leptos' spawning for each.
fn run(kit: RwSignal<Option<Kit>>, load: Pin<Box<dyn Future<Output = Kit>>>, f: Option<Then>) {
    spawn_local(async move {
        let k = load.await;
        kit.try_set(Some(k.clone()));
        if let Some(f) = f {
            f(&k);
        }
    });
}

impl<K: Copy + Send + Sync + 'static> Default for Part<K> {
    fn default() -> Self {
        Self::new()
    }
}
