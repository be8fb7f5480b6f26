//! The source check that runs before rustc: words that are unsafe in effect are refused in the
//! learner's file, because `#![forbid(unsafe_code)]` at the generated crate root is not a
//! complete wall.
//!
//! What rustc 1.95 does with each candidate, compiled exactly as `compile.rs` compiles a
//! submission (edition 2024, the file as a `#[path]` module of a root carrying
//! `#![forbid(unsafe_code)]`):
//!
//! | feature | accepted under the lint? | effect | here |
//! |---|---|---|---|
//! | `#[unsafe(naked)] extern "C" fn` + `naked_asm!` | **yes**, also through `cfg_attr`, a `macro_rules!` argument, `r#naked`, `use core::arch::naked_asm as n` | arbitrary machine code (a `syscall` instruction ran) | `naked`, `naked_asm` everywhere |
//! | a first line `#!/*` and a later `// */` | **yes**: rustc drops the first line as a shebang; a plain tokenizer sees one block comment | hid a naked function from a token check; it ran | a file may start with `#!` only as `#![` |
//! | `#[path = "…"] mod m;`, `include!` (also `use std::include as i`) | **yes** | compiles a file this check never read (a naked function in it ran) | `path` in attributes, `include` as a macro |
//! | `#[global_allocator] static A: System` (also `use core::prelude::v1::global_allocator as g`) | **yes** | swaps the allocator behind every allocation (only `System` today: an allocator of one's own needs `unsafe impl`) | `global_allocator` everywhere |
//! | `#[target_feature(enable = "avx512f")] fn` | **yes**; calling it needs `unsafe` (E0133), as a safe `fn` pointer E0308 | AVX-512 code, which valgrind cannot run, the day it becomes reachable | `target_feature` everywhere |
//! | `#![debugger_visualizer(gdb_script_file = …)]` | **yes** | with `-g`, a gdb script in `.debug_gdb_scripts` a host debugger may auto-load; inert without `-g` (our flags) | `debugger_visualizer` everywhere |
//! | `#[used]` | **yes** | keeps an unused static; half of the `.init_array` trick | `used` in attributes |
//! | `#[link]`, `#[link_name]` on a `fn` | **yes**, a warning | none; they act only on extern blocks | `link`, `link_name` (below) |
//! | `global_asm!` (also renamed) | no: "usage of `core::arch::global_asm`" | `.init_array` entry: code before `main` | `global_asm` everywhere |
//! | `asm!` | no: needs an `unsafe` block | raw system calls | `asm` everywhere |
//! | `#[unsafe(no_mangle)]`, `#[unsafe(export_name)]`, also via `cfg_attr` or `macro_rules!` | no: declaration with `no_mangle`/`export_name` | replaces C symbols (`getpid`, `malloc`, `main`) | `no_mangle`, `export_name` everywhere |
//! | `#[unsafe(link_section = ".init_array")]` | no: declaration with `link_section` | code before `main` | `link_section` everywhere |
//! | `unsafe extern` block (`safe fn`, or empty with `#[link]`) | no: "usage of an `unsafe extern` block"; a plain `extern` block is an error in 2024 | libc's `syscall`; a native library linked in | `link` in attributes, `link_name` everywhere |
//! | `#[panic_handler]` | no: duplicate lang item (E0152) | replaces panicking | `panic_handler` everywhere |
//! | `#[no_mangle]`, `#[naked]`… without `unsafe(…)` | no: an error in edition 2024 (so `-D unsafe_attr_outside_unsafe` adds nothing) | — | — |
//! | `allow` or `expect` of the `unsafe_code` lint | no: E0453 under `forbid` | — | — |
//! | `#[instruction_set]`, `#[ffi_pure]`, `#[ffi_const]`, `#[linkage]`, `#[rustc_*]` | no: unsupported on x86-64, or unstable (E0658) | — | — |
//! | `#![feature]`, `#![no_std]`, `#![no_main]`, `#![no_builtins]` in the module | yes, a warning | none: crate-root attributes, and the root is ours | — |
//! | `extern crate libc`, `extern crate compiler_builtins` | no: `rustc_private` (E0658) | — | — |
//! | `extern crate core as x`, `alloc`, `std`, `proc_macro` | yes | nothing a solution does not have already | — |
//!
//! `-F unsafe_code` on rustc's command line (kept in `compile.rs`) repeats the root's
//! `forbid`; it does not catch `naked` either.
//!
//! The check, and why it is sound: on stable Rust, with no procedural macro reachable (the
//! `katas` library exports no macros, and its dependencies are not on the extern path), an
//! identifier cannot be synthesised — every identifier rustc sees is written in the learner's
//! file (`include!` and `#[path]`, which would add another file, are themselves refused). So the
//! file is split into tokens the way rustc splits it (after what rustc does before lexing:
//! dropping a byte-order mark and the `\r` of each CRLF; a shebang line, which rustc drops too,
//! is refused), raw identifiers are read without `r#`, and a reserved word is refused:
//! - **everywhere** (words no solution needs as a name), so that refusing them does not depend
//!   on the position analysis below; or
//! - **in attributes** (`used`, `link`, `path`: common words, but inert attributes, which
//!   cannot be imported or renamed): inside `#[…]`/`#![…]`, and, when the file defines a
//!   `macro_rules!`, anywhere inside a macro's arguments or body (a metavariable can carry the
//!   word into an attribute); no standard macro builds an attribute from a bare word; or
//! - **as a macro** (`include`): as above, and also as a macro's name and in `use` items, where
//!   a macro can be renamed.
//!
//! So a variable named `used`, `link`, `path` or `include`, and `use std::path::Path`, are
//! accepted; `cfg!(target_feature = …)` is not (an explained false positive).
//!
//! rustc also NFC-normalises identifiers; the only non-ASCII character that NFC maps to ASCII is
//! U+212A KELVIN SIGN (to `K`), and no reserved word contains a `K`. A file that does not split
//! into tokens falls back to refusing a reserved word anywhere in its text, comments included;
//! without one, rustc runs and reports the syntax error itself.

