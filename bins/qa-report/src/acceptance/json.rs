//! The JSON acceptance report (report.json, and stdout with --format json): one
//! pretty-printed object with the verdict, the plan and targets, every criterion with its
//! source, checks, routes and observations (whole evidence), recaptures and report paths.

use super::folder::ReportPaths;
use super::model::CriterionView;
use super::screenshots::{self, Carried};
use super::View;
use crate::model::Linked;
use qa_records::acceptance::{
    CriterionStatus, PlanData, TargetData, TargetVerifyData, VerdictData,
};
use serde::Serialize;

/// Names this document's shape, so a reader can tell versions apart.
pub const FORMAT: &str = "qapipe.acceptance-report/v1";

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    verdict: Verdict<'a>,
    plan: &'a Option<Linked<PlanData>>,
    targets: &'a [Linked<TargetData>],
    criteria: Vec<Criterion<'a>>,
    verifies: &'a [Linked<TargetVerifyData>],
    /// The production environment and the profile's test-account attestation, if any.
    production: &'a Option<super::model::Production>,
    builds: &'a [Linked<qa_records::acceptance::BuildData>],
    build_verifies: &'a [Linked<qa_records::acceptance::BuildVerifyData>],
    diagnostics: &'a [crate::model::DiagView],
    neutralized: u64,
    /// Null when no run folder was written.
    reports: Option<&'a ReportPaths>,
    /// What became of each screenshot the observations name, by SHA-256.
    screenshots: Vec<Screenshot<'a>>,
}

#[derive(Serialize)]
struct Screenshot<'a> {
    sha256: &'a str,
    /// `screenshots/<sha256>.png` in the run folder; null when not copied.
    file: Option<String>,
    /// Why it was not copied; null when it was.
    refused: Option<&'a str>,
}

#[derive(Serialize)]
struct Verdict<'a> {
    /// The `verdict` record's id in records.ndjson.
    id: &'a str,
    exit: u8,
    #[serde(flatten)]
    data: &'a VerdictData,
}

#[derive(Serialize)]
struct Criterion<'a> {
    status: CriterionStatus,
    reasons: &'a [String],
    #[serde(flatten)]
    view: &'a CriterionView,
}

/// The report as one JSON object, ending with a newline.
pub fn render(view: &View<'_>) -> String {
    let document = Document {
        format: FORMAT,
        verdict: Verdict {
            id: view.verdict_id,
            exit: view.verdict.exit.code(),
            data: &view.verdict.data,
        },
        plan: &view.report.plan,
        targets: &view.report.targets,
        criteria: view
            .criteria()
            .map(|(c, o)| Criterion {
                status: o.status,
                reasons: &o.reasons,
                view: c,
            })
            .collect(),
        verifies: &view.report.verifies,
        production: &view.report.production,
        builds: &view.report.builds,
        build_verifies: &view.report.build_verifies,
        diagnostics: &view.report.diagnostics,
        neutralized: view.report.neutralized,
        reports: view.paths,
        screenshots: view
            .screenshots
            .all()
            .map(|(sha256, carried)| match carried {
                Carried::Verified(_) => Screenshot {
                    sha256,
                    file: view.paths.map(|_| screenshots::file(sha256)),
                    refused: None,
                },
                Carried::Refused(why) => Screenshot {
                    sha256,
                    file: None,
                    refused: Some(why),
                },
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&document)
        .expect("a report holds only strings, integers, booleans and enums");
    s.push('\n');
    s
}
