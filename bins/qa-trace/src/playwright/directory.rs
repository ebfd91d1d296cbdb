//! Where Playwright drafts are written: a new private directory under the OS temp dir by
//! default, or the `--draft-dir` the user names (the only way a draft lands in a
//! repository), with a Playwright config that runs the drafts there.

use std::fs::DirBuilder;
use std::io::ErrorKind;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use qa_records::exit::{failure, Exit};

/// The config file qa-trace writes beside the specs.
pub const CONFIG: &str = "playwright.qa-trace.config.mjs";

/// The Playwright config: the app's origin from `QA_BASE_URL`, a browser binary from
/// `QA_BROWSER` (else Playwright's own), closed-network Chromium flags, one worker.
const CONFIG_TEXT: &str = r#"// Written by qa-trace: runs the qa-trace drafts in this directory.
// QA_BASE_URL=http://127.0.0.1:PORT QA_BROWSER=/usr/bin/chromium npx playwright test --config THIS_FILE
// (QA_BROWSER may name Chromium's headless shell: /usr/lib/chromium/chromium-headless-shell)
export default {
  testDir: '.',
  testMatch: 'qa-*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 30000,
  expect: { timeout: 3000 },
  reporter: 'list',
  use: {
    baseURL: process.env.QA_BASE_URL,
    headless: true,
    launchOptions: {
      executablePath: process.env.QA_BROWSER || undefined,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
};
"#;

/// An open draft directory.
#[derive(Debug)]
pub struct DraftDir {
    path: PathBuf,
}

impl DraftDir {
    /// Opens `explicit` (created 0700 when missing), else a new 0700 directory under the OS
    /// temp dir; writes the config there.
    pub fn open(explicit: Option<&Path>) -> Result<DraftDir> {
        let path = match explicit {
            Some(dir) => {
                DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(|e| {
                        failure(Exit::Usage, format!("--draft-dir {}: {e}", dir.display()))
                    })?;
                dir.to_path_buf()
            }
            None => fresh_temp_dir()?,
        };
        let dir = DraftDir { path };
        dir.write(CONFIG, CONFIG_TEXT)?;
        Ok(dir)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `name` (a plain file name) in the directory.
    pub fn write(&self, name: &str, text: &str) -> Result<()> {
        let path = self.path.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    }
}

/// A directory no other process made: created (never reused) with mode 0700.
fn fresh_temp_dir() -> Result<PathBuf> {
    let base = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    for attempt in 0..64u32 {
        let path = base.join(format!(
            "qa-trace-drafts-{}-{:08x}",
            std::process::id(),
            nanos.wrapping_add(attempt.wrapping_mul(0x9e37_79b9))
        ));
        match DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("creating {}", path.display())),
        }
    }
    anyhow::bail!("no free draft directory name under {}", base.display())
}
