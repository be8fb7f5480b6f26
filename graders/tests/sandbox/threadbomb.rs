// Spawns sleeping threads until refused; reports how many it got.
use std::thread;
use std::time::Duration;

fn main() {
    let mut handles = Vec::new();
    loop {
        let spawned = thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(|| thread::sleep(Duration::from_secs(30)));
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                println!("threads {} then {e}", handles.len());
                std::process::exit(0);
            }
        }
    }
}
