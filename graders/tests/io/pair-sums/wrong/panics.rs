//! expected-verdict: runtime_error
// Assumes the input holds at most one pair.
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let numbers: Vec<i128> = text.split_ascii_whitespace().map(|t| t.parse().expect("a number")).collect();
    assert!(numbers[0] <= 1, "more than one pair");
    println!("{}", numbers[1] + numbers[2]);
}
