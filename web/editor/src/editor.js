// The editor facade the Rust site imports: CodeMirror 6 with WGSL
// highlighting, line numbers, bracket matching, undo, search and lint
// squiggles, behind a few small functions. Bundled with esbuild into one ES
// module (dist/editor.bundle.js) because wasm-bindgen imports cannot leave bare
// npm specifiers unresolved. The Vim bindings are a second bundle
// (dist/lazy/vim-HASH.js, built by build.mjs), fetched only when a student
// switches them on.
import { EditorState, Prec, Compartment, StateEffect, StateField, RangeSetBuilder } from "@codemirror/state";
import {
  EditorView, keymap, Decoration, lineNumbers, highlightActiveLineGutter, highlightSpecialChars, drawSelection,
  dropCursor, rectangularSelection, crosshairCursor, highlightActiveLine,
} from "@codemirror/view";
import { foldGutter, indentOnInput, syntaxHighlighting, defaultHighlightStyle, HighlightStyle, bracketMatching, foldKeymap } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { history, defaultKeymap, historyKeymap, indentWithTab } from "@codemirror/commands";
import { setDiagnostics as cmSetDiagnostics, lintGutter, lintKeymap } from "@codemirror/lint";
import { wgsl } from "@iizukak/codemirror-lang-wgsl";

// The Vim bundle takes the CodeMirror names it uses from here, not from
// copies of its own: CodeMirror's extensions work only with the module
// instances the editor was made with. "vim-shared" is made by build.mjs:
// exactly those names, by module.
import vimShared from "vim-shared";
globalThis.__gpuPuzzlesCodeMirror = vimShared;

// The Vim bundle's file, relative to the site's root (set by build.mjs).
// Resolved against the page's address, so it works under any sub-path.
const VIM_BUNDLE = __VIM_BUNDLE__;
let vimLoading = null;
function loadVim() {
  vimLoading ??= import(new URL(VIM_BUNDLE, document.baseURI).href).then((m) => m.vim);
  return vimLoading;
}

// Vim key bindings, switched on and off without rebuilding the editor.
const vimMode = new Compartment();

// The debugger's current lines: a line decoration (class cm-debug-line) on
// each, replaced as a whole by setActiveLines.
const setLines = StateEffect.define();
const activeLines = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setLines)) {
        const builder = new RangeSetBuilder();
        const doc = tr.state.doc;
        for (const n of [...e.value].sort((a, b) => a - b)) {
          if (n >= 1 && n <= doc.lines) builder.add(doc.line(n).from, doc.line(n).from, Decoration.line({ class: "cm-debug-line" }));
        }
        deco = builder.finish();
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// The dark theme's token colours: each at least 4.5:1 (WCAG AA) against the
// dark panel (#1d1f24), CodeMirror's dark active line (#364850 as drawn)
// and the debugger's line (#4b422c as drawn), measured with WCAG's formula.
// CodeMirror's default style is for light backgrounds (its purples and
// greens fall to 1.7:1 on the dark panel, axe-core found).
const darkHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.modifier], color: "#dba6ec" },
  { tag: [t.typeName, t.className, t.namespace], color: "#e5c07b" },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: "#8cc8f8" },
  { tag: [t.number, t.bool, t.atom, t.constant(t.variableName)], color: "#e6b48a" },
  { tag: [t.string, t.special(t.string)], color: "#b5d89a" },
  { tag: [t.propertyName, t.attributeName, t.labelName], color: "#f0a0a8" },
  { tag: [t.operator, t.punctuation, t.bracket], color: "#c8ced8" },
  { tag: [t.meta, t.annotation, t.processingInstruction], color: "#7fd0da" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "#aab3c2", fontStyle: "italic" },
  { tag: t.invalid, color: "#e8e8ea", textDecoration: "underline wavy" },
]);

/**
 * True when the page shows its dark theme: chosen (`data-theme="dark"` on
 * the root element, set by the site's Theme menu), or the system's when
 * none is chosen.
 */
function pageIsDark() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen) return chosen === "dark";
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
}

/** CodeMirror's light or dark base theme, with token colours to match. */
function themeFor(dark) {
  return [EditorView.darkTheme.of(dark), syntaxHighlighting(dark ? darkHighlight : defaultHighlightStyle)];
}

/**
 * Creates an editor in `parent` holding `doc`.
 * `onChange(text)` runs after every edit; `onRun()` on Ctrl/Cmd+Enter;
 * `vimOn` starts it with Vim key bindings.
 * Returns the EditorView, an opaque handle for the other functions.
 */
