//! A change to configuration or shipped files routes to the commands that load them: the
//! owning package's declared `validate:*`, `typecheck`, `build`, platform builds and
//! `lint`, each saying why it covers the change, before the tests. A change to code keeps
//! its tests first; a script that watches or serves is never offered; a script the
//! package does not declare never appears. Runners are stubs that are never started.

use crate::common;

use common::*;
use serde_json::Value;

/// A Vite app with every kind of check script, one watcher and one dev server.
fn app() -> Tree {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","private":true,"scripts":{
            "test":"vitest run",
            "build":"vite build",
            "build:ios":"expo run:ios",
            "build:watch":"vite build --watch",
            "typecheck":"tsc --noEmit",
            "lint":"eslint .",
            "validate:env":"node scripts/check-env.mjs",
            "dev":"vite"
        },"devDependencies":{"vite":"5.0.0","vitest":"1.0.0"}}"#,
    )
    .write("vite.config.ts", "export default {}\n")
    .write(".env.production", "API_URL=https://api\n")
    .write("app.json", "{}\n")
    .write("tsconfig.json", "{}\n")
    .write(".eslintrc.json", "{}\n")
    .write("public/logo.svg", "<svg/>\n")
    .write("src/cart.ts", "export const total = 1;\n");
    tree
}

fn route_of(tree: &Tree, files: &[&str]) -> Value {
    // node too: scripts such as `node scripts/check-env.mjs` start it.
    let stubs = Stubs::new(&["npm", "make", "node"]);
    route_one(tree.path(), &stubs, files[0], files, &[])
        .records
        .iter()
        .find(|r| r["kind"] == "route")
        .map(|r| r["data"].clone())
        .unwrap()
}

/// `run (purpose)` of every command, selected first.
fn purposes(route: &Value) -> Vec<String> {
    std::iter::once(&route["command"])
        .chain(route["additional_commands"].as_array().unwrap())
        .filter(|c| c.is_object())
        .map(|c| {
            format!(
                "{} ({})",
                c["run"].as_str().unwrap(),
                c["purpose"].as_str().unwrap()
            )
        })
        .collect()
}

fn why_of<'a>(route: &'a Value, run: &str) -> &'a str {
    std::iter::once(&route["command"])
        .chain(route["additional_commands"].as_array().unwrap())
        .find(|c| c["run"] == run)
        .and_then(|c| c["why"].as_str())
        .unwrap_or_else(|| panic!("no `{run}` in {route}"))
}

#[test]
fn an_environment_change_runs_the_declared_validation_then_the_build() {
    let route = route_of(&app(), &[".env.production"]);
    assert_eq!(
        purposes(&route),
        ["npm run validate:env (validate)", "npm run build (build)"],
        "the suite of the package's language does not read a .env file"
    );
    assert_eq!(
        why_of(&route, "npm run validate:env"),
        "`validate:env` is the package's declared validation of its configuration, which the change edits (`.env.production`)"
    );
}

#[test]
fn a_bundler_config_change_runs_the_build_and_the_platform_builds() {
    let route = route_of(&app(), &["vite.config.ts"]);
    assert_eq!(
        purposes(&route),
        [
            "npm run build (build)",
            "npm run build:ios (build)",
            "npm test (test)"
        ]
    );
    assert!(why_of(&route, "npm run build:ios").contains("`vite.config.ts`"));
}

#[test]
fn a_tsconfig_change_runs_the_typecheck_first() {
    let route = route_of(&app(), &["tsconfig.json"]);
    assert_eq!(purposes(&route)[0], "npm run typecheck (typecheck)");
    assert_eq!(
        why_of(&route, "npm run typecheck"),
        "`typecheck` type-checks the package under the changed `tsconfig.json`"
    );
}

#[test]
fn a_lint_config_change_runs_the_lint() {
    let route = route_of(&app(), &[".eslintrc.json"]);
    assert_eq!(purposes(&route)[0], "npm run lint (lint)");
}

#[test]
fn a_shipped_asset_runs_the_builds_that_ship_it() {
    let route = route_of(&app(), &["public/logo.svg"]);
    assert_eq!(
        purposes(&route)[..2],
        ["npm run build (build)", "npm run build:ios (build)"]
    );
}

#[test]
fn a_code_change_keeps_its_tests_first_and_gets_no_checks_of_its_own() {
    let route = route_of(&app(), &["src/cart.ts"]);
    assert_eq!(purposes(&route), ["npm test (test)"]);
    assert_eq!(
        route["command"]["why"],
        "runs the whole test suite of the change's language"
    );
}

