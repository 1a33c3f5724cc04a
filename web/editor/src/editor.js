// The editor facade the Rust site imports: CodeMirror 6 with WGSL
// highlighting, line numbers, bracket matching, undo, search and lint
// squiggles, behind five small functions. Bundled with esbuild into one ES
// module (dist/editor.bundle.js) because wasm-bindgen imports cannot leave bare
// npm specifiers unresolved.
import { EditorView, basicSetup } from "codemirror";
import { EditorState, Prec, Compartment, StateEffect, StateField, RangeSetBuilder } from "@codemirror/state";
import { keymap, Decoration } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { setDiagnostics as cmSetDiagnostics, lintGutter } from "@codemirror/lint";
import { wgsl } from "@iizukak/codemirror-lang-wgsl";
import { vim } from "@replit/codemirror-vim";

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

/**
 * Creates an editor in `parent` holding `doc`.
 * `onChange(text)` runs after every edit; `onRun()` on Ctrl/Cmd+Enter;
 * `vimOn` starts it with Vim key bindings.
 * Returns the EditorView, an opaque handle for the other functions.
 */
export function createEditor(parent, doc, onChange, onRun, vimOn) {
  const runKey = Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }]));
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        vimMode.of(vimOn ? vim() : []),
        runKey,
        basicSetup,
        keymap.of([indentWithTab]),
        wgsl(),
        lintGutter(),
        activeLines,
        EditorView.contentAttributes.of({ "aria-label": "WGSL shader editor" }),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  // Test hook (documented in tests/e2e): the view on its root element, so
  // browser tests can read the document without scraping rendered lines.
  view.dom.editorView = view;
  return view;
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

/** Turns Vim key bindings on or off. */
export function setVim(view, on) {
  view.dispatch({ effects: vimMode.reconfigure(on ? vim() : []) });
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
