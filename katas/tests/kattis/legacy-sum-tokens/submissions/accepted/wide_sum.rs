use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut words = text.split_ascii_whitespace();
    let n: usize = words.next().unwrap().parse().unwrap();
    let total: i64 = words.take(n).map(|w| w.parse::<i64>().unwrap()).sum();
    println!("{total}");
}
