// Greets, then echoes stdin: proves a clean run, stdout and stdin.
use std::io::Read;

fn main() {
    println!("hello from sandbox");
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    print!("{input}");
}
