//! A small LaTeX → Markdown converter for Kattis statements: readable output for the subset
//! statements use (`\problemname`, sections, lists, emphasis, verbatim, tables, math), not a
//! TeX engine. Math stays as written between `$…$`; unknown commands keep their arguments'
//! text. Nesting is bounded, so a hostile statement cannot exhaust the stack: past
//! [`MAX_DEPTH`] a group is copied as raw text.

use super::latex_text::{CELL, ROW, accented, code, strip_comments, table, tidy, wrap};

const MAX_DEPTH: usize = 64;

/// A converted statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The argument of `\problemname{…}`, if any.
    pub title: Option<String>,
    /// Markdown; `\problemname` becomes `# …`, `\section` `## …`, `\subsection` `### …`.
    pub markdown: String,
}

pub fn to_markdown(tex: &str) -> Converted {
    let body = match (tex.find("\\begin{document}"), tex.find("\\end{document}")) {
        (Some(start), end) => {
            let start = start + "\\begin{document}".len();
            &tex[start..end.filter(|&e| e >= start).unwrap_or(tex.len())]
        }
        _ => tex,
    };
    let mut conv = Conv {
        chars: strip_comments(body).chars().collect(),
        pos: 0,
        depth: 0,
        title: None,
        lists: Vec::new(),
        in_table: false,
    };
    let text = conv.until(Stop::End);
    Converted {
        title: conv.title,
        markdown: tidy(&text),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop<'a> {
    End,
    Brace,
    Env(&'a str),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum List {
    Bullets,
    Numbers,
    Terms,
}

struct Conv {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    title: Option<String>,
    lists: Vec<List>,
    in_table: bool,
}

impl Conv {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
    }

    /// Converts up to `stop` (consumed) or the end of input.
    fn until(&mut self, stop: Stop<'_>) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            match c {
                '}' if stop == Stop::Brace => {
                    self.pos += 1;
                    return out;
                }
                '}' => self.pos += 1,
                '{' => {
                    self.pos += 1;
                    out.push_str(&self.group());
                }
                '\\' => {
                    if let Stop::Env(name) = stop
                        && self.starts_with(&format!("\\end{{{name}}}"))
                    {
                        self.pos += name.chars().count() + 6;
                        return out;
                    }
                    self.pos += 1;
                    self.escape(&mut out);
                }
                '$' => out.push_str(&self.math()),
                '\n' => {
                    self.pos += 1;
                    out.push('\n');
                    self.skip_spaces();
                }
                '~' => {
                    self.pos += 1;
                    out.push(' ');
                }
                '&' if self.in_table => {
                    self.pos += 1;
                    out.push(CELL);
                }
                '-' if self.starts_with("---") => {
                    self.pos += 3;
                    out.push('—');
                }
                '-' if self.starts_with("--") => {
                    self.pos += 2;
                    out.push('–');
                }
                '`' if self.starts_with("``") => {
                    self.pos += 2;
                    out.push('“');
                }
                '\'' if self.starts_with("''") => {
                    self.pos += 2;
                    out.push('”');
                }
                // Markdown would read these as emphasis.
                '*' | '_' => {
                    self.pos += 1;
                    out.push('\\');
                    out.push(c);
                }
                _ => {
                    self.pos += 1;
                    out.push(c);
                }
            }
        }
        out
    }

    /// The rest of a `{…}` group (its `{` consumed), converted; raw past the depth bound.
    fn group(&mut self) -> String {
        if self.depth >= MAX_DEPTH {
            return self.raw_group();
        }
        self.depth += 1;
        let text = self.until(Stop::Brace);
        self.depth -= 1;
        text
    }

    /// The rest of a `{…}` group as written, braces balanced.
    fn raw_group(&mut self) -> String {
        let mut depth = 1usize;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                '\\' => {
                    out.push(c);
                    if let Some(next) = self.peek() {
                        self.pos += 1;
                        out.push(next);
                    }
                    continue;
                }
                _ => {}
            }
            out.push(c);
        }
        out
    }

    /// A required argument, converted: `{…}` or a single character.
    fn arg(&mut self) -> String {
        self.skip_spaces();
        match self.peek() {
            Some('{') => {
                self.pos += 1;
                self.group()
            }
            Some('\\') => {
                let mut out = String::new();
                self.pos += 1;
                self.escape(&mut out);
                out
            }
            Some(c) => {
                self.pos += 1;
                c.to_string()
            }
            None => String::new(),
        }
    }

    /// A required argument as written (file names, URLs).
    fn raw_arg(&mut self) -> String {
        self.skip_spaces();
        if self.peek() == Some('{') {
            self.pos += 1;
            self.raw_group()
        } else {
            self.arg()
        }
    }

    /// An optional `[…]` argument as written, if present.
    fn optional(&mut self) -> Option<String> {
        self.skip_spaces();
        if self.peek() != Some('[') {
            return None;
        }
        self.pos += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == ']' {
                break;
            }
            out.push(c);
        }
        Some(out)
    }

    /// Raw text up to `end` (consumed).
    fn raw_until(&mut self, end: &str) -> String {
        let mut out = String::new();
        while self.peek().is_some() && !self.starts_with(end) {
            out.push(self.chars[self.pos]);
            self.pos += 1;
        }
        self.pos = (self.pos + end.chars().count()).min(self.chars.len());
        out
    }

    /// `$…$` or `$$…$$`, kept as written.
    fn math(&mut self) -> String {
        if self.starts_with("$$") {
            self.pos += 2;
            format!("$${}$$", self.raw_until("$$"))
        } else {
            self.pos += 1;
            let mut out = String::from("$");
            while let Some(c) = self.peek() {
                self.pos += 1;
                out.push(c);
                match c {
                    '\\' => {
                        if let Some(next) = self.peek() {
                            self.pos += 1;
                            out.push(next);
                        }
                    }
                    '$' => break,
                    _ => {}
                }
            }
            out
        }
    }

    /// After a `\`: a control symbol or a command.
    fn escape(&mut self, out: &mut String) {
        let Some(c) = self.peek() else { return };
        if !c.is_ascii_alphabetic() {
            self.pos += 1;
            match c {
                '\\' if self.in_table => out.push(ROW),
                '\\' => {
                    self.optional();
                    out.push('\n');
                }
                '%' | '&' | '$' | '{' | '}' => out.push(c),
                '_' | '#' => {
                    out.push('\\');
                    out.push(c);
                }
                ',' | ' ' | ';' | ':' => out.push(' '),
                '[' => out.push_str(&format!("$${}$$", self.raw_until("\\]"))),
                '(' => out.push_str(&format!("${}$", self.raw_until("\\)"))),
                '\'' | '`' | '^' | '"' | '~' | '=' | '.' => {
                    let letter = self.arg();
                    out.push_str(&accented(c, &letter));
                }
                _ => {}
            }
            return;
        }
        let mut name = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            name.push(c);
            self.pos += 1;
        }
        if self.peek() == Some('*') {
            self.pos += 1;
        }
        self.skip_spaces();
        self.command(&name, out);
    }

    fn command(&mut self, name: &str, out: &mut String) {
        match name {
            "problemname" => {
                let title = self.arg().trim().to_string();
                out.push_str(&format!("\n# {title}\n\n"));
                self.title.get_or_insert(title);
            }
            "section" | "subsection" | "subsubsection" => {
                self.optional();
                let level = match name {
                    "section" => "##",
                    "subsection" => "###",
                    _ => "####",
                };
                out.push_str(&format!("\n\n{level} {}\n\n", self.arg().trim()));
            }
            "paragraph" => out.push_str(&format!("\n\n**{}** ", self.arg().trim())),
            "emph" | "textit" | "textsl" => out.push_str(&wrap("*", &self.arg())),
            "textbf" => out.push_str(&wrap("**", &self.arg())),
            "texttt" | "code" => out.push_str(&code(&self.raw_arg())),
            "verb" => {
                let Some(delim) = self.peek() else { return };
                self.pos += 1;
                let text = self.raw_until(&delim.to_string());
                out.push_str(&code(&text));
            }
            "begin" => self.environment(out),
            "end" => {
                self.raw_arg();
            }
            "item" => {
                // Items follow each other without blank lines: a tight list.
                let kept = out.trim_end_matches([' ', '\t', '\n']).len();
                out.truncate(kept);
                let depth = self.lists.len().max(1) - 1;
                let indent = "  ".repeat(depth);
                match self.lists.last() {
                    Some(List::Numbers) => out.push_str(&format!("\n{indent}1. ")),
                    Some(List::Terms) => {
                        let term = self.optional().unwrap_or_default();
                        out.push_str(&format!("\n{indent}- **{}** ", term.trim()));
                    }
                    _ => out.push_str(&format!("\n{indent}- ")),
                }
            }
            "illustration" => {
                let (_width, _file, caption) = (self.arg(), self.raw_arg(), self.arg());
                out.push_str(&format!("\n\n*(illustration: {})*\n\n", caption.trim()));
            }
            "includegraphics" => {
                self.optional();
                out.push_str(&format!("*(image: {})*", self.raw_arg().trim()));
            }
            "url" => out.push_str(&format!("<{}>", self.raw_arg().trim())),
            "href" => {
                let url = self.raw_arg();
                let text = self.arg();
                out.push_str(&format!("[{}]({})", text.trim(), url.trim()));
            }
            "footnote" => out.push_str(&format!(" ({})", self.arg().trim())),
            "ldots" | "dots" | "textellipsis" => out.push('…'),
            "LaTeX" => out.push_str("LaTeX"),
            "TeX" => out.push_str("TeX"),
            "newline" | "linebreak" => out.push('\n'),
            "par" => out.push_str("\n\n"),
            "label" | "vspace" | "hspace" => {
                self.raw_arg();
            }
            "cite" => out.push_str(&format!("[{}]", self.raw_arg())),
            "hline" | "noindent" | "medskip" | "bigskip" | "smallskip" | "centering"
            | "clearpage" | "newpage" | "maketitle" | "small" | "large" | "Large" | "huge"
            | "footnotesize" | "normalsize" | "tiny" | "scriptsize" => {}
            _ => {
                // Unknown: drop its options and keep the text of its arguments.
                self.optional();
                let mut parts = Vec::new();
                while self.peek() == Some('{') {
                    self.pos += 1;
                    parts.push(self.group());
                }
                out.push_str(&parts.join(" "));
            }
        }
    }

    fn environment(&mut self, out: &mut String) {
        let name = self.raw_arg().trim().to_string();
        let end = format!("\\end{{{name}}}");
        match name.as_str() {
            "verbatim" | "lstlisting" | "Verbatim" => {
                self.optional();
                let text = self.raw_until(&end);
                let text = text.trim_matches('\n');
                let fence = super::readme::fence_for(text);
                out.push_str(&format!("\n\n{fence}\n{text}\n{fence}\n\n"));
            }
            "equation" | "equation*" | "align" | "align*" | "displaymath" | "eqnarray"
            | "eqnarray*" | "gather" | "gather*" | "multline" | "multline*" => {
                let text = self.raw_until(&end);
                out.push_str(&format!("\n\n$$\n{}\n$$\n\n", text.trim()));
            }
            "itemize" | "enumerate" | "description" => {
                self.optional();
                self.lists.push(match name.as_str() {
                    "itemize" => List::Bullets,
                    "enumerate" => List::Numbers,
                    _ => List::Terms,
                });
                let body = self.nested(&name);
                self.lists.pop();
                out.push_str(&format!("\n{body}\n\n"));
            }
            "tabular" | "tabular*" | "array" => {
                self.optional();
                self.raw_arg(); // column specification
                let was = std::mem::replace(&mut self.in_table, true);
                let body = self.nested(&name);
                self.in_table = was;
                out.push_str(&table(&body));
            }
            _ => {
                self.optional();
                out.push_str(&self.nested(&name));
            }
        }
    }

    /// An environment's converted body, up to its `\end`.
    fn nested(&mut self, name: &str) -> String {
        if self.depth >= MAX_DEPTH {
            return self.raw_until(&format!("\\end{{{name}}}"));
        }
        self.depth += 1;
        let text = self.until(Stop::Env(name));
        self.depth -= 1;
        text
    }
}
