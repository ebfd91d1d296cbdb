//! TypeScript across package boundaries: workspace packages imported by name (their
//! entry and subpaths), tsconfig `paths` and `baseUrl` with `extends`, and what stays
//! unresolved (packages outside the workspaces, aliases to nothing, configs in
//! node_modules).

use crate::common;
use common::*;

const ROOT: &str = r#"{"name": "vue-monorepo", "private": true, "workspaces": ["packages/*"]}"#;

/// A workspace like vuejs/core's: `@vue/reactivity` ships a checked-in `index.js` that
/// requires a build, and a `dist` entry in `exports`; its source is `src/index.ts`.
fn vue() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", ROOT),
        (
            "packages/reactivity/package.json",
            r#"{"name": "@vue/reactivity", "main": "index.js", "module": "dist/reactivity.esm-bundler.js",
               "exports": {".": {"types": "./dist/reactivity.d.ts", "import": "./dist/reactivity.esm-bundler.js", "require": "./index.js"}, "./*": "./*"}}"#,
        ),
        (
            "packages/reactivity/index.js",
            "module.exports = require('./dist/reactivity.cjs.js')\n",
        ),
        (
            "packages/reactivity/src/index.ts",
            "export { ref } from './ref'\n",
        ),
        (
            "packages/reactivity/src/ref.ts",
            "export function ref(v) { return { value: v } }\n",
        ),
        (
            "packages/runtime-core/package.json",
            r#"{"name": "@vue/runtime-core", "main": "index.js", "bin": {"vue-run": "./src/cli.ts"}}"#,
        ),
        (
            "packages/runtime-core/src/cli.ts",
            "import { ref } from '@vue/reactivity'\nexport const state = ref(0)\n",
        ),
        (
            "packages/runtime-core/src/other.ts",
            "export const other = 1\n",
        ),
    ]
}

/// The graphs of `files` and an edit of the last one.
fn analyze(files: &[(&str, &str)]) -> ChangeGraph {
    let (path, text) = files.last().expect("a file");
    let mut edited = text.to_string();
    edited.push_str("// edited\n");
    Change::edit(files, path, &edited).analyze()
}

#[test]
fn a_workspace_package_imported_by_name_resolves_to_its_source_entry() {
    let cg = analyze(&vue());
    assert_eq!(
        imports_of(&cg, "packages/runtime-core/src/cli.ts"),
        ["packages/reactivity/src/index.ts"]
    );
}

#[test]
fn a_change_in_one_package_reaches_the_package_importing_it_by_name() {
    let change = Change::edit(
        &vue(),
        "packages/reactivity/src/ref.ts",
        "export function ref(v) { return { value: v, tracked: true } }\n",
    );
    let cg = change.analyze();
    assert!(reaches_file(&cg, "packages/runtime-core/src/cli.ts"));
    assert!(!reaches_file(&cg, "packages/runtime-core/src/other.ts"));
    let reached = reached(&cg);
    assert!(reached.contains("command vue-run"), "{reached:?}");
}

#[test]
fn a_package_outside_the_workspaces_is_not_importable_by_name() {
    let mut files = vue();
    files.push((
        "examples/demo/package.json",
        r#"{"name": "demo-lib", "main": "src/index.ts"}"#,
    ));
    files.push(("examples/demo/src/index.ts", "export const demo = 1\n"));
    files.push((
        "packages/runtime-core/src/demo.ts",
        "import { demo } from 'demo-lib'\nimport { x } from 'left-pad'\nexport const d = demo\n",
    ));
    let cg = analyze(&files);
    assert!(imports_of(&cg, "packages/runtime-core/src/demo.ts").is_empty());
}

#[test]
fn pnpm_workspace_globs_make_packages_importable() {
    let files = [
        ("package.json", r#"{"name": "root", "private": true}"#),
        (
            "pnpm-workspace.yaml",
            "packages:\n  - 'libs/*'\n  - '!libs/private'\n",
        ),
        ("libs/money/package.json", r#"{"name": "@shop/money"}"#),
        ("libs/money/src/index.ts", "export const cents = 100\n"),
        ("libs/private/package.json", r#"{"name": "@shop/private"}"#),
        ("libs/private/src/index.ts", "export const secret = 1\n"),
        (
            "apps/web/main.ts",
            "import { cents } from '@shop/money'\nimport { secret } from '@shop/private'\n",
        ),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "apps/web/main.ts"),
        ["libs/money/src/index.ts"]
    );
}

#[test]
fn a_subpath_resolves_through_exports_and_maps_a_built_file_to_its_source() {
    let files = [
        ("package.json", ROOT),
        (
            "packages/ui/package.json",
            r#"{"name": "@shop/ui", "exports": {".": {"import": "./dist/main.js"}, "./forms": {"types": "./dist/forms/index.d.ts", "default": "./dist/forms/index.js"}}}"#,
        ),
        ("packages/ui/src/main.ts", "export const ui = 1\n"),
        ("packages/ui/src/forms/index.ts", "export const form = 1\n"),
        ("packages/ui/src/button.tsx", "export const Button = 1\n"),
        (
            "packages/app/src/page.ts",
            "import { ui } from '@shop/ui'\nimport { form } from '@shop/ui/forms'\nimport { Button } from '@shop/ui/button'\n",
        ),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "packages/app/src/page.ts"),
        [
            "packages/ui/src/button.tsx",
            "packages/ui/src/forms/index.ts",
            "packages/ui/src/main.ts",
        ]
    );
}

/// A root tsconfig written as tsconfig allows: comments and trailing commas.
const TSCONFIG: &str = r##"{
  // aliases of the repository
  "compilerOptions": {
    "paths": {
      "#lib/*": ["./libs/*/src"],
      "#gone/*": ["./missing/*"], /* nothing there */
    },
  },
}
"##;

