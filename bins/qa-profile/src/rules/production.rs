//! What `kind: production` demands: a named, restricted test account, local evidence,
//! full capture and a write guard with signatures; and which URLs look like production.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::Scope;
use crate::findings::Findings;
use crate::jsvalue::{js_len, trim};
use crate::vocab::{Capture, EnvKind, EvidenceUpload};

/// The shortest test_account description accepted, in characters after trimming.
pub const TEST_ACCOUNT_MIN: usize = 20;

/// The per-environment production rules: `test_account` and `evidence_upload`.
pub(super) fn environment(
    at: &str,
    env: &Map<String, Value>,
    kind: Option<EnvKind>,
    upload: Option<EvidenceUpload>,
    f: &mut Findings,
) {
    let account = env.get("test_account");
    let long_enough = account
        .and_then(Value::as_str)
        .is_some_and(|s| js_len(trim(s)) >= TEST_ACCOUNT_MIN);
    if kind == Some(EnvKind::Production) {
        if !long_enough {
            f.error(
                format!("{at}.test_account"),
                format!("required on a production environment, at least {TEST_ACCOUNT_MIN} characters after trimming. Name the account the runs use and how it is restricted (its own tenant, no admin rights, no billing): it is the real boundary, the write guard is the second layer."),
            );
        }
    } else if account.is_some() && !long_enough {
        // A null (`test_account:` left empty) is present, and not a string.
        f.error(
            format!("{at}.test_account"),
            format!("at least {TEST_ACCOUNT_MIN} characters after trimming when present"),
        );
    }
    if kind == Some(EnvKind::Production) {
        if let Some(v @ (EvidenceUpload::Tracker | EvidenceUpload::Reference)) = upload {
            f.error(
                format!("{at}.evidence_upload"),
                format!("{} is refused on a production environment: its traces carry the session credential and every request body they touched, so production evidence stays local", v.as_str()),
            );
        }
    }
}

/// Production needs every pass evidenced: `evidence.capture` must be always.
pub(super) fn capture(scope: &Scope, capture: Capture, f: &mut Findings) {
    if scope.has_production && capture != Capture::Always {
        let got = capture.as_str();
        f.error(
            "evidence.capture",
            format!("must be always when any environment has kind production (got {got}). On production a pass is the claim most worth checking, and {got} keeps nothing for passes."),
        );
    }
}

/// Production needs a write guard that knows what a write is: a `mutation` block with at
/// least one write signature. This half: the block is missing.
pub(super) fn mutation_required(scope: &Scope, f: &mut Findings) {
    if scope.has_production {
        f.error(
            "mutation",
            "required when any environment has kind production, with at least one write_signatures entry, so the write guard knows what a write looks like on this host",
        );
    }
}

/// The write-signature half of [`mutation_required`], when the block exists but lists none.
pub(super) fn write_signatures_required(scope: &Scope, f: &mut Findings) {
    if scope.has_production {
        f.error(
            "mutation.write_signatures",
            "at least one entry is required when any environment has kind production",
        );
    }
}

/// True when `url` looks like production to a person reading it: an apex domain, or a
/// host with a prod, production or live label that does not start with a pre-production
/// label (qa, staging, dev, test, uat, ...). Only ever a warning: the declared kind wins.
pub fn looks_like_production(url: &str) -> bool {
    static PATTERN: OnceLock<regress::Regex> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            let labelled = r"^https?:\/\/(www\.)?(?!(qa|staging|stage|stg|test|testing|dev|develop|development|uat|sandbox|preview|demo|local)[.-])[^/]*\b(prod|production|live)\b[^/]*\/?";
            let apex = r"^https?:\/\/(www\.)?[a-z0-9-]+\.(com|io|app|net|org|co|ai|dev)\/?$";
            regress::Regex::with_flags(&format!("{labelled}|{apex}"), "i")
                .expect("the production-host pattern compiles")
        })
        .find(url)
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apex_domains_and_production_labels_look_like_production() {
        for url in [
            "https://example.com",
            "https://www.example.com/",
            "https://shop.io",
            "https://prod.example.com",
            "https://app-production.example.com/x",
            "https://live.example.com",
            "https://eu.prod.example.com",
        ] {
            assert!(looks_like_production(url), "{url}");
        }
    }

    #[test]
    fn pre_production_labels_and_plain_subdomains_do_not() {
        for url in [
            "https://qa.example.com",
            "https://staging.example.com",
            "https://dev.prod-like.example.com",
            "https://test-live.example.com",
            "https://app.example.com",
            "https://example.com/products",
            "http://localhost:3000",
            "https://liveliness.example.org/x",
        ] {
            assert!(!looks_like_production(url), "{url}");
        }
    }
}
