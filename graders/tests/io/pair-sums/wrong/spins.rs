//! expected-verdict: time_limit_exceeded
// Never finishes reading.
fn main() {
    let mut x: u64 = 1;
    loop {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        if x == 0 {
            println!("{x}");
        }
    }
}