#[test]
fn a_tsconfig_paths_alias_resolves_to_its_target() {
    let files = [
        ("tsconfig.json", TSCONFIG),
        ("libs/money/src/index.ts", "export const cents = 100\n"),
        ("app/main.ts", "import { cents } from '#lib/money'\n"),
    ];
    let change = Change::edit(
        &files,
        "libs/money/src/index.ts",
        "export const cents = 1000\n",
    );
    let cg = change.analyze();
    assert_eq!(imports_of(&cg, "app/main.ts"), ["libs/money/src/index.ts"]);
    assert!(reaches_file(&cg, "app/main.ts"));
}

#[test]
fn a_paths_alias_whose_target_does_not_exist_stays_unresolved() {
    let files = [
        ("tsconfig.json", TSCONFIG),
        ("libs/money/src/index.ts", "export const cents = 100\n"),
        ("app/main.ts", "import { x } from '#gone/x'\n"),
    ];
    let cg = analyze(&files);
    assert!(imports_of(&cg, "app/main.ts").is_empty());
}

#[test]
fn paths_and_base_url_are_inherited_through_extends_in_the_repository() {
    let files = [
        (
            "tsconfig.base.json",
            r#"{"compilerOptions": {"baseUrl": ".", "paths": {"~shared/*": ["shared/*"]}}}"#,
        ),
        (
            "packages/app/tsconfig.json",
            r#"{"extends": "../../tsconfig.base", "compilerOptions": {"strict": true}}"#,
        ),
        ("shared/format.ts", "export const format = 1\n"),
        ("utils/date.ts", "export const date = 1\n"),
        (
            "packages/app/src/main.ts",
            "import { format } from '~shared/format'\nimport { date } from 'utils/date'\n",
        ),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "packages/app/src/main.ts"),
        ["shared/format.ts", "utils/date.ts"]
    );
}

#[test]
fn an_extends_naming_a_package_is_not_followed() {
    // `shared-config/tsconfig.json` names a package in node_modules, even though the
    // repository holds a directory of that name.
    let files = [
        (
            "shared-config/tsconfig.json",
            r#"{"compilerOptions": {"paths": {"~shared/*": ["../shared/*"]}}}"#,
        ),
        (
            "packages/app/tsconfig.json",
            r#"{"extends": "shared-config/tsconfig.json"}"#,
        ),
        ("shared/format.ts", "export const format = 1\n"),
        (
            "packages/app/src/main.ts",
            "import { format } from '~shared/format'\n",
        ),
    ];
    let cg = analyze(&files);
    assert!(imports_of(&cg, "packages/app/src/main.ts").is_empty());
}

#[test]
fn the_nearest_tsconfig_governs_and_an_alias_may_name_a_package_directory() {
    let files = [
        ("package.json", ROOT),
        (
            "tsconfig.json",
            r#"{"compilerOptions": {"paths": {"@vue/*": ["packages/*"]}}}"#,
        ),
        (
            "packages/reactivity/package.json",
            r#"{"name": "@vue/reactivity", "main": "index.js"}"#,
        ),
        (
            "packages/reactivity/index.js",
            "module.exports = require('./dist/x.js')\n",
        ),
        ("packages/reactivity/src/index.ts", "export const ref = 1\n"),
        ("tools/tsconfig.json", r#"{"compilerOptions": {}}"#),
        ("tools/run.ts", "import { ref } from '@vue/reactivity'\n"),
        ("app.ts", "import { ref } from '@vue/reactivity'\n"),
    ];
    let cg = analyze(&files);
    assert_eq!(
        imports_of(&cg, "app.ts"),
        ["packages/reactivity/src/index.ts"]
    );
    // tools/ has its own config without the alias: the workspace package by name.
    assert_eq!(
        imports_of(&cg, "tools/run.ts"),
        ["packages/reactivity/src/index.ts"]
    );
}
