// Touches 1 GiB, one MiB at a time.
fn main() {
    let mut v: Vec<Vec<u8>> = Vec::new();
    for i in 0..1024 {
        v.push(vec![i as u8; 1 << 20]);
    }
    println!("touched {} MiB", v.len());
}