use crate::diagnostics::Diagnostic;
use crate::source::LEARNER_FILE;
use katas::Message;
use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Where a reserved word is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    Everywhere,
    /// Inside attributes, and inside macros' arguments and bodies in a file that defines a
    /// macro: inert attributes, which cannot be imported or renamed.
    Attribute,
    /// Also as a macro's name and in `use` items, where a macro can be renamed.
    Macro,
}

struct Reserved {
    word: &'static str,
    reach: Reach,
    /// Why, in English and 中文.
    reason: (&'static str, &'static str),
}

const RESERVED: &[Reserved] = &[
    Reserved {
        word: "naked",
        reach: Reach::Everywhere,
        reason: (
            "a naked function runs raw machine code, and rustc does not count it as unsafe code",
            "naked 函数直接运行机器码，而 rustc 不把它算作 unsafe 代码",
        ),
    },
    Reserved {
        word: "naked_asm",
        reach: Reach::Everywhere,
        reason: (
            "the assembly body of a naked function (raw machine code)",
            "naked 函数的汇编函数体（直接的机器码）",
        ),
    },
    Reserved {
        word: "global_asm",
        reach: Reach::Everywhere,
        reason: (
            "module-level assembly can run code before `main`",
            "模块级汇编可以在 `main` 之前运行代码",
        ),
    },
    Reserved {
        word: "asm",
        reach: Reach::Everywhere,
        reason: (
            "inline assembly can make raw system calls",
            "内联汇编可以直接发起系统调用",
        ),
    },
    Reserved {
        word: "no_mangle",
        reach: Reach::Everywhere,
        reason: (
            "an unmangled symbol can replace a C function the program relies on",
            "不经名字修饰的符号可以顶替程序依赖的 C 函数",
        ),
    },
    Reserved {
        word: "export_name",
        reach: Reach::Everywhere,
        reason: (
            "an exported symbol name can replace a C function or `main`",
            "导出的符号名可以顶替 C 函数或 `main`",
        ),
    },
    Reserved {
        word: "link_section",
        reach: Reach::Everywhere,
        reason: (
            "a chosen link section (e.g. `.init_array`) can run code before `main`",
            "指定的链接段（例如 `.init_array`）可以在 `main` 之前运行代码",
        ),
    },
    Reserved {
        word: "link_name",
        reach: Reach::Everywhere,
        reason: (
            "binds a declaration to an arbitrary native symbol",
            "会把声明绑定到任意的本地符号",
        ),
    },
    Reserved {
        word: "target_feature",
        reach: Reach::Everywhere,
        reason: (
            "code for CPU features the grader's measuring (valgrind) cannot run, e.g. AVX-512",
            "为评测器的测量工具（valgrind）无法运行的 CPU 特性生成代码，例如 AVX-512",
        ),
    },
    Reserved {
        word: "global_allocator",
        reach: Reach::Everywhere,
        reason: (
            "replaces the allocator behind every allocation of the program",
            "会替换程序所有内存分配背后的分配器",
        ),
    },
    Reserved {
        word: "panic_handler",
        reach: Reach::Everywhere,
        reason: (
            "replaces the program's panic machinery",
            "会替换程序的 panic 机制",
        ),
    },
    Reserved {
        word: "debugger_visualizer",
        reach: Reach::Everywhere,
        reason: (
            "embeds a script that a debugger on the grading host may run",
            "会嵌入评测主机上的调试器可能运行的脚本",
        ),
    },
    Reserved {
        word: "include",
        reach: Reach::Macro,
        reason: (
            "`include!` compiles another file, which this check has not read",
            "`include!` 会编译另一个文件，而这项检查没有读过它",
        ),
    },
    Reserved {
        word: "path",
        reach: Reach::Attribute,
        reason: (
            "`#[path]` compiles another file, which this check has not read",
            "`#[path]` 会编译另一个文件，而这项检查没有读过它",
        ),
    },
    Reserved {
        word: "used",
        reach: Reach::Attribute,
        reason: (
            "`#[used]` keeps a static for the linker (half of the run-before-`main` trick)",
            "`#[used]` 会为链接器保留一个 static（在 `main` 之前运行代码的手法的一半）",
        ),
    },
    Reserved {
        word: "link",
        reach: Reach::Attribute,
        reason: (
            "`#[link]` links a native library into the program",
            "`#[link]` 会把本地库链接进程序",
        ),
    },
];

