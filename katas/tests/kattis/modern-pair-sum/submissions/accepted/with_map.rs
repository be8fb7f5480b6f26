use std::collections::HashMap;
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let nums: Vec<i64> = text.split_ascii_whitespace().map(|w| w.parse().unwrap()).collect();
    let (n, t) = (nums[0] as usize, nums[1]);
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for j in 0..n {
        let v = nums[2 + j];
        if let Some(&i) = seen.get(&(t - v)) {
            println!("{} {}", i + 1, j + 1);
            return;
        }
        seen.entry(v).or_insert(j);
    }
}
