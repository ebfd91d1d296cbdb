//! Test support: real git repositories in temp dirs (built with the git CLI), running the
//! qa-diff binary with a clean environment, and schema validation of what it writes.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Environment variables that would leak the test machine's CI into base resolution.
pub use qa_diff::base::CI_VARIABLES;

/// A git repository in a temp dir, with a fixed identity and clock.
pub struct Repo {
    /// Holds the repository (`repo/`) and files beside it.
    pub dir: tempfile::TempDir,
    root: PathBuf,
    /// A private HOME, so the machine's ~/.gitconfig cannot change results.
    home: tempfile::TempDir,
    tick: u32,
}

impl Repo {
    /// `git init` with `main` as the first branch.
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let repo = Repo {
            dir,
            root,
            home: tempfile::tempdir().unwrap(),
            tick: 0,
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        repo
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    fn command(&self, dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(dir)
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Tester")
            .env("GIT_AUTHOR_EMAIL", "tester@example.com")
            .env("GIT_COMMITTER_NAME", "Tester")
            .env("GIT_COMMITTER_EMAIL", "tester@example.com")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        cmd
    }

    /// Runs git in the repository; panics with its stderr on failure. Returns stdout.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(self.path(), args)
    }

    pub fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.command(dir).args(args).output().expect("running git");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn write(&self, path: &str, content: impl AsRef<[u8]>) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
    }

    /// Writes a file beside the repository (not inside it), reachable as `../NAME`.
    pub fn write_outside(&self, name: &str, content: impl AsRef<[u8]>) {
        std::fs::write(self.dir.path().join(name), content).unwrap();
    }

    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.path().join(path)).unwrap();
    }

    /// Stages everything and commits with a fixed, advancing date. Returns the commit id.
    pub fn commit(&mut self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.commit_staged(message)
    }

    /// Commits what is staged.
    pub fn commit_staged(&mut self, message: &str) -> String {
        self.tick += 1;
        let date = format!(
            "2026-01-01T00:{:02}:{:02}Z",
            self.tick / 60 % 60,
            self.tick % 60
        );
        let out = self
            .command(self.path())
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .args(["commit", "-q", "--allow-empty", "-m", message])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.rev("HEAD")
    }

    pub fn rev(&self, spec: &str) -> String {
        self.git(&["rev-parse", spec]).trim().to_string()
    }

    /// Runs qa-diff in the repository with `args` and `env` (CI variables cleared first).
    pub fn qa_diff(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        qa_diff_in(self.path(), self.home(), args, env)
    }
}

/// What a qa-diff run produced.
pub struct Run {
    pub output: Output,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.output.status.code().expect("exited, not signalled")
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Asserts success and returns every record, schema-validated.
    pub fn records(&self) -> Vec<Value> {
        assert_eq!(self.code(), 0, "qa-diff failed: {}", self.stderr());
        let records: Vec<Value> = self
            .output
            .stdout
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).expect("each line is JSON"))
            .collect();
        Schemas::get().validate_all(&records);
        records
    }
}

pub fn qa_diff_in(dir: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qa-diff"));
    cmd.current_dir(dir)
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env_remove("GIT_DIR")
        .stdin(Stdio::null());
    for var in CI_VARIABLES {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run {
        output: cmd.output().expect("running qa-diff"),
    }
}

pub fn of_kind<'a>(records: &'a [Value], kind: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["kind"] == kind).collect()
}

/// The `data` of the one record of `kind`.
pub fn one<'a>(records: &'a [Value], kind: &str) -> &'a Value {
    let found = of_kind(records, kind);
    assert_eq!(
        found.len(),
        1,
        "expected one {kind} record, got {}",
        found.len()
    );
    &found[0]["data"]
}

/// The `data` of the file record for `path` in `delta` (branch or current).
pub fn file<'a>(records: &'a [Value], path: &str, delta: &str) -> &'a Value {
    let found: Vec<&Value> = of_kind(records, "file")
        .into_iter()
        .filter(|r| r["data"]["path"] == path && r["data"]["delta"] == delta)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {delta} file record for {path}"
    );
    &found[0]["data"]
}

pub fn paths(records: &[Value], delta: &str) -> Vec<String> {
    of_kind(records, "file")
        .into_iter()
        .filter(|r| r["data"]["delta"] == delta)
        .map(|r| r["data"]["path"].as_str().unwrap().to_string())
        .collect()
}

pub fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema")
}

/// The compiled envelope schema and one `data` schema per kind qa-diff writes.
pub struct Schemas {
    envelope: jsonschema::Validator,
    kinds: Vec<(String, jsonschema::Validator)>,
}

impl Schemas {
    pub fn get() -> &'static Schemas {
        static SCHEMAS: std::sync::OnceLock<Schemas> = std::sync::OnceLock::new();
        SCHEMAS.get_or_init(|| {
            let load = |name: &str| {
                let text = std::fs::read_to_string(schema_dir().join(name)).unwrap();
                let schema: Value = serde_json::from_str(&text).unwrap();
                jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
            };
            Schemas {
                envelope: load("envelope.schema.json"),
                kinds: ["range", "commit", "file", "diag"]
                    .iter()
                    .map(|k| (k.to_string(), load(&format!("{k}.schema.json"))))
                    .collect(),
            }
        })
    }

    pub fn validate_all(&self, records: &[Value]) {
        for (i, record) in records.iter().enumerate() {
            if let Err(e) = self.envelope.validate(record) {
                panic!("record {i} breaks the envelope schema: {e}\n{record}");
            }
            let kind = record["kind"].as_str().unwrap();
            let (_, validator) = self
                .kinds
                .iter()
                .find(|(k, _)| k == kind)
                .unwrap_or_else(|| panic!("qa-diff wrote an unexpected kind {kind}"));
            if let Err(e) = validator.validate(&record["data"]) {
                panic!("{kind} record {i} breaks its schema: {e}\n{record}");
            }
        }
    }
}
