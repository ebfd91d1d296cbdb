//! The nine stages, how each is handed a stream (a file, or `-` for stdin), and the
//! fixture they run against: a two-commit repository, a valid profile and the change
//! stream qa-diff writes for that repository.

use qa_testkit::run::bin_dir;
use qa_testkit::Repo;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::launch::Launch;

/// One command-line word of a stage run.
#[derive(Clone, Copy)]
pub enum Arg {
    Word(&'static str),
    /// The fixture repository.
    Repo,
    /// The stream: a path, or `-` for stdin.
    Input,
    /// The fixture's valid profile file.
    Profile,
    /// The id of the fixture stream's first scenario.
    Scenario,
}

use Arg::{Input, Profile, Repo as RepoDir, Scenario, Word};

/// A stage binary and how it reads a stream.
pub struct Stage {
    pub name: &'static str,
    /// Forwards the records it reads (a filter): what it forwarded before a bad line must
    /// still be on its stdout.
    pub forwards: bool,
    /// Ends a stream it could not read with its documented one-line summary on stderr
    /// (`qa-report: 7 records (...); 1 problem`) after the line saying what is wrong.
    pub summarizes: bool,
    args: &'static [Arg],
}

/// `--repo REPO --in INPUT`: how most stages take a stream.
const REPO_IN: &[Arg] = &[Word("--repo"), RepoDir, Word("--in"), Input];

/// A filter stage reading `args`.
const fn filter(name: &'static str, args: &'static [Arg]) -> Stage {
    Stage {
        name,
        forwards: true,
        summarizes: false,
        args,
    }
}

/// Every stage binary.
pub const STAGES: &[Stage] = &[
    filter("qa-diff", REPO_IN),
    filter("qa-intent", REPO_IN),
    filter("qa-route", REPO_IN),
    filter("qa-trace", &[Word("--in"), Input]),
    filter("qa-fetch", REPO_IN),
    filter("qa-check", REPO_IN),
    Stage {
        name: "qa-report",
        forwards: false,
        summarizes: true,
        args: REPO_IN,
    },
    filter(
        "qa-profile",
        &[Word("--ndjson"), Word("--in"), Input, Profile],
    ),
    Stage {
        name: "qa-manifest",
        forwards: false,
        summarizes: false,
        args: &[
            Word("--repo"),
            RepoDir,
            Word("explain"),
            Scenario,
            Word("--in"),
            Input,
        ],
    },
];

impl Stage {
    /// A run of this stage reading the stream `input` (a path, or `-` for stdin).
    pub fn reading(&self, fixture: &Fixture, input: impl AsRef<OsStr>) -> Launch {
        launch(self.name, self.args, fixture, input.as_ref())
    }
}

/// A run of the binary `name` with `args`, `input` standing for [`Arg::Input`], in the
/// fixture's folder.
pub fn launch(name: &str, args: &[Arg], fixture: &Fixture, input: &OsStr) -> Launch {
    Launch::new(bin_dir().join(name))
        .args(args.iter().map(|arg| -> OsString {
            match arg {
                Word(word) => word.into(),
                RepoDir => fixture.repo().into(),
                Input => input.into(),
                Profile => fixture.profile.clone().into(),
                Scenario => fixture.scenario.clone().into(),
            }
        }))
        .dir(fixture.dir())
}

/// What every case runs against.
pub struct Fixture {
    repo: Repo,
    files: tempfile::TempDir,
    pub profile: PathBuf,
    /// The change stream `qa-diff | qa-intent` writes for the repository: valid records,
    /// one a line.
    pub stream: Vec<u8>,
    /// The id of the stream's first scenario (what `qa-manifest explain` is asked about).
    pub scenario: String,
}

/// A valid host profile (qa-profile's own golden fixture).
const PROFILE: &str = include_str!("../../../bins/qa-profile/tests/fixtures/golden.yaml");

impl Fixture {
    pub fn new() -> Fixture {
        let mut repo = Repo::new();
        repo.write(
            "src/lib.rs",
            "pub fn total(a: u32, b: u32) -> u32 {\n    a + b\n}\n",
        );
        repo.commit("feat: totals");
        repo.write(
            "src/lib.rs",
            "pub fn total(a: u32, b: u32) -> u32 {\n    a.saturating_add(b)\n}\n",
        );
        repo.commit("fix: totals saturate");
        let files = tempfile::tempdir().expect("a temp dir");
        let profile = files.path().join("profile.yaml");
        std::fs::write(&profile, PROFILE).expect("writing the profile");
        let mut fixture = Fixture {
            repo,
            files,
            profile,
            stream: Vec::new(),
            scenario: String::new(),
        };
        let repo = fixture.repo().as_os_str().to_os_string();
        let changes = fixture.produce(
            "qa-diff",
            &[
                OsStr::new("--repo"),
                &repo,
                OsStr::new("--base"),
                OsStr::new("HEAD~1"),
            ],
        );
        let changes = fixture.file("changes.ndjson", &changes);
        fixture.stream = fixture.produce(
            "qa-intent",
            &[
                OsStr::new("--repo"),
                &repo,
                OsStr::new("--in"),
                changes.as_os_str(),
            ],
        );
        fixture.scenario = fixture
            .lines()
            .iter()
            .map(|l| serde_json::from_slice::<serde_json::Value>(l).expect("a record"))
            .find(|r| r["kind"] == "scenario")
            .and_then(|r| r["id"].as_str().map(str::to_string))
            .expect("the fixture stream holds a scenario");
        fixture
    }

    /// The folder stages run in and input files are written to.
    pub fn dir(&self) -> &Path {
        self.files.path()
    }

    /// The repository's working tree.
    pub fn repo(&self) -> &Path {
        self.repo.path()
    }

    /// The stdout of a run of `stage` that must succeed.
    fn produce(&self, stage: &str, args: &[&OsStr]) -> Vec<u8> {
        let run = Launch::new(bin_dir().join(stage))
            .args(args.iter().copied())
            .run();
        assert_eq!(run.code, Some(0), "{stage} on the fixture: {}", run.stderr);
        run.stdout
    }

    /// The fixture stream's lines.
    pub fn lines(&self) -> Vec<&[u8]> {
        self.stream
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// Writes `bytes` to the file `name` in [`Fixture::dir`] and returns its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir().join(name);
        std::fs::write(&path, bytes).expect("writing an input file");
        path
    }

    /// A FIFO no process opens for writing, in [`Fixture::dir`].
    pub fn fifo(&self, name: &str) -> PathBuf {
        let path = self.dir().join(name);
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("running mkfifo");
        assert!(status.success(), "mkfifo {}", path.display());
        path
    }

    /// The fixture stream with `line` appended as one more line (no newline added).
    pub fn stream_then(&self, line: &[u8]) -> Vec<u8> {
        let mut bytes = self.stream.clone();
        bytes.extend_from_slice(line);
        bytes
    }

    /// The number the next line after the fixture stream has.
    pub fn next_line(&self) -> usize {
        self.lines().len() + 1
    }
}

impl Default for Fixture {
    fn default() -> Self {
        Fixture::new()
    }
}

#[cfg(test)]
mod tests {
    use super::STAGES;

    /// The table carries how each stage takes its input, so it is typed out; it must
    /// still name every binary (the folders of bins/) but the MCP server, which reads no
    /// stream or file argument.
    #[test]
    fn every_binary_but_the_mcp_server_is_a_stage_under_test() {
        let mut named: Vec<String> = STAGES.iter().map(|s| s.name.to_string()).collect();
        named.push("qa-mcp".into());
        named.sort();
        assert_eq!(named, qa_testkit::workspace::binaries());
    }
}
