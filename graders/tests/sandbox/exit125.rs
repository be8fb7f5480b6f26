// Exits with the code our helpers use for "setup failed": must still be the program's.
fn main() {
    eprintln!("sandbox stage inner: pretending to fail");
    std::process::exit(125);
}
