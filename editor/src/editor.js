// The kata page's editor: CodeMirror 6 with Rust highlighting, auto-indent, bracket closing,
// undo, search, Tab indentation (Escape hands keyboard focus back to the page), the run and
// submit shortcuts, and compiler messages as lint markers on the learner's lines. Bundled by
// scripts/build-editor.sh into static/vendor/editor.js (committed); static/app.js uses it when
// present and keeps the plain textarea otherwise.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, rectangularSelection, crosshairCursor,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  syntaxHighlighting, HighlightStyle, indentOnInput, bracketMatching, indentUnit, foldGutter,
  foldKeymap,
} from "@codemirror/language";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { search, searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { tags as t } from "@lezer/highlight";
import { rust } from "@codemirror/lang-rust";
import { setDiagnostics, lintGutter } from "@codemirror/lint";

// Colours come from the page's CSS variables (they reach into the shadow root), so the editor
// follows the light and dark themes without a second theme here.
const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px", backgroundColor: "var(--cm-bg)", color: "var(--cm-ink)" },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace', lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--cm-ink)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--cm-ink)" },
  ".cm-gutters": { backgroundColor: "var(--cm-gutter-bg)", borderRight: "1px solid var(--line)", color: "var(--cm-gutter-ink)" },
  ".cm-activeLine": { backgroundColor: "var(--cm-active)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--cm-active-gutter)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--cm-selection)" },
  ".cm-panels": { backgroundColor: "var(--cm-gutter-bg)", color: "var(--cm-ink)" },
  ".cm-panels input, .cm-panels button": { color: "var(--cm-ink)" },
  ".cm-tooltip": { backgroundColor: "var(--surface)", color: "var(--ink)", border: "1px solid var(--line)" },
  ".cm-searchMatch": { backgroundColor: "var(--cm-match)" },
  ".cm-matchingBracket": { backgroundColor: "var(--cm-bracket) !important" },
});

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.definitionKeyword, t.modifier, t.self], color: "var(--hl-keyword)" },
  { tag: [t.typeName, t.className, t.namespace], color: "var(--hl-type)" },
  { tag: [t.string, t.character, t.special(t.string)], color: "var(--hl-string)" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "var(--hl-number)" },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: "var(--hl-comment)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: "var(--hl-function)" },
  { tag: [t.attributeName, t.meta, t.processingInstruction], color: "var(--hl-meta)" },
  { tag: [t.operator, t.punctuation, t.bracket], color: "var(--hl-punct)" },
  { tag: t.invalid, color: "var(--bad)" },
]);

/**
 * Replaces `textarea` with an editor; returns the interface static/app.js drives.
 * `onRun`/`onSubmit`: the shortcuts; `onChange(text)`: after each edit; `onEscape`: the editor
 * gave up keyboard focus.
 */
function mount(textarea, { onRun, onSubmit, onChange, onEscape }) {
  // The editor lives in a shadow root: CodeMirror then styles itself with constructed style
  // sheets instead of a <style> element, which the page's CSP (no inline styles) would block.
  const host = document.createElement("div");
  host.className = "cm-host";
  textarea.parentElement.appendChild(host);
  const shadow = host.attachShadow({ mode: "open" });
  const call = (f) => () => { if (f) f(); return true; };
  const view = new EditorView({
    root: shadow,
    parent: shadow,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(), foldGutter(), highlightActiveLineGutter(), highlightSpecialChars(), history(),
        drawSelection(), indentOnInput(), bracketMatching(), closeBrackets(), highlightActiveLine(),
        highlightSelectionMatches(), rectangularSelection(), crosshairCursor(),
        search({ top: true }),
        syntaxHighlighting(highlight),
        indentUnit.of("    "), EditorState.tabSize.of(4),
        // Long lines wrap: a phone shows the whole line, and nobody scrolls sideways.
        EditorView.lineWrapping,
        rust(), lintGutter(), theme,
        keymap.of([
          { key: "Mod-Enter", run: call(onSubmit) },
          { key: "Mod-'", run: call(onRun) },
          ...closeBracketsKeymap, ...searchKeymap, ...foldKeymap,
          indentWithTab, ...defaultKeymap, ...historyKeymap,
          // Last, so an open search panel or tooltip takes Escape first. Tab indents while the
          // editor has focus; Escape lets keyboard users leave it.
          { key: "Escape", run: () => { view.contentDOM.blur(); if (onEscape) onEscape(); return true; } },
        ]),
        // Keep the form's field current, so the page's plain form post still sends the code.
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          textarea.value = u.state.doc.toString();
          if (onChange) onChange(textarea.value);
        }),
        // The textarea's label is in the page's language (English or 中文); keep it.
        EditorView.contentAttributes.of({
          "aria-label": textarea.getAttribute("aria-label") || "Your solution",
          "aria-multiline": "true", tabindex: "0",
        }),
      ],
    }),
  });
  textarea.hidden = true;
  return {
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    focus() { view.focus(); },
    get content() { return view.contentDOM; },
    focusLine(n) {
      const line = view.state.doc.line(Math.min(Math.max(1, n), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
      view.focus();
    },
    /** `marks`: Map line → {level, message}. */
    mark(marks) {
      const doc = view.state.doc;
      const diagnostics = [];
      for (const [n, m] of marks) {
        if (n < 1 || n > doc.lines) continue;
        const line = doc.line(n);
        diagnostics.push({
          from: line.from, to: Math.max(line.from, line.to),
          severity: m.level === "error" ? "error" : "warning", message: m.message,
        });
      }
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
  };
}

window.InfraKataEditor = { mount };
