// `sqlx::migrate!` embeds the migrations and askama compiles the templates: rebuild when they
// (or the embedded static files) change.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    println!("cargo:rerun-if-changed=../templates");
    println!("cargo:rerun-if-changed=../static");
    println!("cargo:rerun-if-changed=askama.toml");
}
