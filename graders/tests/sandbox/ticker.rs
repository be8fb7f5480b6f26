// One line every 20 ms, forever.
fn main() {
    for i in 0.. {
        println!("tick {i}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
