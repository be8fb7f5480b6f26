use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    // Read the input from `text` and print the answer.
    println!("0");
}
