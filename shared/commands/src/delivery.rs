//! Configuration and delivery changes: which changed files a build, typecheck, lint or
//! declared validation loads, and the commands of the owning package that do so.

use super::{node, Candidate, Found};
use crate::targets::Targets;
use crate::tree::{base_name, Reader};
use qa_records::change::CommandPurpose;

/// What kind of configuration or shipped file a changed path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concern {
    /// A bundler or framework build configuration (`vite.config.ts`, `next.config.js`).
    Bundler,
    /// A TypeScript project file (`tsconfig.json`, `tsconfig.build.json`).
    TypeScript,
    /// A linter or formatter configuration (`.eslintrc.json`, `eslint.config.js`).
    Lint,
    /// A package manifest: dependencies, scripts, entry points (`package.json`).
    Manifest,
    /// Environment values and feature flags (`.env.production`, `flags.json`).
    Environment,
    /// Application configuration the app reads or its platforms ship (`app.json`,
    /// `config/*.yaml`, `Info.plist`, `AndroidManifest.xml`).
    App,
    /// A file shipped as is: images, fonts, media, anything under `public/` or `static/`.
    Asset,
    /// A type declaration or a type test (`index.d.ts`, `index.test-d.ts`, `test-d/*.ts`):
    /// only the type checker loads it.
    Types,
}

/// A check of the package that validates a concern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// `validate`, `validate:*`.
    Validate,
    /// `typecheck`, `type-check`, `check-types`, `tsc`.
    Typecheck,
    /// `build`.
    Build,
    /// `build:ios`, `build:android`, ...: one platform's app.
    Platform,
    /// `lint`.
    Lint,
}

/// The order checks are offered in: the narrowest statement about configuration first.
pub const CHECKS: [Check; 5] = [
    Check::Validate,
    Check::Typecheck,
    Check::Build,
    Check::Platform,
    Check::Lint,
];

const BUNDLERS: &[&str] = &[
    "vite", "vitest", "webpack", "rollup", "esbuild", "tsup", "next", "nuxt", "svelte", "astro",
    "remix", "metro", "babel", "postcss", "tailwind", "rspack", "parcel", "angular", "quasar",
    "expo", "turbo",
];
const LINTERS: &[&str] = &["eslint", "prettier", "stylelint", "biome", "oxlint"];
const TYPESCRIPT_CONFIG: &str = "tsconfig";
const APP_FILES: &[&str] = &[
    "app.json",
    "eas.json",
    "Info.plist",
    "AndroidManifest.xml",
    "manifest.json",
    "manifest.webmanifest",
    "site.webmanifest",
];
const APP_PREFIXES: &[&str] = &["app.config.", "capacitor.config.", "ionic.config."];
const CONFIG_DIRS: &[&str] = &["config", "configs", "settings"];
const SETTINGS_EXTENSIONS: &[&str] = &["json", "yaml", "yml", "toml"];
const FLAG_STEMS: &[&str] = &["flags", "feature-flags", "feature_flags", "featureflags"];
const ASSET_DIRS: &[&str] = &["public", "static", "assets", "res", "resources"];
const ASSET_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "icns", "bmp", "woff", "woff2",
    "ttf", "otf", "eot", "mp3", "mp4", "webm", "wav", "ogg",
];
const SOURCE_EXTENSIONS: &[&str] = &[
    "js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts", "vue", "svelte", "rs", "py", "go",
    "java", "kt",
];

