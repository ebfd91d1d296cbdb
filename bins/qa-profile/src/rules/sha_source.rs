//! `environments.*.sha_source`: how the deployed build is read (a URL and exactly one of
//! a JSON dot path or a regex with a capture group) and whether it names a commit.

use serde_json::Value;

use crate::findings::Findings;
use crate::jsregex::{self, Case};
use crate::jsvalue::{is_http_url, object, text};
use crate::vocab::{self, ShaFormat, Vocabulary};

pub(super) fn check(env_at: &str, source: Option<&Value>, f: &mut Findings) {
    let at = format!("{env_at}.sha_source");
    let Some(source) = object(source) else {
        f.error(
            at,
            "required. A deployed build that cannot be read cannot be published.",
        );
        return;
    };
    if !is_http_url(source.get("url")) {
        f.error(format!("{at}.url"), "required, must be an http(s) URL");
    }
    let format = vocab::read::<ShaFormat>(source.get("format"));
    if source.contains_key("format") && format.is_none() {
        f.error(
            format!("{at}.format"),
            format!("must be {} (default: commit)", ShaFormat::choices()),
        );
    }
    if format == Some(ShaFormat::BuildId) {
        f.warn(
            format!("{at}.format"),
            "build-id identifies the deployed bundle but not the commit, so a verdict cannot be traced to source without your release records; with code splitting, a deploy that changes only a lazy chunk may go undetected. Prefer a commit once the environment can serve one.",
        );
    }
    let json_path = text(source.get("json_path"));
    let regex = text(source.get("regex"));
    if json_path.is_some() == regex.is_some() {
        f.error(at.as_str(), "set exactly one of json_path | regex");
    }
    if let Some(regex) = regex {
        match jsregex::capture_groups(regex) {
            Ok(0) => f.error(
                format!("{at}.regex"),
                "must contain one capture group around the build identifier",
            ),
            Ok(_) => {}
            Err(why) => f.error(
                format!("{at}.regex"),
                format!("not a valid regular expression: {why}"),
            ),
        }
        // qa-fetch matches it against whatever the deployed server sends.
        jsregex::warn_if_slow(&format!("{at}.regex"), regex, Case::Sensitive, f);
    }
}
