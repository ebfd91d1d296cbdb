//! What the CI tests share: an upstream repository whose feature branch has a required
//! scenario, CI checkouts of it (full or `git clone --depth 1`), the CI scripts run with
//! only the variables a test gives them, and YAML files read as JSON values.
#![allow(dead_code)] // each test file uses its own part

use qa_testkit::run::{bin_dir, Program, Run};
use qa_testkit::Repo;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (where action.yml and pipelines/ are).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of the repository.
pub fn source(path: &str) -> PathBuf {
    workspace().join(path)
}

/// A team manifest making src/checkout/** a critical flow: its located scenarios are required.
const MANIFEST: &str = "version: 1\nflows:\n  - name: checkout\n    criticality: critical\n    paths: [\"src/checkout/**\"]\n";

const SUBMIT_V1: &str = "export async function submitOrder(cart: Cart, api: Api): Promise<string> {\n  const order = await api.post(\"/orders\", cart);\n  return order.number;\n}\n";

const SUBMIT_V2: &str = "export async function submitOrder(cart: Cart, api: Api): Promise<string> {\n  const order = await api.post(\"/orders\", cart);\n  toast.success(`Order ${order.number} is confirmed`);\n  return order.number;\n}\n";

/// How many commits the feature branch adds after its change: more than one deepening
/// step (50) of a shallow checkout.
pub const FEATURE_TAIL: usize = 60;

/// The upstream repository: `main` with the checkout code and a manifest, then a
/// `feature` branch confirming the order (a required scenario) followed by
/// [`FEATURE_TAIL`] note commits, while `main` moved on by 3 commits.
pub fn upstream() -> Repo {
    let mut r = Repo::new();
    // One git fast-import instead of three git commands a commit (the tests build it ~30 times).
    let mut h = r.history();
    h.write("README.md", "# shop\n");
    h.write(".qa/manifest.yaml", MANIFEST);
    h.write("src/checkout/submitOrder.ts", SUBMIT_V1);
    h.write("site/index.html", "<h1>Welcome to the Example Shop</h1>\n");
    h.commit("main", "main", None, "chore: initial import");
    h.write("src/checkout/submitOrder.ts", SUBMIT_V2);
    h.commit(
        "feature",
        "main",
        None,
        "feat(checkout): confirm the order number after payment",
    );
    for n in 0..FEATURE_TAIL {
        h.write("notes.txt", format!("note {n}\n"));
        h.commit("feature", "main", None, &format!("chore: note {n}"));
    }
    for n in 0..3 {
        h.write("CHANGELOG.md", format!("release {n}\n"));
        h.commit("main", "main", None, &format!("chore: release {n}"));
    }
    r.import(h, "feature");
    r
}

/// A CI job's checkout of `upstream`'s feature branch, with `origin` pointing at it.
pub struct Checkout {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
    /// Files the job writes outside the repository (summary, outputs, PATH).
    pub runner: PathBuf,
}

impl Checkout {
    fn clone(upstream: &Repo, args: &[&str]) -> Checkout {
        Checkout::clone_branch(upstream, "feature", args)
    }

    /// `git clone` of `branch` with the whole history (a push build of that branch).
    pub fn of_branch(upstream: &Repo, branch: &str) -> Checkout {
        Checkout::clone_branch(upstream, branch, &[])
    }

    fn clone_branch(upstream: &Repo, branch: &str, args: &[&str]) -> Checkout {
        let dir = tempfile::tempdir().expect("creating a temp dir");
        let path = dir.path().join("work");
        let runner = dir.path().join("runner");
        std::fs::create_dir(&runner).expect("creating the runner dir");
        let url = format!("file://{}", upstream.path().display());
        let mut clone = vec!["clone", "-q"];
        clone.extend_from_slice(args);
        clone.extend_from_slice(&["--branch", branch, &url, path.to_str().unwrap()]);
        upstream.git_in(dir.path(), &clone);
        Checkout {
            _dir: dir,
            path,
            runner,
        }
    }

    /// `git clone` with the whole history (actions/checkout with fetch-depth: 0).
    pub fn full(upstream: &Repo) -> Checkout {
        Checkout::clone(upstream, &[])
    }

    /// `git clone --depth 1` (actions/checkout's default).
    pub fn shallow(upstream: &Repo) -> Checkout {
        Checkout::clone(upstream, &["--depth", "1"])
    }

