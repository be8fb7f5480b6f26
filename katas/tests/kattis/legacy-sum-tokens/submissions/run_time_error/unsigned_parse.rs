use std::io::Read;

// Parses values as unsigned: panics on the first negative one.
fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let total: u64 = text.split_ascii_whitespace().skip(1).map(|w| w.parse::<u64>().unwrap()).sum();
    println!("{total}");
}
