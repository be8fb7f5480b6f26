// Asks for 30 GB at once.
fn main() {
    let v: Vec<u8> = vec![1u8; 30 << 30];
    println!("allocated {}", v.len());
}
