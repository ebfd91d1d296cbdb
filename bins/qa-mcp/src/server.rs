//! The MCP server: one tool per flow or command, each composing the stage binaries, with
//! the active run's status, progress and cancellation.

use crate::board::{Board, Ended, LastChange, Run};
use crate::flows::{self, AcceptanceInput, Capabilities, ChangeInput, RECORDS, SUMS};
use crate::observe::Observed;
use crate::pipeline::{Chain, Outcome, Progress};
use crate::results::*;
use crate::stages::Bins;
use qa_records::exit::Exit;
use qa_records::untrusted::{neutralize, reveal, Boundary};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ProgressNotificationParam, ProtocolVersion, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, Json, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The protocol revision this server speaks (and every earlier one the SDK knows).
pub const PROTOCOL: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// How long `cancel` waits for the cancelled run to write its report.
const CANCEL_WAIT: Duration = Duration::from_secs(15);

/// What every tool shares.
#[derive(Debug)]
pub struct Context {
    pub bins: Bins,
    pub caps: Capabilities,
    pub board: Board,
}

#[derive(Debug, Clone)]
pub struct Server {
    ctx: Arc<Context>,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    pub fn new(ctx: Arc<Context>) -> Server {
        Server {
            ctx,
            tool_router: Self::tool_router(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.ctx.board
    }

    /// Runs the change flow (qa-diff | qa-intent | qa-route | qa-trace | qa-report --format
    /// agent) on a git repository and returns the agent payload, the scenarios and the
    /// report folder (REPO/.qa/mcp/RUN-ID) with its SHA256SUMS. Reads the repository;
    /// writes only the report folder.
    #[tool(
        name = "change_report",
        annotations(
            title = "Change report",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn change_report(
        &self,
        Parameters(args): Parameters<ChangeArgs>,
        rc: RequestContext<RoleServer>,
    ) -> Result<Json<ChangeReport>, String> {
        let repo = work_tree(&args.repo)?;
        let input = ChangeInput {
            repo: repo.clone(),
            base: args.base,
            head: args.head,
            worktree: args.worktree.unwrap_or(false),
        };
        let done = self
            .folder_run(
                "change_report",
                &repo,
                "qa-diff",
                |out| flows::change(&self.ctx.bins, &input, out),
                &rc,
            )
            .await?;
        let mut b = Boundary::new();
        let scenarios = briefs(&mut b, &done.outcome.observed);
        let agent = agent_line(&done.outcome.report_stdout);
        let empty_range = (done.outcome.report().code == i32::from(Exit::EmptyRange.code()))
            .then(|| {
                agent
                    .as_ref()?
                    .get("empty_range")?
                    .as_str()
                    .map(|s| clean(&mut b, s))
            })
            .flatten();
        let mut done = done;
        if empty_range.is_some() && done.status == RunStatus::Completed {
            done.status = RunStatus::EmptyRange;
        }
        if let Some(sums) = &done.sums {
            self.ctx.board.set_last_change(LastChange {
                repo,
                folder: done.out.clone(),
                stream: done.out.join(RECORDS),
                sums: sums.clone(),
            });
        }
        let result = ChangeReport {
            status: done.status,
            run_id: done.run_id.clone(),
            run_folder: display(&done.out),
            sha256sums: done.sums.as_deref().map(display),
            report_exit: done.outcome.report().code,
            empty_range,
            agent,
            scenarios,
            scenario_count: done.outcome.observed.scenario_count,
            neutralized: b.count(),
        };
        done.finish("change_report");
        Ok(Json(result))
    }

    /// Why a scenario of the last change report exists: `qa-manifest explain ID` on its
    /// saved stream (trace, evidence, authority, proof gap, route). Reads only.
    #[tool(
        name = "explain",
        annotations(
            title = "Explain a scenario",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn explain(
        &self,
        Parameters(args): Parameters<IdArgs>,
    ) -> Result<Json<ExplainResult>, String> {
        let id = record_id(&args.id)?;
        let last = self.last_change()?;
        let out = self.manifest(&last, "explain", &id, None).await?;
        let mut b = Boundary::new();
        let text = clean(&mut b, &out);
        Ok(Json(ExplainResult {
            id,
            text,
            run_folder: display(&last.folder),
            sha256sums: display(&last.sums),
            neutralized: b.count(),
        }))
    }

    /// Makes a scenario (or intent, or flow node) of the last change report team policy:
    /// `qa-manifest accept ID` appends a flow to REPO/.qa/manifest.yaml, so the next
    /// change_report marks it team-policy. Edits only the manifest.
    #[tool(
        name = "accept",
        annotations(
            title = "Accept as team policy",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn accept(
        &self,
        Parameters(args): Parameters<IdArgs>,
    ) -> Result<Json<FeedbackResult>, String> {
        let id = record_id(&args.id)?;
        self.feedback("accept", id, None).await
    }

    /// Suppresses a scenario of the last change report: `qa-manifest reject ID --reason`
    /// appends a suppression to REPO/.qa/manifest.yaml, so the next change_report no
    /// longer writes it. Edits only the manifest.
    #[tool(
        name = "reject",
        annotations(
            title = "Reject a scenario",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn reject(
        &self,
        Parameters(args): Parameters<RejectArgs>,
    ) -> Result<Json<FeedbackResult>, String> {
        let id = record_id(&args.id)?;
        self.feedback("reject", id, Some(args.reason)).await
    }

    /// Runs the repository command the last change report routed (`qa-check --exec`, its
    /// most urgent route or the one `scenario` names), only if qa-mcp was started with
    /// --allow-exec: otherwise the command is recorded as blocked and `refused` names the
    /// flag. Executes repository code; the report folder names what it changed.
    #[tool(
        name = "run_check",
        annotations(
            title = "Run the routed check",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn run_check(
        &self,
        Parameters(args): Parameters<RunCheckArgs>,
        rc: RequestContext<RoleServer>,
    ) -> Result<Json<CheckResult>, String> {
        let scenario = args.scenario.as_deref().map(record_id).transpose()?;
        let last = self.last_change()?;
        let refused = if self.ctx.caps.flags.allow_exec {
            vec![]
        } else {
            vec![Refusal::missing(
                "--allow-exec",
                "running the routed repository command",
            )]
        };
        let done = self
            .folder_run(
                "run_check",
                &last.repo,
                "qa-check",
                |out| {
                    flows::check(
                        &self.ctx.bins,
                        &self.ctx.caps,
                        &last.repo,
                        &last.stream,
                        scenario.as_deref(),
                        out,
                    )
                },
                &rc,
            )
            .await?;
        let executions: Vec<ExecutionBrief> = done
            .outcome
            .observed
            .executions
            .iter()
            .map(|e| {
                let command = e.command.as_deref();
                let withheld = command.is_some_and(|c| neutralize(c).1 > 0);
                ExecutionBrief {
                    status: e.status.clone(),
                    command: command
                        .filter(|_| !withheld)
                        .map(|c| reveal(c).into_owned()),
                    command_withheld: withheld,
                    exit_code: e.exit_code,
                }
            })
            .collect();
        let result = CheckResult {
            status: done.status,
            run_id: done.run_id.clone(),
            refused,
            change_report: display(&last.folder),
            run_folder: display(&done.out),
            sha256sums: done.sums.as_deref().map(display),
            report_exit: done.outcome.report().code,
            agent: agent_line(&done.outcome.report_stdout),
            // Each withheld command counts as one neutralized string.
            neutralized: executions.iter().filter(|e| e.command_withheld).count() as u64,
            executions,
        };
        done.finish("run_check");
        Ok(Json(result))
    }

    /// Runs the acceptance flow on a plan (qa-intent --plan | qa-fetch | qa-route |
    /// qa-check | qa-fetch --verify | qa-trace | qa-report --acceptance) with the server's
    /// own flags only: checks needing --allow-network, --allow-tool-calls or --auth-env the
    /// server lacks are blocked and listed in `refused`. Writes the run folder under
    /// REPO/.qa/acceptance; with those flags, reaches the plan's URLs and calls its tools.
    #[tool(
        name = "acceptance",
        annotations(
            title = "Acceptance run",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn acceptance(
        &self,
        Parameters(args): Parameters<AcceptanceArgs>,
        rc: RequestContext<RoleServer>,
    ) -> Result<Json<AcceptanceResult>, String> {
        let (plan, repo) = plan_and_repo(&args.plan, &args.repo)?;
        let input = AcceptanceInput {
            plan,
            repo,
            shard: args.shard,
        };
        let chain = flows::acceptance(&self.ctx.bins, &self.ctx.caps, &input);
        let run_id = flows::run_id("acceptance");
        let run = Arc::new(self.ctx.board.begin(
            "acceptance",
            run_id.clone(),
            None,
            "qa-intent",
        )?);
        let outcome = drive(&run, chain, &rc).await?;
        let status = run_status(&run);
        if let Some(failed) = outcome.failed_stage() {
            return Err(stage_error(failed));
        }
        let report: serde_json::Value = serde_json::from_slice(&outcome.report_stdout)
            .map_err(|_| stage_error(outcome.report()))?;
        let mut b = Boundary::new();
        let text =
            |b: &mut Boundary, v: &serde_json::Value| clean(b, v.as_str().unwrap_or_default());
        let strings = |b: &mut Boundary, v: &serde_json::Value| -> Vec<String> {
            v.as_array()
                .map(|a| a.iter().map(|s| text(b, s)).collect())
                .unwrap_or_default()
        };
        let criteria = report["criteria"]
            .as_array()
            .map(|cs| {
                cs.iter()
                    .take(100)
                    .map(|c| CriterionBrief {
                        id: text(&mut b, &c["id"]),
                        status: text(&mut b, &c["status"]),
                        reasons: strings(&mut b, &c["reasons"]),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let paths = &report["reports"];
        let folder = paths["dir"].as_str().map(str::to_string);
        let sums = paths["sums"].as_str().map(str::to_string);
        let refused = refusals(&self.ctx.caps, &outcome.observed);
        let result = AcceptanceResult {
            status,
            verdict: text(&mut b, &report["verdict"]["status"]),
            exit: outcome.report().code,
            refused,
            run_folder: folder.clone(),
            sha256sums: sums.clone(),
            report: paths["report_json"].as_str().map(str::to_string),
            reasons: strings(&mut b, &report["verdict"]["reasons"]),
            criteria,
            neutralized: b.count() + report["neutralized"].as_u64().unwrap_or(0),
        };
        run.finish(ended(
            "acceptance",
            run_id,
            status,
            folder.map(PathBuf::from),
            sums.map(PathBuf::from),
        ));
        Ok(Json(result))
    }

    /// The active run (tool, stage, records so far), else the last one; the server's
    /// capabilities. Reads only.
    #[tool(
        name = "status",
        annotations(title = "Run status", read_only_hint = true, open_world_hint = false)
    )]
    async fn status(
        &self,
        Parameters(NoArgs {}): Parameters<NoArgs>,
    ) -> Result<Json<StatusResult>, String> {
        let board = &self.ctx.board;
        let active = board.snapshot();
        let change = board.last_change();
        let f = &self.ctx.caps.flags;
        Ok(Json(StatusResult {
            active: active.is_some(),
            tool: active.as_ref().map(|a| a.tool.to_string()),
            run_id: active.as_ref().map(|a| a.run_id.clone()),
            run_folder: active
                .as_ref()
                .and_then(|a| a.folder.as_deref().map(display)),
            stage: active.as_ref().map(|a| a.stage.clone()),
            records: active.as_ref().map_or(0, |a| a.records),
            seconds: active.as_ref().map_or(0, |a| a.seconds),
            cancelled: active.as_ref().is_some_and(|a| a.cancelled),
            last: board.last_end().map(last_run),
            change_report: change.as_ref().map(|c| display(&c.folder)),
            change_report_sums: change.as_ref().map(|c| display(&c.sums)),
            capabilities: CapabilitiesBrief {
                allow_network: f.allow_network,
                allow_tool_calls: f.allow_tool_calls,
                allow_exec: f.allow_exec,
                auth_env: f.auth_env.is_some(),
            },
        }))
    }

    /// Cancels the active run: SIGTERM to its stages' process groups, which write what
    /// they finished and their cancelled records; waits (at most 15 s) for its report and
    /// names its folder. Stops only qapipe's own stage processes.
    #[tool(
        name = "cancel",
        annotations(
            title = "Cancel the active run",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn cancel(
        &self,
        Parameters(NoArgs {}): Parameters<NoArgs>,
    ) -> Result<Json<CancelResult>, String> {
        let board = &self.ctx.board;
        let Some(tool) = board.cancel_active() else {
            return Ok(Json(CancelResult {
                cancelled: false,
                message: "no run is active".to_string(),
                last: board.last_end().map(last_run),
            }));
        };
        let idle = board.wait_idle(CANCEL_WAIT).await;
        let message = if idle {
            format!("the {tool} run was cancelled and has ended")
        } else {
            format!("the {tool} run was signalled but had not ended after 15 s: call status")
        };
        Ok(Json(CancelResult {
            cancelled: true,
            message,
            last: if idle {
                board.last_end().map(last_run)
            } else {
                None
            },
        }))
    }
}

/// A run whose qa-report writes the report folder `REPO/.qa/mcp/RUN-ID`, as it ended.
struct FolderRun {
    run: Arc<Run>,
    run_id: String,
    out: PathBuf,
    outcome: Outcome,
    status: RunStatus,
    /// The folder's SHA256SUMS, when a report was made.
    sums: Option<PathBuf>,
}

impl FolderRun {
    fn finish(&self, tool: &'static str) {
        self.run.finish(ended(
            tool,
            self.run_id.clone(),
            self.status,
            Some(self.out.clone()),
            self.sums.clone(),
        ));
    }
}

impl Server {
    /// Runs the chain `chain(folder)` as `tool`'s active run; an error line when a stage
    /// failed, or when a run that was not cancelled made no report.
    async fn folder_run(
        &self,
        tool: &'static str,
        repo: &Path,
        first_stage: &str,
        chain: impl FnOnce(&Path) -> Chain,
        rc: &RequestContext<RoleServer>,
    ) -> Result<FolderRun, String> {
        let run_id = flows::run_id(tool);
        let out = repo.join(flows::MCP_DIR).join(&run_id);
        let run = Arc::new(self.ctx.board.begin(
            tool,
            run_id.clone(),
            Some(out.clone()),
            first_stage,
        )?);
        // Only once this is the active run: a refused second run leaves no trace.
        flows::mcp_dir(repo).map_err(|e| {
            if qa_records::private_dir::is_refusal(&e) {
                e.to_string()
            } else {
                format!("{}: cannot create {}: {e}", repo.display(), flows::MCP_DIR)
            }
        })?;
        let chain = chain(&out);
        let outcome = drive(&run, chain, rc).await?;
        let status = run_status(&run);
        if let Some(failed) = outcome.failed_stage() {
            return Err(stage_error(failed));
        }
        let sums = Some(out.join(SUMS)).filter(|s| s.is_file());
        if sums.is_none() && status == RunStatus::Completed {
            return Err(stage_error(outcome.report()));
        }
        Ok(FolderRun {
            run,
            run_id,
            out,
            outcome,
            status,
            sums,
        })
    }

    fn last_change(&self) -> Result<LastChange, String> {
        self.ctx
            .board
            .last_change()
            .ok_or_else(|| "no change report yet: call change_report first".to_string())
    }

    async fn feedback(
        &self,
        command: &'static str,
        id: String,
        reason: Option<String>,
    ) -> Result<Json<FeedbackResult>, String> {
        let last = self.last_change()?;
        let out = self
            .manifest(&last, command, &id, reason.as_deref())
            .await?;
        let mut b = Boundary::new();
        let summary = clean(&mut b, out.trim_end());
        Ok(Json(FeedbackResult {
            id,
            summary,
            manifest: display(&last.repo.join(".qa").join("manifest.yaml")),
            run_folder: display(&last.folder),
            sha256sums: display(&last.sums),
            neutralized: b.count(),
        }))
    }

    /// `qa-manifest COMMAND --repo R --in STREAM [--reason=TEXT] -- ID`; its stdout, or an
    /// error line (past the boundary) when it failed.
    async fn manifest(
        &self,
        last: &LastChange,
        command: &'static str,
        id: &str,
        reason: Option<&str>,
    ) -> Result<String, String> {
        let mut c = std::process::Command::new(self.ctx.bins.get("qa-manifest"));
        c.arg(command)
            .arg(format!("--repo={}", last.repo.display()))
            .arg(format!("--in={}", last.stream.display()));
        if let Some(reason) = reason {
            c.arg(format!("--reason={reason}"));
        }
        c.arg("--")
            .arg(id)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let output = tokio::task::spawn_blocking(move || c.output())
            .await
            .map_err(|e| format!("qa-manifest {command}: {e}"))?
            .map_err(|e| format!("starting qa-manifest: {e}"))?;
        if !output.status.success() {
            let mut b = Boundary::new();
            let err = String::from_utf8_lossy(&output.stderr);
            let line = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            return Err(format!(
                "qa-manifest {command} exited {}: {}",
                output.status.code().unwrap_or(-1),
                clean(&mut b, line)
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(rmcp::model::Implementation::new(
                "qa-mcp",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "qapipe's change and acceptance flows. Call change_report {repo} first; then explain, accept, reject or run_check work on its stream. Results name their run folder and SHA256SUMS. Capabilities (network, tool calls, exec) come only from the server's start flags: a `refused` entry names the flag a person must add.",
            )
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&PROTOCOL))
    }
}

/// Runs `chain` on a blocking thread while forwarding progress (when the client sent a
/// progressToken) and the client's cancellation of this request.
async fn drive(
    run: &Arc<Run>,
    chain: Chain,
    rc: &RequestContext<RoleServer>,
) -> Result<Outcome, String> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Progress>();
    let worker = Arc::clone(run);
    let mut handle = tokio::task::spawn_blocking(move || {
        chain.run(&worker, &|p| drop(tx.send(p)), Observed::default())
    });
    let token = rc.meta.get_progress_token();
    let mut sent: Option<u64> = None;
    let mut cancelled = false;
    let joined = loop {
        tokio::select! {
            biased;
            Some(p) = rx.recv() => {
                if let Some(token) = &token {
                    // Progress only ever increases; a new stage with no new records is
                    // in status, not a notification.
                    if sent.is_none_or(|s| p.records > s) {
                        sent = Some(p.records);
                        let note = ProgressNotificationParam::new(token.clone(), p.records as f64)
                            .with_message(format!("{}: {} records", p.stage, p.records));
                        let _ = rc.peer.notify_progress(note).await;
                    }
                }
            }
            joined = &mut handle => break joined,
            _ = rc.ct.cancelled(), if !cancelled => {
                cancelled = true;
                run.cancel();
            }
        }
    };
    joined
        .map_err(|e| format!("internal error: the stage runner stopped: {e}"))?
        .map_err(|e| format!("{e:#}"))
}

fn run_status(run: &Run) -> RunStatus {
    if run.cancelled() {
        RunStatus::Cancelled
    } else {
        RunStatus::Completed
    }
}

fn ended(
    tool: &'static str,
    run_id: String,
    status: RunStatus,
    folder: Option<PathBuf>,
    sums: Option<PathBuf>,
) -> Ended {
    Ended {
        tool,
        run_id,
        folder,
        sums,
        status: match status {
            RunStatus::Completed => "completed",
            RunStatus::Cancelled => "cancelled",
            RunStatus::EmptyRange => "empty-range",
        },
    }
}

fn last_run(e: Ended) -> LastRun {
    LastRun {
        tool: e.tool.to_string(),
        run_id: e.run_id,
        status: e.status.to_string(),
        run_folder: e.folder.as_deref().map(display),
        sha256sums: e.sums.as_deref().map(display),
    }
}

/// One line naming the stage, its exit code and the first line of its stderr (which may
/// quote repository text: past the boundary).
fn stage_error(e: &crate::pipeline::Ending) -> String {
    let mut b = Boundary::new();
    let line = e
        .stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(no message)");
    format!("{} exited {}: {}", e.name, e.code, clean(&mut b, line))
}

fn briefs(b: &mut Boundary, observed: &Observed) -> Vec<ScenarioBrief> {
    observed
        .scenarios
        .iter()
        .map(|s| ScenarioBrief {
            id: s.id.clone(),
            title: clean(b, &s.title),
            priority: s.priority.clone(),
            authority: s.authority.clone(),
        })
        .collect()
}

/// The agent line qa-report printed, as JSON (it has passed qa-report's own boundary).
fn agent_line(stdout: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_slice(stdout).ok()
}

/// The capabilities check routes needed and the server was not given.
fn refusals(caps: &Capabilities, observed: &Observed) -> Vec<Refusal> {
    let f = &caps.flags;
    observed
        .missing_flags
        .iter()
        .filter(|flag| match flag.as_str() {
            "--allow-network" => !f.allow_network,
            "--allow-tool-calls" => !f.allow_tool_calls,
            "--allow-exec" => !f.allow_exec,
            "--auth-env" => f.auth_env.is_none(),
            _ => true,
        })
        .map(|flag| {
            let what = match flag.as_str() {
                "--allow-network" => "network access for the plan's checks",
                "--allow-tool-calls" => "calling the plan's MCP or WebMCP tools",
                "--allow-exec" => "running a command",
                _ => "a check's capability",
            };
            Refusal::missing(flag, what)
        })
        .collect()
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// `arg` as an existing folder, absolute.
fn folder(arg: &str, what: &str) -> Result<PathBuf, String> {
    let p = Path::new(arg);
    let p = std::fs::canonicalize(p).map_err(|e| format!("{what} {arg}: {e}"))?;
    if !p.is_dir() {
        return Err(format!("{what} {arg}: not a folder"));
    }
    Ok(p)
}

/// `arg` as a git work tree (a folder holding `.git`), absolute: checked before anything
/// is written in it.
fn work_tree(arg: &str) -> Result<PathBuf, String> {
    let repo = folder(arg, "repo")?;
    if repo.join(".git").symlink_metadata().is_err() {
        return Err(format!("repo {arg}: not a git work tree (no .git)"));
    }
    Ok(repo)
}

/// The plan file and project root of an acceptance run: the plan (absolute, or relative
/// to `repo`) must be a file inside the project root.
fn plan_and_repo(plan: &str, repo: &str) -> Result<(PathBuf, PathBuf), String> {
    let repo = folder(repo, "repo")?;
    let plan_path = repo.join(plan);
    if !plan_path.is_file() {
        return Err(format!("plan {plan}: not a file"));
    }
    let plan_path = std::fs::canonicalize(&plan_path).map_err(|e| format!("plan {plan}: {e}"))?;
    if !plan_path.starts_with(&repo) {
        return Err(format!(
            "plan {plan}: not inside repo {} (the run folder goes under the project that holds its plan)",
            repo.display()
        ));
    }
    Ok((plan_path, repo))
}

/// A record id as qa-manifest takes it: `sha256:` and hex digits, or 12+ hex digits.
fn record_id(id: &str) -> Result<String, String> {
    let hex = id.strip_prefix("sha256:").unwrap_or(id);
    let ok = !hex.is_empty()
        && hex.len() <= 64
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && (id.starts_with("sha256:") || hex.len() >= 12);
    if ok {
        Ok(id.to_string())
    } else {
        Err(format!(
            "id {:?}: not a record id (sha256:HEX, or a prefix of 12+ hex digits)",
            id.chars().take(80).collect::<String>()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_id_is_hex_never_a_flag() {
        assert!(record_id("sha256:abcdef012345").is_ok());
        assert!(record_id("abcdef012345").is_ok());
        assert!(record_id("abcdef").is_err());
        assert!(record_id("--repo=/").is_err());
    }
}
