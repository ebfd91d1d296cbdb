//! Acceptance plans (`.qa-acceptance.json`): reading one, checking it with errors that name
//! their JSON pointer, resolving each criterion's source inside the repository, and writing
//! the `plan`, `target.spec`, `criterion` and `check.spec` records.

mod json;
mod shape;
mod sources;

use std::collections::HashMap;
use std::fmt;
use std::io::{Read as _, Write};
use std::path::Path;

use anyhow::Result;
use qa_records::acceptance::{CheckSpecData, CriterionData, PlanData, SourceKind, TargetSpec};
use qa_records::envelope::Src;
use qa_records::exit::{failure, Exit};
use qa_records::hash::sha256_hex;
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};

use crate::BY;
pub use sources::Root;

/// The largest plan file, and the largest source file, read (4 MiB).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// What is wrong with a plan, and where: `pointer` is the JSON pointer of the offending
/// value (None when the file is not JSON at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    pub pointer: Option<String>,
    pub message: String,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pointer {
            Some(pointer) if pointer.is_empty() => write!(f, "/: {}", self.message),
            Some(pointer) => write!(f, "{pointer}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PlanError {}

/// A checked plan with its sources read: ready to be written as records.
#[derive(Debug)]
pub struct Plan {
    /// The plan path as given on the command line.
    pub path: String,
    /// SHA-256 of the plan file's bytes.
    pub sha256: String,
    pub target: TargetSpec,
    pub criteria: Vec<CriterionData>,
    pub checks: Vec<CheckSpecData>,
    /// Sources whose file or quote is missing: not plan errors, but worth a line on stderr.
    pub warnings: Vec<String>,
}

/// Reads the plan at `path` (as given, relative to the working directory) and resolves
/// its sources under `root`. A missing plan is exit 66; an invalid one is exit 65 with
/// one line `PATH: POINTER: MESSAGE`.
pub fn load(path: &Path, root: &Root) -> Result<Plan> {
    let shown = path.display().to_string();
    let bytes = read(path, &shown)?;
    from_bytes(&shown, &bytes, root).map_err(|e| failure(Exit::DataErr, format!("{shown}: {e}")))
}

/// Checks the plan `bytes` (named `shown`) and resolves its sources under `root`.
pub fn from_bytes(shown: &str, bytes: &[u8], root: &Root) -> Result<Plan, PlanError> {
    let declared = shape::parse(bytes)?;
    let mut warnings = Vec::new();
    let mut criteria = Vec::with_capacity(declared.criteria.len());
    for criterion in declared.criteria {
        let source = root.resolve(&criterion.source, &criterion.at, shown, &mut warnings)?;
        criteria.push(CriterionData {
            inferred: source.kind == SourceKind::Inferred,
            id: criterion.id,
            expected: criterion.expected,
            source,
        });
    }
    Ok(Plan {
        path: shown.to_string(),
        sha256: sha256_hex(bytes),
        target: declared.target,
        criteria,
        checks: declared.checks,
        warnings,
    })
}

/// The plan file's bytes, at most [`MAX_FILE_BYTES`]. Only a regular file is opened: a
/// FIFO would block the stage until a writer came, a device would never end.
fn read(path: &Path, shown: &str) -> Result<Vec<u8>> {
    let not_read = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => {
            failure(Exit::NoInput, format!("{shown}: no such plan file"))
        }
        _ => failure(Exit::NoInput, format!("{shown}: {e}")),
    };
    let meta = std::fs::metadata(path).map_err(not_read)?;
    if !meta.is_file() {
        return Err(failure(
            Exit::DataErr,
            format!("{shown} is {}, not a plan file", not_regular(&meta)),
        ));
    }
    let file = std::fs::File::open(path).map_err(not_read)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| failure(Exit::DataErr, format!("{shown}: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(failure(
            Exit::DataErr,
            format!("{shown}: larger than the 4 MiB plan limit"),
        ));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for messages: `a directory`, `a FIFO`...
fn not_regular(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let file_type = meta.file_type();
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

impl Plan {
    /// Writes `plan`, `target.spec`, one `criterion` per criterion and one `check.spec` per
    /// check, in plan order.
    /// Resolves a target that names a profile environment's app to that app's URL, from
    /// the `profile` record forwarded before the plan. Bad input (exit 65) when the stream
    /// has no profile or the profile has no such environment or app.
    pub fn resolve_target(&mut self, profile: Option<&serde_json::Value>) -> Result<()> {
        let (Some(env), Some(app)) = (self.target.env.clone(), self.target.app.clone()) else {
            return Ok(());
        };
        let here = format!("{}: /target", self.path);
        let profile = profile.ok_or_else(|| {
            failure(
                Exit::DataErr,
                format!("{here}: names environment {env}: pass the profile first (qa-profile PROFILE --ndjson | qa-intent --plan PLAN --in -)"),
            )
        })?;
        let url = profile
            .get("environments")
            .and_then(|e| e.get(&env))
            .ok_or_else(|| {
                failure(
                    Exit::DataErr,
                    format!("{here}: the profile has no environment `{env}`"),
                )
            })?
            .get("apps")
            .and_then(|a| a.get(&app))
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| {
                failure(
                    Exit::DataErr,
                    format!("{here}: environment `{env}` has no app `{app}`"),
                )
            })?;
        self.target.value = url.to_string();
        Ok(())
    }

    pub fn write<W: Write>(&self, out: &mut RecordWriter<W>) -> Result<()> {
        let src = Src::from([("plan.sha256".to_string(), self.sha256.clone())]);
        let plan = Record::new(
            Kind::Plan,
            BY,
            Vec::new(),
            src,
            PlanData {
                path: self.path.clone(),
                sha256: self.sha256.clone(),
                target: self.target.clone(),
                criteria: count(self.criteria.len()),
                checks: count(self.checks.len()),
            },
        )?;
        out.write(&plan)?;
        let from_plan = vec![plan.id.clone()];
        out.write(&Record::new(
            Kind::TargetSpec,
            BY,
            from_plan.clone(),
            Src::new(),
            &self.target,
        )?)?;
        let mut criterion_ids = HashMap::with_capacity(self.criteria.len());
        for criterion in &self.criteria {
            let src = criterion
                .source
                .sha256
                .iter()
                .map(|sha| ("source.sha256".to_string(), sha.clone()))
                .collect();
            let record = Record::new(Kind::Criterion, BY, from_plan.clone(), src, criterion)?;
            out.write(&record)?;
            criterion_ids.insert(criterion.id.as_str(), record.id);
        }
        for check in &self.checks {
            // The shape check guarantees every check names a criterion of the plan.
            let criterion = criterion_ids
                .get(check.criterion.as_str())
                .ok_or_else(|| anyhow::anyhow!("check `{}` names no criterion", check.id))?;
            out.write(&Record::new(
                Kind::CheckSpec,
                BY,
                vec![plan.id.clone(), criterion.clone()],
                Src::new(),
                check,
            )?)?;
        }
        Ok(())
    }
}

/// A count for a record; plans hold far fewer than 2^32 items (the file is at most 4 MiB).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
