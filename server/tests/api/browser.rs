//! A minimal browser for page tests: keeps cookies, does not follow redirects (tests look at
//! them), and reads the CSRF token out of the page like a form would.

use crate::helpers::TestApp;
use reqwest::Response;
use reqwest::header::{COOKIE, SET_COOKIE};
use std::collections::BTreeMap;
use std::sync::Mutex;

pub struct Browser {
    client: reqwest::Client,
    base: String,
    cookies: Mutex<BTreeMap<String, String>>,
    /// Every `Set-Cookie` line seen, for attribute checks.
    pub set_cookies: Mutex<Vec<String>>,
}

/// The CSRF token a page's forms carry.
pub fn csrf_of(html: &str) -> String {
    let key = "name=\"csrf-token\" content=\"";
    let start = html.find(key).expect("the page has a CSRF token") + key.len();
    html[start..].split('"').next().unwrap().to_string()
}

impl Browser {
    pub fn new(app: &TestApp) -> Self {
        Self::from_address(app, None)
    }

    /// A browser whose connections come from `local` (any 127.x.y.z reaches the app), so the
    /// server sees another client address.
    pub fn from_address(app: &TestApp, local: Option<std::net::IpAddr>) -> Self {
        Self {
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .local_address(local)
                .build()
                .unwrap(),
            base: app.app.url(),
            cookies: Mutex::default(),
            set_cookies: Mutex::default(),
        }
    }

    pub fn set_cookie(&self, name: &str, value: &str) {
        self.cookies
            .lock()
            .unwrap()
            .insert(name.into(), value.into());
    }

    pub fn cookie(&self, name: &str) -> Option<String> {
        self.cookies.lock().unwrap().get(name).cloned()
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .lock()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep(&self, resp: &Response) {
        for v in resp.headers().get_all(SET_COOKIE) {
            let line = v.to_str().unwrap().to_string();
            let (pair, attrs) = line.split_once(';').unwrap_or((&line, ""));
            let (name, value) = pair.split_once('=').unwrap();
            let mut jar = self.cookies.lock().unwrap();
            if value.is_empty() || attrs.contains("Max-Age=0") {
                jar.remove(name);
            } else {
                jar.insert(name.to_string(), value.to_string());
            }
            self.set_cookies.lock().unwrap().push(line);
        }
    }

    pub async fn get(&self, path: &str) -> Response {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .header(COOKIE, self.cookie_header())
            .send()
            .await
            .unwrap();
        self.keep(&resp);
        resp
    }

    /// GETs a page expecting 200 and returns its HTML.
    pub async fn page(&self, path: &str) -> String {
        let resp = self.get(path).await;
        assert_eq!(resp.status(), 200, "GET {path}");
        resp.text().await.unwrap()
    }

    pub async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> Response {
        let resp = self
            .client
            .post(format!("{}{path}", self.base))
            .header(COOKIE, self.cookie_header())
            .form(form)
            .send()
            .await
            .unwrap();
        self.keep(&resp);
        resp
    }

    /// Posts JSON to the API with the session cookie (and the CSRF header when given).
    /// A `multipart/form-data` post as a browser's file upload sends it: text fields, then one
    /// file field.
    pub async fn post_upload(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &[u8]),
    ) -> Response {
        const BOUNDARY: &str = "----infrakata-test-boundary";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!(
                    "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        let (name, filename, bytes) = file;
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: application/gzip\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
        let resp = self
            .client
            .post(format!("{}{path}", self.base))
            .header(COOKIE, self.cookie_header())
            .header(
                reqwest::header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(body)
            .send()
            .await
            .unwrap();
        self.keep(&resp);
        resp
    }

    pub async fn post_json(
        &self,
        path: &str,
        body: &serde_json::Value,
        csrf: Option<&str>,
    ) -> Response {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .header(COOKIE, self.cookie_header())
            .json(body);
        if let Some(token) = csrf {
            req = req.header("x-csrf-token", token);
        }
        req.send().await.unwrap()
    }

    /// PUTs JSON to the API with the session cookie (and the CSRF header when given).
    pub async fn put_json(
        &self,
        path: &str,
        body: &serde_json::Value,
        csrf: Option<&str>,
    ) -> Response {
        let mut req = self
            .client
            .put(format!("{}{path}", self.base))
            .header(COOKIE, self.cookie_header())
            .json(body);
        if let Some(token) = csrf {
            req = req.header("x-csrf-token", token);
        }
        req.send().await.unwrap()
    }

    /// Loads `form_page`, then posts `form` to `action` with the page's CSRF token.
    pub async fn submit_form(
        &self,
        form_page: &str,
        action: &str,
        form: &[(&str, &str)],
    ) -> Response {
        let token = csrf_of(&self.page(form_page).await);
        let mut fields = vec![("csrf", token.as_str())];
        fields.extend_from_slice(form);
        self.post_form(action, &fields).await
    }

    /// Presses the header's language switch on `page` (to `lang`: `en` or `zh`), which returns
    /// to that page.
    pub async fn switch_lang(&self, lang: &str, page: &str) {
        let resp = self
            .submit_form(page, "/lang", &[("lang", lang), ("next", page)])
            .await;
        assert_eq!(resp.status(), 303, "{}", resp.text().await.unwrap());
        assert_eq!(resp.headers()["location"], page);
    }

    pub async fn signup(&self, name: &str, password: &str) {
        let resp = self
            .submit_form(
                "/signup",
                "/signup",
                &[
                    ("name", name),
                    ("password", password),
                    ("confirm", password),
                ],
            )
            .await;
        assert_eq!(resp.status(), 303, "{}", resp.text().await.unwrap());
    }

    pub async fn login(&self, name: &str, password: &str) -> Response {
        self.submit_form(
            "/login",
            "/login",
            &[("name", name), ("password", password), ("next", "/")],
        )
        .await
    }
}
