// Tries to start another process (itself).
fn main() {
    if std::env::args().nth(1).as_deref() == Some("child") {
        println!("child ran");
        return;
    }
    match std::process::Command::new("/prog").arg("child").status() {
        Ok(s) => println!("fork: ran ({s})"),
        Err(e) => println!("fork: denied ({e})"),
    }
}
