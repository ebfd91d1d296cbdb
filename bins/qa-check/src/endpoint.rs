//! `--browser-endpoint`: the WebSocket URL of a running Playwright browser server, whose
//! path is its secret (anyone holding the whole URL can drive that browser), so it is
//! shown and recorded only with the path redacted.

use std::borrow::Cow;
use std::fmt;

use qa_records::secret::REDACTED;

/// A Playwright browser server's `ws://` or `wss://` URL (`chromium.launchServer()`'s
/// `wsEndpoint()`).
#[derive(Clone, PartialEq, Eq)]
pub struct BrowserEndpoint {
    url: String,
    /// Where the path starts in `url`: everything from there on is the secret.
    path_at: usize,
}

impl BrowserEndpoint {
    /// The endpoint `url`, or why it is not one (the message never holds the path).
    pub fn parse(url: &str) -> Result<BrowserEndpoint, String> {
        let rest = ["ws://", "wss://"]
            .iter()
            .find_map(|scheme| url.strip_prefix(scheme).map(|rest| (scheme, rest)));
        let Some((scheme, rest)) = rest else {
            return Err("--browser-endpoint: not a ws:// or wss:// URL".to_string());
        };
        let authority = rest.find(['/', '?', '#']).map_or(rest, |end| &rest[..end]);
        if authority.is_empty() || authority.chars().any(char::is_whitespace) {
            return Err(format!(
                "--browser-endpoint {scheme}{REDACTED}: the URL names no host"
            ));
        }
        Ok(BrowserEndpoint {
            url: url.to_string(),
            path_at: scheme.len() + authority.len(),
        })
    }

    /// The URL itself, for the driver that connects to it: never for a message or record.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// `text` with every occurrence of the URL's path replaced by `/[redacted]`.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let path = &self.url[self.path_at..];
        // A bare `/` (or nothing) is no secret, and replacing it would mangle every path.
        if path.len() <= 1 || !text.contains(path) {
            return Cow::Borrowed(text);
        }
        Cow::Owned(text.replace(path, &format!("/{REDACTED}")))
    }
}

/// The URL with its path redacted: what messages show.
impl fmt::Display for BrowserEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redact(&self.url))
    }
}

/// As [`fmt::Display`]: a debug print of the settings must not leak the path either.
impl fmt::Debug for BrowserEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BrowserEndpoint({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "ws://127.0.0.1:41234/6f1c0e2a9b7d4c3e8f5a";

    #[test]
    fn a_ws_url_is_an_endpoint_shown_without_its_path() {
        let endpoint = BrowserEndpoint::parse(URL).unwrap();
        assert_eq!(endpoint.url(), URL);
        assert_eq!(endpoint.to_string(), "ws://127.0.0.1:41234/[redacted]");
        assert!(!format!("{endpoint:?}").contains("6f1c0e2a"));
    }

    #[test]
    fn a_wss_url_is_an_endpoint_too() {
        let endpoint = BrowserEndpoint::parse("wss://browsers.example:443/secret-path").unwrap();
        assert_eq!(
            endpoint.to_string(),
            "wss://browsers.example:443/[redacted]"
        );
    }

    #[test]
    fn the_path_is_redacted_wherever_a_message_repeats_it() {
        let endpoint = BrowserEndpoint::parse(URL).unwrap();
        let said = format!(
            "browserType.connect: connecting to {URL} failed (path {})",
            &URL[20..]
        );
        let clean = endpoint.redact(&said);
        assert!(!clean.contains("6f1c0e2a9b7d4c3e8f5a"), "{clean}");
        assert!(clean.contains("ws://127.0.0.1:41234/[redacted]"), "{clean}");
    }

    #[test]
    fn text_without_the_path_is_left_as_it_is() {
        let endpoint = BrowserEndpoint::parse(URL).unwrap();
        assert!(matches!(
            endpoint.redact("the page / loaded"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn an_endpoint_without_a_path_redacts_nothing() {
        let endpoint = BrowserEndpoint::parse("ws://127.0.0.1:9222/").unwrap();
        assert_eq!(
            endpoint.redact("GET / at ws://127.0.0.1:9222/"),
            "GET / at ws://127.0.0.1:9222/"
        );
    }

    #[test]
    fn other_schemes_are_refused_without_echoing_the_url() {
        for url in ["http://127.0.0.1:1/secret", "127.0.0.1:1/secret", ""] {
            let why = BrowserEndpoint::parse(url).unwrap_err();
            assert!(!why.contains("secret"), "{why}");
        }
    }

    #[test]
    fn a_url_without_a_host_is_refused_without_echoing_its_path() {
        let why = BrowserEndpoint::parse("ws:///secret").unwrap_err();
        assert!(
            why.contains("names no host") && !why.contains("secret"),
            "{why}"
        );
    }
}