#[test]
fn code_and_configuration_together_run_the_tests_and_then_the_checks() {
    let route = route_of(&app(), &["src/cart.ts", "vite.config.ts"]);
    let purposes = purposes(&route);
    assert_eq!(
        purposes,
        [
            "npm run build (build)",
            "npm run build:ios (build)",
            "npm test (test)"
        ],
        "the package checks come before the whole-repository suite"
    );
}

#[test]
fn watching_and_serving_scripts_are_never_offered() {
    let route = route_of(&app(), &["vite.config.ts", "public/logo.svg"]);
    let runs = purposes(&route).join(" | ");
    assert!(!runs.contains("build:watch"), "{runs}");
    assert!(!runs.contains("dev"), "{runs}");
}

#[test]
fn an_undeclared_script_is_never_routed() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"shop","scripts":{"test":"vitest run"}}"#,
    )
    .write("vite.config.ts", "export default {}\n");
    let route = route_of(&tree, &["vite.config.ts"]);
    assert_eq!(purposes(&route), ["npm test (test)"]);
}

#[test]
fn a_workspace_member_checks_by_its_name_from_the_root() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"private":true,"workspaces":["apps/*"],"packageManager":"pnpm@9.0.0","scripts":{"test":"pnpm -r test"}}"#,
    )
    .write(
        "apps/web/package.json",
        r#"{"name":"@shop/web","scripts":{"test":"vitest run","build":"vite build","typecheck":"vue-tsc --noEmit"}}"#,
    )
    .write("apps/web/tsconfig.json", "{}\n");
    let stubs = Stubs::new(&["pnpm"]);
    let records = route_one(
        tree.path(),
        &stubs,
        "apps/web/tsconfig.json",
        &["apps/web/tsconfig.json"],
        &[],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(
        commands(route)[..2],
        [
            ". pnpm --filter @shop/web run typecheck",
            ". pnpm --filter @shop/web run build"
        ]
    );
    assert_eq!(route["command"]["declared_in"], "apps/web/package.json");
}

#[test]
fn the_makefiles_build_and_lint_targets_check_a_build_file_change() {
    let tree = Tree::new();
    tree.write(
        "Makefile",
        ".PHONY: build lint test\nbuild:\n\tcc x.c\nlint:\n\tcheck\ntest: build\n\t./t\nserve:\n\t./s\n",
    )
    .write(
        "package.json",
        r#"{"name":"shop","scripts":{"test":"vitest run"}}"#,
    )
    .write("tsconfig.json", "{}\n");
    let route = route_of(&tree, &["tsconfig.json"]);
    let runs = purposes(&route);
    assert_eq!(runs[0], "make build (build)", "{runs:?}");
    assert!(!runs.iter().any(|r| r.contains("serve")), "{runs:?}");
    assert!(
        !runs.iter().any(|r| r.contains("make lint")),
        "lint does not load tsconfig"
    );
}

#[test]
fn the_build_tool_is_a_precondition_and_its_absence_is_said() {
    let route = route_of(&app(), &["vite.config.ts"]);
    let preconditions: Vec<&str> = route["action"]["preconditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        preconditions
            .iter()
            .any(|p| p.contains("node_modules/.bin/vite")),
        "{preconditions:?}"
    );
    assert!(
        route["reason"]
            .as_str()
            .unwrap()
            .contains("no node_modules/.bin/vite"),
        "{route}"
    );
}

#[test]
fn a_script_named_otherwise_is_a_check_by_the_program_it_runs_and_a_fixer_is_not() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"name":"app","scripts":{
            "test":"vitest run",
            "test:typecheck":"tsc",
            "test:code":"eslint --max-warnings=0 .",
            "fix:code":"eslint --fix .",
            "test:all":"tsc && eslint ."
        }}"#,
    )
    .write("tsconfig.json", "{}\n")
    .write("eslint.config.js", "export default []\n");
    let route = route_of(&tree, &["tsconfig.json", "eslint.config.js"]);
    assert_eq!(
        purposes(&route),
        [
            "npm run test:typecheck (typecheck)",
            "npm run test:code (lint)",
            "npm test (test)"
        ]
    );
}

