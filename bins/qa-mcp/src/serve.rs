//! The server's life: find the stages, serve MCP on stdin/stdout until the client closes
//! the session or a signal arrives, and never leave a stage running behind it.

use crate::cli::Args;
use crate::flows::Capabilities;
use crate::server::{Context, Server};
use crate::stages::Bins;
use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use rmcp::ServiceExt as _;
use std::sync::Arc;
use std::time::Duration;

/// How long an active run gets to write its records after the session ends or a signal.
const WIND_DOWN: Duration = Duration::from_secs(15);
/// How often the signal flag is looked at.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Serves until the client closes the session (0) or SIGINT/SIGTERM (130/143).
pub fn serve(args: &Args) -> anyhow::Result<Exit> {
    check_auth_env(args.pipeline.auth_env.as_deref())?;
    let own = std::env::current_exe().ok();
    let bins = Bins::locate(
        args.bin_dir.as_deref(),
        own.as_deref(),
        std::env::var_os("PATH").as_deref(),
    )?;
    qa_records::cancel::install().context("installing the signal handlers")?;
    let ctx = Arc::new(Context {
        bins,
        caps: Capabilities {
            flags: args.pipeline.clone(),
            browser: browser_flags(args),
        },
        board: Default::default(),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let exit = runtime.block_on(session(ctx))?;
    runtime.shutdown_timeout(Duration::from_secs(2));
    Ok(exit)
}

async fn session(ctx: Arc<Context>) -> anyhow::Result<Exit> {
    let server = Server::new(Arc::clone(&ctx));
    let board = server.board().clone();
    let (stdin, stdout) = rmcp::transport::io::stdio_pipes();
    let filtered = crate::framing::filter(stdin, stdout);
    let output = filtered.output;
    let serving = async {
        let running = server
            .serve((filtered.reader, filtered.writer))
            .await
            .context("starting the MCP session on stdin/stdout")?;
        running.waiting().await.context("serving the MCP session")?;
        anyhow::Ok(Exit::Success)
    };
    let exit = tokio::select! {
        ended = serving => ended,
        signal = signalled() => Ok(signal),
    };
    // The session is over: stop whatever run is still going, and let it write its report.
    if board.cancel_active().is_some() {
        board.wait_idle(WIND_DOWN).await;
    }
    // rmcp's last replies are written before the process ends.
    let _ = tokio::time::timeout(Duration::from_secs(2), output).await;
    exit
}

/// Resolves with 130 or 143 once SIGINT or SIGTERM arrived.
async fn signalled() -> Exit {
    loop {
        if let Some(exit) = qa_records::cancel::requested() {
            return exit;
        }
        tokio::time::sleep(SIGNAL_POLL).await;
    }
}

/// A `--auth-env` NAME must be an environment variable name that is set (its value is
/// checked and used by the stages, never by qa-mcp).
fn check_auth_env(name: Option<&str>) -> anyhow::Result<()> {
    let Some(name) = name else { return Ok(()) };
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(failure(
            Exit::Usage,
            format!("--auth-env {name:?}: not an environment variable name"),
        ));
    }
    if std::env::var_os(name).is_none() {
        return Err(failure(
            Exit::Usage,
            format!("--auth-env {name}: the variable is not set"),
        ));
    }
    Ok(())
}

/// The browser flags the person gave, as qa-check takes them (`--name=value`).
fn browser_flags(args: &Args) -> Vec<std::ffi::OsString> {
    [
        ("browser-module", &args.browser_module),
        ("browser", &args.browser),
    ]
    .into_iter()
    .filter_map(|(name, value)| value.as_ref().map(|path| crate::flows::kv(name, path)))
    .collect()
}
