//! Stage processes piped together as the shell pipelines pipe them, each in a process
//! group of its own (so a cancel reaches the whole stage), with qa-mcp reading the stream
//! between the last upstream stage and qa-report: records counted, the stage writing them
//! noted for status and progress, and the few records a result names kept.

use crate::board::Run;
use crate::observe::Observed;
use anyhow::Context as _;
use std::ffi::OsString;
use std::io::{BufRead as _, BufReader, BufWriter, Read, Write as _};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

/// Bytes of a stage's stderr kept for its error line; the rest is read and dropped.
const STDERR_KEPT: u64 = 16 * 1024;
/// Bytes of qa-report's stdout kept (an agent line is at most 4 KiB, a JSON acceptance
/// report with whole evidence excerpts more).
const REPORT_KEPT: u64 = 32 << 20;
/// A progress message every this many records (and at each new stage).
const PROGRESS_EVERY: u64 = 1000;

/// One stage: its name, binary and arguments.
#[derive(Debug, Clone)]
pub struct Stage {
    pub name: &'static str,
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl Stage {
    pub fn new(name: &'static str, program: &std::path::Path) -> Stage {
        Stage {
            name,
            program: program.to_path_buf(),
            args: Vec::new(),
        }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Stage {
        self.args.push(arg.into());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Stage {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args)
            // Its own process group: cancel signals the stage and whatever it started.
            .process_group(0)
            // Never the MCP channel: stdin and stdout of qa-mcp carry JSON-RPC.
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }
}

/// `upstream[0] | upstream[1] | ... | (qa-mcp reads) | report`.
#[derive(Debug, Clone)]
pub struct Chain {
    pub upstream: Vec<Stage>,
    pub report: Stage,
    /// Whether cancel signals qa-report too (a change or acceptance report is then
    /// written marked cancelled).
    pub signal_report: bool,
}

/// How one stage ended.
#[derive(Debug, Clone)]
pub struct Ending {
    pub name: &'static str,
    /// The exit code, or 128 + the signal that ended it.
    pub code: i32,
    /// The start of its stderr.
    pub stderr: String,
}

/// What a chain produced.
#[derive(Debug)]
pub struct Outcome {
    /// Each stage in order, qa-report last.
    pub endings: Vec<Ending>,
    pub report_stdout: Vec<u8>,
    pub observed: Observed,
}

impl Outcome {
    /// qa-report's ending.
    pub fn report(&self) -> &Ending {
        self.endings.last().expect("a chain ends with qa-report")
    }

    /// The first upstream stage that failed as the shell pipelines treat a failure (usage,
    /// data, not found, unavailable, internal, I/O), as acceptance.sh picks it.
    pub fn failed_stage(&self) -> Option<&Ending> {
        let n = self.endings.len().saturating_sub(1);
        self.endings[..n]
            .iter()
            .find(|e| matches!(e.code, 64 | 65 | 66 | 69 | 70 | 74))
    }
}

/// Progress sent while the stream flows: records so far and the stage that wrote the last.
#[derive(Debug, Clone)]
pub struct Progress {
    pub records: u64,
    pub stage: String,
}

/// A stage started, with the thread reading its stderr.
struct Started {
    name: &'static str,
    child: Child,
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// qa-report's stdout, read while it runs so it never blocks on a full pipe.
    stdout: Option<JoinHandle<Vec<u8>>>,
}

impl Chain {
    /// Runs the chain to its end (blocking), reporting progress on `progress`.
    pub fn run(
        &self,
        run: &Run,
        progress: &dyn Fn(Progress),
        observed: Observed,
    ) -> anyhow::Result<Outcome> {
        let mut started: Vec<Started> = Vec::with_capacity(self.upstream.len() + 1);
        let result = self.start_and_tap(run, progress, observed, &mut started);
        // Whatever happened, no stage is left behind: a chain that could not start whole
        // is signalled, and every started stage waited for.
        if result.is_err() {
            run.cancel();
        }
        let mut endings = Vec::with_capacity(started.len());
        let mut report_stdout = Vec::new();
        for mut s in started {
            let status = s
                .child
                .wait()
                .with_context(|| format!("waiting for {}", s.name))?;
            run.remove_group(s.child.id());
            let code = status
                .code()
                .or_else(|| status.signal().map(|sig| 128 + sig))
                .unwrap_or(-1);
            let stderr = s
                .stderr
                .take()
                .and_then(|h| h.join().ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            endings.push(Ending {
                name: s.name,
                code,
                stderr,
            });
            if let Some(h) = s.stdout.take() {
                report_stdout = h.join().unwrap_or_default();
            }
        }
        let observed = result?;
        Ok(Outcome {
            endings,
            report_stdout,
            observed,
        })
    }

    fn start_and_tap(
        &self,
        run: &Run,
        progress: &dyn Fn(Progress),
        mut observed: Observed,
        started: &mut Vec<Started>,
    ) -> anyhow::Result<Observed> {
        let mut previous: Option<std::process::ChildStdout> = None;
        for stage in &self.upstream {
            let mut command = stage.command();
            if let Some(out) = previous.take() {
                command.stdin(Stdio::from(out));
            }
            let mut child = spawn(&mut command, stage)?;
            run.add_group(child.id(), true);
            previous = child.stdout.take();
            let stderr = child.stderr.take().map(drain_stderr);
            started.push(Started {
                name: stage.name,
                child,
                stderr,
                stdout: None,
            });
        }
        let mut command = self.report.command();
        command.stdin(Stdio::piped());
        let mut report = spawn(&mut command, &self.report)?;
        run.add_group(report.id(), self.signal_report);
        let report_in = report.stdin.take();
        let stderr = report.stderr.take().map(drain_stderr);
        let stdout = report
            .stdout
            .take()
            .map(|out| std::thread::spawn(move || read_kept(out, REPORT_KEPT)));
        started.push(Started {
            name: self.report.name,
            child: report,
            stderr,
            stdout,
        });
        let stream = previous.context("the chain has no upstream stage")?;
        tap(stream, report_in, run, progress, &mut observed)?;
        Ok(observed)
    }
}

fn spawn(command: &mut Command, stage: &Stage) -> anyhow::Result<Child> {
    command
        .spawn()
        .with_context(|| format!("starting {} ({})", stage.name, stage.program.display()))
}

/// Copies the stream from the last upstream stage into qa-report, line by line, noting
/// each record. A qa-report that stopped reading ends the copying, not the reading.
///
/// What was read is passed on before the tap waits for more, as a shell pipe would: a
/// record held back while a slow stage works would reach qa-report only at the stream's
/// end, and a cancel then leaves it nothing to report.
fn tap(
    stream: impl Read,
    report_in: Option<impl std::io::Write>,
    run: &Run,
    progress: &dyn Fn(Progress),
    observed: &mut Observed,
) -> anyhow::Result<()> {
    let mut reader = BufReader::with_capacity(64 * 1024, stream);
    let mut writer = report_in.map(|w| BufWriter::with_capacity(64 * 1024, w));
    let mut line = Vec::with_capacity(4096);
    let mut stage = String::new();
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .context("reading the stream between the stages")?;
        if n == 0 {
            break;
        }
        if let Some(by) = observed.note(&line) {
            let records = observed.records;
            let changed = by.as_ref() != stage.as_str();
            if changed {
                stage.clear();
                stage.push_str(&by);
                run.set_stage(&stage);
            }
            if changed || records.is_multiple_of(PROGRESS_EVERY) {
                run.set_records(records);
                progress(Progress {
                    records,
                    stage: stage.clone(),
                });
            }
        }
        if let Some(w) = writer.as_mut() {
            let idle = reader.buffer().is_empty();
            if w.write_all(&line)
                .and_then(|()| if idle { w.flush() } else { Ok(()) })
                .is_err()
            {
                writer = None;
            }
        }
    }
    if let Some(mut w) = writer {
        let _ = w.flush();
    }
    run.set_records(observed.records);
    run.set_stage("qa-report");
    progress(Progress {
        records: observed.records,
        stage: "qa-report".to_string(),
    });
    Ok(())
}

/// Reads a stage's stderr on a thread of its own, keeping its start.
fn drain_stderr(err: std::process::ChildStderr) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || read_kept(err, STDERR_KEPT))
}

