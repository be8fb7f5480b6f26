// Sleeps for an hour.
fn main() {
    std::thread::sleep(std::time::Duration::from_secs(3600));
}