#[test]
fn a_member_without_a_check_of_its_own_gets_the_workspace_roots_and_a_member_with_one_does_not() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"private":true,"workspaces":["packages/*"],"packageManager":"yarn@1.22.0","scripts":{"test":"vitest run","test:typecheck":"tsc","build":"yarn --cwd packages/app build"}}"#,
    )
    .write(
        "packages/common/package.json",
        r#"{"name":"@x/common","scripts":{"gen:types":"rimraf types && tsc","build":"node build.js"}}"#,
    )
    .write(
        "packages/app/package.json",
        r#"{"name":"@x/app","scripts":{"build":"vite build"}}"#,
    )
    .write("packages/common/tsconfig.json", "{}\n")
    .write("packages/app/tsconfig.json", "{}\n");
    let stubs = Stubs::new(&["yarn", "node"]);
    let files = [
        "packages/common/tsconfig.json",
        "packages/app/tsconfig.json",
    ];
    let records = route_one(tree.path(), &stubs, files[0], &files, &[]).records;
    let route = only_route(&records);
    let runs = commands(route);
    assert_eq!(
        runs[..3],
        [
            ". yarn workspace @x/common run build",
            ". yarn workspace @x/app run build",
            ". yarn run test:typecheck",
        ],
        "{runs:?}"
    );
    assert!(
        !runs.contains(&". yarn run build".to_string()),
        "each member builds itself; the root's build is not added: {runs:?}"
    );
    assert!(why_of(route, "yarn run test:typecheck").contains("`packages/common/tsconfig.json`"));
}

#[test]
fn a_script_that_names_the_changed_file_comes_first_and_says_so() {
    let tree = Tree::new();
    tree.write(
        "package.json",
        r#"{"private":true,"packageManager":"pnpm@9.0.0","scripts":{
            "test":"vitest",
            "build":"node scripts/build.js",
            "build-dts":"tsc -p tsconfig.build.json --noCheck && rollup -c rollup.dts.config.js",
            "size":"rollup -c rollup.size.config.js"
        }}"#,
    )
    .write("rollup.dts.config.js", "export default {}\n");
    let stubs = Stubs::new(&["pnpm", "node"]);
    let records = route_one(
        tree.path(),
        &stubs,
        "rollup.dts.config.js",
        &["rollup.dts.config.js"],
        &[],
    )
    .records;
    let route = only_route(&records);
    assert_eq!(
        purposes(route)[..2],
        ["pnpm run build-dts (build)", "pnpm run build (build)"]
    );
    assert_eq!(
        why_of(route, "pnpm run build-dts"),
        "`build-dts` names the changed `rollup.dts.config.js` in its command line, so it loads it"
    );
    assert!(
        !purposes(route).iter().any(|r| r.contains("size")),
        "a script naming another config is not offered"
    );
}

/// An ava library whose types are checked by tsd, in a chain with tsc.
fn typed_library(type_script: Option<&str>) -> Tree {
    let tree = Tree::new();
    let scripts = match type_script {
        Some(body) => {
            format!(r#""test":"npm run unit && npm run type","unit":"ava","type":"{body}""#)
        }
        None => r#""test":"ava""#.to_string(),
    };
    tree.write(
        "package.json",
        &format!(r#"{{"name":"lib","type":"module","scripts":{{{scripts}}},"devDependencies":{{"ava":"6.0.0","tsd":"0.31.0"}}}}"#),
    )
    .write("index.js", "export const run = () => 1;\n")
    .write("index.d.ts", "export function run(): number;\n")
    .write(
        "test-d/run.test-d.ts",
        "import {expectType} from 'tsd';\nimport {run} from '../index.js';\nexpectType<number>(run());\n",
    );
    tree
}

#[test]
fn a_type_test_runs_the_script_that_starts_tsd_first() {
    let route = route_of(
        &typed_library(Some("tsd && tsc")),
        &["test-d/run.test-d.ts", "index.d.ts"],
    );
    assert_eq!(purposes(&route)[0], "npm run type (typecheck)");
    assert!(why_of(&route, "npm run type").contains("`test-d/run.test-d.ts`"));
}

#[test]
fn a_type_test_without_a_script_that_checks_types_gets_no_typecheck_and_a_warning() {
    let stubs = Stubs::new(&["npm", "npx"]);
    let files = ["test-d/run.test-d.ts"];
    let records = route_one(typed_library(None).path(), &stubs, files[0], &files, &[]).records;
    let route = &of_kind(&records, "route")[0]["data"];
    assert!(
        !purposes(route).iter().any(|p| p.contains("(typecheck)")),
        "{:?}",
        purposes(route)
    );
    assert_eq!(
        diags(&records),
        ["no script of `package.json` type-checks the changed type tests (`test-d/run.test-d.ts`): none starts tsd or a type checker, and the test commands do not run them"]
    );
}

#[test]
fn a_declaration_without_a_type_check_script_gets_no_warning() {
    // Control: a shipped declaration is no type test; the package may check it otherwise.
    let stubs = Stubs::new(&["npm", "npx"]);
    let records = route_one(
        typed_library(None).path(),
        &stubs,
        "index.d.ts",
        &["index.d.ts"],
        &[],
    )
    .records;
    assert!(diags(&records).is_empty(), "{:?}", diags(&records));
}
