//! `assertions` and `evidence`: what specs may assert on, and how much a run keeps.

use super::{production, Scope};
use crate::findings::Findings;
use crate::jsvalue::{display, object};
use crate::vocab::{self, AssertionStyle, Capture, EvidenceExtra, NetworkEvents, Vocabulary};

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let network_forbidden = assertions(scope, f);
    let extra_empty = extra(scope, f);
    capture(scope, f);
    if network_forbidden && extra_empty {
        f.warn(
            "evidence.extra",
            "empty while network assertions are forbidden, so failures will be video-only and hard to triage",
        );
    }
}

/// Checks `assertions`; true when network assertions are forbidden.
fn assertions(scope: &Scope, f: &mut Findings) -> bool {
    let Some(assertions) = object(scope.raw.get("assertions")) else {
        f.error("assertions", "required");
        return false;
    };
    let network = vocab::read::<NetworkEvents>(assertions.get("network_events"));
    if network.is_none() {
        f.error(
            "assertions.network_events",
            format!("required, one of {}", NetworkEvents::choices()),
        );
    }
    let style = vocab::read::<AssertionStyle>(assertions.get("style"));
    if style.is_none() {
        f.error(
            "assertions.style",
            format!("required, one of {}", AssertionStyle::choices()),
        );
    }
    let forbidden = network == Some(NetworkEvents::Forbidden);
    if forbidden && style != Some(AssertionStyle::UiState) {
        f.error(
            "assertions.style",
            "must be ui-state when network_events is forbidden",
        );
    }
    forbidden
}

/// Checks `evidence` and `evidence.extra`; true when no extra evidence is listed.
fn extra(scope: &Scope, f: &mut Findings) -> bool {
    let Some(evidence) = scope.raw.get("evidence") else {
        return true;
    };
    let Some(evidence) = evidence.as_object() else {
        f.error("evidence", "must be a mapping when set");
        return true;
    };
    let Some(extra) = evidence.get("extra") else {
        return true;
    };
    let Some(extra) = extra.as_array() else {
        f.error("evidence.extra", "must be a list");
        return true;
    };
    for item in extra {
        if vocab::read::<EvidenceExtra>(Some(item)).is_none() {
            f.error(
                "evidence.extra",
                format!(
                    "unknown value \"{}\" (allowed: {})",
                    display(item),
                    EvidenceExtra::NAMES.join(", ")
                ),
            );
        }
    }
    extra.is_empty()
}

/// Checks `evidence.capture` (absent or empty: always) and warns about thin modes.
fn capture(scope: &Scope, f: &mut Findings) {
    let declared = object(scope.raw.get("evidence"))
        .and_then(|e| e.get("capture"))
        .filter(|v| !v.is_null());
    let capture = match declared {
        None => Capture::Always,
        Some(v) => match vocab::read::<Capture>(Some(v)) {
            Some(c) => c,
            None => {
                f.error(
                    "evidence.capture",
                    format!("must be one of {} (default: always)", Capture::choices()),
                );
                return;
            }
        },
    };
    match capture {
        Capture::Always => {}
        Capture::OnFailure => f.warn(
            "evidence.capture",
            "on-failure keeps no evidence for passing cases, so QA cannot sample passes and a false pass becomes undetectable; consider always for P0 work",
        ),
        Capture::Off => f.warn(
            "evidence.capture",
            "off captures nothing, so no run can be published. Use it only while iterating on specs locally.",
        ),
    }
    production::capture(scope, capture, f);
}
