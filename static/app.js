// InfraKata pages: the workbench (editor, split, tabs, result panel, drafts), hints that stay
// open, live results, the header menu and the theme switch. Plain JavaScript, no inline scripts
// (the CSP forbids them), and the words the learner reads come from the templates, not from
// here. Every page works without it: forms post normally and the submission page shows the
// verdict on reload.
"use strict";

(function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const STEPS = ["queued", "compiling", "running", "measuring", "done"];
  const store = {
    get(key) { try { return localStorage.getItem(key); } catch (_) { return null; } },
    set(key, value) { try { localStorage.setItem(key, value); } catch (_) { /* private mode */ } },
    remove(key) { try { localStorage.removeItem(key); } catch (_) { /* private mode */ } },
  };
  const api = (method, path, body) => fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? { "x-csrf-token": csrf() } : { "content-type": "application/json", "x-csrf-token": csrf() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  // ---- Header: the phone menu and the light/dark switch (remembered; static/theme.js applies it).
  function setupHeader() {
    const bar = document.getElementById("topbar");
    const menu = document.getElementById("menu-toggle");
    if (bar && menu) {
      menu.addEventListener("click", () => {
        const open = bar.classList.toggle("open");
        menu.setAttribute("aria-expanded", String(open));
      });
    }
    const toggle = document.getElementById("theme-toggle");
    if (!toggle) return;
    const dark = () => {
      const chosen = document.documentElement.dataset.theme;
      return chosen ? chosen === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
    };
    // The switch names what a click does ("Light mode" while dark), in the page's words from
    // its data attributes. A label that changes rules out aria-pressed, which would then say
    // the opposite of the label.
    const show = () => {
      const to = dark() ? "Light" : "Dark";
      const name = toggle.dataset[`to${to}Name`];
      toggle.textContent = toggle.dataset[`to${to}`];
      toggle.setAttribute("aria-label", name);
      toggle.title = name;
    };
    toggle.addEventListener("click", () => {
      const next = dark() ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      store.set("ik-theme", next);
      show();
    });
    show();
  }

  // ---- Editor: CodeMirror when its bundle is compiled in, else the textarea with a line gutter.
  // Tab indents while the editor has focus; Escape gives the keyboard back to the page.
  function setupEditor(form, keys) {
    const area = form.querySelector("textarea");
    const gutter = form.querySelector(".gutter");
    if (window.InfraKataEditor) {
      if (gutter) gutter.remove();
      form.classList.add("has-codemirror");
      return window.InfraKataEditor.mount(area, keys);
    }
    let marks = new Map();
    const editor = {
      get value() { return area.value; },
      set value(text) { area.value = text; renderGutter(); },
      focus() { area.focus(); },
      get content() { return area; },
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
    area.addEventListener("input", () => {
      if (marks.size) marks = new Map();
      renderGutter();
      if (keys.onChange) keys.onChange(area.value);
    });
    area.addEventListener("scroll", () => { if (gutter) gutter.scrollTop = area.scrollTop; });
    area.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === "Enter" && mod) {
        e.preventDefault();
        if (keys.onSubmit) keys.onSubmit();
      } else if (e.key === "'" && mod) {
        e.preventDefault();
        if (keys.onRun) keys.onRun();
      } else if (e.key === "Escape") {
        area.blur();
        if (keys.onEscape) keys.onEscape();
      } else if (e.key === "Tab" && !e.altKey && !mod) {
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
          // execCommand keeps the browser's undo history (setRangeText would not).
          if (!document.execCommand("insertText", false, "    ")) area.setRangeText("    ", s, t, "end");
        }
        renderGutter();
        if (keys.onChange) keys.onChange(area.value);
      }
    });
    renderGutter();
    return editor;
  }

  // ---- Drafts: saved on the server a moment after each edit (they follow the learner to
  // another device) and in this browser at once (the offline copy).
  function setupDrafts(form, editor) {
    const user = form.dataset.user;
    if (!user) return { changed() {} };
    const slug = form.dataset.kata;
    const key = `ik-draft:${user}:${slug}`;
    const status = document.getElementById("draft-status");
    const say = (which) => { if (status) status.textContent = status.dataset[which] || ""; };
    let timer = null;
    let saving = Promise.resolve();
    const save = () => {
      timer = null;
      const source = editor.value;
      saving = saving.then(async () => {
        try {
          const resp = await api("PUT", `/api/katas/${encodeURIComponent(slug)}/draft`, { source });
          if (!resp.ok) throw new Error(String(resp.status));
          const body = await resp.json();
          store.set(key, JSON.stringify({ source, at: body.updated_at, synced: true }));
          say("saved");
        } catch (_) {
          say("offline");
        }
      });
    };
    const changed = () => {
      store.set(key, JSON.stringify({ source: editor.value, at: Date.now(), synced: false }));
      say("pending");
      if (timer) clearTimeout(timer);
      timer = setTimeout(save, 800);
    };
    // An offline copy newer than the server's draft (typed while the server was unreachable)
    // wins, unless the learner asked for a past submission.
    let local = null;
    try { local = JSON.parse(store.get(key) || "null"); } catch (_) { local = null; }
    const serverAt = Number(form.dataset.draftAt || 0);
    const fromSubmission = new URLSearchParams(location.search).has("from");
    if (local && typeof local.source === "string" && !local.synced && local.at > serverAt
        && !fromSubmission && local.source !== editor.value) {
      editor.value = local.source;
      const note = document.getElementById("source-note");
      if (note && note.dataset.local) note.textContent = note.dataset.local;
      save();
    } else if (fromSubmission) {
      save(); // the submission loaded into the editor becomes the draft
    }
    // Opening a past submission replaced the draft: it stays one click away until then.
    const restore = document.getElementById("restore-draft");
    const replaced = document.getElementById("replaced-draft");
    if (restore && replaced) {
      restore.addEventListener("click", () => {
        editor.value = replaced.content.textContent;
        restore.remove();
        changed();
        const note = document.getElementById("source-note");
        if (note && note.dataset.draft) note.textContent = note.dataset.draft;
      });
    }
    window.addEventListener("pagehide", () => { if (timer) { clearTimeout(timer); save(); } });
    return { changed, flush() { if (timer) { clearTimeout(timer); save(); } return saving; } };
  }

  // ---- Workbench layout: the draggable split (remembered), the phone tabs, the result panel.
  function setupSplit(bench) {
    const divider = document.getElementById("divider");
    if (!divider) return;
    const set = (pct) => {
      const p = Math.min(75, Math.max(20, pct));
      bench.style.setProperty("--split", `${p}%`);
      divider.setAttribute("aria-valuenow", String(Math.round(p)));
      return p;
    };
    const saved = Number(store.get("ik-split"));
    if (saved) set(saved);
    let dragging = false;
    divider.addEventListener("pointerdown", (e) => {
      dragging = true;
      divider.setPointerCapture(e.pointerId);
      divider.classList.add("dragging");
    });
    divider.addEventListener("pointermove", (e) => {
      if (!dragging) return;
      const box = bench.getBoundingClientRect();
      set(((e.clientX - box.left) / box.width) * 100);
    });
    const stop = () => {
      if (!dragging) return;
      dragging = false;
      divider.classList.remove("dragging");
      store.set("ik-split", divider.getAttribute("aria-valuenow"));
    };
    divider.addEventListener("pointerup", stop);
    divider.addEventListener("pointercancel", stop);
    divider.addEventListener("keydown", (e) => {
      const now = Number(divider.getAttribute("aria-valuenow"));
      const step = e.key === "ArrowLeft" ? -2 : e.key === "ArrowRight" ? 2 : 0;
      if (!step) return;
      e.preventDefault();
      store.set("ik-split", String(set(now + step)));
    });
  }

  // The editor/result split: the grip on top of the result panel sets the panel's share of
  // the column's height (remembered), by pointer or by the arrow keys.
  function setupResultSplit(bench) {
    const grip = document.getElementById("hdivider");
    const work = bench.querySelector(".work");
    if (!grip || !work) return;
    const set = (pct) => {
      const p = Math.min(75, Math.max(15, pct));
      work.style.setProperty("--result", `${p}%`);
      grip.setAttribute("aria-valuenow", String(Math.round(p)));
      return p;
    };
    const saved = Number(store.get("ik-result-split"));
    if (saved) set(saved);
    let dragging = false;
    grip.addEventListener("pointerdown", (e) => {
      dragging = true;
      grip.setPointerCapture(e.pointerId);
      grip.classList.add("dragging");
    });
    grip.addEventListener("pointermove", (e) => {
      if (!dragging) return;
      const box = work.getBoundingClientRect();
      set(((box.bottom - e.clientY) / box.height) * 100);
    });
    const stop = () => {
      if (!dragging) return;
      dragging = false;
      grip.classList.remove("dragging");
      store.set("ik-result-split", grip.getAttribute("aria-valuenow"));
    };
    grip.addEventListener("pointerup", stop);
    grip.addEventListener("pointercancel", stop);
    grip.addEventListener("keydown", (e) => {
      const now = Number(grip.getAttribute("aria-valuenow"));
      const step = e.key === "ArrowUp" ? 3 : e.key === "ArrowDown" ? -3 : 0;
      if (!step) return;
      e.preventDefault();
      store.set("ik-result-split", String(set(now + step)));
    });
  }

  function setupTabs(bench) {
    const tabs = Array.from(bench.querySelectorAll(".wb-tabs [role=tab]"));
    const select = (pane) => {
      bench.dataset.tab = pane;
      const result = document.getElementById("pane-result");
      if (pane === "result" && result) result.hidden = false;
      tabs.forEach((t) => {
        const on = t.dataset.pane === pane;
        t.setAttribute("aria-selected", String(on));
        t.tabIndex = on ? 0 : -1;
      });
    };
    tabs.forEach((t) => t.addEventListener("click", () => select(t.dataset.pane)));
    select("code");
    return select;
  }

  function setupBottom() {
    const bottom = document.getElementById("pane-result");
    if (!bottom) return null;
    // Result · Cases · Custom input: each tab `btab-NAME` shows the panel `#NAME`.
    const names = ["result", "cases", "custom"].filter((k) => document.getElementById(`btab-${k}`));
    const tabs = {};
    const panes = {};
    names.forEach((k) => { tabs[k] = document.getElementById(`btab-${k}`); panes[k] = document.getElementById(k); });
    const select = (which) => {
      names.forEach((k) => {
        tabs[k].setAttribute("aria-selected", String(k === which));
        tabs[k].tabIndex = k === which ? 0 : -1;
        panes[k].hidden = k !== which;
      });
    };
    names.forEach((k) => tabs[k].addEventListener("click", () => select(k)));
    // Arrow keys move between the tabs (wrapping), Home and End go to the first and last.
    bottom.querySelector(".bottom-tabs").addEventListener("keydown", (e) => {
      if (!e.target.matches("[role=tab]")) return;
      const at = names.findIndex((k) => tabs[k].getAttribute("aria-selected") === "true");
      const step = { ArrowRight: at + 1, ArrowLeft: at - 1 + names.length, Home: 0, End: names.length - 1 }[e.key];
      if (step === undefined) return;
      e.preventDefault();
      const next = names[step % names.length];
      select(next);
      tabs[next].focus();
    });
    document.getElementById("bottom-close").addEventListener("click", () => { bottom.hidden = true; });
    select("result");
    // What the Cases tab says before any run, put back whenever a run starts or ends without
    // cases (a compile error): never the cases of an earlier run.
    const noCases = Array.from(panes.cases.childNodes).map((n) => n.cloneNode(true));
    const casesCount = document.getElementById("cases-count");
    const clearCases = () => {
      panes.cases.replaceChildren(...noCases.map((n) => n.cloneNode(true)));
      if (casesCount) { casesCount.textContent = ""; casesCount.classList.remove("bad"); }
    };
    return {
      open(which = "result") { bottom.hidden = false; select(which); },
      select,
      clearCases,
      // The case table moves to the Cases tab; the Result tab keeps the verdict, the messages
      // and the first failing case.
      distribute() {
        const cases = panes.result.querySelector(".r-cases");
        const count = casesCount;
        if (!cases) { clearCases(); return; }
        panes.cases.replaceChildren(cases);
        const summary = cases.querySelector(".r-count");
        if (count && summary) {
          count.textContent = `(${summary.textContent.trim()})`;
          count.classList.toggle("bad", Number(summary.dataset.failed) > 0);
        }
        const firstBad = cases.querySelector("tr.row-bad");
        const detail = firstBad && firstBad.nextElementSibling;
        const panel = panes.result.querySelector(".panel");
        if (firstBad && detail && panel) {
          const box = document.createElement("div");
          box.className = "first-fail";
          const name = document.createElement("p");
          name.className = "first-fail-name";
          name.append(firstBad.cells[0].textContent, " · ");
          name.appendChild(firstBad.querySelector(".badge").cloneNode(true));
          box.append(name, detail.querySelector("dl").cloneNode(true));
          const foot = panel.querySelector(":scope > p.muted.small:last-child");
          panel.insertBefore(box, foot);
        }
      },
    };
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
    if (pos && "queue_position" in view) {
      const n = view.queue_position;
      const tpl = n === 0 ? pos.dataset.next : pos.dataset.ahead;
      pos.textContent = state === "queued" && n != null && tpl ? tpl.replace("{n}", String(n)) : "";
    }
    const wait = panel.querySelector(".wait");
    if (wait && "waiting_for" in view) wait.hidden = !(state === "queued" && view.waiting_for);
  }

  async function loadPanel(result, id) {
    const resp = await fetch(`/submissions/${id}/report`, { credentials: "same-origin" });
    if (!resp.ok) throw new Error(words(result, "loadFailed", resp.status));
    result.innerHTML = await resp.text(); // server-rendered and escaped by the template engine
    return result.querySelector(".panel");
  }

  // The gutter's tooltip on a line lists every message about it, one per line: errors before
  // warnings, each in the compiler's order (its first error is the root cause, the ones after
  // often follow from it).
  function afterVerdict(result, editor) {
    if (!editor) return;
    const lines = new Map();
    result.querySelectorAll(".diag[data-line]").forEach((d) => {
      const line = Number(d.dataset.line);
      if (!(line > 0)) return;
      const error = d.classList.contains("error");
      const message = d.querySelector(".diag-text").textContent.trim();
      const at = lines.get(line) || { errors: [], warnings: [] };
      (error ? at.errors : at.warnings).push(message);
      lines.set(line, at);
    });
    const marks = new Map();
    lines.forEach((at, line) => {
      const all = [...at.errors, ...at.warnings];
      const message = all.length > 1 ? all.map((m, i) => `${i + 1}. ${m}`).join("\n") : all[0];
      marks.set(line, { level: at.errors.length ? "error" : "warning", message });
    });
    editor.mark(marks);
  }

  /** Follows submission `id` until it is done; `hooks.loaded()` after each report load,
   *  `hooks.done()` once, at the end (or when following it failed). */
  function watch(result, id, editor, hooks = {}) {
    const panel = result.querySelector(".panel");
    if (panel) showSteps(panel, { state: panel.dataset.state });
    const events = new EventSource(`/api/submissions/${id}/events`);
    let finished = false;
    let marked = false;
    const end = () => { if (hooks.done) hooks.done(); };
    // The verdict may come before the performance figure (state "measuring"): show it at
    // once and keep listening until the submission is done.
    const verdict = async (e) => {
      if (finished) return;
      const done = JSON.parse(e.data).state === "done";
      if (done) { finished = true; events.close(); }
      try { await loadPanel(result, id); } catch (err) { showError(result, err.message); }
      if (hooks.loaded) hooks.loaded();
      if (!marked) { marked = true; afterVerdict(result, editor); }
      if (done) end();
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
          if (hooks.loaded) hooks.loaded();
          if (p && p.dataset.state !== "done") watch(result, id, editor, hooks);
          else { afterVerdict(result, editor); end(); }
        } catch (e) { showError(result, e.message); end(); }
      }, 1000);
    };
  }

  /** The server's reason for refusing a request, in the page's language where it has one. */
  function refusal(body) {
    const zh = document.documentElement.lang.startsWith("zh");
    return (zh && body.error_zh) || body.error;
  }

  /** A message the page's template wrote for the script (in the page's language), with its
   *  `{status}` filled in. */
  function words(el, name, status) {
    return (el.dataset[name] || "{status}").replace("{status}", String(status));
  }

  function showError(result, message) {
    const box = document.createElement("div");
    box.className = "panel";
    const p = document.createElement("p");
    p.className = "alert";
    p.setAttribute("role", "alert");
    p.textContent = message;
    box.appendChild(p);
    result.replaceChildren(box);
  }

  // After an accepted submit the page changes in place: the reference unlocks, the next kata
  // is offered.
  function unlockIfAccepted(result) {
    const v = result.querySelector('.verdict[data-verdict="ok"][data-mode="submit"]');
    if (!v) return;
    const link = document.getElementById("solution-link");
    const locked = document.getElementById("solution-locked");
    const next = document.getElementById("next-kata");
    if (link) link.hidden = false;
    if (locked) locked.remove();
    if (next) next.hidden = false;
  }

  function setupSubmit(form, editor, ui) {
    const result = document.getElementById("result");
    const runCustom = document.getElementById("run-custom");
    const buttons = () => [...form.querySelectorAll("button[type=submit]"), ...(runCustom ? [runCustom] : [])];
    let busy = false;
    // One grading at a time from this page (Run, Submit or Run custom): every button that
    // starts one is disabled until it is done.
    const take = () => {
      if (busy) return false;
      busy = true;
      buttons().forEach((b) => (b.disabled = true));
      return true;
    };
    const release = () => { busy = false; buttons().forEach((b) => (b.disabled = false)); };
    const go = async (mode) => {
      if (!take()) return;
      // A new run starts clean: no verdict, cases or gutter marks of the one before.
      result.replaceChildren();
      if (ui.bottom) ui.bottom.clearCases();
      editor.mark(new Map());
      if (ui.bottom) ui.bottom.open();
      if (ui.tab) ui.tab("result");
      try {
        if (ui.drafts.flush) ui.drafts.flush();
        const resp = await api("POST", "/api/submissions", { kata: form.dataset.kata, source: editor.value, mode });
        const body = await resp.json().catch(() => ({}));
        if (resp.status !== 202) throw new Error(refusal(body) || words(result, "refused", resp.status));
        await loadPanel(result, body.id);
        watch(result, body.id, editor, {
          loaded() { if (ui.bottom) ui.bottom.distribute(); unlockIfAccepted(result); },
          done: release,
        });
      } catch (err) {
        showError(result, err.message);
        release();
      }
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      go((e.submitter && e.submitter.value) || "submit");
    });
    const toLine = (e) => {
      const place = e.target.closest("[data-line]");
      if (place && place.classList.contains("place") && Number(place.dataset.line) > 0) {
        e.preventDefault();
        if (ui.tab) ui.tab("code");
        editor.focusLine(Number(place.dataset.line));
      }
    };
    result.addEventListener("click", toLine);
    ui.lock = { take, release, toLine }; // shared with the Custom input tab
    // A submission still being graded when the page was (re)loaded — a GPU kata's job can wait
    // in the queue for minutes — is followed again, where Run or Submit would show it.
    const pending = Number(form.dataset.pending);
    if (pending > 0 && take()) {
      if (ui.bottom) ui.bottom.open();
      if (ui.tab) ui.tab("result");
      loadPanel(result, pending)
        .then(() => watch(result, pending, editor, {
          loaded() { if (ui.bottom) ui.bottom.distribute(); unlockIfAccepted(result); },
          done: release,
        }))
        .catch((err) => { showError(result, err.message); release(); });
    }
    return go;
  }

  // ---- Custom input: the learner's program on their own input, beside the reference's answer.
  // The input is kept per kata in this browser; a refusal is shown under it and the text stays.
  // The run is followed by the same `watch` as Run and Submit.
  function setupCustom(form, editor, ui) {
    const input = document.getElementById("custom-input");
    const button = document.getElementById("run-custom");
    const error = document.getElementById("custom-error");
    const out = document.getElementById("custom-result");
    const reset = document.getElementById("reset-sample");
    if (!input || !error || !out) return;
    const slug = form.dataset.kata;
    const key = `ik-custom:${form.dataset.user}:${slug}`;
    const saved = store.get(key);
    if (saved !== null) input.value = saved;
    input.addEventListener("input", () => store.set(key, input.value));
    if (reset) {
      reset.addEventListener("click", () => {
        input.value = input.defaultValue; // the server-rendered sample
        store.remove(key);
        error.hidden = true;
        input.focus();
      });
    }
    // The input's format: each entry point's example can start the input.
    document.querySelectorAll(".use-example").forEach((use) => {
      use.addEventListener("click", () => {
        const example = document.getElementById(`custom-example-${use.dataset.example}`);
        if (!example) return;
        input.value = example.textContent;
        store.set(key, input.value);
        error.hidden = true;
        input.focus();
      });
    });
    const lock = ui.lock;
    if (!button || !lock) return; // signed out: the tab offers the log-in link
    const run = async () => {
      if (!lock.take()) return;
      error.hidden = true;
      out.replaceChildren(); // never the answers of the run before
      editor.mark(new Map());
      try {
        if (ui.drafts.flush) ui.drafts.flush();
        const resp = await api("POST", `/api/katas/${encodeURIComponent(slug)}/custom`, { source: editor.value, input: input.value });
        const body = await resp.json().catch(() => ({}));
        if (resp.status !== 202) {
          // Refused (out of the constraints, not the kata's input, too large): said inline,
          // the input left as typed for the learner to fix.
          error.textContent = refusal(body) || words(out, "refused", resp.status);
          error.hidden = false;
          lock.release();
          return;
        }
        await loadPanel(out, body.id);
        // The outcome appears under the input: bring it into view (the panel may be short).
        const seen = () => out.scrollIntoView({ block: "nearest", behavior: "smooth" });
        seen();
        watch(out, body.id, editor, { loaded: seen, done: lock.release });
      } catch (err) {
        showError(out, err.message);
        lock.release();
      }
    };
    button.addEventListener("click", run);
    // Ctrl/⌘+Enter in the input runs it (not the page's Submit).
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
    });
    out.addEventListener("click", lock.toLine);
  }

  // ---- Hints: only the first closed hint is offered; opening one records it (it stays open
  // after a reload) and offers the next.
  function setupHints(section, signedIn) {
    const hints = Array.from(section.querySelectorAll("details.hint"));
    const slug = section.dataset.kata;
    const update = () => {
      let offered = false;
      hints.forEach((h) => {
        if (h.open && !h.dataset.seen) {
          h.dataset.seen = "1";
          if (signedIn && slug) api("PUT", `/api/katas/${encodeURIComponent(slug)}/hints/${h.dataset.index}`).catch(() => {});
        }
        if (h.dataset.seen) { h.hidden = false; return; }
        h.hidden = offered;
        offered = true;
      });
    };
    hints.forEach((h) => h.addEventListener("toggle", update));
    update();
  }

  function setupWorkbench(form) {
    const bench = document.getElementById("workbench");
    const ui = { bottom: setupBottom(), tab: null, drafts: { changed() {} } };
    if (bench) {
      setupSplit(bench);
      setupResultSplit(bench);
      ui.tab = setupTabs(bench);
    }
    let go = null;
    const runButton = form.querySelector('button[value="run"]');
    // The note beside the file name says where the code came from; once edited it is the
    // learner's draft, and back to the starter it says so again.
    const note = document.getElementById("source-note");
    const starter = document.getElementById("starter");
    const follow = () => {
      if (!note || !starter) return;
      const which = editor.value === starter.content.textContent ? "starter" : "draft";
      if (note.dataset[which]) note.textContent = note.dataset[which];
    };
    const editor = setupEditor(form, {
      onRun: () => { if (go && runButton) go("run"); },
      onSubmit: () => { if (go && runButton) go("submit"); },
      onChange: () => { ui.drafts.changed(); follow(); },
      // Keyboard users leave the editor to the Run button (Tab from there goes on).
      onEscape: () => { if (runButton) runButton.focus(); },
    });
    form.editor = editor; // for scripted use (the browser checks)
    ui.drafts = setupDrafts(form, editor);
    const reset = document.getElementById("reset-starter");
    if (reset && starter) {
      reset.addEventListener("click", () => {
        if (reset.dataset.confirm && !window.confirm(reset.dataset.confirm)) return;
        editor.value = starter.content.textContent;
        ui.drafts.changed();
        follow();
        editor.focus();
      });
    }
    if (runButton) go = setupSubmit(form, editor, ui);
    setupCustom(form, editor, ui);
    const openCustom = document.getElementById("open-custom");
    if (openCustom && ui.bottom) {
      openCustom.addEventListener("click", () => {
        ui.bottom.open("custom");
        if (ui.tab) ui.tab("result");
        const input = document.getElementById("custom-input");
        if (input) input.focus();
      });
    }
    // Shortcuts work anywhere on the page, not only inside the editor.
    document.addEventListener("keydown", (e) => {
      if (!go || !(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      if (e.key === "Enter") { e.preventDefault(); go("submit"); }
      else if (e.key === "'") { e.preventDefault(); go("run"); }
    });
    return editor;
  }

  // ---- The interview's kata: the kata page's editor, submitted through the same API, the
  // verdict followed live on the page (the form still posts without JavaScript).
  function setupInterview(form) {
    const result = document.getElementById("result");
    const button = form.querySelector("button[type=submit]");
    let busy = false;
    let editor = null;
    const go = async () => {
      if (busy || !result) return;
      busy = true;
      save(false);
      if (button) button.disabled = true;
      result.replaceChildren(); // never the verdict of the submit before
      editor.mark(new Map());
      const release = () => { busy = false; if (button) button.disabled = false; };
      try {
        const resp = await api("POST", "/api/submissions", { kata: form.dataset.kata, source: editor.value, mode: "submit" });
        const body = await resp.json().catch(() => ({}));
        if (resp.status !== 202) throw new Error(refusal(body) || words(result, "refused", resp.status));
        await loadPanel(result, body.id);
        watch(result, body.id, editor, { done: () => { release(); refreshBest(); } });
      } catch (err) {
        showError(result, err.message);
        release();
      }
    };
    // The best submit so far is the server's judgement over every submit of this interview:
    // once a verdict is final, take the badge from a fresh render of this page.
    const refreshBest = async () => {
      const here = document.getElementById("best-submit");
      if (!here) return;
      try {
        const resp = await fetch(window.location.pathname, { credentials: "same-origin" });
        if (!resp.ok) return;
        const page = new DOMParser().parseFromString(await resp.text(), "text/html");
        const fresh = page.getElementById("best-submit");
        if (fresh) here.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
      } catch (_) { /* the badge stays as it was; a reload shows it */ }
    };
    // The interview keeps its own draft on the server: a reload, a drill answered in between or
    // reopening the interview brings this code back, never the starter.
    const id = form.getAttribute("action").split("/")[2];
    let timer = 0;
    let saved = null;
    const save = (keepalive) => {
      window.clearTimeout(timer);
      timer = 0;
      if (!editor || editor.value === saved) return;
      const source = editor.value;
      saved = source;
      fetch(`/api/interviews/${id}/draft`, {
        method: "PUT",
        credentials: "same-origin",
        keepalive: !!keepalive && source.length < 60000,
        headers: { "content-type": "application/json", "x-csrf-token": csrf() },
        body: JSON.stringify({ source }),
      }).then((resp) => {
        if (resp.ok && saved === source) form.dataset.draft = "saved";
        else if (!resp.ok) saved = null;
      }, () => { saved = null; });
    };
    const changed = () => {
      form.dataset.draft = "";
      window.clearTimeout(timer);
      timer = window.setTimeout(save, 800);
    };
    editor = setupEditor(form, { onSubmit: go, onEscape: () => { if (button) button.focus(); }, onChange: changed });
    saved = editor.value;
    window.addEventListener("pagehide", () => save(true));
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") save(true); });
    form.saveDraft = () => save(false);
    form.editor = editor; // for scripted use (the browser checks)
    form.addEventListener("submit", (e) => { e.preventDefault(); go(); });
    if (result) {
      result.addEventListener("click", (e) => {
        const place = e.target.closest("[data-line]");
        if (place && place.classList.contains("place") && Number(place.dataset.line) > 0) {
          e.preventDefault();
          editor.focusLine(Number(place.dataset.line));
        }
      });
    }
  }

  // ---- Times: the server writes them in UTC (`<time datetime data-local>`); shown here in the
  // viewer's own time zone and language, the UTC text kept as the tooltip.
  function localTimes() {
    const lang = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-local][datetime]").forEach((el) => {
      const at = new Date(el.getAttribute("datetime"));
      if (Number.isNaN(at.getTime())) return;
      let text;
      try {
        text = at.toLocaleString(lang, {
          year: "numeric", month: "2-digit", day: "2-digit",
          hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZoneName: "short",
        });
      } catch (_) { return; }
      el.title = el.textContent.replace(/\s+/g, " ").trim();
      el.textContent = text;
      el.classList.add("nowrap");
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    setupHeader();
    localTimes();
    // Code blocks and wide tables scroll inside themselves: keyboard users must reach them.
    document.querySelectorAll("pre, .table-scroll, .prose table").forEach((el) => {
      if (!el.hasAttribute("tabindex")) el.tabIndex = 0;
    });
    const form = document.getElementById("editor-form");
    const editor = form ? setupWorkbench(form) : null;
    const interview = document.getElementById("interview-form");
    if (interview) setupInterview(interview);
    const signedIn = !!(form ? form.dataset.user : document.querySelector(".who"));
    document.querySelectorAll("[data-hints]").forEach((s) => setupHints(s, signedIn));
    // A form that acts for good (the admin page's Requeue and Cancel) asks first. Registered
    // before the handlers below and in the capture phase, so a "no" stops them too; without
    // this script the form simply posts.
    document.addEventListener("submit", (e) => {
      const f = e.target.closest("form[data-confirm]");
      if (f && !window.confirm(f.dataset.confirm)) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }, true);
    // Cancel a waiting submission through the API; the live stream then shows its end.
    document.addEventListener("submit", async (e) => {
      const f = e.target.closest(".cancel-form");
      if (!f) return;
      e.preventDefault();
      f.querySelectorAll("button").forEach((b) => (b.disabled = true));
      const resp = await api("POST", `/api/submissions/${f.dataset.submission}/cancel`).catch(() => null);
      if (!resp || !resp.ok) {
        const body = resp ? await resp.json().catch(() => ({})) : {};
        const note = document.createElement("p");
        note.className = "alert";
        note.setAttribute("role", "alert");
        note.textContent = refusal(body) || f.dataset.failed || "";
        f.replaceWith(note);
      }
    });
    // A submission page still being graded: follow it live.
    const result = document.getElementById("result");
    const panel = result && !form && result.querySelector(".panel[data-submission]");
    if (panel && panel.dataset.state !== "done") watch(result, panel.dataset.submission, editor);
  });
})();
