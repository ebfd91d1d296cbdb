//! Helpers the integration tests share: the change flow on a repository built here, and
//! reading its records.

use qa_testkit::{records, Program, Repo};
use serde_json::Value;

pub const QA_INTENT: &str = env!("CARGO_BIN_EXE_qa-intent");

/// `qa-diff --base main | qa-intent` on the repository's checked-out branch.
pub fn flow(repo: &Repo) -> Vec<Value> {
    let stream = Program::built("qa-diff")
        .invocation()
        .dir(repo.path())
        .env("HOME", repo.home())
        .args(["--base", "main"])
        .run()
        .success()
        .stdout;
    Program::at(QA_INTENT)
        .invocation()
        .arg("--repo")
        .arg(repo.path())
        .stdin(stream)
        .run()
        .records()
}

/// The scenario records of a stream.
pub fn scenarios(rs: &[Value]) -> Vec<&Value> {
    records::of_kind(rs, "scenario")
}

/// The strings of a JSON array (none for anything else).
pub fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A Rust crate named `walk` whose `src/lib.rs` is `lib`, nothing committed yet.
pub fn rust_crate(lib: &str) -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"walk\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", lib);
    r
}
