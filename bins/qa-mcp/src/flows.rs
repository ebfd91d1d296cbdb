//! The flows as stage chains, the same stages and flags as pipelines/changes.sh and
//! pipelines/acceptance.sh, and the run folders qa-mcp gives qa-report.

use crate::pipeline::{Chain, Stage};
use crate::stages::Bins;
use qa_cli::PipelineFlags;
use qa_records::private_dir::PrivateDir;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where change reports and checks go, under the repository.
pub const MCP_DIR: &str = ".qa/mcp";
/// The checksum file of every report folder.
pub const SUMS: &str = "SHA256SUMS";
/// The stream qa-report saves in a change report folder.
pub const RECORDS: &str = "records.ndjson";

/// The capabilities the person gave the server: the only source of the stages' flags.
#[derive(Debug, Clone, Default)]
pub struct Capabilities {
    pub flags: PipelineFlags,
    /// qa-check's browser flags (--browser-module, --browser), for acceptance runs.
    pub browser: Vec<OsString>,
}

impl Capabilities {
    /// The permission flags as every acceptance stage gets them.
    pub fn stage_flags(&self) -> Vec<OsString> {
        let f = &self.flags;
        let mut out: Vec<OsString> = Vec::new();
        if f.allow_network {
            out.push("--allow-network".into());
        }
        if f.allow_tool_calls {
            out.push("--allow-tool-calls".into());
        }
        if f.allow_exec {
            out.push("--allow-exec".into());
        }
        if let Some(t) = f.timeout {
            out.push(format!("--timeout={t}").into());
        }
        if let Some(name) = &f.auth_env {
            out.push(format!("--auth-env={name}").into());
        }
        out
    }
}

/// What change_report runs on.
#[derive(Debug, Clone)]
pub struct ChangeInput {
    pub repo: PathBuf,
    pub base: Option<String>,
    pub head: Option<String>,
    pub worktree: bool,
}

/// `value` as `--name=value`, so a value starting with `-` can never be read as a flag.
pub fn kv(name: &str, value: impl AsRef<std::ffi::OsStr>) -> OsString {
    let mut s = OsString::from(format!("--{name}="));
    s.push(value.as_ref());
    s
}

/// qa-diff ARGS | qa-intent --repo R | qa-route --repo R | qa-trace | qa-report --format
/// agent --out DIR (pipelines/changes.sh with QA_FORMAT=agent QA_OUT=DIR).
pub fn change(bins: &Bins, input: &ChangeInput, out: &Path) -> Chain {
    let mut diff = Stage::new("qa-diff", bins.get("qa-diff")).arg(kv("repo", &input.repo));
    if let Some(base) = &input.base {
        diff = diff.arg(kv("base", base));
    }
    if let Some(head) = &input.head {
        diff = diff.arg(kv("head", head));
    }
    if input.worktree {
        diff = diff.arg("--worktree");
    }
    Chain {
        upstream: vec![
            diff,
            Stage::new("qa-intent", bins.get("qa-intent")).arg(kv("repo", &input.repo)),
            Stage::new("qa-route", bins.get("qa-route")).arg(kv("repo", &input.repo)),
            Stage::new("qa-trace", bins.get("qa-trace")),
        ],
        report: report_agent(bins, &input.repo, out),
        signal_report: true,
    }
}

/// qa-check --exec --repo R --in STREAM [--scenario ID] FLAGS | qa-report --format agent
/// --out DIR: the routed command of the last change report, with the server's flags only.
pub fn check(
    bins: &Bins,
    caps: &Capabilities,
    repo: &Path,
    stream: &Path,
    scenario: Option<&str>,
    out: &Path,
) -> Chain {
    let mut stage = Stage::new("qa-check", bins.get("qa-check"))
        .arg("--exec")
        .arg(kv("repo", repo))
        .arg(kv("in", stream));
    if let Some(id) = scenario {
        stage = stage.arg(kv("scenario", id));
    }
    Chain {
        upstream: vec![stage.args(caps.stage_flags())],
        report: report_agent(bins, repo, out),
        signal_report: false,
    }
}

/// qa-report with the repository as --repo: the report folder inside it is then made
/// from the repository down, never through a link in it.
fn report_agent(bins: &Bins, repo: &Path, out: &Path) -> Stage {
    Stage::new("qa-report", bins.get("qa-report"))
        .arg("--format=agent")
        .arg(kv("repo", repo))
        .arg(kv("out", out))
}

/// What acceptance runs on.
#[derive(Debug, Clone)]
pub struct AcceptanceInput {
    pub plan: PathBuf,
    pub repo: PathBuf,
    pub shard: Option<String>,
}

/// qa-intent --plan P | qa-fetch | qa-route | qa-check [--shard] | qa-fetch --verify |
/// qa-trace | qa-report --acceptance --format json, every stage with --repo R and the
/// server's flags (pipelines/acceptance.sh).
pub fn acceptance(bins: &Bins, caps: &Capabilities, input: &AcceptanceInput) -> Chain {
    let flags = caps.stage_flags();
    let repo = kv("repo", &input.repo);
    let stage = |name: &'static str| Stage::new(name, bins.get(name));
    let mut check = stage("qa-check")
        .arg(repo.clone())
        .args(caps.browser.clone());
    if let Some(shard) = &input.shard {
        check = check.arg(kv("shard", shard));
    }
    Chain {
        upstream: vec![
            stage("qa-intent")
                .arg(kv("plan", &input.plan))
                .arg(repo.clone())
                .args(flags.clone()),
            stage("qa-fetch").arg(repo.clone()).args(flags.clone()),
            stage("qa-route").arg(repo.clone()).args(flags.clone()),
            check.args(flags.clone()),
            stage("qa-fetch")
                .arg("--verify")
                .arg(repo.clone())
                .args(flags.clone()),
            stage("qa-trace").args(flags.clone()),
        ],
        report: stage("qa-report")
            .arg("--acceptance")
            .arg(repo)
            .arg("--format=json")
            .args(flags),
        signal_report: true,
    }
}

/// A new run id: UTC time, this process and a counter (unique within the repository's
/// .qa/mcp as long as process ids are).
pub fn run_id(tool: &str) -> String {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed) + 1;
    format!(
        "{}-{}-{}-{n}",
        qa_records::clock::compact(),
        tool.replace('_', "-"),
        std::process::id()
    )
}

/// `repo/.qa/mcp`, made private (0700) without following a link on the way, with a
/// `.gitignore` of `*`, so report folders never show as untracked changes (nor in a later
/// `worktree` diff). A symlink at `.qa`, `.qa/mcp` or `.qa/mcp/.gitignore` is refused
/// (nothing written): the repository is data, never where the server writes outside.
pub fn mcp_dir(repo: &Path) -> std::io::Result<PrivateDir> {
    let dir = PrivateDir::open(repo, Path::new(MCP_DIR))?;
    match dir.open_file(".gitignore") {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            use std::io::Write as _;
            dir.create_file(".gitignore")?.write_all(b"*\n")?;
        }
        Err(e) => return Err(e),
    }
    Ok(dir)
}
