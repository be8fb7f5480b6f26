//! `infrakata drill ...`: concept drills at a terminal prompt, with the same items and the same
//! grading code as the server. Reads answers from stdin, so it is scriptable and testable.

use crate::cli::{DrillArgs, DrillCommand, Lang};
use crate::table;
use anyhow::bail;
use katas_drills::{
    Body, Drills, Graded, Item, Presented, Response, grade, show_percent, show_score, words,
};
use std::io::{BufRead as _, Write as _};
use std::path::Path;
use std::process::ExitCode;

pub fn run(args: DrillArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(DrillCommand::List { lang }) => list(lang.lang),
        Some(DrillCommand::Check { dir }) => check(&dir),
        None => practise(args.topic.as_deref(), args.count, args.seed, args.lang.lang),
    }
}

fn list(lang: Lang) -> anyhow::Result<ExitCode> {
    let l = lang.code();
    let rows: Vec<Vec<String>> = Drills::builtin()
        .sets()
        .iter()
        .map(|s| {
            vec![
                s.slug.clone(),
                s.items.len().to_string(),
                s.question.get(l).to_string(),
            ]
        })
        .collect();
    print!("{}", table::render(&["set", "items", "question"], &rows));
    Ok(ExitCode::SUCCESS)
}

fn known_katas() -> Vec<String> {
    katas::builtin::all()
        .iter()
        .map(|k| k.meta().slug.clone())
        .collect()
}

fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    match Drills::load_dir(dir, &known_katas()) {
        Ok(drills) => {
            for s in drills.sets() {
                println!("ok  {:<20} {} items", s.slug, s.items.len());
            }
            println!(
                "{} sets, {} items: valid",
                drills.sets().len(),
                drills.item_count()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(katas_drills::DrillError::Invalid { path, problems }) => {
            eprintln!("{}:", path.display());
            for p in &problems {
                eprintln!("  {p}");
            }
            eprintln!("{} problems", problems.len());
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("{e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The items `topic` selects: a set's items, or every item tagged with it or linked to that kata.
fn select<'a>(drills: &'a Drills, topic: Option<&str>) -> anyhow::Result<Vec<(&'a str, &'a Item)>> {
    let all = drills
        .sets()
        .iter()
        .flat_map(|s| s.items.iter().map(move |i| (s.slug.as_str(), i)));
    let picked: Vec<(&str, &Item)> = match topic {
        None => all.collect(),
        Some(t) if drills.set(t).is_ok() => all.filter(|(s, _)| *s == t).collect(),
        Some(t) => all
            .filter(|(_, i)| i.tags.iter().chain(&i.katas).any(|x| x == t))
            .collect(),
    };
    if picked.is_empty() {
        let sets: Vec<&str> = drills.sets().iter().map(|s| s.slug.as_str()).collect();
        bail!(
            "no drills for `{}`; try a set ({}) or a kata slug",
            topic.unwrap_or_default(),
            sets.join(", ")
        );
    }
    Ok(picked)
}

fn practise(
    topic: Option<&str>,
    count: usize,
    seed: Option<u64>,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    let drills = Drills::builtin();
    let mut items = select(drills, topic)?;
    let mut rng = seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed);
    rng.shuffle(&mut items);
    items.truncate(count.max(1));
    let l = lang.code();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let total = items.len();
    let (mut right, mut score, mut asked) = (0usize, 0.0f64, 0usize);
    'items: for (n, (set, item)) in items.into_iter().enumerate() {
        let (shown, key) = drills.start(set, &item.id, rng.u64(..))?;
        println!("\n[{}/{total}] {set} · {}", n + 1, item.id);
        print!("{}", render(&shown, l));
        let graded = loop {
            let Some(parts) = read_answer(&shown, &mut lines)? else {
                break 'items;
            };
            match grade(&key, &Response { parts }) {
                Ok(g) => break g,
                Err(e) => println!("{} — {}", e.get(l), again(l)),
            }
        };
        asked += 1;
        score += graded.score;
        right += usize::from(graded.correct);
        print!("{}", render_result(&graded, l));
    }
    println!(
        "\n{}",
        if l == "zh" {
            format!(
                "练习：{asked} 题中答对 {right} 题，得分 {} / {asked}",
                show_score(score)
            )
        } else {
            format!(
                "Drills: {right} of {asked} right, score {} / {asked}",
                show_score(score)
            )
        }
    );
    Ok(ExitCode::SUCCESS)
}

fn again(l: &str) -> &'static str {
    if l == "zh" {
        "请重新作答"
    } else {
        "try again"
    }
}

/// What the learner sees, as terminal text.
pub fn render(shown: &Presented, l: &str) -> String {
    let zh = l == "zh";
    let mut out = format!("{}\n", shown.prompt.get(l));
    let how = match &shown.body {
        Body::Numeric { unit } => {
            if zh {
                format!("以 {} 为单位作答", words::word(unit, l))
            } else {
                format!("Answer in {unit}")
            }
        }
        Body::Choice { multiple, options } => {
            for o in options {
                out.push_str(&format!("  {}. {}\n", o.label, o.text.get(l)));
            }
            match (multiple, zh) {
                (false, false) => "Answer with one letter".into(),
                (false, true) => "请输入一个字母".into(),
                (true, false) => "Answer with every letter that applies, e.g. A C".into(),
                (true, true) => "请输入所有正确选项的字母，例如 A C".into(),
            }
        }
        Body::Ordering { steps } => {
            for s in steps {
                out.push_str(&format!("  {}. {}\n", s.label, s.text.get(l)));
            }
            if zh {
                "按正确顺序输入字母，例如 C A B".into()
            } else {
                "Answer with the letters in order, e.g. C A B".into()
            }
        }
        Body::Matching { left, right } => {
            for e in left {
                out.push_str(&format!("  {}. {}\n", e.label, e.text.get(l)));
            }
            out.push('\n');
            for r in right {
                out.push_str(&format!("  {}) {}\n", r.label, r.text.get(l)));
            }
            if zh {
                "按编号顺序为每一项输入一个字母，例如 b a c".into()
            } else {
                "Answer with one letter per numbered entry, in order, e.g. b a c".into()
            }
        }
        Body::Predict { parts } => {
            for (i, p) in parts.iter().enumerate() {
                let form = if p.choices.is_empty() {
                    p.form.as_str().to_string()
                } else {
                    // The word to type, with its 中文 beside it where it has one: `yes（是）`.
                    p.choices
                        .iter()
                        .map(|c| match words::word(c, l) {
                            w if w == *c => c.clone(),
                            w => format!("{c}（{w}）"),
                        })
                        .collect::<Vec<_>>()
                        .join(" / ")
                };
                out.push_str(&format!("  ({}) {}   [{form}]\n", i + 1, p.label.get(l)));
            }
            if zh {
                "每个部分占一行作答".into()
            } else {
                "Answer each part on its own line".into()
            }
        }
    };
    out.push_str(&format!("{how}:\n"));
    out
}

/// One answer from the prompt: one line, or one line per part for predictions. `None` at the
/// end of input.
fn read_answer(
    shown: &Presented,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<Vec<String>>> {
    let mut next = |prompt: &str| -> anyhow::Result<Option<String>> {
        print!("{prompt}> ");
        std::io::stdout().flush()?;
        Ok(lines.next().transpose()?)
    };
    Ok(match &shown.body {
        Body::Numeric { .. } => next("")?.map(|line| vec![line]),
        Body::Predict { parts } => {
            let mut answers = Vec::new();
            for i in 0..parts.len() {
                match next(&format!("({}) ", i + 1))? {
                    Some(line) => answers.push(line),
                    None => return Ok(None),
                }
            }
            Some(answers)
        }
        Body::Choice { .. } | Body::Ordering { .. } | Body::Matching { .. } => {
            next("")?.map(|line| split_labels(&line))
        }
    })
}

/// `"A, C"`, `"a c"` and `"CAB"` all name labels one by one.
pub fn split_labels(line: &str) -> Vec<String> {
    let tokens: Vec<String> = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    match tokens.as_slice() {
        [one] if one.chars().count() > 1 && one.chars().all(|c| c.is_ascii_alphabetic()) => {
            one.chars().map(|c| c.to_string()).collect()
        }
        _ => tokens,
    }
}

fn render_result(g: &Graded, l: &str) -> String {
    let zh = l == "zh";
    let mut out = if g.correct {
        if zh {
            "✓ 正确\n".to_string()
        } else {
            "✓ Right\n".to_string()
        }
    } else if zh {
        format!("✗ 得分 {}\n", show_percent(g.score))
    } else {
        format!("✗ Score {}\n", show_percent(g.score))
    };
    for p in &g.parts {
        let mark = if p.ok { "✓" } else { "✗" };
        let shown = p.given != "not picked" || p.expected != "not picked";
        if !shown && p.ok {
            continue;
        }
        out.push_str(&format!(
            "  {mark} {}: {}",
            words::quantity(&p.about, l),
            words::quantity(&p.given, l)
        ));
        if !p.ok {
            out.push_str(&format!(
                " — {} {}",
                if zh { "应为" } else { "expected" },
                words::quantity(&p.expected, l)
            ));
        }
        if let Some(f) = &p.feedback {
            out.push_str(&format!("  ({})", f.get(l)));
        }
        out.push('\n');
    }
    out.push_str(&format!("{}\n", g.explanation.get(l)));
    out
}
