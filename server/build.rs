// The catalogue's generation (`db::katas::GENERATION`) orders the catalogues of a rolling
// deploy's old and new binaries, so an older replica never changes what a newer one listed.
//
// `sqlx::migrate!` embeds the migrations and askama compiles the templates: rebuild when they
// (or the embedded static files) change. The CodeMirror bundle (`scripts/build-editor.sh`) is
// optional: when present it is compiled in (`cfg(editor_bundle)`), otherwise the kata page keeps
// its textarea.
#![forbid(unsafe_code)]

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
    println!(
        "cargo:rustc-env=INFRAKATA_CATALOGUE_GENERATION={}",
        catalogue_generation()
    );
}

/// `INFRAKATA_CATALOGUE_GENERATION` when the build sets it (a release number, say); else the
/// commit time (Unix seconds) of the last commit that touched `katas/`, which every machine
/// building that commit agrees on; else — uncommitted catalogue changes, or no git — the time
/// of this build, newer than anything committed before it.
fn catalogue_generation() -> i64 {
    println!("cargo:rerun-if-env-changed=INFRAKATA_CATALOGUE_GENERATION");
    println!("cargo:rerun-if-changed=../katas");
    if let Ok(given) = std::env::var("INFRAKATA_CATALOGUE_GENERATION") {
        return given
            .trim()
            .parse()
            .expect("INFRAKATA_CATALOGUE_GENERATION must be a whole number");
    }
    let katas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&katas)
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let clean = git(&["status", "--porcelain", "--", "."]).is_some_and(|s| s.is_empty());
    let committed = git(&["log", "-1", "--format=%ct", "--", "."]).and_then(|s| s.parse().ok());
    match committed {
        Some(time) if clean => time,
        _ => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64),
    }
}