/// One refused place in the learner's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The reserved word (without `r#`), or `#!` for a shebang line.
    pub word: &'static str,
    /// 1-based, like rustc's.
    pub line: u32,
    /// 1-based, in characters, like rustc's.
    pub column: u32,
    pub end_column: u32,
    /// Why, in English and 中文.
    pub reason: (&'static str, &'static str),
}

impl Refusal {
    /// The learner-facing sentence: position, the reserved word, why.
    pub fn message(&self) -> Message {
        Message::new(
            format!(
                "line {}, column {}: `{}` is reserved by the grader: {}",
                self.line, self.column, self.word, self.reason.0
            ),
            format!(
                "第 {} 行第 {} 列：`{}` 是评测器保留的词：{}",
                self.line, self.column, self.word, self.reason.1
            ),
        )
    }

    /// The same report type rustc's errors become, on the learner's line.
    pub fn diagnostic(&self, source: &str) -> Diagnostic {
        let text = source
            .lines()
            .nth(self.line as usize - 1)
            .unwrap_or_default();
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        let carets = "^".repeat((self.end_column.saturating_sub(self.column)).max(1) as usize);
        let rendered = format!(
            "error: `{word}` is reserved by the grader\n{pad}--> {LEARNER_FILE}:{line}:{column}\n\
             {pad} |\n{number} | {text}\n{pad} | {indent}{carets} {reason}\n",
            word = self.word,
            line = self.line,
            column = self.column,
            indent = " ".repeat(self.column as usize - 1),
            reason = self.reason.0,
        );
        Diagnostic {
            level: "error".into(),
            code: None,
            message: self.message(),
            line: Some(self.line),
            column: Some(self.column),
            end_line: Some(self.line),
            end_column: Some(self.end_column),
            rendered,
            labels: vec![self.reason.0.to_string()],
        }
    }
}

