//! A kata's `README.md`, split into the parts the browser shows separately: the statement, the
//! hints (revealed one at a time) and the concept notes (unlocked once solved).
//!
//! Convention: `# Title`, then `## ` sections. Hints are the top-level `- ` items of
//! `## Hints`; an item continues on following indented lines.

/// Sections every statement must have, in this order.
pub const REQUIRED_SECTIONS: [&str; 7] = [
    "The question",
    "Task",
    "Constraints",
    "Examples",
    "Complexity",
    "Hints",
    "Concept",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub title: String,
    /// `(heading, markdown body)` in file order, hints and concept included.
    pub sections: Vec<(String, String)>,
}

impl Statement {
    pub fn parse(markdown: &str) -> Self {
        let mut title = String::new();
        let mut sections: Vec<(String, String)> = Vec::new();
        let mut in_fence = false;
        for line in markdown.lines() {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            if !in_fence {
                if let Some(h) = line.strip_prefix("# ")
                    && title.is_empty()
                {
                    title = h.trim().to_string();
                    continue;
                }
                if let Some(h) = line.strip_prefix("## ") {
                    sections.push((h.trim().to_string(), String::new()));
                    continue;
                }
            }
            if let Some((_, body)) = sections.last_mut() {
                body.push_str(line);
                body.push('\n');
            }
        }
        for (_, body) in &mut sections {
            *body = body.trim().to_string();
        }
        Self { title, sections }
    }

    pub fn section(&self, heading: &str) -> Option<&str> {
        self.sections
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(heading))
            .map(|(_, b)| b.as_str())
    }

    /// The hints, in order of reveal.
    pub fn hints(&self) -> Vec<String> {
        let Some(body) = self.section("Hints") else {
            return Vec::new();
        };
        let mut hints: Vec<String> = Vec::new();
        for line in body.lines() {
            if let Some(item) = line.strip_prefix("- ") {
                hints.push(item.trim().to_string());
            } else if let Some(last) = hints.last_mut()
                && !line.trim().is_empty()
            {
                last.push(' ');
                last.push_str(line.trim());
            }
        }
        hints
    }

    /// The concept notes, shown after the kata is solved.
    pub fn concept(&self) -> Option<&str> {
        self.section("Concept")
    }

    /// The statement a learner sees before solving: every section except hints and concept.
    pub fn public_markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        for (heading, body) in &self.sections {
            if heading == "Hints" || heading == "Concept" {
                continue;
            }
            out.push_str(&format!("## {heading}\n\n{body}\n\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_sections_hints_and_ignores_headings_in_code() {
        let md = "# T\n\n## Task\nDo it.\n```\n## not a heading\n```\n## Hints\n- one\n  more\n- two\n## Concept\nIdea.\n";
        let s = Statement::parse(md);
        assert_eq!(s.title, "T");
        assert_eq!(
            s.section("task").unwrap(),
            "Do it.\n```\n## not a heading\n```"
        );
        assert_eq!(s.hints(), vec!["one more".to_string(), "two".to_string()]);
        assert_eq!(s.concept(), Some("Idea."));
        assert!(!s.public_markdown().contains("Idea."));
    }
}
