//! The vocabulary, the stock checkers and their edge cases, and the refusals that name the file
//! and the field. The generated code itself is compiled and graded by the package tests of
//! every data-only kata.

use super::decl::{Int, Signature, Type};
use super::*;
use crate::spec::Check;

fn exact<T: Answer>(want: T, got: T) -> bool {
    matches!(
        check(CheckerKind::Exact, None, &want, &got),
        Check::Pass { .. }
    )
}

fn within<T: Answer>(tol: Tolerance, want: T, got: T) -> bool {
    matches!(
        check(CheckerKind::Exact, Some(tol), &want, &got),
        Check::Pass { .. }
    )
}

fn failure<T: Answer>(checker: CheckerKind, want: T, got: T) -> (String, String, String) {
    match check(checker, None, &want, &got) {
        Check::Fail(m) => (m.message.en, m.expected, m.got),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn every_type_of_the_vocabulary_parses() {
    let sig = Signature::parse(
        "fn f(a: i8, b: i16, c: i32, d: i64, e: u8, g: u16, h: u32, i: u64, j: usize, \
         k: f32, l: f64, m: bool, n: String, o: Vec<Vec<u8>>, p: (u32, Option<f64>), q: (bool,)) \
         -> Option<Vec<(String, i64)>>",
    )
    .unwrap();
    assert_eq!(sig.name, "f");
    assert_eq!(sig.params.len(), 16);
    assert_eq!(sig.params[8].1, Type::Int(Int::Usize));
    assert_eq!(sig.params[15].1.to_string(), "(bool,)");
    assert_eq!(sig.returns.to_string(), "Option<Vec<(String, i64)>>");
}

#[test]
fn a_signature_outside_the_vocabulary_is_refused_by_name() {
    for (text, says) in [
        ("fn f(a: HashMap<u8, u8>) -> u8", "`HashMap`"),
        ("fn f(a: &str) -> u8", "expected a name"),
        ("fn f() -> u8", "no parameters"),
        ("fn f(a: u8, a: u8) -> u8", "twice"),
        ("fn f(a: u8)", "expected `-`"),
        ("fn f(a: u8) -> ()", "`()`"),
        ("fn f(a: u8) -> u8 where", "after the signature"),
    ] {
        let err = Signature::parse(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
    }
}

#[test]
fn floats_nan_infinities_and_signed_zeros() {
    let tight = Tolerance { rel: 0.0, abs: 0.0 };
    assert!(exact(f64::NAN, f64::NAN));
    assert!(!exact(f64::NAN, 1.0));
    assert!(!exact(1.0, f64::NAN));
    assert!(exact(f64::INFINITY, f64::INFINITY));
    assert!(!exact(f64::INFINITY, f64::NEG_INFINITY));
    assert!(!within(
        Tolerance {
            rel: 1.0,
            abs: 1e300
        },
        f64::INFINITY,
        f64::MAX
    ));
    assert!(exact(-0.0_f64, 0.0));
    assert!(exact(0.0_f32, -0.0));
    assert!(!within(tight, 1.0, 1.0 + f64::EPSILON));
    assert!(within(
        Tolerance {
            rel: 1e-9,
            abs: 0.0
        },
        1e9,
        1e9 + 0.5
    ));
    assert!(!within(
        Tolerance {
            rel: 1e-9,
            abs: 0.0
        },
        1e9,
        1e9 + 2.0
    ));
    assert!(within(
        Tolerance {
            rel: 0.0,
            abs: 1e-6
        },
        0.0,
        5e-7
    ));
    assert!(within(
        Tolerance {
            rel: 1e-3,
            abs: 0.0
        },
        vec![1.0_f32, 2.0],
        vec![1.0005, 2.001]
    ));
}

#[test]
fn a_difference_is_shown_where_it_is() {
    let (message, want, got) = failure(
        CheckerKind::Exact,
        vec![(1_u32, Some(2.5_f64)), (2, None)],
        vec![(1, Some(2.5)), (2, Some(0.0))],
    );
    assert!(message.contains("`answer[1].1`"), "{message}");
    assert_eq!((want.as_str(), got.as_str()), ("None", "Some(0.0)"));

    let (message, want, got) = failure(CheckerKind::Exact, vec![1_u8, 2], vec![1]);
    assert!(message.contains("`answer.len()`"), "{message}");
    assert_eq!((want.as_str(), got.as_str()), ("2", "1"));

    let (message, ..) = failure(CheckerKind::Exact, 7_i64, -7);
    assert_eq!(message, "the answer is wrong");
    assert!(exact(Vec::<u8>::new(), Vec::new()));
    assert!(exact(String::from("ok"), String::from("ok")));
    assert!(!exact(String::from("ok"), String::from("OK")));
    assert!(!exact(true, false));
}

#[test]
fn a_multiset_ignores_order_but_not_multiplicity() {
    let multiset = |want: Vec<i32>, got: Vec<i32>| {
        matches!(
            check(CheckerKind::Multiset, None, &want, &got),
            Check::Pass { .. }
        )
    };
    assert!(multiset(vec![3, 1, 2, 1], vec![1, 1, 2, 3]));
    assert!(!multiset(vec![3, 1, 2, 1], vec![1, 2, 3, 3]));
    assert!(!multiset(vec![1, 2], vec![1, 2, 2]));
    assert!(multiset(Vec::new(), Vec::new()));
    let (message, ..) = failure(CheckerKind::Multiset, vec![2, 1], vec![1, 3]);
    assert!(message.contains("order does not matter"), "{message}");
    // NaNs sort together, so a multiset of floats with NaN still compares.
    assert!(matches!(
        check(
            CheckerKind::Multiset,
            None,
            &vec![f64::NAN, 1.0],
            &vec![1.0, f64::NAN]
        ),
        Check::Pass { .. }
    ));
}

#[test]
fn a_partition_ignores_the_order_of_groups_and_within_them() {
    let partition = |want: Vec<Vec<u8>>, got: Vec<Vec<u8>>| {
        matches!(
            check(CheckerKind::Partition, None, &want, &got),
            Check::Pass { .. }
        )
    };
    assert!(partition(
        vec![vec![1, 2], vec![3]],
        vec![vec![3], vec![2, 1]]
    ));
    assert!(!partition(
        vec![vec![1, 2], vec![3]],
        vec![vec![1], vec![2, 3]]
    ));
    assert!(!partition(vec![vec![1, 2], vec![3]], vec![vec![1, 2, 3]]));
    assert!(partition(vec![vec![], vec![1]], vec![vec![1], vec![]]));
    assert!(partition(Vec::new(), Vec::new()));
}

#[test]
fn descriptions_are_short_in_both_languages() {
    let ops: Vec<(u32, u32)> = (0..1000).map(|i| (i, i)).collect();
    let m = describe(&[("block_size", &16_u32), ("ops", &ops)]);
    assert_eq!(
        m.en,
        "block_size = 16, ops: 1000 items [(0, 0), (1, 1), (2, 2), (3, 3), …]"
    );
    assert_eq!(
        m.zh.as_deref(),
        Some("block_size 为 16，ops：1000 项 [(0, 0), (1, 1), (2, 2), (3, 3), …]")
    );
    let long = "x".repeat(500);
    assert!(describe(&[("s", &long)]).en.len() < 100);
}

#[test]
fn admission_names_the_value_and_the_bound() {
    let refused = int_within(|| "ops[3].0".into(), 100_000, 0, 99_999).unwrap_err();
    assert_eq!(
        refused.en,
        "`ops[3].0` is 100000; the statement allows 0 to 99999"
    );
    assert!(refused.zh.unwrap().contains("`ops[3].0` 为 100000"));
    assert!(float_within(|| "x".into(), f64::NAN, 0.0, 1.0).is_err());
    assert!(float_finite(|| "x".into(), f64::INFINITY).is_err());
    assert!(len_within(|| "ops".into(), 0, 1, 10).is_err());
    assert!(chars_within(|| "s".into(), "abz", "ab").is_err());
    assert!(chars_within(|| "s".into(), "abba", "ab").is_ok());
}

#[cfg(feature = "packages")]
mod generated {
    use crate::data::codegen::generate;
    use crate::meta::KataMeta;
    use std::path::Path;

    const META: &str = r#"
slug = "demo"
title = "Demo"
summary = "A demo."
summary_zh = "演示。"
difficulty = "easy"
topics = ["x"]
topic_names = { x = { en = "x", zh = "X" } }
kind = "cpu"
order = 1
entry_points = ["f"]

[data]
signature = "fn f(n: u32, xs: Vec<(i64, f64)>) -> Vec<i64>"
checker = "multiset"

[data.constraints]
n = { range = [1, 10] }
xs = { len = [0, 5], of = { items = [{ range = [-3, 3] }, { range = [0.0, 1.0] }] } }

[[data.generate]]
group = "random"
count = 3
name = "random #{i}"
name_zh = "随机 #{i}"
params.n = { range = [2, 4] }
"#;

    const CASES: &str = r#"
[[case]]
name = "one"
name_zh = "一"
group = "sample"
args = [3, [[1, 0.5], [-3, 1]]]
"#;

    fn meta(text: &str) -> KataMeta {
        KataMeta::parse(text, Path::new("demo/kata.toml")).unwrap()
    }

    fn refusal(meta_text: &str, cases: &str) -> String {
        generate(&meta(meta_text), cases).unwrap_err().to_string()
    }

    #[test]
    fn a_good_package_generates_a_spec_with_every_part() {
        let source = generate(&meta(META), CASES).unwrap();
        for part in [
            "pub struct Solution {\n    pub f: fn(u32, Vec<(i64, f64)>) -> Vec<i64>,",
            "pub struct Input {\n    pub n: u32,\n    pub xs: Vec<(i64, f64)>,",
            "Input { n: 3u32, xs: vec![(1i64, f64::from_bits(0x3fe0000000000000)), (-3i64, f64::from_bits(0x3ff0000000000000))] }",
            "rng.u32(2u32..=4u32)",
            "katas::data::CheckerKind::Multiset",
            "katas::data::int_within(|| format!(\"xs[{}].0\", i0), x0.0 as i128, -3, 3)?;",
            "katas::data::float_within(|| format!(\"xs[{}].1\", i0), x0.1, 0.0, 1.0)?;",
        ] {
            assert!(source.contains(part), "missing {part}\nin\n{source}");
        }
        // The learner-facing API is read from the generated source like a written kata.rs.
        let api = crate::learner_api::LearnerApi::of_logic(&source).unwrap();
        assert!(!api.fingerprint().is_empty());
    }

    #[test]
    fn refusals_name_the_file_and_the_field() {
        let with = |from: &str, to: &str| META.replace(from, to);
        for (meta_text, cases, says) in [
            (
                with("xs: Vec<(i64, f64)>", "xs: HashSet<i64>"),
                CASES,
                "kata.toml: [data] signature: `HashSet`",
            ),
            (
                with("n = { range = [1, 10] }", ""),
                CASES,
                "kata.toml: [data.constraints]: `n` has no constraint",
            ),
            (
                with("n = { range = [1, 10] }", "n = { range = [1, 5000000000] }"),
                CASES,
                "kata.toml: [data.constraints] n: `range = [1, 5000000000]`",
            ),
            (
                with("xs = { len = [0, 5], ", "xs = { "),
                CASES,
                "kata.toml: [data.constraints] xs: needs `len = [min, max]`",
            ),
            (
                with(
                    "params.n = { range = [2, 4] }",
                    "params.n = { range = [2, 40] }",
                ),
                CASES,
                "[[data.generate]] #1 params.n: [2, 40] is not within [1, 10]",
            ),
            (
                with("checker = \"multiset\"", "checker = \"partition\""),
                CASES,
                "kata.toml: [data] checker",
            ),
            (
                with("entry_points = [\"f\"]", "entry_points = [\"g\"]"),
                CASES,
                "kata.toml: entry_points",
            ),
            (
                META.to_string(),
                &CASES.replace("[3, [[1, 0.5]", "[30, [[1, 0.5]"),
                "data/cases.toml: case `one`, `n`: 30 is outside 1 to 10",
            ),
            (
                META.to_string(),
                &CASES.replace("[-3, 1]", "[-3, 1, 2]"),
                "data/cases.toml: case `one`, `xs[1]`: 3 values for a 2-tuple",
            ),
            (
                META.to_string(),
                &CASES.replace("[3, [[1, 0.5]", "[\"3\", [[1, 0.5]"),
                "data/cases.toml: case `one`, `n`: expected u32, found the string",
            ),
            (
                META.to_string(),
                &CASES.replace("args = [3, ", "args = ["),
                "data/cases.toml: case `one`: `args` has 1 values",
            ),
            (
                META.to_string(),
                &CASES.replace("sample", "edge"),
                "needs at least one `sample` case",
            ),
            (
                with(
                    "[data]\n",
                    "[data]\nstructs = [\"struct A { b: Vec<B> }\", \"struct B { a: Option<A> }\"]\n",
                ),
                CASES,
                "kata.toml: [data] structs: `A` contains itself",
            ),
        ] {
            let err = refusal(&meta_text, cases);
            assert!(err.contains(says), "wanted `{says}`, got `{err}`");
        }
    }
}

#[test]
fn structs_are_named_once_finite_and_only_where_declared() {
    use super::decl::StructDecl;
    let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let names =
        StructDecl::names(&texts(&["struct A { x: u8 }", "struct B { a: Vec<A> }"])).unwrap();
    assert_eq!(names, ["A", "B"]);
    let b = StructDecl::parse("struct B { a: Vec<A>, o: Option<(A, bool)> }", &names).unwrap();
    assert_eq!(b.fields[1].1.to_string(), "Option<(A, bool)>");
    for (decls, says) in [
        (
            &["struct A { x: u8 }", "struct A { y: u8 }"][..],
            "declared twice",
        ),
        (&["struct lower { x: u8 }"][..], "capital letter"),
        (&["struct Input { x: u8 }"][..], "capital letter"),
    ] {
        let err = StructDecl::names(&texts(decls)).unwrap_err();
        assert!(err.contains(says), "{decls:?}: {err}");
    }
    assert!(
        StructDecl::parse("struct A { }", &names)
            .unwrap_err()
            .contains("no fields")
    );
    assert!(
        Signature::parse_with("fn f(c: C) -> u8", &names)
            .unwrap_err()
            .contains("`C`")
    );
}

/// `katas/tests/data-vocabulary/`: every type of the vocabulary, a nested struct included, in
/// one generated kata, compiled into these tests only.
#[cfg(feature = "solutions")]
mod vocabulary_fixture {
    use crate::catalogue::{Kata, Which};
    use crate::problems::data_vocabulary::KATA;
    use crate::{Mode, Verdict};

    fn kata() -> &'static dyn Kata {
        &KATA
    }

    #[test]
    fn the_reference_is_accepted_on_literal_and_drawn_cases_of_every_type() {
        let report = kata().evaluate_own(Which::Reference, Mode::Submit).unwrap();
        assert_eq!(report.verdict, Verdict::Accepted, "{}", report.explain());
        assert_eq!(report.cases.len(), 2 + 5);
    }

    #[test]
    fn a_wrong_struct_field_is_named_in_the_report() {
        let report = kata()
            .evaluate_own(Which::Wrong("keeps-order"), Mode::Run)
            .unwrap();
        assert_eq!(report.verdict, Verdict::WrongAnswer);
        let failed = report.first_failure().unwrap();
        let why = failed.mismatch.as_ref().unwrap().message.en.clone();
        assert!(why.contains("`answer.1[0].x`"), "{why}");
    }

    #[test]
    fn custom_input_is_admitted_by_the_declared_constraints_field_by_field() {
        let base = serde_json::json!({
            "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9,
            "shape": { "points": [{ "x": 1.0, "label": "ab" }], "closed": true, "weight": 0.5 },
            "pairs": [[1, 2], [3, null]]
        });
        kata().check_custom(&base.to_string()).unwrap();
        for (pointer, value, says) in [
            ("/a", serde_json::json!(101), "`a` is 101"),
            ("/i", serde_json::json!(51), "`i` is 51"),
            (
                "/shape/points/0/label",
                serde_json::json!("abd"),
                "`shape.points[0].label`",
            ),
            (
                "/shape/points/0/x",
                serde_json::json!(10.5),
                "`shape.points[0].x`",
            ),
            ("/shape/weight", serde_json::json!(2.0), "`shape.weight`"),
            ("/pairs/1/1", serde_json::json!(6), "`pairs[1].1` is 6"),
        ] {
            let mut input = base.clone();
            *input.pointer_mut(pointer).unwrap() = value;
            let err = kata().check_custom(&input.to_string()).unwrap_err();
            assert!(err.to_string().contains(says), "{pointer}: {err}");
        }
    }
}

#[test]
fn a_hostile_declaration_is_refused_before_it_can_exhaust_the_stack() {
    let deep = format!(
        "fn f(a: {}u8{}) -> u8",
        "Vec<".repeat(100_000),
        ">".repeat(100_000)
    );
    assert!(
        Signature::parse(&deep)
            .unwrap_err()
            .contains("nest at most 8 deep")
    );
    let ok = format!("fn f(a: {}u8{}) -> u8", "Vec<".repeat(7), ">".repeat(7));
    assert!(Signature::parse(&ok).is_ok());
    let many: Vec<String> = (0..17)
        .map(|i| format!("struct S{i} {{ x: u8 }}"))
        .collect();
    assert!(
        super::decl::StructDecl::names(&many)
            .unwrap_err()
            .contains("at most 16")
    );
}
