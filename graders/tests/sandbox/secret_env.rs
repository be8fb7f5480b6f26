// Compile-time read of the supervisor's environment.
fn main() {
    println!("PATH={:?} HOME={:?}", option_env!("PATH"), option_env!("HOME"));
}
