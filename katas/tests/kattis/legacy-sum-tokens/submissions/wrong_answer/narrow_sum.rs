use std::io::Read;

// Adds in 32 bits: wraps around on the large case.
fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut total: i32 = 0;
    for w in text.split_ascii_whitespace().skip(1) {
        total = total.wrapping_add(w.parse::<i32>().unwrap());
    }
    println!("{total}");
}
