//! Cases and checker for `new-kata`. TODO(instructor): replace the example signature, cases and
//! checker with the kata's own.

use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};

/// The learner's functions, one field per `entry_points` name in `kata.toml`.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub solve: fn(&[i64]) -> i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub values: Vec<i64>,
}

pub type Output = i64;

#[derive(Debug)]
pub struct Spec;

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;

    fn cases(seed: u64) -> Vec<Case<Input>> {
        let mut rng = fastrand::Rng::with_seed(seed);
        // Every case is named in English and 中文 (`.zh`): the report shows the viewer's language.
        let mut cases = vec![
            Case::new(
                "sample",
                Group::Sample,
                Input {
                    values: vec![1, 2, 3],
                },
            )
            .zh("样例"),
        ];
        cases.push(Case::new("empty", Group::Edge, Input { values: vec![] }).zh("空输入"));
        for i in 0..3 {
            let values = (0..100).map(|_| rng.i64(-1000..1000)).collect();
            cases.push(
                Case::new(format!("random #{i}"), Group::Random, Input { values })
                    .zh(format!("随机 #{i}")),
            );
        }
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        (solution.solve)(&input.values)
    }

    fn check(_input: &Input, expected: &Output, got: &Output) -> Check {
        if expected == got {
            Check::pass()
        } else {
            // Every message in English and 中文: the report shows the viewer's language.
            Check::fail(Message::new("wrong result", "结果不对"), expected, got)
        }
    }

    fn describe(input: &Input) -> Message {
        let (n, values) = (input.values.len(), &input.values);
        Message::new(
            format!("{n} values: {values:?}"),
            format!("{n} 个值：{values:?}"),
        )
    }

    /// Custom input: TODO(instructor) the statement's constraints, and a size bound that keeps
    /// the reference's run on a learner's input cheap.
    fn admit(input: &Input) -> Result<(), Refusal> {
        katas::spec::at_most(
            ("the number of values", "值的个数"),
            input.values.len(),
            10_000,
        )?;
        match input.values.iter().find(|v| v.abs() > 1000) {
            None => Ok(()),
            Some(v) => Err(Refusal::new(
                format!("{v} is outside [-1000, 1000]"),
                format!("{v} 不在 [-1000, 1000] 内"),
            )),
        }
    }
}
