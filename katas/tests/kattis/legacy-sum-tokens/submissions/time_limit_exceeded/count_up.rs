use std::io::Read;

// Reaches each value by counting one step at a time.
fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut total: i64 = 0;
    for w in text.split_ascii_whitespace().skip(1) {
        let v: i64 = w.parse().unwrap();
        let step = v.signum();
        let mut k = 0;
        while k != v {
            k = std::hint::black_box(k + step);
            total += step;
        }
    }
    println!("{total}");
}
