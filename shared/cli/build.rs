//! Names the git commit the binaries are built from (`QAPIPE_COMMIT`, shown by every
//! binary's `--version`), and reruns when HEAD or the branch moves.

#[path = "build/commit.rs"]
mod commit;

fn main() {
    let dir = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let found = commit::describe(&dir);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/commit.rs");
    for path in &found.watch {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let line = found.line.as_deref().unwrap_or("unknown commit");
    println!("cargo:rustc-env=QAPIPE_COMMIT={line}");
}
