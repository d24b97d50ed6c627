//! Light or dark: the system's choice by default, or the one picked in the header, kept in
//! localStorage. The page's stylesheet does the rest (`data-theme` on the root element).

use crate::browser;

/// localStorage key of the picked theme (absent: follow the system).
pub const THEME_KEY: &str = "fleetplan.theme.v1";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    pub fn key(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Theme: system",
            Theme::Light => "Theme: light",
            Theme::Dark => "Theme: dark",
        }
    }

    pub fn from_key(k: &str) -> Theme {
        Theme::ALL
            .into_iter()
            .find(|t| t.key() == k)
            .unwrap_or(Theme::System)
    }

    /// The saved choice.
    pub fn saved() -> Theme {
        browser::storage_get(THEME_KEY).map_or(Theme::System, |k| Theme::from_key(&k))
    }

    /// Applies the theme to the page and remembers it.
    pub fn apply(self, persist: bool) {
        browser::set_root_attribute(
            "data-theme",
            match self {
                Theme::System => None,
                t => Some(t.key()),
            },
        );
        if persist {
            browser::storage_set(THEME_KEY, self.key());
        }
    }
}
