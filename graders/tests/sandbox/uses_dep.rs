// Links against /deps/libdep.rlib (a read-only bind in the compile profile).
fn main() {
    println!("answer {}", dep::answer());
}