export function createEditor(parent, doc, onChange, onRun, vimOn) {
  const theme = new Compartment();
  const runKey = Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }]));
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        vimMode.of([]),
        runKey,
        // CodeMirror's basicSetup, spelled out, without its autocompletion:
        // the WGSL package offers no completion source, so it only cost
        // about 9 KB gzip of the first visit.
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        foldGutter(),
        drawSelection(),
        dropCursor(),
        EditorState.allowMultipleSelections.of(true),
        indentOnInput(),
        theme.of(themeFor(pageIsDark())),
        bracketMatching(),
        closeBrackets(),
        rectangularSelection(),
        crosshairCursor(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap]),
        keymap.of([indentWithTab]),
        wgsl(),
        lintGutter(),
        activeLines,
        // tabindex: the text is reached by Tab, and axe-core counts the
        // scroller as reachable by keyboard (scrollable-region-focusable).
        EditorView.contentAttributes.of({ "aria-label": "WGSL shader editor", tabindex: "0", "aria-describedby": "editor-keys" }),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  // Test hook (documented in tests/e2e): the view on its root element, so
  // browser tests can read the document without scraping rendered lines.
  view.dom.editorView = view;
  // Follow the page's theme as it changes: the system's, or the student's
  // choice. destroyEditor stops both watchers.
  const follow = () => view.dispatch({ effects: theme.reconfigure(themeFor(pageIsDark())) });
  const media = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  media?.addEventListener("change", follow);
  const chosen = new MutationObserver(follow);
  chosen.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  view.stopFollowingTheme = () => {
    media?.removeEventListener("change", follow);
    chosen.disconnect();
  };
  if (vimOn) setVim(view, true).catch((e) => console.error(e.message));
  return view;
}

/**
 * Ends `view`: removes the listeners and observers it set on the window and
 * the document, and its DOM. Without this, a page that is replaced keeps
 * them, and through them its whole detached tree.
 */
export function destroyEditor(view) {
  view.stopFollowingTheme?.();
  view.destroy();
}

/** The editor's whole text. */
export function getText(view) {
  return view.state.doc.toString();
}

/** Replaces the whole text (an undoable change). */
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/**
 * Shows squiggles. `diagnostics` is an array of
 * { from, to, severity: "error" | "warning" | "info", message } with
 * positions in UTF-16 code units, as CodeMirror counts them.
 */
export function setDiagnostics(view, diagnostics) {
  const len = view.state.doc.length;
  const clamped = diagnostics.map((d) => {
    const from = Math.max(0, Math.min(d.from, len));
    return { ...d, from, to: Math.max(from, Math.min(d.to, len)) };
  });
  view.dispatch(cmSetDiagnostics(view.state, clamped));
}

/** Moves the cursor to a UTF-16 offset, scrolls it into view and focuses. */
export function focusAt(view, offset) {
  const pos = Math.max(0, Math.min(offset, view.state.doc.length));
  view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  view.focus();
}

/**
 * Turns Vim key bindings on or off. The first time on fetches the Vim
 * bundle; the bindings apply once it has loaded, unless they were switched
 * off meanwhile. Returns a promise of whether Vim is on; it rejects with the
 * reason when the bundle could not be fetched.
 */
export function setVim(view, on) {
  view.vimWanted = on;
  if (!on) {
    view.dispatch({ effects: vimMode.reconfigure([]) });
    return Promise.resolve(false);
  }
  return loadVim().then(
    (vim) => {
      if (view.vimWanted) view.dispatch({ effects: vimMode.reconfigure(vim()) });
      return view.vimWanted;
    },
    (e) => {
      vimLoading = null; // try again on the next switch
      throw new Error(`the Vim key bindings could not be loaded (${VIM_BUNDLE}): ${e.message ?? e}`);
    },
  );
}

/**
 * Highlights whole lines (numbers from 1) for the debugger, replacing the
 * previous highlight; an empty array clears it. The first is scrolled into
 * view.
 */
export function setActiveLines(view, lines) {
  const effects = [setLines.of(Array.from(lines))];
  const first = Math.min(...lines);
  if (Number.isFinite(first) && first >= 1 && first <= view.state.doc.lines) {
    effects.push(EditorView.scrollIntoView(view.state.doc.line(first).from, { y: "nearest" }));
  }
  view.dispatch({ effects });
}
