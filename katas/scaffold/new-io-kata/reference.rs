use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut numbers = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().expect("a number"));
    let n = numbers.next().expect("n");
    let sum: i64 = numbers.take(n as usize).sum();
    println!("{sum}");
}
