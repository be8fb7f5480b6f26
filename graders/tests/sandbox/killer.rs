// Signals everything it might reach: pid 1, every process, its parent. Must survive and
// report each refusal.
unsafe extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
    fn getppid() -> i32;
}

fn try_kill(what: &str, pid: i32) {
    let r = unsafe { kill(pid, 9) };
    let err = std::io::Error::last_os_error();
    if r == 0 {
        println!("{what}: delivered");
    } else {
        println!("{what}: refused ({err})");
    }
}

fn main() {
    let parent = unsafe { getppid() };
    println!("parent {parent}");
    try_kill("kill(1)", 1);
    try_kill("kill(-1)", -1);
    try_kill("kill(parent)", parent);
    println!("still alive");
}
