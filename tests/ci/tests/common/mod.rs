//! What the CI tests share: an upstream repository whose feature branch has a required
//! scenario, CI checkouts of it (full or `git clone --depth 1`), the CI scripts run with
//! only the variables a test gives them, and YAML files read as JSON values.
#![allow(dead_code)] // each test file uses its own part

use qa_testkit::run::{bin_dir, Program, Run};
use qa_testkit::Repo;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    r.write("README.md", "# shop\n");
    r.write(".qa/manifest.yaml", MANIFEST);
    r.write("src/checkout/submitOrder.ts", SUBMIT_V1);
    r.write("site/index.html", "<h1>Welcome to the Example Shop</h1>\n");
    r.commit("chore: initial import");
    r.branch("feature");
    r.write("src/checkout/submitOrder.ts", SUBMIT_V2);
    r.commit("feat(checkout): confirm the order number after payment");
    for n in 0..FEATURE_TAIL {
        r.write("notes.txt", format!("note {n}\n"));
        r.commit(&format!("chore: note {n}"));
    }
    r.git(&["checkout", "-q", "main"]);
    for n in 0..3 {
        r.write("CHANGELOG.md", format!("release {n}\n"));
        r.commit(&format!("chore: release {n}"));
    }
    r.git(&["checkout", "-q", "feature"]);
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
        let dir = tempfile::tempdir().expect("creating a temp dir");
        let path = dir.path().join("work");
        let runner = dir.path().join("runner");
        std::fs::create_dir(&runner).expect("creating the runner dir");
        let url = format!("file://{}", upstream.path().display());
        let mut clone = vec!["clone", "-q"];
        clone.extend_from_slice(args);
        clone.extend_from_slice(&["--branch", "feature", &url, path.to_str().unwrap()]);
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

/// `name=value` lines (GitHub's $GITHUB_OUTPUT, GitLab's dotenv) as a map.
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
