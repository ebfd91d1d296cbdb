//! Build files as validation-command discovery (qa-route, qa-check) reads them from a
//! repository: a root `Cargo.toml`, a root `package.json` and a member's `Cargo.toml`.

use qa_commands::targets::{KnownTest, Targets};
use qa_commands::{self as validation, tree::Tree};

/// Source files the build files can name, so that targets, members and tests resolve.
const SOURCES: &[(&str, &str)] = &[
    (
        "src/lib.rs",
        "pub mod parse;\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn works() {}\n}\n",
    ),
    ("src/parse.rs", "pub fn parse() {}\n"),
    ("src/main.rs", "fn main() {}\n"),
    ("tests/api.rs", "#[test]\nfn works() {}\n"),
    ("crates/core/src/lib.rs", "pub fn core() {}\n"),
    ("web/app.ts", "export const app = 1;\n"),
    ("web/app.test.ts", "test('app works', () => {});\n"),
    ("rollup.config.js", "export default {};\n"),
];

/// The changed files discovery is asked about.
const CHANGED: &[&str] = &[
    "src/parse.rs",
    "tests/api.rs",
    "crates/core/src/lib.rs",
    "web/app.ts",
    "web/app.test.ts",
    "rollup.config.js",
    "Cargo.toml",
    "package.json",
];

/// `data` split at NUL bytes into the root Cargo.toml, the root package.json and
/// crates/core/Cargo.toml, written into a fresh directory; then discovery on it.
pub fn discovery(data: &[u8]) {
    let [cargo, package, member] = crate::parts::<3>(data);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |rel: &str, bytes: &[u8]| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(path, bytes).expect("writing a build file");
    };
    for (rel, text) in SOURCES {
        write(rel, text.as_bytes());
    }
    write("Cargo.toml", cargo);
    write("package.json", package);
    write("crates/core/Cargo.toml", member);
    let tree = Tree::open(dir.path()).expect("the directory just made");
    let targets = Targets {
        files: CHANGED.iter().map(|f| f.to_string()).collect(),
        tests: vec![KnownTest {
            file: "tests/api.rs".into(),
            name: "works".into(),
            ident: "works".into(),
            line: 2,
            ignored: false,
            cases: false,
        }],
    };
    let found = validation::discover(&mut tree.reader(), &targets);
    for candidate in &found.candidates {
        let _ = candidate.to_command();
    }
}
