// Writes stdout forever.
use std::io::Write;

fn main() {
    let line = [b'x'; 1024];
    let mut out = std::io::stdout().lock();
    loop {
        if out.write_all(&line).is_err() {
            return;
        }
    }
}
