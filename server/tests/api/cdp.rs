//! Drives headless Chromium over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
//! commands on fd 3, replies on fd 4, each JSON message ended by a NUL byte), so no WebSocket
//! client is needed. A shell maps the child's stdin/stdout onto fds 3/4.

use serde_json::{Value, json};
use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub struct Chromium {
    child: Child,
    input: ChildStdin,
    replies: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    _profile: tempfile::TempDir,
}

/// How long a browser test waits for a page or a verdict.
pub const WAIT: Duration = Duration::from_secs(120);

/// A part a browser test needs is missing: fails under `INFRAKATA_CI=1`, else says why it skips.
pub fn required(what: &str) {
    assert!(
        std::env::var_os("INFRAKATA_CI").is_none(),
        "the browser tests need {what} under INFRAKATA_CI=1"
    );
    println!("skipping: no {what} here");
}

/// The browser binary, or `None` (see [`required`]).
pub fn browser() -> Option<&'static str> {
    let found = find();
    if found.is_none() {
        required("chromium");
    }
    found
}

/// The verdict of the result panel once its submission is done (falsy before).
pub const VERDICT: &str = "(document.querySelector('#result .panel[data-state=\"done\"] .verdict-label') || {}).textContent";

/// Every editor on the page (the kata page's, the interview's) is mounted by the page script.
const EDITORS_READY: &str = "['editor-form', 'interview-form'].every((id) => { const f = document.getElementById(id); return !f || !!f.editor; })";

/// The browser binary, if installed (Debian's `chromium`).
pub fn find() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
}

impl Chromium {
    pub fn launch(binary: &str) -> Self {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null 2>/dev/null"#)
            .arg(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-pipe",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            while output.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop();
                if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                    && tx.send(v).is_err()
                {
                    break;
                }
                buf.clear();
            }
        });
        Self {
            child,
            input,
            replies,
            next_id: 0,
            session: None,
            _profile: profile,
        }
    }

    /// Sends one command (to the attached page, once there is one) and waits for its reply.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        match self.try_call(method, params) {
            Ok(result) => result,
            Err(reply) => panic!("{method}: {reply}"),
        }
    }

    /// [`Self::call`], with the browser's error reply as `Err`.
    fn try_call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).unwrap();
        self.input.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let reply = self
                .replies
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no reply to {method}"));
            if reply["id"] == id {
                return match reply.get("error") {
                    Some(_) => Err(reply),
                    None => Ok(reply["result"].clone()),
                };
            }
        }
    }

    /// Opens a tab at `url` and sends later commands to it.
    pub fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", json!({ "url": url }));
        let attached = self.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        self.session = Some(attached["sessionId"].as_str().unwrap().to_string());
    }

    /// Evaluates JavaScript in the page (awaiting promises) and returns its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "awaitPromise": true, "returnByValue": true }),
        );
        r["result"]["value"].clone()
    }

    /// Polls `expression` until it is truthy; returns its value.
    pub fn wait_for(&mut self, expression: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            // A page that is navigating has no context to evaluate in yet: not ready, not an error.
            let v = match self.try_call(
                "Runtime.evaluate",
                json!({ "expression": expression, "awaitPromise": true, "returnByValue": true }),
            ) {
                Ok(r) => r["result"]["value"].clone(),
                Err(reply) if navigating(&reply) => Value::Null,
                Err(reply) => panic!("Runtime.evaluate: {reply}"),
            };
            if !(v.is_null() || v == false || v == "") {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {expression}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Types `text` at the caret, as a person pasting or typing would.
    pub fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }));
    }
}

impl Chromium {
    /// Runs `js`, which leaves the page (a link, a form, a reload), and waits until the next page
    /// is loaded, its scripts have set it up, and `ready` holds. The marker set here is gone
    /// once the old page is.
    pub fn navigate_by(&mut self, js: &str, ready: &str) {
        self.eval(&format!(
            "window.__leaving = true; setTimeout(() => {{ {js} }}, 0); true"
        ));
        self.wait_for(
            &format!(
                "!window.__leaving && document.readyState === 'complete' && {EDITORS_READY} && ({ready})"
            ),
            WAIT,
        );
    }

    /// Opens `url` in the current tab and waits for the page to be ready.
    pub fn goto(&mut self, url: &str) {
        let url = serde_json::to_string(url).unwrap();
        self.navigate_by(&format!("location.href = {url}"), "true");
    }

    pub fn reload(&mut self) {
        self.navigate_by("location.reload()", "true");
    }

    /// A browser signed up as the learner `name` on the app at `base`.
    pub fn signed_up(binary: &str, base: &str, name: &str) -> Self {
        let mut b = Self::launch(binary);
        b.open(&format!("{base}/signup"));
        b.sign_up(name);
        b
    }

    /// On the sign-up page: creates the learner `name` and waits until signed in.
    pub fn sign_up(&mut self, name: &str) {
        self.wait_for(
            "document.readyState === 'complete' && !!document.querySelector('form.stack')",
            WAIT,
        );
        let name = serde_json::to_string(name).unwrap();
        self.navigate_by(
            &format!(
                "const f = document.querySelector('form.stack'); f.name.value = {name};
                 f.password.value = 'long enough pw'; f.confirm.value = 'long enough pw'; f.submit();"
            ),
            "!!document.querySelector('.who')",
        );
    }

    /// Starts a mock interview from its page (45 minutes, as offered); returns the session's path.
    pub fn start_interview(&mut self, base: &str) -> String {
        self.goto(&format!("{base}/interviews"));
        self.navigate_by(
            "document.querySelector('form[action=\"/interviews\"]').submit()",
            "!!document.getElementById('clock-left')",
        );
        self.eval("location.pathname").as_str().unwrap().to_string()
    }

    /// Presses the header's language switch (`en` or `zh`) and waits for the same page in it.
    pub fn switch_lang(&mut self, lang: &str) {
        let tag = if lang == "zh" { "zh-CN" } else { lang };
        self.navigate_by(
            &format!("document.querySelector('.lang-switch button[value=\"{lang}\"]').click()"),
            &format!("document.documentElement.lang === '{tag}'"),
        );
    }

    /// Sizes the page's viewport as a desktop window or a phone (touch, mobile layout).
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        );
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": mobile }),
        );
        // The editor measures its lines on the frames after a resize; checks and screenshots
        // taken before then would see the previous width's line heights. A tab just opened may
        // still be loading its first page (no context yet), hence `wait_for`, not `eval`.
        self.wait_for(
            "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))",
            WAIT,
        );
    }

    /// The system colour scheme the page sees (`light` or `dark`).
    pub fn color_scheme(&mut self, scheme: &str) {
        self.call(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        );
    }

    /// Presses and releases a key, as the keyboard would (`modifiers`: 2 Ctrl, 4 Meta, 8 Shift).
    pub fn key(&mut self, key: &str, code: &str, key_code: u32, modifiers: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": code, "windowsVirtualKeyCode": key_code,
                        "modifiers": modifiers }),
            );
        }
    }

    /// A PNG of the whole page (beyond the viewport) written to `path`.
    pub fn screenshot(&mut self, path: &std::path::Path) {
        use base64::Engine as _;
        let shot = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true }),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The errors Chromium answers while a page is being replaced by the next one.
fn navigating(reply: &Value) -> bool {
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    message.contains("navigated or closed") || message.contains("context was destroyed")
}
