//! Statements, hints and concept notes from Markdown to HTML (pulldown-cmark). Raw HTML in the
//! Markdown is shown as text, never passed through, and links keep only safe schemes: the
//! output is safe to print unescaped (`|safe`) even if a package's Markdown is hostile.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["http://", "https://", "mailto:", "/", "#"]
        .iter()
        .any(|p| lower.starts_with(p))
        || !lower.contains(':')
}

pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe_url(&dest_url) => Event::Start(Tag::Link {
            link_type,
            dest_url: CowStr::Borrowed("#"),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe_url(&dest_url) => Event::Start(Tag::Image {
            link_type,
            dest_url: CowStr::Borrowed(""),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// Plain text that marks code with backticks (drill questions, prompts, explanations) as HTML:
/// escaped, with each `code` span in `<code>`. Not Markdown: a numeric prompt's `2 * 3 * 4`
/// must not turn into emphasis. Unpaired backticks stay as written.
pub fn code_spans(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    let parts: Vec<&str> = escaped.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return escaped;
    }
    let mut out = String::with_capacity(escaped.len() + 16 * parts.len());
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{code_spans, to_html};

    #[test]
    fn code_spans_mark_code_and_escape_the_rest() {
        assert_eq!(
            code_spans("`view` vs <b>'x'</b> & 2 * 3 * 4"),
            "<code>view</code> vs &lt;b&gt;&#39;x&#39;&lt;/b&gt; &amp; 2 * 3 * 4"
        );
        assert_eq!(code_spans("a ` b"), "a ` b");
    }

    #[test]
    fn renders_markdown_and_escapes_raw_html() {
        let html =
            to_html("## Task\n\n`x` *y*\n\n<script>alert(1)</script>\n\n| a |\n|---|\n| 1 |\n");
        assert!(html.contains("<h2>Task</h2>"), "{html}");
        assert!(html.contains("<code>x</code>"));
        assert!(html.contains("<table>"));
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
        let inline = to_html("a <img src=x onerror=alert(1)> b");
        assert!(!inline.contains("<img"), "{inline}");
    }

    #[test]
    fn drops_script_links() {
        let html = to_html("[x](javascript:alert(1)) [y](https://example.org) [z](#k)");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("https://example.org"));
    }
}
