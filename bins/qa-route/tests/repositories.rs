//! Validation commands discovered from real repository trees: which command is selected,
//! the order of the others, missing runners, nested repositories, and the hashes of the
//! build files read. Runners are executable stubs on a private PATH that qa-route looks
//! up but never starts (each stub would leave a marker file; none may appear).

use crate::common;

use common::*;
use qa_records::change::{Confidence, FileData, Priority, Relation};
use qa_records::envelope::Src;
use qa_records::hash::sha256_hex;
use qa_records::{Kind, Record};

const CARGO_ROOT: &str = "[workspace]\nmembers = [\"crates/*\"]\n";
const ALPHA: &str = "[package]\nname = \"alpha\"\nversion = \"0.1.0\"\n";

fn cargo_workspace() -> Tree {
    let tree = Tree::new();
    tree.write("Cargo.toml", CARGO_ROOT)
        .write("crates/alpha/Cargo.toml", ALPHA)
        .write("crates/alpha/src/lib.rs", "")
        .write("crates/alpha/tests/login.rs", "")
        .write("crates/beta/Cargo.toml", "[package]\nname = \"beta\"\n")
        .write("crates/beta/src/lib.rs", "");
    tree
}

#[test]
fn a_changed_integration_test_in_a_cargo_workspace_runs_first_then_package_then_workspace() {
    let tree = cargo_workspace();
    let stubs = Stubs::new(&["cargo"]);
    let records = route_one(
        tree.path(),
        &stubs,
        "crates/alpha/tests/login.rs",
        &["crates/alpha/src/lib.rs"],
        &[("crates/alpha/tests/login.rs", "rejects_expired", "rust")],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(
        commands(route),
        [
            ". cargo test -p alpha --test login rejects_expired -- --exact",
            ". cargo test -p alpha",
            ". cargo test --workspace"
        ]
    );
    assert_eq!(route["command"]["scope"], "exact-test");
    assert_eq!(route["command"]["declared_in"], "crates/alpha/Cargo.toml");
    assert_eq!(route["additional_commands"][1]["scope"], "suite");
}

#[test]
fn a_change_in_the_other_crate_routes_to_that_crate() {
    let tree = cargo_workspace();
    let records = route_one(
        tree.path(),
        &Stubs::new(&["cargo"]),
        "crates/beta/src/lib.rs",
        &[],
        &[],
    )
    .records;
    assert_eq!(
        commands(only_route(&records)),
        [". cargo test -p beta", ". cargo test --workspace"]
    );
}

#[test]
fn a_route_records_the_hash_of_every_build_file_it_read() {
    let tree = cargo_workspace();
    let i = intent(&[], &[], Confidence::High);
    let s = scenario(
        &i,
        "a",
        Priority::Critical,
        &[("crates/alpha/src/lib.rs", 3, Relation::Direct)],
    );
    let records = qa_route(
        tree.path(),
        &Stubs::new(&["cargo"]),
        &ndjson(&[&i, &s]),
        &[],
    )
    .records();
    let src = &of_kind(&records, "route")[0]["src"];
    assert_eq!(src["file:Cargo.toml"], sha256_hex(CARGO_ROOT.as_bytes()));
    assert_eq!(
        src["file:crates/alpha/Cargo.toml"],
        sha256_hex(ALPHA.as_bytes())
    );
    assert!(src.get("file:crates/beta/Cargo.toml").is_none(), "{src}");
}

fn pnpm_workspace() -> Tree {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","private":true,"packageManager":"pnpm@9.1.0","scripts":{"test":"pnpm -r test"}}"#,
    )
    .write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
    .write("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n")
    .write("packages/web/package.json", r#"{"name":"@shop/web","scripts":{"test":"vitest run"}}"#)
    .write("packages/web/src/login.ts", "")
    .write("packages/web/src/login.test.ts", "");
    tree
}

#[test]
fn a_changed_vitest_file_in_a_pnpm_workspace_runs_alone_in_its_package() {
    let tree = pnpm_workspace();
    let records = route_one(
        tree.path(),
        &Stubs::new(&["pnpm"]),
        "packages/web/src/login.ts",
        &["packages/web/src/login.test.ts"],
        &[],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(
        commands(route),
        [
            ". pnpm --filter @shop/web exec vitest run src/login.test.ts",
            ". pnpm --filter @shop/web test",
            ". pnpm test"
        ]
    );
    assert_eq!(route["command"]["runner"], "pnpm");
    assert_eq!(route["action"]["network"], true);
    assert_eq!(
        route["action"]["preconditions"],
        serde_json::json!([
            "`pnpm` is on PATH",
            "it runs from `.` in the repository",
            "the repository's dependencies are installed (node_modules/.bin/vitest in `packages/web` or the repository root)"
        ])
    );
}

/// A workspace whose root `test` script is `test_script`, its vitest config at the root,
/// the members declaring no `test` script of their own (vuejs/core's shape with `vitest`).
fn root_workspace_testing_with(test_script: &str) -> Tree {
    let tree = Tree::new();
    let manifest = serde_json::json!({
        "private": true,
        "packageManager": "pnpm@9.1.0",
        "scripts": {"test": test_script},
    });
    tree.write("package.json", &manifest.to_string())
        .write("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n")
        .write("vitest.config.ts", "export default {}\n")
        .write("packages/a/package.json", r#"{"name":"@shop/a"}"#)
        .write("packages/a/src/x.ts", "")
        .write("packages/a/__tests__/x.spec.ts", "");
    tree
}

/// The records of a change to `packages/a` with its spec's test `keeps the order`, in a
/// workspace whose root `test` script is `test_script`.
fn changed_spec_records(test_script: &str) -> Vec<serde_json::Value> {
    let tree = root_workspace_testing_with(test_script);
    route_one(
        tree.path(),
        &Stubs::new(&["pnpm"]),
        "packages/a/src/x.ts",
        &["packages/a/__tests__/x.spec.ts"],
        &[("packages/a/__tests__/x.spec.ts", "keeps the order", "jest")],
    )
    .records
}

#[test]
fn a_changed_spec_of_a_root_vitest_workspace_runs_alone_by_name_from_the_root() {
    let records = changed_spec_records("vitest");
    let route = only_route(&records);
    assert_eq!(
        commands(route),
        [
            ". pnpm exec vitest run packages/a/__tests__/x.spec.ts -t 'keeps the order'",
            ". pnpm test"
        ]
    );
    assert_eq!(route["command"]["scope"], "exact-test");
    assert_eq!(route["command"]["declared_in"], "package.json");
    assert!(diags(&records).is_empty(), "{:?}", diags(&records));
}

/// trpc's shape: the root's `test` script starts vitest as one of concurrently's commands.
fn routed_under_concurrently(test_script: &str) -> Vec<String> {
    commands(only_route(&changed_spec_records(test_script)))
}

#[test]
fn a_changed_spec_runs_alone_when_the_test_script_starts_vitest_through_concurrently() {
    assert_eq!(
        routed_under_concurrently(
            r#"turbo codegen-tests && conc -c "green,blue" "vitest run" "turbo test-run:tsc""#
        ),
        [
            ". pnpm exec vitest run packages/a/__tests__/x.spec.ts -t 'keeps the order'",
            ". pnpm test"
        ]
    );
    // Control: concurrent commands that start no runner leave the whole suite.
    assert_eq!(
        routed_under_concurrently(r#"conc -c "green,blue" "tsc" "turbo lint""#),
        [". pnpm test"]
    );
}

fn pytest_project() -> Tree {
    let tree = Tree::new();
    tree.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
    )
    .write("shop/login.py", "")
    .write("tests/test_login.py", "")
    .write("Makefile", "test:\n\tpytest\n");
    tree
}

fn pytest_scenario(tree: &Tree, stubs: &Stubs) -> Vec<serde_json::Value> {
    let i = intent(&["shop/login.py"], &[], Confidence::High);
    let s = scenario_with_text(
        &i,
        "expired",
        Priority::Critical,
        &[
            ("shop/login.py", 3, Relation::Direct, "if session.expired:"),
            (
                "tests/test_login.py",
                7,
                Relation::Supporting,
                "def test_expired_session(client):",
            ),
        ],
    );
    let records = qa_route(tree.path(), stubs, &ndjson(&[&i, &s]), &[]).records();
    stubs.assert_none_ran();
    records
}

#[test]
fn a_changed_pytest_test_runs_by_node_id_when_pytest_is_on_path() {
    let tree = pytest_project();
    let records = pytest_scenario(&tree, &Stubs::new(&["pytest", "make"]));
    let route = only_route(&records);
    assert_eq!(
        commands(route),
        [
            ". pytest tests/test_login.py::test_expired_session",
            ". pytest",
            ". make test"
        ]
    );
    assert_eq!(route["action"]["network"], false);
    assert_eq!(
        route["action"]["writes"],
        serde_json::json!(["build-artifacts"])
    );
    assert!(diags(&records).is_empty(), "{:?}", diags(&records));
}

#[test]
fn a_missing_runner_is_reported_once_and_the_next_startable_command_is_selected() {
    let tree = pytest_project();
    // A recipe whose program is the repository's own script: nothing to look up on PATH.
    tree.write("Makefile", "test:\n\tsh scripts/test.sh\n");
    let records = pytest_scenario(&tree, &Stubs::new(&["make"]));
    let route = only_route(&records);
    assert_eq!(commands(route), [". make test"]);
    assert_eq!(route["command"].get("unmet"), None);
    assert_eq!(
        diags(&records),
        ["pytest is not on PATH; skipped `pytest tests/test_login.py::test_expired_session` and 1 more command"]
    );
    let diag = of_kind(&records, "diag")[0];
    assert_eq!(diag["data"]["severity"], "warning");
    assert_eq!(diag["data"]["subjects"][0], route["subject"]);
    assert_eq!(
        capability(&records, "repository-validation")["status"],
        "available"
    );
}

#[test]
fn a_make_wrapper_around_a_missing_pytest_is_not_selected() {
    // `make test` runs `pytest`: with make on PATH and pytest not, it cannot run the tests.
    let tree = pytest_project();
    let records = pytest_scenario(&tree, &Stubs::new(&["make"]));
    let route = only_route(&records);
    assert_eq!(
        route["command"]["run"],
        "pytest tests/test_login.py::test_expired_session"
    );
    assert_eq!(route["command"]["unmet"]["program"], "pytest");
    assert_eq!(
        diags(&records),
        ["pytest is not on PATH; skipped `pytest` and 1 more command"]
    );
    // Control: a recipe starting a tool that is on PATH leaves make test selectable.
    let records = pytest_scenario(&tree, &Stubs::new(&["make", "pytest"]));
    let route = only_route(&records);
    assert_eq!(route["command"].get("unmet"), None);
    assert!(commands(route).contains(&". make test".to_string()));
}

#[test]
fn when_no_command_can_start_the_narrowest_stays_the_route_with_its_precondition() {
    let tree = pytest_project();
    let records = pytest_scenario(&tree, &Stubs::new(&[]));
    let route = only_route(&records);
    assert_eq!(
        route["command"]["run"],
        "pytest tests/test_login.py::test_expired_session"
    );
    assert_eq!(
        route["command"]["unmet"],
        serde_json::json!({
            "program": "pytest",
            "kind": "runner",
            "precondition": "needs `pytest` on PATH: activate the project's virtual environment"
        })
    );
    assert_eq!(route["additional_commands"], serde_json::json!([]));
    assert_eq!(route["action"]["kind"], "run-repository-command");
    assert_eq!(
        route["action"]["preconditions"][0],
        "needs `pytest` on PATH: activate the project's virtual environment"
    );
    assert_eq!(
        diags(&records),
        [
            "pytest is not on PATH; skipped `pytest`",
            "make is not on PATH; skipped `make test`"
        ]
    );
    let receipt = capability(&records, "repository-validation");
    assert_eq!(receipt["status"], "limited");
    assert_eq!(
        receipt["gap"],
        "declared commands need runners that are not on PATH: pytest, make"
    );
    // Control: with pytest on PATH the same command is routed with no precondition unmet.
    let records = pytest_scenario(&tree, &Stubs::new(&["pytest"]));
    let route = only_route(&records);
    assert_eq!(
        route["command"]["run"],
        "pytest tests/test_login.py::test_expired_session"
    );
    assert_eq!(route["command"].get("unmet"), None);
    assert_eq!(route["action"]["preconditions"][0], "`pytest` is on PATH");
}

/// A Go module whose Makefile's `test` recipe runs `$(GO) test` (GO defined in it), with a
/// changed test function.
fn go_project_with_makefile() -> Tree {
    let tree = Tree::new();
    tree.write("go.mod", "module example.com/shop\n\ngo 1.22\n")
        .write("auth/login.go", "")
        .write("auth/login_test.go", "")
        .write("Makefile", "GO ?= go\n\ntest:\n\t$(GO) test ./...\n");
    tree
}

fn go_routed(tree: &Tree, stubs: &Stubs) -> Vec<serde_json::Value> {
    route_one(
        tree.path(),
        stubs,
        "auth/login.go",
        &["auth/login.go"],
        &[("auth/login_test.go", "TestExpired", "go")],
    )
    .records
}

#[test]
fn a_go_repository_without_go_routes_the_narrowed_go_command_not_make_test() {
    let tree = go_project_with_makefile();
    let records = go_routed(&tree, &Stubs::new(&["make"]));
    let route = only_route(&records);
    assert_eq!(
        route["command"]["run"],
        "go test ./auth/ -run '^TestExpired$'"
    );
    assert_eq!(
        route["command"]["unmet"]["precondition"],
        "needs `go` on PATH: install Go"
    );
    // make test is skipped for the tool its recipe starts, named through $(GO).
    assert_eq!(
        diags(&records),
        ["go is not on PATH; skipped `go test ./auth/...` and 2 more commands"]
    );
    // Control: with go on PATH, go test is routed and make test stays a further command.
    let records = go_routed(&tree, &Stubs::new(&["make", "go"]));
    let route = only_route(&records);
    assert_eq!(route["command"].get("unmet"), None);
    assert!(commands(route).contains(&". make test".to_string()));
    assert!(diags(&records).is_empty(), "{:?}", diags(&records));
}

#[test]
fn a_go_module_runs_the_changed_test_function_in_its_package() {
    let tree = Tree::new();
    tree.write("go.mod", "module example.com/shop\n\ngo 1.22\n")
        .write("auth/login.go", "")
        .write("auth/login_test.go", "");
    let stubs = Stubs::new(&["go"]);
    let i = intent(
        &["auth/login.go"],
        &[("auth/login_test.go", "TestExpired", "go")],
        Confidence::High,
    );
    let s = scenario(
        &i,
        "expired",
        Priority::Recommended,
        &[("auth/login.go", 3, Relation::Direct)],
    );
    let records = qa_route(tree.path(), &stubs, &ndjson(&[&i, &s]), &[]).records();
    stubs.assert_none_ran();
    assert_eq!(
        commands(only_route(&records)),
        [
            ". go test ./auth/ -run '^TestExpired$'",
            ". go test ./auth/...",
            ". go test ./..."
        ]
    );
}

#[test]
fn a_makefile_only_repository_runs_make_test() {
    let tree = Tree::new();
    tree.write(
        "Makefile",
        "all:\n\tcc main.c\n\ntest: all\n\t./run-tests\n",
    )
    .write("main.c", "");
    let records = route_one(tree.path(), &Stubs::new(&["make"]), "main.c", &[], &[]).records;
    let route = only_route(&records);
    assert_eq!(commands(route), [". make test"]);
    assert_eq!(route["command"]["declared_in"], "Makefile");
    assert_eq!(route["action"]["network"], false);
}

#[test]
fn a_repository_without_commands_asks_for_one() {
    let tree = Tree::new();
    tree.write("main.c", "")
        .write("Makefile", "all:\n\tcc main.c\n");
    let records = route_one(
        tree.path(),
        &Stubs::new(&["make", "cargo", "npm", "pytest"]),
        "main.c",
        &[],
        &[],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(route["command"], serde_json::Value::Null);
    assert_eq!(route["action"]["kind"], "define-command");
    assert_eq!(route["action"]["risk"], "low");
    assert_eq!(
        route["action"]["preconditions"],
        serde_json::json!(["the repository declares a validation command for `main.c`"])
    );
    assert_eq!(
        capability(&records, "repository-validation")["status"],
        "unavailable"
    );
    assert!(diags(&records).is_empty());
}

#[test]
fn files_in_a_nested_repository_do_not_reach_its_build_files() {
    let tree = Tree::new();
    tree.write("vendor/lib/Cargo.toml", "[package]\nname = \"vendored\"\n")
        .write("vendor/lib/src/lib.rs", "")
        .nest_repo("vendor/lib");
    let records = route_one(
        tree.path(),
        &Stubs::new(&["cargo"]),
        "vendor/lib/src/lib.rs",
        &[],
        &[],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(route["action"]["kind"], "define-command");
    assert!(of_kind(&records, "route")[0]["src"]
        .as_object()
        .unwrap()
        .is_empty());
    assert_eq!(
        diags(&records),
        ["`vendor/lib/src/lib.rs` is inside the nested repository `vendor/lib`; its build files are not read"]
    );
}

#[test]
fn the_same_crate_outside_a_nested_repository_is_routed() {
    let tree = Tree::new();
    tree.write("vendor/lib/Cargo.toml", "[package]\nname = \"vendored\"\n")
        .write("vendor/lib/src/lib.rs", "");
    let records = route_one(
        tree.path(),
        &Stubs::new(&["cargo"]),
        "vendor/lib/src/lib.rs",
        &[],
        &[],
    )
    .records;
    assert_eq!(
        commands(only_route(&records)),
        ["vendor/lib cargo test -p vendored"]
    );
}

#[test]
fn a_package_name_with_a_line_break_is_not_a_command() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"workspaces":["pkgs/*"],"scripts":{"test":"jest"}}"#,
    )
    .write(
        "pkgs/a/package.json",
        r#"{"name":"a\nrm -rf /","scripts":{"test":"jest"}}"#,
    )
    .write("pkgs/a/index.js", "");
    let records = route_one(
        tree.path(),
        &Stubs::new(&["npm"]),
        "pkgs/a/index.js",
        &[],
        &[],
    )
    .records;
    assert_eq!(commands(only_route(&records)), [". npm test"]);
    assert_eq!(
        diags(&records),
        ["the package name in `pkgs/a/package.json` contains NUL, CR or LF; it is not used in a command"]
    );
}

/// qa-diff's `file` record of `path` whose added lines are `added`; its role is the one
/// qa-diff gives: a test in a `tests/`, `test/` or `test-d/` folder, product code elsewhere.
fn file_record(path: &str, added: &[u32]) -> Record {
    let role = if ["tests/", "test/", "test-d/"]
        .iter()
        .any(|d| path.starts_with(d) || path.contains(&format!("/{d}")))
    {
        "test"
    } else {
        "product"
    };
    let lines: Vec<serde_json::Value> = added
        .iter()
        .map(|line| serde_json::json!({"line": line, "op": "+", "text": "    added"}))
        .collect();
    let hunk = serde_json::json!({"lines": lines, "new_lines": added.len(),
        "new_start": added.first().copied().unwrap_or(1), "old_lines": 0, "old_start": 1});
    let data: FileData = serde_json::from_value(serde_json::json!({
        "added": added.len(), "binary": false, "delta": "branch", "hunk_count": 1,
        "hunks": [hunk], "new_oid": null, "old_oid": null, "old_path": null, "path": path,
        "removed": 0, "role": role, "sha256": null, "status": "modified", "truncated": false
    }))
    .unwrap();
    Record::new(Kind::File, "test/0", vec![], Src::new(), data).unwrap()
}

/// A package whose library holds an inline test and whose `tests/cli.rs` holds another,
/// both changed tests (declared on line 5) of a scenario resting on the library.
fn cargo_with_two_changed_tests(cli_added: &[u32]) -> Vec<String> {
    let tree = Tree::new();
    tree.write("Cargo.toml", ALPHA)
        .write(
            "src/lib.rs",
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn other() {}\n    fn parses_ok() {}\n}\n",
        )
        .write(
            "tests/cli.rs",
            "use alpha;\n\n#[test]\n\nfn prints_help() {}\n",
        );
    let stubs = Stubs::new(&["cargo"]);
    let i = intent(
        &["src/lib.rs", "tests/cli.rs"],
        &[
            ("src/lib.rs", "parses_ok", "rust"),
            ("tests/cli.rs", "prints_help", "rust"),
        ],
        Confidence::High,
    );
    let s = scenario(
        &i,
        "help",
        Priority::Recommended,
        &[("src/lib.rs", 3, Relation::Direct)],
    );
    let files = [
        file_record("src/lib.rs", &[6]),
        file_record("tests/cli.rs", cli_added),
    ];
    let input = ndjson(&[&files[0], &files[1], &i, &s]);
    let records = qa_route(tree.path(), &stubs, &input, &[]).records();
    stubs.assert_none_ran();
    commands(only_route(&records))
}

#[test]
fn a_test_the_change_adds_is_routed_before_one_it_only_adapts() {
    let runs = cargo_with_two_changed_tests(&[3, 4, 5]);
    assert_eq!(
        runs[..2],
        [
            ". cargo test -p alpha --test cli prints_help -- --exact",
            ". cargo test -p alpha --lib tests::parses_ok -- --exact",
        ]
    );
}

#[test]
fn tests_the_change_only_adapts_keep_the_order_of_the_evidence() {
    // Control: the integration test's declaration stands unchanged (only its body moved).
    let runs = cargo_with_two_changed_tests(&[6]);
    assert_eq!(
        runs[..2],
        [
            ". cargo test -p alpha --lib tests::parses_ok -- --exact",
            ". cargo test -p alpha --test cli prints_help -- --exact",
        ]
    );
}

#[test]
fn a_go_package_at_the_module_root_runs_alone_before_the_module() {
    let tree = Tree::new();
    tree.write("go.mod", "module example.com/cli\n\ngo 1.22\n")
        .write("command.go", "")
        .write("command_test.go", "")
        .write("doc/man.go", "");
    let records = route_one(
        tree.path(),
        &Stubs::new(&["go"]),
        "command.go",
        &["command.go", "command_test.go"],
        &[],
    )
    .records;
    assert_eq!(
        commands(only_route(&records)),
        [". go test ./", ". go test ./..."]
    );
    // Control: a package below the root runs with the packages below it.
    let records = route_one(
        tree.path(),
        &Stubs::new(&["go"]),
        "doc/man.go",
        &["doc/man.go"],
        &[],
    )
    .records;
    assert_eq!(
        commands(only_route(&records)),
        [". go test ./doc/...", ". go test ./..."]
    );
}

/// An Angular UI in `ui/` (its own pnpm project) whose `ng test` runs the builder `builder`,
/// with one changed spec: the route's commands.
fn angular_ui(builder: &str) -> Vec<String> {
    let tree = Tree::new();
    tree.write(
        "ui/package.json",
        r#"{"name": "ui", "scripts": {"test": "ng test"}, "devDependencies": {"jest": "30.4.2"}}"#,
    )
    .write("ui/pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
    .write(
        "ui/angular.json",
        &format!(
            r#"{{"projects": {{"ui": {{"architect": {{"test": {{"builder": "{builder}"}}}}}}}}}}"#
        ),
    )
    .write("ui/src/app/cart.component.ts", "")
    .write("ui/src/app/cart.component.spec.ts", "");
    route_one(
        tree.path(),
        &Stubs::new(&["pnpm"]),
        "ui/src/app/cart.component.ts",
        &[
            "ui/src/app/cart.component.ts",
            "ui/src/app/cart.component.spec.ts",
        ],
        &[],
    )
    .records
    .iter()
    .filter(|r| r["kind"] == "route")
    .flat_map(|r| commands(&r["data"]))
    .collect()
}

#[test]
fn an_angular_spec_run_by_the_jest_builder_is_routed_as_a_jest_path_pattern() {
    assert_eq!(
        angular_ui("@angular-builders/jest:run"),
        [
            "ui pnpm test --test-path-patterns src/app/cart.component.spec.ts",
            "ui pnpm test"
        ]
    );
}

#[test]
fn an_angular_spec_run_by_karma_gets_the_package_command_only() {
    // Control: Karma's builder takes no path pattern; the package's tests still run.
    assert_eq!(
        angular_ui("@angular-devkit/build-angular:karma"),
        ["ui pnpm test"]
    );
}

/// The commands routed for a scenario citing `cites`, in a package whose library's inline
/// test `parses_ok` is a changed test known by name and whose integration test file
/// `tests/ui.rs` changed with no test known by name (a UI case list, a guard's test);
/// the stream carries qa-diff's file records (their roles) when `with_file_records`.
fn cargo_routes_citing(cites: &[(&str, u32)], with_file_records: bool) -> Vec<String> {
    let tree = Tree::new();
    tree.write("Cargo.toml", ALPHA)
        .write(
            "src/lib.rs",
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses_ok() {}\n}\n",
        )
        .write("tests/ui.rs", "#[test]\nfn ui() {\n    cases();\n}\n");
    let stubs = Stubs::new(&["cargo"]);
    let i = intent(
        &["src/lib.rs", "tests/ui.rs"],
        &[("src/lib.rs", "parses_ok", "rust")],
        Confidence::High,
    );
    let changed: &[(&str, u32)] = match with_file_records {
        true => &[("src/lib.rs", 4), ("tests/ui.rs", 3)],
        false => &[],
    };
    routes_of_scenario_citing(&tree, &stubs, &i, changed, cites)
}

#[test]
fn a_scenario_citing_a_changed_test_file_is_routed_to_the_command_that_runs_it() {
    let runs = cargo_routes_citing(&[("tests/ui.rs", 3)], true);
    assert_eq!(runs[0], ". cargo test -p alpha --test ui");
    assert!(runs.contains(&". cargo test -p alpha --lib tests::parses_ok -- --exact".to_string()));
}

#[test]
fn a_scenario_citing_the_library_keeps_the_exact_test_first() {
    // Control: the scenario's own evidence is product code (which holds the test known by
    // name), not a changed test file.
    let runs = cargo_routes_citing(&[("src/lib.rs", 4)], true);
    assert_eq!(
        runs[0],
        ". cargo test -p alpha --lib tests::parses_ok -- --exact"
    );
}

#[test]
fn a_cited_file_without_the_test_role_does_not_lead() {
    // Control: the same evidence in a stream without qa-diff's file records, so no file
    // is known to be a test: the intent's narrowest command stays first.
    let runs = cargo_routes_citing(&[("tests/ui.rs", 3)], false);
    assert_eq!(
        runs[0],
        ". cargo test -p alpha --lib tests::parses_ok -- --exact"
    );
}

/// The commands routed for a scenario citing `cites`, in an ava package whose `type`
/// script runs tsd: the intent changed the ava test `test/run.js` and the type test
/// `test-d/run.test-d.ts`.
fn ava_routes_citing(cites: &[(&str, u32)]) -> Vec<String> {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"lib","type":"module","scripts":{"test":"ava && npm run type","type":"tsd && tsc"},"devDependencies":{"ava":"6.0.0","tsd":"0.31.0"}}"#,
    )
    .write("index.js", "export const run = () => 1;\n")
    .write("index.d.ts", "export function run(): number;\n")
    .write(
        "test/run.js",
        "import test from 'ava';\nimport {run} from '../index.js';\ntest('runs', t => {\n  t.is(run(), 1);\n});\n",
    )
    .write(
        "test-d/run.test-d.ts",
        "import {expectType} from 'tsd';\nimport {run} from '../index.js';\nexpectType<number>(run());\n",
    );
    let stubs = Stubs::new(&["npm", "npx"]);
    let changed = [("test/run.js", 4), ("test-d/run.test-d.ts", 3)];
    let i = intent(
        &changed.map(|(f, _)| f),
        &[("test/run.js", "runs", "jest")],
        Confidence::High,
    );
    routes_of_scenario_citing(&tree, &stubs, &i, &changed, cites)
}