impl Concern {
    /// The concern of `path`, or None for source code, tests and documentation.
    pub fn of(path: &str) -> Option<Concern> {
        let name = base_name(path);
        let (stem, ext) = match name.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => (stem, ext),
            _ => (name, ""),
        };
        let tool = name.split('.').next().unwrap_or(name);
        let dirs: Vec<&str> = path.split('/').rev().skip(1).collect();
        let typescript = matches!(ext, "ts" | "tsx" | "mts" | "cts");
        let declaration = [".d.ts", ".d.mts", ".d.cts"]
            .iter()
            .any(|d| name.ends_with(d));
        if name == "package.json" {
            Some(Concern::Manifest)
        } else if declaration || typescript && is_type_test(path) {
            Some(Concern::Types)
        } else if name.starts_with(TYPESCRIPT_CONFIG) && ext == "json" {
            Some(Concern::TypeScript)
        } else if name == ".env"
            || name.starts_with(".env.")
            || ext == "env"
            || (FLAG_STEMS.contains(&stem.to_ascii_lowercase().as_str())
                && SETTINGS_EXTENSIONS.contains(&ext))
        {
            Some(Concern::Environment)
        } else if name.contains(".config.") && BUNDLERS.contains(&tool) {
            Some(Concern::Bundler)
        } else if LINTERS
            .iter()
            .any(|l| tool == *l || name.strip_prefix('.').is_some_and(|n| n.starts_with(l)))
        {
            Some(Concern::Lint)
        } else if APP_FILES.contains(&name)
            || APP_PREFIXES
                .iter()
                .any(|p| name.strip_prefix(p).is_some_and(|e| !e.contains('.')))
            || (SETTINGS_EXTENSIONS.contains(&ext)
                && dirs.first().is_some_and(|d| CONFIG_DIRS.contains(d)))
        {
            Some(Concern::App)
        } else if ASSET_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
            || (!SOURCE_EXTENSIONS.contains(&ext) && dirs.iter().any(|d| ASSET_DIRS.contains(d)))
        {
            Some(Concern::Asset)
        } else {
            None
        }
    }

    /// The checks that load a file of this concern, so fail when it is broken.
    pub fn checked_by(self) -> &'static [Check] {
        match self {
            Concern::Bundler => &[Check::Build, Check::Platform],
            Concern::TypeScript => &[Check::Typecheck, Check::Build],
            Concern::Lint => &[Check::Lint],
            Concern::Manifest => &[Check::Typecheck, Check::Build],
            Concern::Environment => &[Check::Validate, Check::Build],
            Concern::App => &[Check::Validate, Check::Build, Check::Platform],
            Concern::Asset => &[Check::Build, Check::Platform],
            Concern::Types => &[Check::Typecheck],
        }
    }
}

impl Check {
    pub fn purpose(self) -> CommandPurpose {
        match self {
            Check::Validate => CommandPurpose::Validate,
            Check::Typecheck => CommandPurpose::Typecheck,
            Check::Build | Check::Platform => CommandPurpose::Build,
            Check::Lint => CommandPurpose::Lint,
        }
    }

    /// True when a package.json script or Makefile target `name` is this check.
    pub fn names(self, name: &str) -> bool {
        const PLATFORMS: &[&str] = &[
            "ios", "android", "web", "desktop", "mac", "macos", "windows", "win", "linux",
            "electron", "native", "mobile",
        ];
        match self {
            Check::Validate => name == "validate" || name.starts_with("validate:"),
            Check::Typecheck => matches!(
                name,
                "typecheck" | "type-check" | "check-types" | "check:types" | "types:check" | "tsc"
            ),
            Check::Build => name == "build",
            Check::Platform => name
                .strip_prefix("build:")
                .or_else(|| name.strip_suffix(":build"))
                .is_some_and(|p| PLATFORMS.contains(&p)),
            Check::Lint => name == "lint",
        }
    }

    /// True when a script that starts `program` with `args` alone is this check, whatever
    /// its name (`"test:typecheck": "tsc"`, `"test:code": "eslint ."`); never one that
    /// rewrites files.
    pub fn is_run_by(self, program: &str, args: &[String]) -> bool {
        const TYPECHECKERS: &[&str] = &["tsc", "vue-tsc", "svelte-check", "tsd"];
        const LINTERS: &[&str] = &["eslint", "oxlint", "stylelint"];
        let rewrites = args
            .iter()
            .any(|a| matches!(a.as_str(), "--fix" | "--write" | "--apply"));
        match self {
            Check::Typecheck => TYPECHECKERS.contains(&program) && !rewrites,
            Check::Lint => LINTERS.contains(&program) && !rewrites,
            Check::Validate | Check::Build | Check::Platform => false,
        }
    }

    /// The check a script is, for one that names a changed file: by its name or program,
    /// a build when its name says so, else a validation.
    pub fn of_script(name: &str, program: Option<(String, Vec<String>)>) -> Check {
        let runs = |check: Check| {
            check.names(name)
                || program
                    .as_ref()
                    .is_some_and(|(p, args)| check.is_run_by(p, args))
        };
        if runs(Check::Typecheck) {
            Check::Typecheck
        } else if runs(Check::Lint) {
            Check::Lint
        } else if Check::Platform.names(name) {
            Check::Platform
        } else if name.contains("build") {
            Check::Build
        } else {
            Check::Validate
        }
    }

