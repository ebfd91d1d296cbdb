//! Where the real protocol peers the tests drive are installed (`make peers`): the MCP
//! Python SDK's virtualenv, playwright-core, and Debian's Chromium. A missing peer is a
//! test failure that says how to install it, never a skipped test.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/peers/` in the workspace: the peers' manifests and what `make peers` installs.
pub fn peers_dir() -> PathBuf {
    crate::run::workspace().join("tests/peers")
}

fn installed(path: PathBuf, what: &str) -> PathBuf {
    assert!(
        path.exists(),
        "{what} is not installed at {}: run `make peers`",
        path.display()
    );
    path
}

/// The Python of the virtualenv that holds the MCP SDK (`tests/peers/requirements.txt`).
pub fn python() -> PathBuf {
    installed(
        peers_dir().join("venv/bin/python"),
        "the MCP SDK virtualenv",
    )
}

/// `python SCRIPT` (the MCP SDK virtualenv's) started by fork from a warm interpreter that
/// has made the script's imports (`tests/peers/fork.py`): a fresh process running the
/// script's `main()` with this command's stdio, directory, environment and arguments,
/// for a few tens of ms of CPU instead of the SDK's ~1 s of imports.
pub fn forked_python(script: &Path) -> Command {
    let mut command = Command::new(python());
    command.arg(peers_dir().join("fork.py")).arg(script);
    command
}

/// playwright-core's `index.mjs` (`tests/peers/package.json`).
pub fn playwright_module() -> PathBuf {
    installed(
        peers_dir().join("node_modules/playwright-core/index.mjs"),
        "playwright-core",
    )
}

/// Debian's Chromium headless shell: real headless Chromium (the build Playwright runs
/// headless pages in), the same version and WebMCP API as the full browser, at about half
/// its CPU and memory a launch (bench/README.md, issue 28, eighth pass). The executable
/// itself, not `/usr/bin/chromium-headless-shell`: that wrapper runs it under a shell that
/// does not `exec`, so the browser's pid would be the shell's.
pub fn chromium() -> PathBuf {
    installed(
        PathBuf::from("/usr/lib/chromium/chromium-headless-shell"),
        "Chromium's headless shell (Debian package chromium-headless-shell)",
    )
}
