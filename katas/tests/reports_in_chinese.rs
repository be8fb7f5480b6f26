//! A report reads in 中文 all the way down (issue 23 §15): every CPU kata's first known-wrong
//! answer names its case and summarises its input in both languages, and the reference's notes
//! come with a translation each. Runs the packages' own solutions in process, as
//! `cargo test -p katas` does.

use katas::catalogue::{self, Which};
use katas::{KataKind, Lang, Mode, Outcome, Verdict};

#[test]
fn a_wrong_answer_names_its_case_and_input_in_chinese() {
    for kata in catalogue::all()
        .iter()
        .filter(|k| k.meta().kind == KataKind::Cpu)
    {
        let slug = &kata.meta().slug;
        let wrong = kata
            .package()
            .wrong
            .iter()
            .find(|w| w.expected == Verdict::WrongAnswer)
            .unwrap_or_else(|| panic!("{slug} has a wrong-answer solution"));
        let report = kata
            .evaluate_own(Which::Wrong(wrong.name), Mode::Submit)
            .expect("the package's own solution");
        let case = report.first_failure().expect("a failing case");
        assert_eq!(case.outcome, Outcome::WrongAnswer, "{slug}/{}", wrong.name);
        let name = case.name_in(Lang::Zh);
        assert!(name != case.name && has_han(name), "{slug}: {name}");
        let input = case.input_in(Lang::Zh).expect("a failure shows its input");
        assert!(
            Some(input) != case.input.as_deref() && has_han(input),
            "{slug}: {input}"
        );
    }
}

#[test]
fn the_references_notes_come_in_chinese_too() {
    let mut noted = 0;
    for kata in catalogue::all()
        .iter()
        .filter(|k| k.meta().kind == KataKind::Cpu)
    {
        let slug = &kata.meta().slug;
        let report = kata
            .evaluate_own(Which::Reference, Mode::Run)
            .expect("the reference");
        for case in &report.cases {
            assert_eq!(case.notes_zh.len(), case.notes.len(), "{slug}: {case:?}");
            for note in &case.notes_zh {
                assert!(has_han(note), "{slug}: {note}");
                noted += 1;
            }
        }
    }
    assert!(noted > 0, "some kata's checker writes notes");
}

fn has_han(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}
