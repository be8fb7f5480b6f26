// `sqlx::migrate!` embeds the migrations and askama compiles the templates: rebuild when they
// (or the embedded static files) change. The CodeMirror bundle (`scripts/build-editor.sh`) is
// optional: when present it is compiled in (`cfg(editor_bundle)`), otherwise the kata page keeps
// its textarea.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    println!("cargo:rerun-if-changed=../templates");
    println!("cargo:rerun-if-changed=../static");
    println!("cargo:rerun-if-changed=askama.toml");
    println!("cargo::rustc-check-cfg=cfg(editor_bundle)");
    let bundle =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/vendor/editor.js");
    if bundle.is_file() {
        println!("cargo:rustc-cfg=editor_bundle");
    }
}
