// Writes a 100 MB file to /tmp (more than RLIMIT_FSIZE allows).
fn main() {
    match std::fs::write("/tmp/big", vec![0u8; 100 << 20]) {
        Ok(()) => println!("bigfile: written"),
        Err(e) => println!("bigfile: {:?} {}", e.kind(), e.raw_os_error().unwrap_or(0)),
    }
}