/// The first `limit` bytes of `r`, reading (and dropping) the rest to its end.
fn read_kept(mut r: impl Read, limit: u64) -> Vec<u8> {
    let mut kept = Vec::new();
    let _ = r.by_ref().take(limit).read_to_end(&mut kept);
    let _ = std::io::copy(&mut r, &mut std::io::sink());
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A record the upstream wrote reaches qa-report while the upstream is still running
    /// (a stage holding the stream open, as a slow qa-trace does), not at the stream's end.
    #[test]
    fn a_record_is_passed_on_before_the_upstream_ends() {
        let (upstream_out, mut upstream_in) = std::io::pipe().unwrap();
        let (report_out, report_in) = std::io::pipe().unwrap();
        let board = Board::default();
        let run = board
            .begin("change_report", "t".into(), None, "qa-diff")
            .unwrap();
        let tapping = std::thread::spawn(move || {
            let mut observed = Observed::default();
            tap(upstream_out, Some(report_in), &run, &|_| {}, &mut observed).unwrap();
            observed.records
        });
        let (got, arrived) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let mut reader = std::io::BufReader::new(report_out);
            reader.read_line(&mut line).unwrap();
            got.send(line).unwrap();
        });
        let record = "{\"kind\":\"range\",\"by\":\"qa-diff\"}\n";
        upstream_in.write_all(record.as_bytes()).unwrap();
        upstream_in.flush().unwrap();
        // A liveness bound, not a speed one: the held-back record would never arrive while
        // the upstream stays open.
        let line = arrived.recv_timeout(Duration::from_secs(30));
        drop(upstream_in);
        assert_eq!(line.as_deref(), Ok(record));
        assert_eq!(tapping.join().unwrap(), 1);
    }
}
