//! The nine stages, how each is handed a stream (a file, or `-` for stdin), and the
//! fixture they run against: a two-commit repository, a valid profile and the change
//! stream qa-diff writes for that repository.

use qa_testkit::run::bin_dir;
use qa_testkit::Repo;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::launch::Launch;

/// A stage binary and how it reads a stream.
pub struct Stage {
    pub name: &'static str,
    /// Forwards the records it reads (a filter): what it forwarded before a bad line must
    /// still be on its stdout.
    pub forwards: bool,
    /// Ends a stream it could not read with its documented one-line summary on stderr
    /// (`qa-report: 7 records (...); 1 problem`) after the line saying what is wrong.
    pub summarizes: bool,
    args: fn(&Fixture, &OsStr) -> Vec<OsString>,
}

/// Every stage binary.
pub const STAGES: &[Stage] = &[
    Stage {
        name: "qa-diff",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-intent",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-route",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-trace",
        forwards: true,
        summarizes: false,
        args: |_, input| args(&[OsStr::new("--in"), input]),
    },
    Stage {
        name: "qa-fetch",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-check",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-report",
        forwards: false,
        summarizes: true,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("--in"),
                input,
            ])
        },
    },
    Stage {
        name: "qa-profile",
        forwards: true,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--ndjson"),
                OsStr::new("--in"),
                input,
                f.profile.as_os_str(),
            ])
        },
    },
    Stage {
        name: "qa-manifest",
        forwards: false,
        summarizes: false,
        args: |f, input| {
            args(&[
                OsStr::new("--repo"),
                f.repo_arg(),
                OsStr::new("explain"),
                OsStr::new(&f.scenario),
                OsStr::new("--in"),
                input,
            ])
        },
    },
];

fn args(items: &[&OsStr]) -> Vec<OsString> {
    items.iter().map(|s| s.to_os_string()).collect()
}

impl Stage {
    /// A run of this stage reading the stream `input` (a path, or `-` for stdin).
    pub fn reading(&self, fixture: &Fixture, input: impl AsRef<OsStr>) -> Launch {
        Launch::new(bin_dir().join(self.name))
            .args((self.args)(fixture, input.as_ref()))
            .dir(fixture.dir())
    }
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
        let diff = Launch::new(bin_dir().join("qa-diff"))
            .args([
                OsStr::new("--repo"),
                fixture.repo_arg(),
                OsStr::new("--base"),
                OsStr::new("HEAD~1"),
            ])
            .run();
        assert_eq!(
            diff.code,
            Some(0),
            "qa-diff on the fixture: {}",
            diff.stderr
        );
        let changes = fixture.file("changes.ndjson", &diff.stdout);
        let intent = Launch::new(bin_dir().join("qa-intent"))
            .args([OsStr::new("--repo"), fixture.repo_arg(), OsStr::new("--in")])
            .args([changes.as_os_str()])
            .run();
        assert_eq!(
            intent.code,
            Some(0),
            "qa-intent on the fixture: {}",
            intent.stderr
        );
        fixture.stream = intent.stdout;
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

    fn repo_arg(&self) -> &OsStr {
        self.repo.path().as_os_str()
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
