use std::io::Read;

// Tries every pair: too slow for n = 2e5.
fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let nums: Vec<i64> = text.split_ascii_whitespace().map(|w| w.parse().unwrap()).collect();
    let (n, t) = (nums[0] as usize, nums[1]);
    let a = &nums[2..2 + n];
    for j in 0..n {
        for i in 0..j {
            if a[i] + a[j] == t {
                println!("{} {}", i + 1, j + 1);
                return;
            }
        }
    }
}