/// The commands routed for a scenario of intent `i` citing `cites`, after qa-diff's
/// records of the `changed` files (each with its one added line).
fn routes_of_scenario_citing(
    tree: &Tree,
    stubs: &Stubs,
    i: &Record,
    changed: &[(&str, u32)],
    cites: &[(&str, u32)],
) -> Vec<String> {
    let evidence: Vec<(&str, u32, Relation)> = cites
        .iter()
        .map(|(file, line)| (*file, *line, Relation::Direct))
        .collect();
    let s = scenario(i, "cited", Priority::Recommended, &evidence);
    let files: Vec<Record> = changed
        .iter()
        .map(|(f, line)| file_record(f, &[*line]))
        .collect();
    let mut all: Vec<&Record> = files.iter().collect();
    all.extend([i, &s]);
    let records = qa_route(tree.path(), stubs, &ndjson(&all), &[]).records();
    stubs.assert_none_ran();
    commands(only_route(&records))
}

#[test]
fn a_scenario_citing_only_type_tests_leads_with_the_type_check() {
    let runs = ava_routes_citing(&[("test-d/run.test-d.ts", 3)]);
    assert_eq!(runs[0], ". npm run type", "{runs:?}");
}

#[test]
fn a_scenario_citing_a_runner_test_keeps_the_runner_first() {
    // Control: the same intent, the scenario citing the ava test.
    let runs = ava_routes_citing(&[("test/run.js", 4)]);
    assert!(runs[0].contains("ava test/run.js"), "{runs:?}");
}

