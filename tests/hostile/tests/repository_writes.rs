//! A hostile repository against the stages that write into it (qa-mcp's change_report and
//! acceptance tools, qa-report --acceptance, qa-manifest init): a symlinked `.qa`, `.qa/mcp` or
//! `.qa/acceptance`, a committed `.qa/mcp/.gitignore` symlink, a folder that is no git
//! work tree. Each ends with the documented exit code or MCP error and nothing written
//! where the link points (its target byte for byte as before); the same run without the
//! link writes its folder (the positive control).

use qa_testkit::run::{bin_dir, Program};
use qa_testkit::{Repo, Tree};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead as _, Write as _};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every file and folder under `dir` with its bytes (folders: empty): what a run must
/// leave as it found it at a link's target.
fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let meta = path.symlink_metadata().unwrap();
            if meta.is_dir() {
                todo.push(path.clone());
                all.insert(path, Vec::new());
            } else {
                all.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    all
}

/// A place outside the repository a link points at, with one file a write could clobber.
struct Outside {
    tree: Tree,
    before: BTreeMap<PathBuf, Vec<u8>>,
}

impl Outside {
    fn new() -> Outside {
        let tree = Tree::new();
        tree.write("victim", "keep me\n");
        let before = contents(tree.path());
        Outside { tree, before }
    }

    fn path(&self) -> &Path {
        self.tree.path()
    }

    /// What changed there since it was made (empty: nothing written through the link).
    fn changes(&self) -> Vec<PathBuf> {
        let after = contents(self.path());
        let mut changed: Vec<PathBuf> = after
            .iter()
            .filter(|(p, bytes)| self.before.get(*p) != Some(bytes))
            .map(|(p, _)| p.clone())
            .collect();
        changed.extend(
            self.before
                .keys()
                .filter(|p| !after.contains_key(*p))
                .cloned(),
        );
        changed
    }
}

#[test]
fn the_detector_sees_a_file_written_through_a_link_and_a_clobbered_victim() {
    let outside = Outside::new();
    assert_eq!(outside.changes(), Vec::<PathBuf>::new());
    let repo = Tree::new();
    symlink(outside.path(), repo.path().join(".qa")).unwrap();
    std::fs::write(repo.path().join(".qa/.gitignore"), "*\n").unwrap();
    assert_eq!(outside.changes(), vec![outside.path().join(".gitignore")]);
    std::fs::write(outside.path().join("victim"), "clobbered").unwrap();
    assert_eq!(outside.changes().len(), 2);
}

// --- qa-mcp ------------------------------------------------------------------------------

/// A repository on branch `feature` with one change to a source file.
fn changed_repo() -> Repo {
    let mut r = Repo::new();
    r.write("src/app.ts", "export const answer = 41;\n");
    r.commit("chore: initial import");
    r.branch("feature");
    r.write("src/app.ts", "export const answer = 42;\n");
    r.commit("fix: the answer");
    r
}

/// One tool call over a raw JSON-RPC session with qa-mcp (HOME: `home`): the response,
/// once the session ended with exit 0.
fn mcp_call(home: &Path, flags: &[&str], tool: &str, args: Value) -> Value {
    let mut child = Command::new(Program::built("qa-mcp").path())
        .arg("--bin-dir")
        .arg(bin_dir())
        .args(flags)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "hostile", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": args}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let response = stdout
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find(|v| v["id"] == 2)
        .expect("a response to the tool call");
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    response
}

