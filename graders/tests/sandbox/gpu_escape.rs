// Dynamically linked, run under the GPU profile: what it may and may not reach. One line per
// attempt.
use std::fs;
use std::os::unix::process::CommandExt;

fn show<T>(what: &str, r: std::io::Result<T>) {
    match r {
        Ok(_) => println!("{what}: ok"),
        Err(e) => println!("{what}: denied ({e})"),
    }
}

fn main() {
    show("read /etc/shadow", fs::read("/etc/shadow"));
    show("read /etc/passwd", fs::read("/etc/passwd"));
    show("write /usr/x", fs::write("/usr/x", "x"));
    show("write /prog", fs::OpenOptions::new().write(true).open("/prog"));
    show("read /usr/lib/os-release", fs::read("/usr/lib/os-release"));
    show("read /proc/self/status", fs::read("/proc/self/status"));
    show("write /tmp/file", fs::write("/tmp/file", "x"));
    show(
        "tcp",
        std::net::TcpStream::connect_timeout(
            &"1.1.1.1:80".parse().unwrap(),
            std::time::Duration::from_millis(200),
        ),
    );
    show("fork", std::process::Command::new("/prog").spawn());
    show("exec /bin/sh", Err::<(), _>(std::process::Command::new("/bin/sh").exec()));
}
