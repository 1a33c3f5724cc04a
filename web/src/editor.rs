//! The CodeMirror 6 editor (web/editor/src/editor.js, bundled by esbuild),
//! seen from Rust: one editor at a time, held with its callbacks.

use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/editor/dist/editor.bundle.js")]
extern "C" {
    #[wasm_bindgen(js_name = createEditor)]
    fn create_editor(
        parent: &web_sys::HtmlElement,
        doc: &str,
        on_change: &Closure<dyn FnMut(String)>,
        on_run: &Closure<dyn FnMut()>,
        vim: bool,
    ) -> JsValue;
    #[wasm_bindgen(js_name = destroyEditor)]
    fn destroy_editor(view: &JsValue);
    #[wasm_bindgen(js_name = setVim)]
    fn set_vim(view: &JsValue, on: bool) -> js_sys::Promise;
    #[wasm_bindgen(js_name = getText)]
    fn get_text(view: &JsValue) -> String;
    #[wasm_bindgen(js_name = setText)]
    fn set_text(view: &JsValue, text: &str);
    #[wasm_bindgen(js_name = setDiagnostics)]
    fn set_diagnostics(view: &JsValue, diagnostics: &JsValue);
    #[wasm_bindgen(js_name = setActiveLines)]
    fn set_active_lines(view: &JsValue, lines: &[u32]);
    #[wasm_bindgen(js_name = focusAt)]
    fn focus_at(view: &JsValue, offset: u32);
}

struct Held {
    /// Which [`mount`] made it, so that a page's [`unmount`] ends only its own.
    token: u32,
    view: JsValue,
    _on_change: Closure<dyn FnMut(String)>,
    _on_run: Closure<dyn FnMut()>,
}

thread_local! {
    static EDITOR: RefCell<Option<Held>> = const { RefCell::new(None) };
    static MOUNTS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Which editor a page mounted: [`mount`] returns it, [`unmount`] takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mounted(u32);

/// Creates the editor in `parent` with `text`, ending any earlier one.
/// `on_change` gets the whole text after each edit; `on_run` runs on
/// Ctrl/Cmd+Enter; `vim` starts it with Vim key bindings. The page calls
/// [`unmount`] with the returned token when it goes.
pub fn mount(
    parent: &web_sys::HtmlElement,
    text: &str,
    on_change: impl FnMut(String) + 'static,
    on_run: impl FnMut() + 'static,
    vim: bool,
) -> Mounted {
    end(None);
    let on_change = Closure::<dyn FnMut(String)>::new(on_change);
    let on_run = Closure::<dyn FnMut()>::new(on_run);
    // One editor per host, even if the page is rebuilt in place.
    parent.set_inner_html("");
    let view = create_editor(parent, text, &on_change, &on_run, vim);
    let token = MOUNTS.with(|m| {
        m.set(m.get().wrapping_add(1));
        m.get()
    });
    EDITOR.with(|e| {
        *e.borrow_mut() = Some(Held { token, view, _on_change: on_change, _on_run: on_run });
    });
    Mounted(token)
}

/// Ends the editor `mounted` made, if it is still the current one (the next
/// page may have mounted its own first): CodeMirror's listeners on the
/// window and the document go with it. Without this every puzzle left kept
/// its whole page alive, some 3,500 DOM nodes (the workshop soak,
/// `tests/e2e/bench-soak.mjs`).
pub fn unmount(mounted: Mounted) {
    end(Some(mounted));
}

/// Destroys the current editor: any, or only `only`'s.
fn end(only: Option<Mounted>) {
    let held = EDITOR.with(|e| {
        let mut e = e.borrow_mut();
        if only.is_none_or(|m| e.as_ref().is_some_and(|h| h.token == m.0)) {
            e.take()
        } else {
            None
        }
    });
    if let Some(h) = held {
        destroy_editor(&h.view);
    }
}

/// Calls `f` with the current editor's view, if an editor exists.
fn with_view<T>(f: impl FnOnce(&JsValue) -> T) -> Option<T> {
    EDITOR.with(|e| e.borrow().as_ref().map(|h| f(&h.view)))
}

/// The editor's text, if an editor exists.
pub fn text() -> Option<String> {
    with_view(get_text)
}

/// Turns Vim key bindings on or off. The first time on fetches them (a
/// second bundle); `failed` gets the reason when that fetch fails.
pub fn vim(on: bool, failed: impl FnOnce(String) + 'static) {
    let Some(done) = with_view(|v| set_vim(v, on)) else { return };
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = wasm_bindgen_futures::JsFuture::from(done).await {
            failed(
                e.dyn_ref::<js_sys::Error>()
                    .map_or_else(|| format!("{e:?}"), |e| e.message().into()),
            );
        }
    });
}

/// Replaces the editor's text (undoable).
pub fn replace_text(text: &str) {
    with_view(|v| set_text(v, text));
}

/// A squiggle: byte offsets into `source`, converted here to the UTF-16
/// offsets CodeMirror counts in.
pub struct Squiggle<'a> {
    /// Byte offset of the start.
    pub offset: usize,
    /// Length in bytes (at least 1 is shown).
    pub length: usize,
    /// `"error"`, `"warning"` or `"info"`.
    pub severity: &'a str,
    /// Message shown on hover.
    pub message: &'a str,
}

/// Shows `squiggles` for `source` (the text they were computed from).
pub fn show_diagnostics(source: &str, squiggles: &[Squiggle]) {
    let array = js_sys::Array::new();
    for s in squiggles {
        let obj = js_sys::Object::new();
        let from = utf16_offset(source, s.offset);
        let to = utf16_offset(source, s.offset + s.length.max(1)).max(from + 1);
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&obj, &k.into(), &v);
        };
        set("from", from.into());
        set("to", to.into());
        set("severity", s.severity.into());
        set("message", s.message.into());
        array.push(&obj);
    }
    with_view(|v| set_diagnostics(v, &array));
}

/// Moves the cursor to byte `offset` of `source` and focuses the editor.
pub fn go_to(source: &str, offset: usize) {
    with_view(|v| focus_at(v, utf16_offset(source, offset)));
}

/// UTF-16 code units before byte `offset` of `text` (clamped to the text).
pub fn utf16_offset(text: &str, offset: usize) -> u32 {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].encode_utf16().count() as u32
}

/// Highlights the debugger's current lines (from 1), replacing the last
/// highlight; an empty slice clears it.
pub fn highlight_lines(lines: &[usize]) {
    let lines: Vec<u32> = lines.iter().map(|&l| l as u32).collect();
    with_view(|v| set_active_lines(v, &lines));
}