/// The text of a tool error, asserted one.
fn tool_error(response: &Value) -> String {
    assert_eq!(response["result"]["isError"], true, "{response:#}");
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// change_report on `repo`, asserted a tool error refusing the symlink at `link`, with
/// nothing written outside.
fn change_report_refuses(repo: &Repo, link: &str, outside: &Outside) {
    let response = mcp_call(
        repo.home(),
        &[],
        "change_report",
        json!({"repo": repo.path()}),
    );
    let text = tool_error(&response);
    assert!(
        text.contains(&format!("{link} is a symlink, not followed")),
        "{text}"
    );
    assert_eq!(
        outside.changes(),
        Vec::<PathBuf>::new(),
        "written through {link}"
    );
}

#[test]
fn change_report_writes_its_folder_in_a_plain_repository() {
    let repo = changed_repo();
    let response = mcp_call(
        repo.home(),
        &[],
        "change_report",
        json!({"repo": repo.path()}),
    );
    let result = &response["result"]["structuredContent"];
    assert_eq!(response["result"]["isError"], false, "{response:#}");
    let folder = PathBuf::from(result["run_folder"].as_str().unwrap());
    assert!(folder.starts_with(repo.path().join(".qa/mcp")));
    assert!(folder.join("SHA256SUMS").is_file());
    assert_eq!(
        std::fs::read_to_string(repo.path().join(".qa/mcp/.gitignore")).unwrap(),
        "*\n"
    );
}

#[test]
fn change_report_with_a_symlinked_qa_writes_nothing_where_it_points() {
    let mut repo = changed_repo();
    let outside = Outside::new();
    symlink(outside.path(), repo.path().join(".qa")).unwrap();
    repo.commit("chore: .qa elsewhere");
    change_report_refuses(&repo, ".qa", &outside);
}

#[test]
fn change_report_with_a_symlinked_qa_mcp_writes_nothing_where_it_points() {
    let mut repo = changed_repo();
    let outside = Outside::new();
    std::fs::create_dir(repo.path().join(".qa")).unwrap();
    symlink(outside.path(), repo.path().join(".qa/mcp")).unwrap();
    repo.commit("chore: .qa/mcp elsewhere");
    change_report_refuses(&repo, ".qa/mcp", &outside);
}

#[test]
fn change_report_with_a_committed_gitignore_symlink_creates_nothing_where_it_points() {
    let mut repo = changed_repo();
    let outside = Outside::new();
    std::fs::create_dir_all(repo.path().join(".qa/mcp")).unwrap();
    let planted = outside.path().join("planted");
    symlink(&planted, repo.path().join(".qa/mcp/.gitignore")).unwrap();
    repo.commit("chore: a .gitignore elsewhere");
    change_report_refuses(&repo, ".qa/mcp/.gitignore", &outside);
    assert!(!planted.exists());
}

#[test]
fn change_report_on_a_folder_that_is_not_a_git_work_tree_writes_nothing() {
    let folder = Tree::new();
    folder.write("src/app.ts", "export const answer = 42;\n");
    let before = contents(folder.path());
    let home = Tree::new();
    let response = mcp_call(
        home.path(),
        &[],
        "change_report",
        json!({"repo": folder.path()}),
    );
    assert!(tool_error(&response).contains("not a git work tree"));
    assert_eq!(contents(folder.path()), before);
}

// --- qa-report --acceptance (and the MCP acceptance tool) --------------------------------

/// A project whose plan checks a URL nothing listens on (no check runs in these tests).
fn project() -> Tree {
    let project = Tree::new();
    let plan = json!({
        "target": {"kind": "url", "value": "http://127.0.0.1:9/"},
        "criteria": [{"id": "up", "expected": "The service answers", "source": {"kind": "request", "text": "The service answers"}}],
        "checks": [{"id": "health", "criterion": "up", "kind": "http", "path": "/health", "status": 200}],
    });
    project.write(".qa-acceptance.json", plan.to_string());
    project
}

/// qa-intent --plan on `project`: a real acceptance stream (its plan and criteria).
fn plan_stream(project: &Tree) -> Vec<u8> {
    Program::built("qa-intent")
        .invocation()
        .arg("--repo")
        .arg(project.path())
        .arg("--plan")
        .arg(project.path().join(".qa-acceptance.json"))
        .run()
        .success()
        .stdout
}

fn acceptance_report(project: &Tree, stream: Vec<u8>) -> qa_testkit::run::Run {
    Program::built("qa-report")
        .invocation()
        .arg("--acceptance")
        .arg("--repo")
        .arg(project.path())
        .stdin(stream)
        .run()
}

/// qa-report --acceptance in `project`, asserted exit 65 with one line naming `link`, and
/// nothing written outside.
fn acceptance_refuses(project: &Tree, link: &str, outside: &Outside) {
    let run = acceptance_report(project, plan_stream(project));
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let named = project.path().join(link);
    assert!(
        run.stderr
            .contains(&format!("{} is a symlink, not followed", named.display())),
        "{}",
        run.stderr
    );
    assert_eq!(
        outside.changes(),
        Vec::<PathBuf>::new(),
        "written through {link}"
    );
}

#[test]
fn an_acceptance_run_writes_its_folder_in_a_plain_project() {
    let project = project();
    let run = acceptance_report(&project, plan_stream(&project));
    // No check ran: the verdict is incomplete (2), and the run folder is written.
    assert_eq!(run.code, 2, "{}", run.stderr);
    let runs: Vec<PathBuf> = std::fs::read_dir(project.path().join(".qa/acceptance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1);
    assert!(runs[0].join("SHA256SUMS").is_file());
    assert!(!project.path().join(".qa/acceptance.lock").exists());
}

#[test]
fn an_acceptance_run_with_a_symlinked_qa_writes_neither_lock_nor_folder_where_it_points() {
    let project = project();
    let outside = Outside::new();
    symlink(outside.path(), project.path().join(".qa")).unwrap();
    acceptance_refuses(&project, ".qa", &outside);
}

#[test]
fn an_acceptance_run_with_a_symlinked_qa_acceptance_writes_nothing_where_it_points() {
    let project = project();
    let outside = Outside::new();
    std::fs::create_dir(project.path().join(".qa")).unwrap();
    symlink(outside.path(), project.path().join(".qa/acceptance")).unwrap();
    acceptance_refuses(&project, ".qa/acceptance", &outside);
    // The lock it took in the real .qa is gone again.
    assert!(!project.path().join(".qa/acceptance.lock").exists());
}

#[test]
fn the_acceptance_tool_with_a_symlinked_qa_acceptance_is_a_tool_error_writing_nothing() {
    let project = project();
    let outside = Outside::new();
    std::fs::create_dir(project.path().join(".qa")).unwrap();
    symlink(outside.path(), project.path().join(".qa/acceptance")).unwrap();
    let home = Tree::new();
    let args = json!({"plan": ".qa-acceptance.json", "repo": project.path()});
    let text = tool_error(&mcp_call(home.path(), &[], "acceptance", args));
    assert!(text.contains("qa-report exited 65"), "{text}");
    assert!(text.contains("is a symlink, not followed"), "{text}");
    assert_eq!(outside.changes(), Vec::<PathBuf>::new());
    // The control: the same call without the link writes the run folder.
    std::fs::remove_file(project.path().join(".qa/acceptance")).unwrap();
    let args = json!({"plan": ".qa-acceptance.json", "repo": project.path()});
    let done = mcp_call(home.path(), &[], "acceptance", args);
    assert_eq!(done["result"]["isError"], false, "{done:#}");
    assert!(project.path().join(".qa/acceptance").is_dir());
}

/// `qa-manifest init` on `repo` from the change stream saved before `.qa` was touched.
fn manifest_init(repo: &Repo, stream: &[u8]) -> qa_testkit::run::Run {
    let saved = Tree::new();
    saved.write("run.ndjson", std::str::from_utf8(stream).unwrap());
    Program::built("qa-manifest")
        .invocation()
        .dir(repo.path())
        .arg("--repo")
        .arg(repo.path())
        .arg("init")
        .arg("--in")
        .arg(saved.path().join("run.ndjson"))
        .run()
}

#[test]
fn manifest_init_writes_the_manifest_in_a_plain_repository() {
    let repo = changed_repo();
    let stream = repo.change_flow(&qa_testkit::ToolStubs::new(&[]));
    let run = manifest_init(&repo, &stream);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(repo.path().join(".qa/manifest.yaml").is_file());
}

#[test]
fn manifest_init_with_a_symlinked_qa_writes_nothing_where_it_points() {
    let repo = changed_repo();
    let stream = repo.change_flow(&qa_testkit::ToolStubs::new(&[]));
    let outside = Outside::new();
    symlink(outside.path(), repo.path().join(".qa")).unwrap();
    let run = manifest_init(&repo, &stream);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("symlink") && run.stderr.lines().count() == 1,
        "{}",
        run.stderr
    );
    assert_eq!(
        outside.changes(),
        Vec::<PathBuf>::new(),
        "written through .qa"
    );
}
