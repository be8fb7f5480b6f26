//! expected-verdict: wrong_answer
// Sums in i64, which wraps for the largest pairs.
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut numbers = text.split_ascii_whitespace().map(|t| t.parse::<i64>().expect("a number"));
    let n = numbers.next().expect("n");
    for _ in 0..n {
        let (a, b) = (numbers.next().expect("a"), numbers.next().expect("b"));
        println!("{}", a.wrapping_add(b));
    }
}
