//! A shop repository on a `feature` branch, the real change flow over it (the built
//! `qa-diff | qa-intent | qa-route | qa-trace`), and qa-manifest runs against it.
#![allow(dead_code)]

use qa_testkit::{of_kind, parse, Program, Repo, Run, ToolStubs};
use serde_json::Value;
use std::path::PathBuf;

pub const SUBMIT_V1: &str = r#"export async function submitOrder(cart: Cart, api: Api): Promise<string> {
  const order = await api.post("/orders", cart);
  return order.number;
}
"#;

pub const SUBMIT_V2: &str = r#"export async function submitOrder(cart: Cart, api: Api): Promise<string> {
  const order = await api.post("/orders", cart);
  toast.success(`Order ${order.number} is confirmed`);
  return order.number;
}
"#;

pub const AVATAR_V1: &str = r#"export function avatar(user: User): string {
  return `<img src="${user.avatarUrl}" alt="${user.name}">`;
}
"#;

pub const AVATAR_V2: &str = r#"export function avatar(user: User): string {
  if (!user.avatarUrl) {
    return `<span class="initials">${initials(user.name)}</span>`;
  }
  return `<img src="${user.avatarUrl}" alt="${user.name}">`;
}
"#;

/// The title qa-intent gives the checkout work.
pub const CHECKOUT: &str = "Confirm the order number after payment";
/// The title qa-intent gives the avatar work.
pub const AVATAR: &str = "Show initials when the avatar is missing";

/// `main` holds the two source files (and `manifest`, when given, as `.qa/manifest.yaml`);
/// `feature` confirms the order number, then shows initials for a missing avatar.
pub fn shop(manifest: Option<&str>) -> Repo {
    let mut r = Repo::new();
    r.write("README.md", "# shop\n");
    r.write("src/checkout/submitOrder.ts", SUBMIT_V1);
    r.write("src/profile/avatar.ts", AVATAR_V1);
    if let Some(text) = manifest {
        r.write(".qa/manifest.yaml", text);
    }
    r.commit("chore: initial import");
    r.branch("feature");
    r.write("src/checkout/submitOrder.ts", SUBMIT_V2);
    r.commit("feat(checkout): confirm the order number after payment");
    r.write("src/profile/avatar.ts", AVATAR_V2);
    r.commit("feat: show initials when the avatar is missing");
    r
}

/// The change flow over `repo`, as bytes, with no tool on PATH; every stage must exit 0.
pub fn change_flow(repo: &Repo) -> Vec<u8> {
    repo.change_flow(&ToolStubs::new(&[]))
}

/// Runs the change flow and saves it beside the repository as `name`.
pub fn save_flow(repo: &Repo, name: &str) -> (PathBuf, Vec<Value>) {
    let bytes = change_flow(repo);
    let path = repo.outside().join(name);
    std::fs::write(&path, &bytes).expect("saving the stream");
    (path, parse(&bytes))
}

/// `qa-manifest --repo REPO ARGS...`, from beside the repository, stdin empty.
pub fn qa_manifest(repo: &Repo, args: &[&str]) -> Run {
    repo.run(&Program::at(env!("CARGO_BIN_EXE_qa-manifest")))
        .dir(repo.outside())
        .arg("--repo")
        .arg(repo.path())
        .args(args)
        .run()
}

/// `qa-manifest --repo REPO COMMAND ID ... --in STREAM`.
pub fn correct(repo: &Repo, stream: &std::path::Path, args: &[&str]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--in");
    all.push(stream.to_str().expect("a UTF-8 temp path"));
    qa_manifest(repo, &all)
}

/// The one scenario titled `title`; panics when there is not exactly one.
pub fn scenario<'a>(records: &'a [Value], title: &str) -> &'a Value {
    let found: Vec<&Value> = scenarios(records, title);
    assert_eq!(found.len(), 1, "scenarios titled {title:?}: {found:#?}");
    found[0]
}

/// The scenarios titled `title`.
pub fn scenarios<'a>(records: &'a [Value], title: &str) -> Vec<&'a Value> {
    of_kind(records, "scenario")
        .into_iter()
        .filter(|s| s["data"]["title"] == title)
        .collect()
}

/// The intent record a scenario belongs to.
pub fn intent_of<'a>(records: &'a [Value], scenario: &Value) -> &'a Value {
    of_kind(records, "intent")
        .into_iter()
        .find(|i| i["id"] == scenario["data"]["intent"])
        .expect("the scenario's intent is in the stream")
}

pub fn id(record: &Value) -> &str {
    record["id"].as_str().expect("a record id")
}

/// The manifest file of `repo`.
pub fn manifest_path(repo: &Repo) -> PathBuf {
    repo.path().join(".qa/manifest.yaml")
}

pub fn manifest_text(repo: &Repo) -> String {
    std::fs::read_to_string(manifest_path(repo)).expect("reading the manifest")
}

/// The entries of `.qa/` (a refused edit must leave no temp file behind).
pub fn qa_dir_entries(repo: &Repo) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo.path().join(".qa"))
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `accept` of the scenario titled `title` in the saved stream.
pub fn accept_scenario(
    repo: &Repo,
    saved: &std::path::Path,
    records: &[Value],
    title: &str,
) -> Run {
    correct(repo, saved, &["accept", id(scenario(records, title))])
}

/// `reject --reason REASON` of the scenario titled `title` in the saved stream.
pub fn reject_scenario(
    repo: &Repo,
    saved: &std::path::Path,
    records: &[Value],
    title: &str,
    reason: &str,
) -> Run {
    correct(
        repo,
        saved,
        &["reject", id(scenario(records, title)), "--reason", reason],
    )
}

/// Asserts the run exited `code` with one stderr line containing `needle`.
pub fn assert_refused(run: &Run, code: i32, needle: &str) {
    assert_eq!(run.code, code, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(needle),
        "{needle:?} not in: {}",
        run.stderr
    );
}

/// One test file that checks both the checkout and the avatar work.
pub const SHOP_TEST: &str = r#"import { submitOrder } from "../src/checkout/submitOrder";
import { avatar } from "../src/profile/avatar";

test("confirms the order number", async () => {
  await submitOrder(cart, api);
  expect(toast.success).toHaveBeenCalledWith("Order 42 is confirmed");
});

test("shows initials without an avatar", () => {
  expect(avatar({ name: "Ada Lovelace" })).toBe('<span class="initials">AL</span>');
});
"#;

/// [`shop`] where each feature commit also changes `test/shop.test.ts`, the one test
/// file both pieces of work share.
pub fn shop_with_shared_test() -> Repo {
    let mut r = Repo::new();
    r.write("README.md", "# shop\n");
    r.write("src/checkout/submitOrder.ts", SUBMIT_V1);
    r.write("src/profile/avatar.ts", AVATAR_V1);
    r.write(
        "test/shop.test.ts",
        "import { avatar } from \"../src/profile/avatar\";\n",
    );
    r.commit("chore: initial import");
    r.branch("feature");
    r.write("src/checkout/submitOrder.ts", SUBMIT_V2);
    let (first, _) = SHOP_TEST.split_at(SHOP_TEST.find("test(\"shows").expect("two tests"));
    r.write("test/shop.test.ts", first);
    r.commit("feat(checkout): confirm the order number after payment");
    r.write("src/profile/avatar.ts", AVATAR_V2);
    r.write("test/shop.test.ts", SHOP_TEST);
    r.commit("feat: show initials when the avatar is missing");
    r
}
