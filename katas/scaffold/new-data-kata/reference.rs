//! The instructor's solution: expected answers come from running it.

pub fn solve(values: Vec<i64>) -> i64 {
    todo!("TODO(instructor): the reference solution for {values:?}")
}