/// Every refused place in `source`, in file order (empty: rustc may see it).
pub fn check(source: &str) -> Vec<Refusal> {
    let text = as_rustc_reads(source);
    if let Some(refusal) = shebang(&text) {
        return vec![refusal];
    }
    let found = match text.parse::<TokenStream>() {
        Ok(tokens) => {
            let mut scan = Scan {
                defines_macros: defines_macros(tokens.clone()),
                found: Vec::new(),
            };
            scan.file(tokens);
            scan.found
        }
        Err(_) => words_in_text(&text),
    };
    // The lexer keeps every parsed text for span positions; ours are copied out by now.
    proc_macro2::extra::invalidate_current_thread_spans();
    found
}

/// What rustc removes before lexing: a UTF-8 byte-order mark, and `\r` of each CRLF.
fn as_rustc_reads(source: &str) -> String {
    source
        .strip_prefix('\u{feff}')
        .unwrap_or(source)
        .replace("\r\n", "\n")
}

/// rustc drops a first line starting with `#!` unless an attribute (`[`) follows, skipping
/// whitespace *and comments* to decide; our tokenizer does not, so `#!/*` … `// */` would hide
/// the lines between from it. Only `#!` directly followed (spaces aside) by `[` is kept.
fn shebang(text: &str) -> Option<Refusal> {
    let rest = text.strip_prefix("#!")?;
    if rest.trim_start_matches([' ', '\t']).starts_with('[') {
        return None;
    }
    Some(Refusal {
        word: "#!",
        line: 1,
        column: 1,
        end_column: 3,
        reason: (
            "rustc skips a first line starting with `#!` (a shebang), so it could hide code \
             from this check; start the file with something else",
            "rustc 会跳过以 `#!` 开头的第一行（shebang），那里可以藏住代码躲过这项检查；\
             请让文件以别的内容开头",
        ),
    })
}

/// Whether the file defines a macro (`macro_rules! name`), anywhere.
fn defines_macros(tokens: TokenStream) -> bool {
    // Iterative: a learner's file may nest brackets tens of thousands deep.
    let mut pending = vec![tokens];
    while let Some(tokens) = pending.pop() {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(id) if id == "macro_rules" && is_bang(trees.get(i + 1)) => {
                    return true;
                }
                TokenTree::Group(g) => pending.push(g.stream()),
                _ => {}
            }
        }
    }
    false
}

struct Scan {
    defines_macros: bool,
    found: Vec<Refusal>,
}

/// A token stream still to read, and where it sits.
struct Pending {
    tokens: TokenStream,
    /// Inside an attribute, or, in a file defining macros, a macro's input or body.
    attribute: bool,
    /// Inside a `use` item.
    import: bool,
}

