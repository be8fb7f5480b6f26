//! The LaTeX converter on statement-like input.

use super::latex::to_markdown;

#[test]
fn a_statement_reads_as_markdown() {
    let tex = "\\problemname{Adding Up}\n% a comment line\nGiven $n$ numbers~--- all \\emph{positive} --- print\n\
               their sum.\\footnote{Mod nothing.} 50\\% of it is \\textbf{fine} \\& so on\\ldots\n\n\
               \\section*{Input}\nThe line holds \\texttt{n} and Caf\\'e, na\\\"{i}ve.\n\
               \\begin{itemize}\n  \\item first\n  \\item second \\verb|x_1|\n\\end{itemize}\n\
               \\illustration{0.3}{pic.png}{A picture}\n\\section{Output}\nOne line.\\\\Next $$x^2$$.\n";
    let md = to_markdown(tex);
    assert_eq!(md.title.as_deref(), Some("Adding Up"));
    let text = md.markdown;
    for expected in [
        "# Adding Up",
        "Given $n$ numbers — all *positive* — print",
        "sum. (Mod nothing.) 50% of it is **fine** & so on…",
        "## Input",
        "`n` and Café, naïve.",
        "- first\n- second `x_1`",
        "*(illustration: A picture)*",
        "## Output",
        "One line.\nNext $$x^2$$.",
    ] {
        assert!(text.contains(expected), "`{expected}` not in:\n{text}");
    }
    assert!(!text.contains("comment"), "{text}");
}

#[test]
fn tables_verbatim_and_unknown_commands() {
    let tex = "\\begin{tabular}{|l|r|}\\hline a & b \\\\ \\hline 1 & 2\\\\\\end{tabular}\n\
               \\begin{verbatim}\nkeep \\this{}\n\\end{verbatim}\n\\unknown[opt]{kept}{too} \\\\\n\
               \\begin{enumerate}\\item one\\item two\\end{enumerate}";
    let text = to_markdown(tex).markdown;
    assert!(text.contains("| a | b |\n|---|---|\n| 1 | 2 |"), "{text}");
    assert!(text.contains("```\nkeep \\this{}\n```"), "{text}");
    assert!(text.contains("kept too"), "{text}");
    assert!(text.contains("1. one\n1. two"), "{text}");
}

#[test]
fn deep_nesting_is_bounded() {
    let tex = format!("{}x{}", "{".repeat(100_000), "}".repeat(100_000));
    let text = to_markdown(&tex).markdown;
    assert!(text.contains('x'));
}