    /// Why a script that names the changed `files` covers them.
    pub fn why_named(name: &str, files: &[&str]) -> String {
        format!(
            "`{name}` names the changed {} in its command line, so it loads it",
            listed(files)
        )
    }

    /// Why `command` covers the changed `files`, in one clause.
    pub fn why(self, command: &str, files: &[&str]) -> String {
        let files = listed(files);
        match self {
            Check::Validate => format!(
                "`{command}` is the package's declared validation of its configuration, which the change edits ({files})"
            ),
            Check::Typecheck => format!("`{command}` type-checks the package under the changed {files}"),
            Check::Build => format!(
                "`{command}` builds the package from the changed {files}: a configuration the build cannot load or a file it cannot bundle fails it"
            ),
            Check::Platform => format!("`{command}` builds the platform app that ships the changed {files}"),
            Check::Lint => format!("`{command}` lints the package under the changed {files}"),
        }
    }
}

/// A type test: `x.test-d.ts` (tsd's, vitest's), or a file under a `test-d/` folder.
pub fn is_type_test(path: &str) -> bool {
    let name = base_name(path);
    name.contains(".test-d.") || path.split('/').rev().skip(1).any(|d| d == "test-d")
}

/// `a, b and c`, or the first three and how many more.
fn listed(files: &[&str]) -> String {
    let shown: Vec<String> = files.iter().take(3).map(|f| format!("`{f}`")).collect();
    match (files.len(), shown.as_slice()) {
        (_, [one]) => one.clone(),
        (n, _) if n > 3 => format!("{} and {} more", shown.join(", "), n - 3),
        (_, [init @ .., last]) => format!("{} and {last}", init.join(", ")),
        (_, []) => String::new(),
    }
}

/// True when every file of a non-empty change is configuration or shipped.
pub fn only_delivery(files: &[String]) -> bool {
    !files.is_empty() && files.iter().all(|f| Concern::of(f).is_some())
}

/// The changed files with a concern, in change order.
pub fn concerned(targets: &Targets) -> Vec<(&str, Concern)> {
    targets
        .files
        .iter()
        .filter_map(|f| Concern::of(f).map(|c| (f.as_str(), c)))
        .collect()
}

/// Each check with the changed files it loads, in the order of [`CHECKS`]; checks that
/// load none of them are left out.
pub fn by_check<'a>(concerned: &[(&'a str, Concern)]) -> Vec<(Check, Vec<&'a str>)> {
    CHECKS
        .iter()
        .map(|&check| {
            let files = concerned
                .iter()
                .filter(|(_, c)| c.checked_by().contains(&check))
                .map(|(f, _)| *f)
                .collect::<Vec<_>>();
            (check, files)
        })
        .filter(|(_, files)| !files.is_empty())
        .collect()
}

/// The checks of the packages that own the changed configuration and shipped files:
/// their package.json scripts, then the root Makefile's targets of the same names.
pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let concerned = concerned(targets);
    if concerned.is_empty() {
        return;
    }
    node::checks(reader, &concerned, found);
    super::make::checks(reader, &concerned, found);
}

