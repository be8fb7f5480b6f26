fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let n: u64 = line.trim().parse().unwrap();
    let d = (2..).take_while(|d| d * d <= n).find(|d| n % d == 0).unwrap();
    println!("{d}");
}
