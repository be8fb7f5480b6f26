//! Several entry points in one data-only kata: the declaration's refusals, and the fixture
//! `katas/tests/data-entry-points/` graded, admitted and described through the generated enums.

#[cfg(feature = "packages")]
mod declared {
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
entry_points = ["count", "spread"]

[data]
checker = "exact"

[[data.entry]]
signature = "fn count(n: u32, xs: Vec<i64>) -> u64"

[[data.entry]]
signature = "fn spread(xs: Vec<i64>) -> Vec<i64>"
checker = "multiset"

[data.constraints]
n = { range = [1, 10] }
xs = { len = [0, 5], of = { range = [-3, 3] } }

[[data.generate]]
entry = "spread"
group = "random"
count = 2
name = "random #{i}"
name_zh = "随机 #{i}"
"#;

    const CASES: &str = r#"
[[case]]
entry = "count"
name = "one"
name_zh = "一"
group = "sample"
args = [3, [1, -3]]

[[case]]
entry = "spread"
name = "two"
name_zh = "二"
group = "sample"
args = [[2, 2]]
answer = [2, 2]
"#;

    fn refusal(meta_text: &str, cases: &str) -> String {
        let meta = KataMeta::parse(meta_text, Path::new("demo/kata.toml")).unwrap();
        generate(&meta, cases).unwrap_err().to_string()
    }

    #[test]
    fn each_entry_point_is_a_variant_with_its_own_checker() {
        let meta = KataMeta::parse(META, Path::new("demo/kata.toml")).unwrap();
        let source = generate(&meta, CASES).unwrap();
        for part in [
            "pub count: fn(u32, Vec<i64>) -> u64,\n    pub spread: fn(Vec<i64>) -> Vec<i64>,",
            "pub enum Input {\n    count { n: u32, xs: Vec<i64> },\n    spread { xs: Vec<i64> },",
            "pub enum Output {\n    count(u64),\n    spread(Vec<i64>),",
            "Input::spread { xs: vec![2i64, 2i64] }",
            "(Output::spread(expected), Output::spread(got)) => katas::data::check(katas::data::CheckerKind::Multiset",
            "(Output::count(expected), Output::count(got)) => katas::data::check(katas::data::CheckerKind::Exact",
            "let input = Input::spread { xs:",
            "if *input == (Input::spread { xs: vec![2i64, 2i64] }) {\n            return Some(Output::spread(vec![2i64, 2i64]));",
        ] {
            assert!(source.contains(part), "missing {part}\nin\n{source}");
        }
        // Learners see both functions as the API, as for a written kata with two.
        let api = crate::learner_api::LearnerApi::of_logic(&source).unwrap();
        let names: Vec<&str> = api.items.iter().map(|i| i.name.as_str()).collect();
        assert!(
            names.contains(&"Solution::count") && names.contains(&"Solution::spread"),
            "{names:?}"
        );
    }

    #[test]
    fn refusals_name_the_entry_point_and_the_field() {
        let with = |from: &str, to: &str| {
            assert!(META.contains(from), "{from}");
            META.replace(from, to)
        };
        let cases_with = |from: &str, to: &str| {
            assert!(CASES.contains(from), "{from}");
            CASES.replace(from, to)
        };
        for (meta_text, cases, says) in [
            (
                with(
                    "checker = \"exact\"\n",
                    "checker = \"exact\"\nsignature = \"fn count(n: u32) -> u64\"\n",
                ),
                CASES.to_string(),
                "kata.toml: [data]: `signature` declares the one entry point and `[[data.entry]]` several",
            ),
            (
                with(
                    "\n[[data.entry]]\nsignature = \"fn spread(xs: Vec<i64>) -> Vec<i64>\"\nchecker = \"multiset\"\n",
                    "",
                ),
                CASES.to_string(),
                "kata.toml: [[data.entry]]: one entry point: write its `signature`",
            ),
            (
                with("fn spread(xs: Vec<i64>)", "fn spread(xs: Vec<i32>)"),
                CASES.to_string(),
                "kata.toml: [[data.entry]] #2 signature: `xs` is Vec<i32> here and Vec<i64> in `count`",
            ),
            (
                with("fn spread(xs", "fn count(xs"),
                CASES.to_string(),
                "kata.toml: [[data.entry]] #2 signature: `count` is declared twice",
            ),
            (
                with("[\"count\", \"spread\"]", "[\"spread\", \"count\"]"),
                CASES.to_string(),
                "entry_points = [\"count\", \"spread\"]",
            ),
            (
                with(
                    "-> Vec<i64>\"\nchecker = \"multiset\"",
                    "-> u64\"\nchecker = \"multiset\"",
                ),
                CASES.to_string(),
                "kata.toml: [[data.entry]] #2 checker: `Multiset` compares a Vec; `spread` returns u64",
            ),
            (
                with("entry = \"spread\"\n", ""),
                CASES.to_string(),
                "kata.toml: [[data.generate]] #1 entry: missing: name the entry point it calls, one of `count`, `spread`",
            ),
            (
                with("entry = \"spread\"\n", "entry = \"spreads\"\n"),
                CASES.to_string(),
                "[[data.generate]] #1 entry: `spreads` is not an entry point",
            ),
            (
                with(
                    "n = { range = [1, 10] }\n",
                    "n = { range = [1, 10] }\nm = {}\n",
                ),
                CASES.to_string(),
                "kata.toml: [data.constraints]: `m` is not a parameter of any entry point",
            ),
            (
                META.to_string(),
                cases_with("answer = [2, 2]", "answer = [\"2\"]"),
                "data/cases.toml: case `two`, `answer[0]`: expected i64, found the string",
            ),
            (
                META.to_string(),
                cases_with("entry = \"count\"\n", ""),
                "data/cases.toml: case `one`, `entry`: missing: name the entry point it calls",
            ),
            (
                META.to_string(),
                cases_with("args = [[2, 2]]", "args = [3, [2, 2]]"),
                "data/cases.toml: case `two`: `args` has 2 values; `spread` takes 1 (xs: Vec<i64>)",
            ),
            (
                META.to_string(),
                cases_with(
                    "group = \"sample\"\nargs = [[2, 2]]",
                    "group = \"edge\"\nargs = [[2, 2]]",
                ),
                "data/cases.toml: the file: needs at least one `sample` case calling `spread`",
            ),
        ] {
            let err = refusal(&meta_text, &cases);
            assert!(err.contains(says), "wanted `{says}`, got `{err}`");
        }
    }
}