impl Scan {
    /// Iterative, like [`defines_macros`]; refusals are sorted into file order at the end.
    fn file(&mut self, tokens: TokenStream) {
        let mut pending = vec![Pending {
            tokens,
            attribute: false,
            import: false,
        }];
        while let Some(Pending {
            tokens,
            attribute,
            import,
        }) = pending.pop()
        {
            let trees: Vec<TokenTree> = tokens.into_iter().collect();
            let mut use_item = false;
            for (i, tree) in trees.iter().enumerate() {
                let at = |k: usize| i.checked_sub(k).and_then(|p| trees.get(p));
                match tree {
                    TokenTree::Ident(id) => {
                        let macro_name = is_bang(trees.get(i + 1));
                        self.ident(id, attribute, import || use_item || macro_name);
                        if id == "use" && !is_punct(trees.get(i + 1), '<') {
                            use_item = true; // `use<'a>` is precise capturing, not an import
                        }
                    }
                    TokenTree::Punct(p) if p.as_char() == ';' => use_item = false,
                    TokenTree::Punct(_) | TokenTree::Literal(_) => {}
                    TokenTree::Group(g) => {
                        let is_attribute = g.delimiter() == Delimiter::Bracket
                            && (is_punct(at(1), '#')
                                || (is_punct(at(1), '!') && is_punct(at(2), '#')));
                        let macro_input = self.defines_macros && follows_macro_name(&trees, i);
                        pending.push(Pending {
                            tokens: g.stream(),
                            attribute: attribute || is_attribute || macro_input,
                            import: import || use_item,
                        });
                    }
                }
            }
        }
        self.found.sort_by_key(|r| (r.line, r.column));
    }

    /// `renamable`: a macro's name, or inside a `use` item.
    fn ident(&mut self, id: &proc_macro2::Ident, attribute: bool, renamable: bool) {
        let written = id.to_string();
        let word = written.strip_prefix("r#").unwrap_or(&written);
        let Some(reserved) = RESERVED.iter().find(|r| r.word == word) else {
            return;
        };
        let refused = match reserved.reach {
            Reach::Everywhere => true,
            Reach::Attribute => attribute,
            Reach::Macro => attribute || renamable,
        };
        if !refused {
            return;
        }
        let (start, end) = (id.span().start(), id.span().end());
        self.found.push(Refusal {
            word: reserved.word,
            line: start.line as u32,
            column: start.column as u32 + 1,
            end_column: if end.line == start.line {
                end.column as u32 + 1
            } else {
                start.column as u32 + 1 + written.chars().count() as u32
            },
            reason: reserved.reason,
        });
    }
}

/// `name !` followed by a group (an invocation) or a name (`macro_rules! name`); not `!=`.
fn is_bang(next: Option<&TokenTree>) -> bool {
    matches!(next, Some(TokenTree::Punct(p)) if p.as_char() == '!' && p.spacing() == Spacing::Alone)
}