impl Candidate {
    /// This command as `check` of the changed `files`, run by its target or script `name`.
    pub fn checking(mut self, check: Check, name: &str, files: &[&str]) -> Candidate {
        self.purpose = check.purpose();
        self.why = check.why(name, files);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn concern(path: &str) -> Option<Concern> {
        Concern::of(path)
    }

    #[test]
    fn build_and_framework_configuration_is_a_bundler_concern() {
        assert_eq!(concern("vite.config.ts"), Some(Concern::Bundler));
        assert_eq!(concern("apps/web/next.config.mjs"), Some(Concern::Bundler));
        assert_eq!(concern("tailwind.config.js"), Some(Concern::Bundler));
        assert_eq!(concern("src/config.ts"), None, "code that models settings");
        assert_eq!(
            concern("src/app.config.service.ts"),
            None,
            "not a known tool"
        );
    }

    #[test]
    fn type_declarations_and_type_tests_are_a_types_concern_and_other_typescript_is_not() {
        let types = [
            "index.d.ts",
            "test-d/methods/script.test-d.ts",
            "test-d/helpers.ts",
            "src/index.test-d.tsx",
        ];
        for path in types {
            assert_eq!(concern(path), Some(Concern::Types), "{path}");
        }
        for path in ["src/index.ts", "src/index.test.ts", "test-d/readme.md"] {
            assert_eq!(concern(path), None, "{path}");
        }
    }

    #[test]
    fn typescript_lint_and_manifest_files_are_recognized() {
        assert_eq!(concern("tsconfig.build.json"), Some(Concern::TypeScript));
        assert_eq!(concern(".eslintrc.cjs"), Some(Concern::Lint));
        assert_eq!(concern("eslint.config.js"), Some(Concern::Lint));
        assert_eq!(concern("packages/a/package.json"), Some(Concern::Manifest));
        assert_eq!(concern("packages/a/package-lock.json"), None);
    }

    #[test]
    fn environment_files_and_flag_files_are_an_environment_concern() {
        assert_eq!(concern(".env"), Some(Concern::Environment));
        assert_eq!(
            concern("apps/web/.env.production"),
            Some(Concern::Environment)
        );
        assert_eq!(concern("config/flags.yaml"), Some(Concern::Environment));
        assert_eq!(concern("src/flags.ts"), None, "flag code is product code");
        assert_eq!(concern("src/environment.ts"), None);
    }

    #[test]
    fn app_configuration_and_platform_manifests_are_an_app_concern() {
        assert_eq!(concern("app.json"), Some(Concern::App));
        assert_eq!(concern("app.config.ts"), Some(Concern::App));
        assert_eq!(concern("ios/Shop/Info.plist"), Some(Concern::App));
        assert_eq!(
            concern("android/app/src/main/AndroidManifest.xml"),
            Some(Concern::App)
        );
        assert_eq!(concern("config/production.yaml"), Some(Concern::App));
        assert_eq!(concern("src/config/index.ts"), None);
        assert_eq!(concern("data/production.yaml"), None);
    }

    #[test]
    fn media_and_files_under_public_are_shipped_assets_and_code_there_is_not() {
        assert_eq!(concern("public/logo.svg"), Some(Concern::Asset));
        assert_eq!(concern("src/assets/hero.PNG"), Some(Concern::Asset));
        assert_eq!(concern("static/robots.txt"), Some(Concern::Asset));
        assert_eq!(
            concern("public/sw.js"),
            None,
            "a script under public/ is code"
        );
        assert_eq!(concern("src/App.tsx"), None);
        assert_eq!(concern("README.md"), None);
    }

    #[test]
    fn scripts_are_matched_to_checks_by_their_conventional_names() {
        assert!(Check::Validate.names("validate:env"));
        assert!(!Check::Validate.names("validated"));
        assert!(Check::Typecheck.names("type-check"));
        assert!(Check::Platform.names("build:ios"));
        assert!(Check::Platform.names("android:build"));
        assert!(!Check::Platform.names("build:watch"), "not a platform");
        assert!(!Check::Build.names("build:ios"));
        assert!(Check::Lint.names("lint"));
        assert!(!Check::Lint.names("lint:fix"));
    }

    #[test]
    fn a_script_is_a_typecheck_or_a_lint_by_the_program_it_runs_unless_it_rewrites() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(Check::Typecheck.is_run_by("tsc", &[]));
        assert!(Check::Typecheck.is_run_by("vue-tsc", &args(&["--noEmit"])));
        assert!(Check::Lint.is_run_by("eslint", &args(&["--max-warnings=0", "."])));
        assert!(!Check::Lint.is_run_by("eslint", &args(&[".", "--fix"])));
        assert!(!Check::Lint.is_run_by("prettier", &args(&["--check", "."])));
        assert!(
            !Check::Build.is_run_by("vite", &args(&["build"])),
            "builds go by name"
        );
    }

    #[test]
    fn a_change_is_delivery_only_when_every_file_has_a_concern() {
        let all = |f: &[&str]| only_delivery(&f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(all(&["vite.config.ts", "public/logo.svg"]));
        assert!(!all(&["vite.config.ts", "src/main.ts"]));
        assert!(!all(&[]));
    }

    #[test]
    fn the_why_names_the_command_and_at_most_three_files() {
        let why = Check::Build.why("build", &["a.json", "b.svg", "c.env", "d.png"]);
        assert!(
            why.starts_with(
                "`build` builds the package from the changed `a.json`, `b.svg`, `c.env` and 1 more"
            ),
            "{why}"
        );
        assert_eq!(
            Check::Lint.why("lint", &["a", "b"]),
            "`lint` lints the package under the changed `a` and `b`"
        );
    }
}
