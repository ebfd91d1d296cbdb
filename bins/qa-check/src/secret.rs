//! Redaction of the `--auth-env` token and of the `--browser-endpoint` URL's path from what
//! qa-check writes (the token type itself is shared: `qa_records::secret`).

use std::borrow::Cow;

use qa_records::acceptance::ObservationData;

use crate::endpoint::BrowserEndpoint;
pub use qa_records::secret::{redact, Secret};

/// Redacts every text field of an observation in place: the last line of defence before
/// a record is written (excerpts are redacted before they are cut, see `excerpt`).
pub fn redact_observation(
    token: Option<&Secret>,
    endpoint: Option<&BrowserEndpoint>,
    observation: &mut ObservationData,
) {
    if token.is_none() && endpoint.is_none() {
        return;
    }
    let fields = [
        Some(&mut observation.expected),
        Some(&mut observation.observed),
        observation.reason.as_mut(),
        observation.evidence.excerpt.as_mut(),
        observation.evidence.url.as_mut(),
        observation.evidence.path.as_mut(),
    ];
    let interface = observation.evidence.interface.as_mut();
    let interface_fields = interface
        .map(|i| {
            [
                Some(&mut i.endpoint),
                i.reply_excerpt.as_mut(),
                i.observe.as_mut(),
                i.closed.as_mut(),
            ]
        })
        .into_iter()
        .flatten();
    for field in fields.into_iter().chain(interface_fields).flatten() {
        if let Some(Cow::Owned(clean)) = token.map(|secret| secret.redact(field)) {
            *field = clean;
        }
        if let Some(Cow::Owned(clean)) = endpoint.map(|endpoint| endpoint.redact(field)) {
            *field = clean;
        }
    }
}
