//! Text helpers of the LaTeX converter: comments, whitespace, code spans, tables and accents.

/// Cell and row separators inside a `tabular`, turned into a Markdown table afterwards.
pub const CELL: char = '\u{1}';
pub const ROW: char = '\u{2}';

/// Drops `%` comments; a line that was only a comment goes entirely, as in TeX.
pub fn strip_comments(tex: &str) -> String {
    let mut out = String::with_capacity(tex.len());
    for line in tex.lines() {
        let mut cut = None;
        let mut escaped = false;
        for (i, c) in line.char_indices() {
            match c {
                '\\' => escaped = !escaped,
                '%' if !escaped => {
                    cut = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        match cut {
            Some(i) if line[..i].trim().is_empty() => {}
            Some(i) => {
                out.push_str(&line[..i]);
                out.push('\n');
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Folds runs of blank lines and trailing spaces.
pub fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out.push('\n');
    out
}

/// `text` between `mark`s, with its surrounding spaces kept outside (Markdown needs that).
pub fn wrap(mark: &str, text: &str) -> String {
    let inner = text.trim();
    if inner.is_empty() {
        return text.to_string();
    }
    format!("{mark}{inner}{mark}")
}

/// An inline code span, with enough backticks for the text.
pub fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// A Markdown table from `tabular` text: the first row is the header.
pub fn table(body: &str) -> String {
    let rows: Vec<Vec<String>> = body
        .split(ROW)
        .map(|row| {
            row.split(CELL)
                .map(|cell| cell.split_whitespace().collect::<Vec<_>>().join(" "))
                .map(|cell| cell.replace('|', "\\|"))
                .collect::<Vec<String>>()
        })
        .filter(|cells| cells.iter().any(|c| !c.is_empty()))
        .collect();
    let Some(width) = rows.iter().map(Vec::len).max() else {
        return String::new();
    };
    let line = |cells: &[String]| {
        let mut padded: Vec<String> = cells.to_vec();
        padded.resize(width, String::new());
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = String::from("\n\n");
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&line(row));
        if i == 0 {
            out.push_str(&format!("|{}\n", "---|".repeat(width)));
        }
    }
    out.push('\n');
    out
}

/// A letter with a TeX accent (`\'e` → é); unknown pairs keep the bare letter.
pub fn accented(accent: char, letter: &str) -> String {
    let combining = match accent {
        '\'' => '\u{301}',
        '`' => '\u{300}',
        '^' => '\u{302}',
        '"' => '\u{308}',
        '~' => '\u{303}',
        '=' => '\u{304}',
        _ => '\u{307}',
    };
    #[rustfmt::skip]
    const TABLE: &[(char, char, char)] = &[
        ('\'', 'a', 'á'), ('\'', 'e', 'é'), ('\'', 'i', 'í'), ('\'', 'o', 'ó'), ('\'', 'u', 'ú'),
        ('\'', 'E', 'É'), ('\'', 'y', 'ý'), ('`', 'a', 'à'), ('`', 'e', 'è'), ('`', 'i', 'ì'),
        ('`', 'o', 'ò'), ('`', 'u', 'ù'), ('^', 'a', 'â'), ('^', 'e', 'ê'), ('^', 'i', 'î'),
        ('^', 'o', 'ô'), ('^', 'u', 'û'), ('"', 'a', 'ä'), ('"', 'e', 'ë'), ('"', 'i', 'ï'),
        ('"', 'o', 'ö'), ('"', 'u', 'ü'), ('"', 'A', 'Ä'), ('"', 'O', 'Ö'), ('"', 'U', 'Ü'),
        ('~', 'n', 'ñ'), ('~', 'a', 'ã'), ('~', 'o', 'õ'), ('~', 'N', 'Ñ'),
    ];
    let mut chars = letter.trim().chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let rest: String = chars.collect();
    match TABLE.iter().find(|(a, l, _)| *a == accent && *l == first) {
        Some((_, _, done)) => format!("{done}{rest}"),
        None => format!("{first}{combining}{rest}"),
    }
}
