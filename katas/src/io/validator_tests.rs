use super::*;

fn flags(words: &str) -> Flags {
    let words: Vec<String> = words.split_whitespace().map(String::from).collect();
    Flags::parse(&words).expect("flags")
}

fn ok(answer: &str, output: &str, with: &str) -> bool {
    compare(answer.as_bytes(), output.as_bytes(), &flags(with)).is_ok()
}

#[test]
fn whitespace_is_only_a_separator_by_default() {
    assert!(ok("1 2\n3\n", "  1\t2 3", ""));
    assert!(ok("", "\n\n", ""));
    assert!(!ok("1 2", "1", ""));
    assert!(!ok("1", "1 2", ""));
}

#[test]
fn case_is_ignored_unless_asked() {
    assert!(ok("Yes", "yES", ""));
    assert!(!ok("Yes", "yES", "case_sensitive"));
    assert!(ok("Yes", "Yes", "case_sensitive"));
}

#[test]
fn space_change_sensitive_compares_every_run_of_whitespace() {
    assert!(ok("1 2\n", "1 2\n", "space_change_sensitive"));
    assert!(!ok("1 2\n", "1  2\n", "space_change_sensitive"));
    assert!(!ok("1 2\n", "1 2", "space_change_sensitive"));
    assert!(!ok("1 2\n", " 1 2\n", "space_change_sensitive"));
}

#[test]
fn tolerances_apply_to_answer_tokens_that_are_decimals() {
    assert!(ok("0.333333", "0.3333", "float_tolerance 1e-3"));
    assert!(!ok("0.333333", "0.33", "float_tolerance 1e-3"));
    assert!(ok("1000000", "1000001", "float_relative_tolerance 1e-6"));
    assert!(!ok("1000000", "1000001", "float_absolute_tolerance 1e-6"));
    assert!(ok("1e3", "1000.0000001", "float_absolute_tolerance 1e-6"));
    // Integers become decimals when a tolerance is set; words stay words.
    assert!(ok("7 apples", "7.0000001 APPLES", "float_tolerance 1e-6"));
    assert!(!ok("7", "seven", "float_tolerance 1e-6"));
    // Without a tolerance, decimals are compared as text.
    assert!(!ok("0.5", "0.50", ""));
    // An output token that is not a decimal by Kattis's grammar is refused.
    assert!(!ok("0", "nan", "float_tolerance 1"));
    assert!(!ok("0", "inf", "float_tolerance 1"));
    assert!(!ok("0", "0x0", "float_tolerance 1"));
    assert!(ok("-0.0", "0", "float_tolerance 0"));
}

#[test]
fn decimals_follow_the_kattis_grammar() {
    for yes in ["1", "-1", "+1.", ".5", "1.5e-3", "2E+10", "007"] {
        assert!(decimal(yes.as_bytes()).is_some(), "{yes}");
    }
    for no in [
        "", ".", "e5", "1e", "1.2.3", "inf", "NaN", "0x10", "1_000", "--1",
    ] {
        assert!(decimal(no.as_bytes()).is_none(), "{no}");
    }
}

#[test]
fn bad_flags_are_refused_by_name() {
    let parse = |w: &str| Flags::parse(&w.split_whitespace().map(String::from).collect::<Vec<_>>());
    assert_eq!(parse("strict"), Err(FlagError::Unknown("strict".into())));
    assert!(matches!(parse("float_tolerance"), Err(FlagError::Value(_))));
    assert!(matches!(
        parse("float_tolerance -1"),
        Err(FlagError::Value(_))
    ));
    assert!(matches!(
        parse("float_tolerance 1 float_relative_tolerance 2"),
        Err(FlagError::Repeated(_))
    ));
}

#[test]
fn a_failure_names_the_place_and_never_the_answer() {
    let message =
        compare(b"secret1 secret2\n", b"secret1\nguess\n", &Flags::default()).expect_err("differs");
    assert!(message.en.contains("token 2 (line 2)"), "{}", message.en);
    assert!(message.en.contains("guess"));
    assert!(
        !message.en.contains("secret2") && !message.in_lang(crate::Lang::Zh).contains("secret2")
    );
    let short = compare(b"a b c", b"a", &Flags::default()).expect_err("short");
    assert!(short.en.contains("ends after 1 tokens"), "{}", short.en);
}
