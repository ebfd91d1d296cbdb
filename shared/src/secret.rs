//! The bearer token named by `--auth-env`: read once from the environment, sent only as an
//! `Authorization` header, and redacted from every text that could leave the process.

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
    /// The value of the environment variable `name`. Unset, empty, or unusable as a header
    /// value (control characters, non-ASCII) is a usage error that names the variable,
    /// never the value.
    pub fn from_env(name: &str) -> Result<Secret> {
        let value = std::env::var(name).map_err(|e| {
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
        Ok(Secret {
            value: value.into(),
        })
    }

    /// The `Authorization` header value.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.value)
    }

    /// `text` with every occurrence of the token replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if text.contains(&*self.value) {
            Cow::Owned(text.replace(&*self.value, REDACTED))
        } else {
            Cow::Borrowed(text)
        }
    }
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