    /// A file the job wrote beside the repository.
    pub fn runner_file(&self, name: &str) -> PathBuf {
        self.runner.join(name)
    }

    /// Writes plan.json (see [`plan`]) into the checkout, untracked, as a job would.
    pub fn write_plan(&self, contains: &str) {
        std::fs::write(self.path.join("plan.json"), plan(contains)).expect("writing plan.json");
    }

    /// Whether git calls the checkout shallow.
    pub fn is_shallow(&self, upstream: &Repo) -> bool {
        upstream
            .git_in(&self.path, &["rev-parse", "--is-shallow-repository"])
            .trim()
            == "true"
    }
}

/// `sh pipelines/ci/NAME` from `dir`, with the built binaries first on PATH, `home` as
/// HOME, and none of the machine's own CI variables: only `env`.
pub fn ci_script(name: &str, dir: &Path, home: &Path, env: &[(&str, String)]) -> Run {
    let mut run = Program::at("/bin/sh")
        .invocation()
        .arg(source(&format!("pipelines/ci/{name}")))
        .dir(dir);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        let ci = ["GITHUB_", "INPUT_", "RUNNER_", "CI_", "QAPIPE_", "QA_"]
            .iter()
            .any(|p| key.starts_with(p));
        if ci || key == "GITLAB_CI" {
            run = run.env_remove(key);
        }
    }
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    run = run
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1");
    for (key, value) in env {
        run = run.env(key, value);
    }
    run.run()
}

/// The run step on `checkout` as a pull request into main, plus `inputs`.
pub fn action(upstream: &Repo, checkout: &Checkout, inputs: &[(&str, &str)]) -> Run {
    let summary = checkout.runner_file("summary.md");
    let output = checkout.runner_file("output.txt");
    std::fs::write(&summary, "").unwrap();
    std::fs::write(&output, "").unwrap();
    let mut env = vec![
        ("GITHUB_EVENT_NAME", "pull_request".to_string()),
        ("GITHUB_BASE_REF", "main".to_string()),
        ("GITHUB_HEAD_REF", "feature".to_string()),
        ("GITHUB_WORKSPACE", checkout.path.display().to_string()),
        ("GITHUB_STEP_SUMMARY", summary.display().to_string()),
        ("GITHUB_OUTPUT", output.display().to_string()),
        ("RUNNER_TEMP", checkout.runner.display().to_string()),
    ];
    for (name, value) in inputs {
        env.push((name, value.to_string()));
    }
    ci_script("github.sh", &checkout.path, upstream.home(), &env)
}

pub fn outputs(checkout: &Checkout) -> BTreeMap<String, String> {
    github_outputs(&checkout.runner_file("output.txt"))
}

/// The job's script on `checkout` as a merge request into main, plus `variables`.
pub fn job(upstream: &Repo, checkout: &Checkout, variables: &[(&str, &str)]) -> Run {
    let mut env = vec![
        ("GITLAB_CI", "true".to_string()),
        ("CI", "true".to_string()),
        ("CI_PIPELINE_SOURCE", "merge_request_event".to_string()),
        ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main".to_string()),
        ("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "feature".to_string()),
        ("CI_PROJECT_DIR", checkout.path.display().to_string()),
    ];
    for (name, value) in variables {
        env.push((name, value.to_string()));
    }
    ci_script("gitlab.sh", &checkout.path, upstream.home(), &env)
}

/// GitHub's $GITHUB_OUTPUT read as the runner reads it (see [`parse_github_outputs`]).
pub fn github_outputs(path: &Path) -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    parse_github_outputs(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// `name<<DELIMITER`, the value's lines, then the delimiter alone on a line; or a
/// `name=value` line. An error for a line of neither form, a block without its
/// delimiter line, or a name given twice (a value that injected lines).
pub fn parse_github_outputs(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let (name, value) = match line.split_once("<<") {
            Some((name, delimiter)) if !name.contains('=') => {
                let mut value = Vec::new();
                loop {
                    match lines.next() {
                        Some(l) if l == delimiter => break,
                        Some(l) => value.push(l),
                        None => return Err(format!("{name}: no closing {delimiter} in {text}")),
                    }
                }
                (name, value.join("\n"))
            }
            _ => match line.split_once('=') {
                Some((name, value)) => (name, value.to_string()),
                None => return Err(format!("{line:?} is no output line in {text}")),
            },
        };
        if out.insert(name.to_string(), value).is_some() {
            return Err(format!("{name} given twice in {text}"));
        }
    }
    Ok(out)
}

/// Every file and folder under `dir` (recursively, symlinks not followed) with its bytes
/// (None for a folder or symlink): what a test compares before and after a run.
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut found = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                todo.push(path.clone());
                found.insert(path, None);
            } else if meta.is_file() {
                let bytes = std::fs::read(&path).unwrap();
                found.insert(path, Some(bytes));
            } else {
                found.insert(path, None);
            }
        }
    }
    found
}