/// The commands routed for a scenario citing `cites` in a package whose library's test
/// modules `src/tests/a.rs` and `src/tests/b.rs` each hold a changed test known by name.
fn two_test_modules_citing(cites: &[(&str, u32)]) -> Vec<String> {
    let tree = Tree::new();
    tree.write("Cargo.toml", ALPHA)
        .write("src/lib.rs", "pub fn run() {}\n#[cfg(test)]\nmod tests;\n")
        .write("src/tests/mod.rs", "mod a;\nmod b;\n")
        .write(
            "src/tests/a.rs",
            "#[test]\nfn a_ok() {\n    crate::run();\n}\n#[test]\nfn a_two() {\n    crate::run();\n}\n",
        )
        .write(
            "src/tests/b.rs",
            "#[test]\nfn b_ok() {\n    crate::run();\n}\n",
        );
    let stubs = Stubs::new(&["cargo"]);
    let changed = [
        ("src/lib.rs", 1),
        ("src/tests/a.rs", 3),
        ("src/tests/b.rs", 3),
    ];
    let i = intent(
        &changed.map(|(f, _)| f),
        &[
            ("src/tests/a.rs", "a_ok", "rust"),
            ("src/tests/a.rs", "a_two", "rust"),
            ("src/tests/b.rs", "b_ok", "rust"),
        ],
        Confidence::High,
    );
    routes_of_scenario_citing(&tree, &stubs, &i, &changed, cites)
}

#[test]
fn a_scenario_citing_two_test_files_leads_with_the_command_of_the_first_it_cites() {
    let runs = two_test_modules_citing(&[("src/tests/b.rs", 3), ("src/tests/a.rs", 3)]);
    assert_eq!(
        runs[0], ". cargo test -p alpha --lib tests::b::b_ok -- --exact",
        "{runs:?}"
    );
    // Control: cited the other way round, the other file's command leads.
    let runs = two_test_modules_citing(&[("src/tests/a.rs", 3), ("src/tests/b.rs", 3)]);
    assert!(runs[0].contains("tests::a::a_ok"), "{runs:?}");
}
