//! Running a qapipe binary: where the built binaries are, an invocation builder (args,
//! env, working directory, stdin), what a run produced, and stub tools for PATH.

use crate::records;
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What `cargo build` must have produced before the flow suite can run.
const BUILD_HINT: &str = "build the binaries first: cargo build --workspace --bins";

/// A binary under test.
#[derive(Debug, Clone)]
pub struct Program {
    name: String,
    path: PathBuf,
}

impl Program {
    /// The binary at `path`, e.g. `env!("CARGO_BIN_EXE_qa-diff")` in the package that
    /// owns it.
    pub fn at(path: impl Into<PathBuf>) -> Program {
        let path = path.into();
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Program { name, path }
    }

    /// The built binary `name` in [`bin_dir`]; panics when it is not there.
    pub fn built(name: &str) -> Program {
        Program::built_in(&bin_dir(), name)
    }

    /// The built binary `name` in `dir`; panics when it is not there.
    pub fn built_in(dir: &Path, name: &str) -> Program {
        let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        assert!(
            path.is_file(),
            "{name} is not in {}: {BUILD_HINT}",
            dir.display()
        );
        Program {
            name: name.to_string(),
            path,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A new invocation with no arguments, stdin empty, `GIT_DIR` and friends removed.
    pub fn invocation(&self) -> Invocation {
        let mut command = Command::new(&self.path);
        command
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        Invocation {
            name: self.name.clone(),
            command,
            stdin: Vec::new(),
        }
    }
}

/// The workspace root (two levels above this crate, `shared/testkit/`).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("shared/testkit lives inside the workspace")
        .to_path_buf()
}

/// Where the built binaries are: `QA_BIN_DIR` if set, else `$CARGO_TARGET_DIR/debug`,
/// else `<workspace>/target/debug`. A relative directory is taken from the workspace root.
pub fn bin_dir() -> PathBuf {
    let workspace = workspace();
    let dir = match (
        std::env::var_os("QA_BIN_DIR"),
        std::env::var_os("CARGO_TARGET_DIR"),
    ) {
        (Some(dir), _) if !dir.is_empty() => PathBuf::from(dir),
        (_, Some(target)) if !target.is_empty() => PathBuf::from(target).join("debug"),
        _ => PathBuf::from("target/debug"),
    };
    workspace.join(dir)
}

/// One run of a program being prepared.
pub struct Invocation {
    name: String,
    command: Command,
    stdin: Vec<u8>,
}

impl Invocation {
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Invocation {
        self.command.arg(arg);
        self
    }

    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Invocation {
        self.command.args(args);
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Invocation {
        self.command.env(key, value);
        self
    }

    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Invocation {
        self.command.env_remove(key);
        self
    }

    /// The working directory.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Invocation {
        self.command.current_dir(dir);
        self
    }

    /// Bytes fed to stdin (empty by default; stdin is then closed at once).
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Invocation {
        self.stdin = bytes.into();
        self
    }

    /// Runs to completion and collects what it wrote.
    pub fn run(mut self) -> Run {
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", self.name));
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let input = std::mem::take(&mut self.stdin);
        // A separate writer thread: a stage that writes before it has read everything
        // would otherwise deadlock against a full stdout pipe.
        let writer = std::thread::spawn(move || {
            // A stage that stops reading early closes the pipe: not the harness's error.
            let _ = pipe.write_all(&input);
        });
        let output = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("waiting for {}: {e}", self.name));
        writer.join().expect("the stdin writer thread");
        let code = output
            .status
            .code()
            .unwrap_or_else(|| panic!("{} was killed by a signal: {:?}", self.name, output.status));
        Run {
            program: self.name,
            code,
            stdout: output.stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Run {
    /// The program's name, for messages.
    pub program: String,
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// Stdout as text; panics when it is not UTF-8.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.stdout)
            .unwrap_or_else(|e| panic!("{} wrote non-UTF-8 on stdout: {e}", self.program))
    }

    /// Asserts exit 0 (showing stderr otherwise) and returns self.
    pub fn success(self) -> Run {
        assert_eq!(
            self.code, 0,
            "{} exited {}; stderr:\n{}",
            self.program, self.code, self.stderr
        );
        self
    }

    /// Asserts exit 0 and returns every record, each schema-validated with its id
    /// recomputed.
    pub fn records(&self) -> Vec<Value> {
        assert_eq!(
            self.code, 0,
            "{} exited {}; stderr:\n{}",
            self.program, self.code, self.stderr
        );
        let records = records::parse(&self.stdout);
        crate::Schemas::get().validate_all(&records);
        records
    }
}

/// A directory of executable stub tools, to put on PATH where a stage only looks
/// programs up. A stub that is run anyway exits 97 and leaves `NAME.ran` beside it.
pub struct ToolStubs {
    dir: tempfile::TempDir,
}

impl ToolStubs {
    /// Stubs named `names` (an empty list gives an empty PATH directory).
    pub fn new(names: &[&str]) -> ToolStubs {
        let dir = tempfile::tempdir().expect("creating the stub dir");
        for name in names {
            let path = dir.path().join(name);
            std::fs::write(
                &path,
                format!(
                    "#!/bin/sh\n: > \"$0.ran\"\necho \"{name} stub: only looking it up is allowed\" >&2\nexit 97\n"
                ),
            )
            .expect("writing a stub");
            set_executable(&path);
        }
        ToolStubs { dir }
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A PATH value holding only this directory.
    pub fn path_var(&self) -> OsString {
        self.dir.path().as_os_str().to_owned()
    }

    /// The stubs that something ran.
    pub fn ran(&self) -> Vec<String> {
        let mut ran: Vec<String> = std::fs::read_dir(self.dir.path())
            .expect("reading the stub dir")
            .filter_map(|e| {
                let name = e.ok()?.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".ran").map(str::to_string)
            })
            .collect();
        ran.sort();
        ran
    }
}

#[cfg(unix)]
fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .expect("making a stub executable");
}

#[cfg(not(unix))]
fn set_executable(_path: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "build the binaries first: cargo build --workspace --bins")]
    fn a_missing_binary_says_how_to_build_it() {
        let empty = tempfile::tempdir().unwrap();
        Program::built_in(empty.path(), "qa-nothing");
    }

    #[test]
    fn a_run_collects_exit_code_stdout_and_stderr_and_feeds_stdin() {
        let run = Program::at("/bin/sh")
            .invocation()
            .args(["-c", "cat; echo oops >&2; exit 3"])
            .stdin("fed\n")
            .run();
        assert_eq!(run.code, 3);
        assert_eq!(run.text(), "fed\n");
        assert_eq!(run.stderr, "oops\n");
    }

    #[test]
    #[should_panic(expected = "sh exited 3")]
    fn success_names_the_program_and_its_exit_code() {
        Program::at("/bin/sh")
            .invocation()
            .args(["-c", "exit 3"])
            .run()
            .success();
    }

    #[test]
    fn stubs_are_found_on_path_and_record_being_run() {
        let stubs = ToolStubs::new(&["pytest", "cargo"]);
        assert!(stubs.ran().is_empty());
        let run = Program::at("/bin/sh")
            .invocation()
            .env("PATH", stubs.path_var())
            .args(["-c", "pytest -q"])
            .run();
        assert_eq!(run.code, 97);
        assert_eq!(stubs.ran(), vec!["pytest"]);
    }
}
