use std::io::{Read, Write};

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut numbers = text.split_ascii_whitespace().map(|t| t.parse::<i128>().expect("a number"));
    let n = numbers.next().expect("n");
    let mut out = String::new();
    for _ in 0..n {
        let (a, b) = (numbers.next().expect("a"), numbers.next().expect("b"));
        out.push_str(&format!("{}\n", a + b));
    }
    std::io::stdout().write_all(out.as_bytes()).expect("stdout");
}