fn is_punct(tree: Option<&TokenTree>, c: char) -> bool {
    matches!(tree, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// The group at `i` is a macro's input: `name ! (…)`, or the body of `macro_rules! name {…}`.
fn follows_macro_name(trees: &[TokenTree], i: usize) -> bool {
    let at = |k: usize| i.checked_sub(k).and_then(|p| trees.get(p));
    let invocation = is_punct(at(1), '!') && matches!(at(2), Some(TokenTree::Ident(_)));
    let definition = matches!(at(1), Some(TokenTree::Ident(_)))
        && is_punct(at(2), '!')
        && matches!(at(3), Some(TokenTree::Ident(m)) if m == "macro_rules");
    invocation || definition
}

/// For a file that does not split into tokens: every reserved word, wherever it is.
fn words_in_text(text: &str) -> Vec<Refusal> {
    let mut found = Vec::new();
    for (number, line) in text.split('\n').enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut start = 0;
        while start < chars.len() {
            let is_word = |c: char| c.is_alphanumeric() || c == '_';
            if !is_word(chars[start]) {
                start += 1;
                continue;
            }
            let end = (start..chars.len())
                .find(|&k| !is_word(chars[k]))
                .unwrap_or(chars.len());
            let word: String = chars[start..end].iter().collect();
            if let Some(r) = RESERVED.iter().find(|r| r.word == word) {
                found.push(Refusal {
                    word: r.word,
                    line: number as u32 + 1,
                    column: start as u32 + 1,
                    end_column: end as u32 + 1,
                    reason: r.reason,
                });
            }
            start = end;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(source: &str) -> Vec<&'static str> {
        check(source).into_iter().map(|r| r.word).collect()
    }

    #[test]
    fn refuses_the_naked_function_in_every_spelling() {
        let plain = "#[unsafe(naked)]\nextern \"C\" fn f() -> u64 {\n    core::arch::naked_asm!(\"mov eax, 39\", \"syscall\", \"ret\")\n}\n";
        let found = check(plain);
        assert_eq!(
            found
                .iter()
                .map(|r| (r.word, r.line, r.column, r.end_column))
                .collect::<Vec<_>>(),
            vec![("naked", 1, 10, 15), ("naked_asm", 3, 17, 26)]
        );
        assert!(
            found[0]
                .message()
                .en
                .starts_with("line 1, column 10: `naked` is reserved")
        );
        assert!(
            found[0]
                .message()
                .in_lang(katas::Lang::Zh)
                .starts_with("第 1 行第 10 列：`naked` 是评测器保留的词：naked 函数")
        );
        for source in [
            "#[cfg_attr(all(), unsafe(naked))] extern \"C\" fn f() {}",
            "#[unsafe(r#naked)] extern \"C\" fn f() {}",
            "macro_rules! m { ($a:ident) => { #[unsafe($a)] extern \"C\" fn f() {} } }\nm!(naked);",
            "use core::arch::naked_asm as n;",
            "use core::arch::{r#naked_asm as n};",
        ] {
            assert!(!check(source).is_empty(), "{source}");
        }
    }

    #[test]
    fn a_shebang_line_cannot_hide_code() {
        let hidden = "#!/*\n#[unsafe(naked)] extern \"C\" fn f() {}\n// */\n";
        assert_eq!(words(hidden), vec!["#!"]);
        assert_eq!(words("#!/usr/bin/env run\npub fn f() {}"), vec!["#!"]);
        assert_eq!(
            words("#![allow(dead_code)]\npub fn f() {}"),
            Vec::<&str>::new()
        );
        assert_eq!(words("\u{feff}#!/*\n*/"), vec!["#!"]);
    }

    #[test]
    fn comments_and_literals_are_not_code() {
        let source = "// no naked functions or asm! here\n/* nested /* naked */ used */\n\
                      /// a doc comment may say naked_asm\npub fn f() -> &'static str { \"naked asm\" }\n\
                      const C: char = '\"'; pub fn g() -> u8 { b'\"' }\nconst R: &str = r#\"naked\"#;\n";
        assert_eq!(words(source), Vec::<&str>::new());
        // Code after a `"` char literal is still code.
        assert_eq!(
            words("const C: char = '\"'; #[unsafe(naked)] fn f() {}"),
            vec!["naked"]
        );
        assert_eq!(words("/* a */ #[unsafe(naked)] /* b */"), vec!["naked"]);
        assert_eq!(
            words("const S: &str = \"a\\\r\n\"; global_asm!(\"\");"),
            vec!["global_asm"]
        );
    }

    #[test]
    fn common_words_only_in_attributes_and_macros() {
        let fine = "pub fn f(link: usize, path: &[u32]) -> usize {\n    let mut used = vec![false; 3];\n    \
                    let include = true;\n    println!(\"{} {}\", used[0], path.len());\n    \
                    assert!(include || used.is_empty());\n    link\n}\n";
        assert_eq!(words(fine), Vec::<&str>::new());
        // Inert attributes cannot be imported, so `std::path` is a module like any other.
        assert_eq!(words("use std::path::{Path, PathBuf};"), Vec::<&str>::new());
        assert_eq!(words("#[used] static X: u8 = 0;"), vec!["used"]);
        assert_eq!(words("#[path = \"/etc/x.rs\"] mod x;"), vec!["path"]);
        assert_eq!(
            words("pub fn f() -> i32 { include!(\"/x\") }"),
            vec!["include"]
        );
        assert_eq!(
            words("pub fn f() -> i32 { std::include!(\"/x\") }"),
            vec!["include"]
        );
        assert_eq!(words("use std::include as inc;"), vec!["include"]);
        assert_eq!(words("use std::{include as inc};"), vec!["include"]);
        assert_eq!(
            words("thread_local! { #[used] static X: u8 = 0; }"),
            vec!["used"]
        );
        assert_eq!(
            words("#[cfg_attr(all(), link(name = \"c\"))] fn f() {}"),
            vec!["link"]
        );
        // With a macro of the file's own, a macro's input may become an attribute.
        let built = "macro_rules! m { ($a:meta) => { #[$a] static X: u8 = 0; } }\nm!(used);\n";
        assert_eq!(words(built), vec!["used"]);
        let body = "macro_rules! m { () => { #[used] static X: u8 = 0; } }";
        assert_eq!(words(body), vec!["used"]);
        // `use<..>` is precise capturing: what follows is not an import.
        let capture = "fn f<'a>(x: &'a u8) -> impl Sized + use<'a> { x }\nstatic used: u8 = 0;";
        assert_eq!(words(capture), Vec::<&str>::new());
    }

    #[test]
    fn unreadable_files_fall_back_to_every_word() {
        assert_eq!(words("fn f( { // naked\n"), vec!["naked"]);
        assert_eq!(words("fn f( { used\n"), vec!["used"]);
        assert!(words("fn f( {\n").is_empty());
    }

    #[test]
    fn deep_nesting_does_not_exhaust_the_stack() {
        let depth = crate::MAX_SOURCE_BYTES / 2;
        let source = format!(
            "const X: () = {}naked{};",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        // A small stack, as a worker thread might have: recursion would overflow it.
        let found = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || words(&source))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(found, vec!["naked"]);
    }

    #[test]
    fn no_reserved_word_is_reached_by_unicode_normalisation() {
        // rustc NFC-normalises identifiers; U+212A KELVIN SIGN → `K` is the only mapping
        // into ASCII, and every reserved word is lowercase.
        for r in RESERVED {
            assert!(
                r.word.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                r.word
            );
        }
    }

    #[test]
    fn diagnostics_point_at_the_word() {
        let source =
            "pub fn f() {}\n#[unsafe(no_mangle)]\npub extern \"C\" fn getpid() -> i32 { 1 }\n";
        let found = check(source);
        assert_eq!(found.len(), 1);
        let d = found[0].diagnostic(source);
        assert_eq!(
            (d.level.as_str(), d.line, d.column, d.end_column),
            ("error", Some(2), Some(10), Some(19))
        );
        assert!(
            d.rendered.contains("--> solution.rs:2:10"),
            "{}",
            d.rendered
        );
        assert!(
            d.rendered
                .contains("#[unsafe(no_mangle)]\n  |          ^^^^^^^^^"),
            "{}",
            d.rendered
        );
    }

    #[test]
    fn every_catalogue_source_passes() {
        for kata in katas::catalogue::all() {
            let package = kata.package();
            let mut sources = vec![
                ("reference", package.reference),
                ("starter", package.starter),
            ];
            sources.extend(package.wrong.iter().map(|w| (w.name, w.source)));
            for (name, source) in sources {
                let found = check(source);
                assert!(
                    found.is_empty(),
                    "{} {name}: {:?}",
                    kata.meta().slug,
                    found.iter().map(Refusal::message).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn the_katas_library_exports_no_macros() {
        // The soundness argument above: no macro from outside the file can build an attribute.
        let katas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas");
        let mut pending: Vec<_> = ["src", "problems", "scaffold", "build.rs"]
            .iter()
            .map(|p| katas.join(p))
            .collect();
        let mut read = 0;
        while let Some(dir) = pending.pop() {
            let entries: Vec<_> = match std::fs::read_dir(&dir) {
                Ok(list) => list.flatten().map(|e| e.path()).collect(),
                Err(_) => vec![dir.clone()],
            };
            for path in entries {
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    read += 1;
                    for needle in ["macro_export", "proc_macro", "pub use serde"] {
                        assert!(!text.contains(needle), "{} has {needle}", path.display());
                    }
                }
            }
        }
        assert!(read > 20, "only {read} files of katas read");
    }
}