#[cfg(feature = "solutions")]
mod fixture {
    use crate::catalogue::{Kata, Which};
    use crate::problems::data_entry_points::{Input, KATA, Output, Spec};
    use crate::spec::{Check, KataSpec};
    use crate::{Mode, Verdict};

    fn kata() -> &'static dyn Kata {
        &KATA
    }

    #[test]
    fn the_reference_is_accepted_on_every_entry_point() {
        let report = kata().evaluate_own(Which::Reference, Mode::Submit).unwrap();
        assert_eq!(report.verdict, Verdict::Accepted, "{}", report.explain());
        assert_eq!(report.cases.len(), 4 + 4 + 3);
    }

    #[test]
    fn a_wrong_entry_point_fails_its_own_cases_only() {
        let report = kata()
            .evaluate_own(Which::Wrong("floor-division"), Mode::Submit)
            .unwrap();
        assert_eq!(report.verdict, Verdict::WrongAnswer);
        let failed = report.first_failure().unwrap();
        assert_eq!(failed.name, "a partial last block");
        let input = failed.input.as_deref().unwrap_or_default();
        assert!(input.starts_with("`blocks_for`: tokens = 33"), "{input}");
        // `live_sequences` answers in another order: the multiset checker accepts it.
        let spread = report
            .cases
            .iter()
            .find(|c| c.name == "two appends, one free")
            .unwrap();
        assert!(spread.mismatch.is_none(), "{spread:?}");
    }

    #[test]
    fn custom_input_names_the_entry_point() {
        kata()
            .check_custom(r#"{"fill": {"tokens": 5, "block_size": 2}}"#)
            .unwrap();
        for (json, says) in [
            (
                r#"{"fill": {"tokens": 0, "block_size": 2}}"#,
                "`tokens` is 0",
            ),
            (
                r#"{"live_sequences": {"ops": [[10, 1]]}}"#,
                "`ops[0].0` is 10",
            ),
            (r#"{"fills": {"tokens": 5, "block_size": 2}}"#, "fills"),
            (r#"{"fill": {"tokens": 5, "block_size": 2, "x": 1}}"#, "x"),
        ] {
            let err = kata().check_custom(json).unwrap_err();
            assert!(err.to_string().contains(says), "{json}: {err}");
        }
        let entries: Vec<String> = kata()
            .input_examples()
            .into_iter()
            .map(|(e, _)| e)
            .collect();
        assert_eq!(entries, ["blocks_for", "live_sequences", "fill"]);
    }

    #[test]
    fn a_given_answer_is_the_expected_output_of_its_case_only() {
        let given = Input::blocks_for {
            tokens: 33,
            block_size: 16,
        };
        assert_eq!(Spec::oracle(&given), Some(Output::blocks_for(3)));
        let other = Input::blocks_for {
            tokens: 34,
            block_size: 16,
        };
        assert_eq!(Spec::oracle(&other), None);
        // `floor_division` is judged against the given 3, and the reference agreed with it.
        let report = kata()
            .evaluate_own(Which::Wrong("floor-division"), Mode::Run)
            .unwrap();
        let failed = report.first_failure().unwrap();
        assert_eq!(failed.mismatch.as_ref().unwrap().expected, "3");
    }

    #[test]
    fn an_answer_of_another_entry_point_is_wrong_not_a_panic() {
        let input = Input::fill {
            tokens: 1,
            block_size: 3,
        };
        match Spec::check(&input, &Output::fill(1.0 / 3.0), &Output::blocks_for(1)) {
            Check::Fail(m) => assert!(
                m.message
                    .en
                    .contains("`blocks_for`'s; the case called `fill`"),
                "{}",
                m.message.en
            ),
            other => panic!("expected a failure, got {other:?}"),
        }
    }
}
