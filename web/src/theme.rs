//! The theme a student chooses: the system's (`prefers-color-scheme`, the
//! default), light or dark, remembered in this browser and carried by a
//! progress export. A choice sets `data-theme` on the root element, which
//! `web/style.css` and the editor (`web/editor/src/editor.js`, which
//! watches the attribute) follow.

use leptos::prelude::*;

/// Which theme the page shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Theme {
    /// The system's, by `prefers-color-scheme`.
    #[default]
    System,
    /// Light, whatever the system's.
    Light,
    /// Dark, whatever the system's.
    Dark,
}

impl Theme {
    /// Every theme, in the menu's order.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// The stored and exported name: `"system"`, `"light"` or `"dark"`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme named `name`, if it is one.
    pub fn parse(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// What the menu says.
    fn label(self) -> &'static str {
        match self {
            Theme::System => "System",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }
}

/// Shows `theme`: sets (or, for the system's, removes) `data-theme` on the
/// root element.
pub fn apply(theme: Theme) {
    let Some(root) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match theme {
        Theme::System => root.remove_attribute("data-theme"),
        Theme::Light | Theme::Dark => root.set_attribute("data-theme", theme.name()),
    };
}

/// The header's Theme menu: System, Light, Dark; a choice is shown at once
/// and remembered.
#[component]
pub fn ThemeChoice() -> impl IntoView {
    let chosen = RwSignal::new(crate::storage::theme());
    let on_change = move |ev: leptos::ev::Event| {
        if let Some(theme) = Theme::parse(&event_target_value(&ev)) {
            chosen.set(theme);
            crate::storage::set_theme(theme);
            apply(theme);
        }
    };
    view! {
        <label class="theme-choice">
            "Theme"
            <select data-testid="theme-choice" on:change=on_change>
                {Theme::ALL
                    .into_iter()
                    .map(|t| view! { <option value=t.name() selected=move || chosen.get() == t>{t.label()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}
