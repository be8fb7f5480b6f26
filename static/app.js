// InfraKata pages: the editor's keys and line gutter, hints one at a time, and live results.
// Plain JavaScript, no inline scripts (the CSP forbids them). Every page works without it:
// forms post normally and the submission page shows the verdict on reload.
"use strict";

(function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const STEPS = ["queued", "compiling", "running", "measuring", "done"];

  // ---- Editor: a textarea with a line-number gutter, Tab indents, Ctrl/Cmd+Enter submits.
  function setupEditor(form) {
    const area = form.querySelector("textarea");
    const gutter = form.querySelector(".gutter");
    const submitButton = form.querySelector('button[value="submit"]');
    // CodeMirror, when the bundle (static/vendor/editor.js, built by scripts/build-editor.sh)
    // was compiled in; the textarea below otherwise.
    if (window.InfraKataEditor) {
      if (gutter) gutter.remove();
      form.classList.add("has-codemirror");
      return window.InfraKataEditor.mount(area, {
        onSubmit: () => { if (submitButton) form.requestSubmit(submitButton); },
      });
    }
    let marks = new Map();
    const editor = {
      get value() { return area.value; },
      set value(text) { area.value = text; renderGutter(); },
      focusLine(line) {
        const lines = area.value.split("\n");
        let start = 0;
        for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
        const end = start + (lines[line - 1] || "").length;
        area.focus();
        area.setSelectionRange(start, end);
        const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
        area.scrollTop = Math.max(0, (line - 4) * lineHeight);
      },
      mark(newMarks) { marks = newMarks; renderGutter(); },
    };
    function renderGutter() {
      if (!gutter) return;
      const count = area.value.split("\n").length;
      const frag = document.createDocumentFragment();
      for (let i = 1; i <= count; i++) {
        const span = document.createElement("span");
        span.textContent = String(i);
        if (marks.has(i)) {
          const m = marks.get(i);
          span.className = m.level === "error" ? "err" : "warn";
          span.title = m.message;
        }
        frag.appendChild(span);
      }
      gutter.replaceChildren(frag);
      gutter.scrollTop = area.scrollTop;
    }
    area.addEventListener("input", () => { if (marks.size) marks = new Map(); renderGutter(); });
    area.addEventListener("scroll", () => { if (gutter) gutter.scrollTop = area.scrollTop; });
    area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        if (submitButton) form.requestSubmit(submitButton);
      } else if (e.key === "Tab" && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        const { selectionStart: s, selectionEnd: t, value } = area;
        if (e.shiftKey) {
          const lineStart = value.lastIndexOf("\n", s - 1) + 1;
          const strip = value.slice(lineStart, lineStart + 4).match(/^ */)[0].length;
          if (strip) {
            area.setRangeText("", lineStart, lineStart + strip, "preserve");
            area.setSelectionRange(Math.max(lineStart, s - strip), Math.max(lineStart, t - strip));
          }
        } else {
          area.setRangeText("    ", s, t, "end");
        }
        renderGutter();
      }
    });
    renderGutter();
    return editor;
  }

  // ---- Live result: state events move the steps; the verdict loads the server-rendered report.
  function showSteps(panel, view) {
    const state = view.state;
    panel.dataset.state = state;
    const at = STEPS.indexOf(state);
    panel.querySelectorAll(".steps li").forEach((li) => {
      const i = STEPS.indexOf(li.dataset.step);
      li.classList.toggle("done", i < at);
      li.classList.toggle("current", i === at);
      li.classList.toggle("skipped", li.dataset.step === "measuring" && state !== "measuring");
    });
    const pos = panel.querySelector(".pos");
    if (pos) {
      const n = view.queue_position;
      pos.textContent = state === "queued" && n != null ? ` · ${n === 0 ? "next in line" : n + " ahead of you"}` : "";
    }
    const wait = panel.querySelector(".wait");
    if (wait) {
      // "gpu worker" → "waiting for a GPU worker" (no worker that can grade it is connected).
      const w = view.waiting_for;
      wait.textContent = state === "queued" && w ? ` · waiting for a ${w.replace(/^\w+/, (k) => k.toUpperCase())}` : "";
    }
  }

  async function loadPanel(result, id) {
    const resp = await fetch(`/submissions/${id}/report`, { credentials: "same-origin" });
    if (!resp.ok) throw new Error(`loading the result failed (${resp.status})`);
    result.innerHTML = await resp.text(); // server-rendered and escaped by the template engine
    return result.querySelector(".panel");
  }

  function afterVerdict(result, editor) {
    if (!editor) return;
    const marks = new Map();
    result.querySelectorAll(".diag[data-line]").forEach((d) => {
      const line = Number(d.dataset.line);
      const level = d.classList.contains("error") ? "error" : "warning";
      const message = d.querySelector(".diag-head span:last-child").textContent;
      if (line > 0 && (!marks.has(line) || level === "error")) marks.set(line, { level, message });
    });
    editor.mark(marks);
  }

  function watch(result, id, editor) {
    const panel = result.querySelector(".panel");
    if (panel) showSteps(panel, { state: panel.dataset.state });
    const events = new EventSource(`/api/submissions/${id}/events`);
    let finished = false;
    // The verdict may come before the performance figure (state "measuring"): show it at
    // once and keep listening until the submission is done.
    let marked = false;
    const verdict = async (e) => {
      if (finished) return;
      const done = JSON.parse(e.data).state === "done";
      if (done) { finished = true; events.close(); }
      try { await loadPanel(result, id); } catch (err) { showError(result, err.message); }
      if (!marked) { marked = true; afterVerdict(result, editor); }
    };
    events.addEventListener("state", (e) => {
      const p = result.querySelector(".panel");
      if (p) showSteps(p, JSON.parse(e.data));
    });
    events.addEventListener("verdict", verdict);
    events.onerror = () => {
      // The stream ended or broke: ask the server once more for where things stand.
      if (finished) return;
      events.close();
      setTimeout(async () => {
        try {
          const p = await loadPanel(result, id);
          if (p && p.dataset.state !== "done") watch(result, id, editor);
          else afterVerdict(result, editor);
        } catch (e) { showError(result, e.message); }
      }, 1000);
    };
  }

  function showError(result, message) {
    const box = document.createElement("div");
    box.className = "panel";
    const p = document.createElement("p");
    p.className = "alert";
    p.textContent = message;
    box.appendChild(p);
    result.replaceChildren(box);
  }

  function setupSubmit(form, editor) {
    const result = document.getElementById("result");
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const mode = (e.submitter && e.submitter.value) || "submit";
      const buttons = form.querySelectorAll("button[type=submit]");
      buttons.forEach((b) => (b.disabled = true));
      try {
        const resp = await fetch("/api/submissions", {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json", "x-csrf-token": csrf() },
          body: JSON.stringify({ kata: form.dataset.kata, source: editor.value, mode }),
        });
        const body = await resp.json().catch(() => ({}));
        if (resp.status !== 202) throw new Error(body.error || `the server answered ${resp.status}`);
        await loadPanel(result, body.id);
        watch(result, body.id, editor);
      } catch (err) {
        showError(result, err.message);
      } finally {
        buttons.forEach((b) => (b.disabled = false));
      }
    });
    result.addEventListener("click", (e) => {
      const place = e.target.closest("[data-line]");
      if (place && place.classList.contains("place") && Number(place.dataset.line) > 0) {
        e.preventDefault();
        editor.focusLine(Number(place.dataset.line));
      }
    });
  }

  // ---- Hints: only the first closed hint is offered; opening it offers the next.
  function setupHints(section) {
    const hints = Array.from(section.querySelectorAll("details.hint"));
    const update = () => {
      let offered = false;
      hints.forEach((h) => {
        if (h.open) h.dataset.seen = "1";
        if (h.dataset.seen) { h.hidden = false; return; }
        h.hidden = offered;
        offered = true;
      });
    };
    hints.forEach((h) => h.addEventListener("toggle", update));
    update();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("editor-form");
    let editor = null;
    if (form) {
      editor = setupEditor(form);
      form.editor = editor; // for scripted use (the browser checks)
      if (form.querySelector("button[type=submit]")) setupSubmit(form, editor);
    }
    document.querySelectorAll("[data-hints]").forEach(setupHints);
    // A submission page still being graded: follow it live.
    const result = document.getElementById("result");
    const panel = result && result.querySelector(".panel[data-submission]");
    if (panel && panel.dataset.state !== "done") watch(result, panel.dataset.submission, editor);
  });
})();