/// `name=value` lines (GitLab's dotenv) as a map.
pub fn key_values(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A YAML file of the repository as a JSON value (YAML 1.2 core schema: `on` is a key,
/// not `true`; a repeated key is an error).
pub fn yaml(path: &str) -> Value {
    let text =
        std::fs::read_to_string(source(path)).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let options = serde_saphyr::options! {
        strict_booleans: true,
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::Error,
    };
    serde_saphyr::from_str_with_options(&text, options)
        .unwrap_or_else(|e| panic!("{path} is not valid YAML: {e}"))
}

/// A JSON file.
pub fn json_file(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A small acceptance plan over site/: one file check, passing when `contains` is in
/// site/index.html.
pub fn plan(contains: &str) -> String {
    serde_json::json!({
        "target": {"kind": "directory", "value": "site"},
        "criteria": [{
            "id": "greets",
            "expected": "The home page greets the visitor",
            "source": {"kind": "request", "text": "Greet visitors on the home page"}
        }],
        "checks": [{
            "id": "home-greets", "criterion": "greets", "kind": "file",
            "path": "index.html", "contains": contains
        }]
    })
    .to_string()
}

/// A file's permission bits.
pub fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

pub const TARGET: &str = "x86_64-unknown-linux-gnu";
/// The workspace version, which the installer installs by default.
pub fn version() -> String {
    let text = std::fs::read_to_string(source("Cargo.toml")).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .unwrap()
        .to_string()
}

pub fn sh(dir: &Path, script: &str) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A release folder holding `qapipe-<version>-<target>.tar.gz` (a top folder with bin/
/// (launchers of the built binaries), share/man/man1 and SHA256SUMS over them) and the
/// release's SHA256SUMS beside it. `tamper` runs in the top folder after its sums are
/// written, before it is packed.
pub struct Release {
    pub dir: tempfile::TempDir,
}

impl Release {
    pub fn new(tamper: &str) -> Release {
        let release = Release::without_outer_sums(tamper);
        sh(release.dir.path(), "sha256sum qapipe-*.tar.gz > SHA256SUMS");
        release
    }

    /// The archive alone, with no SHA256SUMS beside it.
    pub fn without_outer_sums(tamper: &str) -> Release {
        let dir = tempfile::tempdir().unwrap();
        let top = format!("qapipe-{}-{TARGET}", version());
        let root = dir.path().join("build").join(&top);
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::create_dir_all(root.join("share/man/man1")).unwrap();
        for bin in &qa_testkit::workspace::binaries() {
            let launcher = format!("#!/bin/sh\nexec '{}/{bin}' \"$@\"\n", bin_dir().display());
            std::fs::write(root.join("bin").join(bin), launcher).unwrap();
            sh(&root, &format!("chmod 755 bin/{bin}"));
            std::fs::copy(
                source(&format!("man/{bin}.1")),
                root.join(format!("share/man/man1/{bin}.1")),
            )
            .unwrap();
        }
        sh(
            &root,
            "find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS",
        );
        sh(&root, tamper);
        sh(
            &dir.path().join("build"),
            &format!("tar -czf ../{top}.tar.gz {top}"),
        );
        Release { dir }
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.dir.path().display())
    }

    pub fn archive(&self) -> PathBuf {
        self.dir
            .path()
            .join(format!("qapipe-{}-{TARGET}.tar.gz", version()))
    }
}

/// The installer with `mode` from `url` into `prefix`.
pub fn install(mode: &str, url: &str, prefix: &Path, extra: &[(&str, String)]) -> Run {
    let home = tempfile::tempdir().unwrap();
    let mut env = vec![
        ("QAPIPE_INSTALL", mode.to_string()),
        ("QAPIPE_RELEASE_URL", url.to_string()),
        ("QAPIPE_TARGET", TARGET.to_string()),
        ("QAPIPE_PREFIX", prefix.display().to_string()),
    ];
    env.extend(extra.iter().cloned());
    ci_script("install.sh", home.path(), home.path(), &env)
}
