//! The bearer token named by `--auth-env`: read once from the environment, sent only as an
//! `Authorization` header, and redacted from every text that could leave the process, in
//! every form a server could say it back in (as sent, trimmed, percent-encoded).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use anyhow::Result;

use crate::exit::{failure, Exit};

/// What a redacted token is replaced with.
pub const REDACTED: &str = "[redacted]";

/// A token value. Its Debug form never shows the value.
#[derive(Clone)]
pub struct Secret {
    value: Arc<str>,
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl Secret {
    /// The value of the environment variable `name`. Unset, empty, unusable as a header
    /// value (control characters, non-ASCII), or starting or ending with a space (a server
    /// trims the header, so the token would come back in another form than the one given)
    /// is a usage error that names the variable, never the value.
    pub fn from_env(name: &str) -> Result<Secret> {
        Secret::checked(name, std::env::var(name))
    }

    /// [`from_env`](Self::from_env) on `read`, the variable's value as read.
    fn checked(name: &str, read: Result<String, std::env::VarError>) -> Result<Secret> {
        let value = read.map_err(|e| {
            let why = match e {
                std::env::VarError::NotPresent => "is not set",
                std::env::VarError::NotUnicode(_) => "is not valid UTF-8",
            };
            failure(
                Exit::Usage,
                format!("--auth-env {name}: the environment variable {name} {why}"),
            )
        })?;
        if value.is_empty() {
            return Err(failure(
                Exit::Usage,
                format!("--auth-env {name}: the environment variable {name} is empty"),
            ));
        }
        if !value.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
            return Err(failure(
                Exit::Usage,
                format!("--auth-env {name}: the value of {name} is not usable in an HTTP header (printable ASCII only)"),
            ));
        }
        if value.starts_with(' ') || value.ends_with(' ') {
            return Err(failure(
                Exit::Usage,
                format!("--auth-env {name}: the value of {name} starts or ends with a space, which a server would trim: remove it"),
            ));
        }
        Ok(Secret {
            value: value.into(),
        })
    }

    /// The `Authorization` header value.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.value)
    }

    /// `text` with every occurrence of the token, in any of its [`forms`](Self::forms),
    /// replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut redacted = Cow::Borrowed(text);
        for form in self.forms() {
            if redacted.contains(form.as_str()) {
                redacted = Cow::Owned(redacted.replace(form.as_str(), REDACTED));
            }
        }
        redacted
    }

    /// The token as it may come back from a server, longest first: as sent, trimmed (a
    /// server reads a header value without its surrounding whitespace), and
    /// percent-encoded as in a URL (`%20` or `+` for a space, either hex case).
    fn forms(&self) -> Vec<String> {
        let mut forms = Vec::new();
        for value in [&*self.value, self.value.trim()] {
            forms.push(value.to_string());
            forms.push(percent_encoded(value, false, "%20"));
            forms.push(percent_encoded(value, true, "%20"));
            forms.push(percent_encoded(value, false, "+"));
        }
        forms.retain(|form| !form.is_empty());
        forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        forms
    }
}

/// `value` with every byte but RFC 3986's unreserved ones as `%XX` (`lower` hex digits
/// or upper), a space as `space`.
fn percent_encoded(value: &str, lower: bool, space: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b' ' => out.push_str(space),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(byte))
            }
            _ if lower => out.push_str(&format!("%{byte:02x}")),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Redacts `text` when there is a token.
pub fn redact<'a>(token: Option<&Secret>, text: &'a str) -> Cow<'a, str> {
    match token {
        Some(secret) => secret.redact(text),
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(value: &str) -> Secret {
        Secret {
            value: value.into(),
        }
    }

    #[test]
    fn every_occurrence_is_replaced() {
        let s = secret("tok-123");
        assert_eq!(s.redact("a tok-123 b tok-123"), "a [redacted] b [redacted]");
    }

    #[test]
    fn text_without_the_token_is_kept_as_is() {
        assert!(matches!(
            secret("tok-123").redact("tok-12 only"),
            Cow::Borrowed("tok-12 only")
        ));
    }

    #[test]
    fn the_trimmed_form_a_server_reads_is_replaced_too() {
        let s = secret(" spaced tok-123 ");
        assert_eq!(
            s.redact("x-build-id: spaced tok-123"),
            "x-build-id: [redacted]"
        );
        assert_eq!(s.redact("< spaced tok-123 >"), "<[redacted]>");
    }

    #[test]
    fn percent_encoded_forms_are_replaced_in_either_hex_case_and_with_a_plus() {
        let s = secret("a b/c=");
        for text in ["?t=a%20b%2Fc%3D", "?t=a%20b%2fc%3d", "?t=a+b%2Fc%3D"] {
            assert_eq!(s.redact(text), "?t=[redacted]", "{text}");
        }
    }

    #[test]
    fn a_token_without_characters_to_encode_has_one_form() {
        assert_eq!(secret("tok-123").forms(), ["tok-123"]);
    }

    #[test]
    fn a_value_with_a_leading_or_trailing_space_is_a_usage_error_not_showing_it() {
        for value in [" tok-123", "tok-123 ", " spaced tok-123 "] {
            let err = Secret::checked("QA_TOKEN", Ok(value.to_string())).unwrap_err();
            assert_eq!(crate::exit::exit_of(&err), Exit::Usage);
            assert_eq!(
                err.to_string(),
                "--auth-env QA_TOKEN: the value of QA_TOKEN starts or ends with a space, which a server would trim: remove it"
            );
        }
    }

    #[test]
    fn a_space_inside_the_value_is_kept() {
        let s = Secret::checked("QA_TOKEN", Ok("in side".to_string())).unwrap();
        assert_eq!(s.bearer(), "Bearer in side");
    }

    #[test]
    fn debug_output_hides_the_value() {
        assert!(!format!("{:?}", secret("tok-123")).contains("tok-123"));
    }

    #[test]
    fn a_missing_variable_is_a_usage_error_naming_it() {
        let err = Secret::from_env("QA_CHECK_TEST_SURELY_UNSET_VARIABLE").unwrap_err();
        assert_eq!(crate::exit::exit_of(&err), Exit::Usage);
        assert!(err
            .to_string()
            .contains("QA_CHECK_TEST_SURELY_UNSET_VARIABLE is not set"));
    }
}
