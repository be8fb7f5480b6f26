// The kata page's editor: CodeMirror 6 with Rust highlighting, Tab indentation, Ctrl/Cmd+Enter
// to submit, and compiler messages as lint markers on the learner's lines. Bundled by
// scripts/build-editor.sh into static/vendor/editor.js; static/app.js uses it when present and
// keeps the plain textarea otherwise.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching, indentUnit,
} from "@codemirror/language";
import { rust } from "@codemirror/lang-rust";
import { setDiagnostics, lintGutter } from "@codemirror/lint";

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px", backgroundColor: "#ffffff" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace', lineHeight: "1.5" },
  ".cm-gutters": { backgroundColor: "#f6f7f9", borderRight: "1px solid #e2e6ec", color: "#8a93a3" },
  ".cm-activeLine": { backgroundColor: "#f3f6ff" },
  ".cm-activeLineGutter": { backgroundColor: "#e8edff" },
});

/** Replaces `textarea` with an editor; returns the interface static/app.js drives. */
function mount(textarea, { onSubmit }) {
  // The editor lives in a shadow root: CodeMirror then styles itself with constructed style
  // sheets instead of a <style> element, which the page's CSP (no inline styles) would block.
  const host = document.createElement("div");
  host.className = "cm-host";
  textarea.parentElement.appendChild(host);
  const shadow = host.attachShadow({ mode: "open" });
  const view = new EditorView({
    root: shadow,
    parent: shadow,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(),
        drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        indentUnit.of("    "), EditorState.tabSize.of(4),
        rust(), lintGutter(), theme,
        keymap.of([
          { key: "Mod-Enter", run: () => { onSubmit(); return true; } },
          indentWithTab, ...defaultKeymap, ...historyKeymap,
        ]),
        // Keep the form's field current, so the page's plain form post still sends the code.
        EditorView.updateListener.of((u) => {
          if (u.docChanged) textarea.value = u.state.doc.toString();
        }),
        EditorView.contentAttributes.of({ "aria-label": "Your solution" }),
      ],
    }),
  });
  textarea.hidden = true;
  return {
    get value() { return view.state.doc.toString(); },
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
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
