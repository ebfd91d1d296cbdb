//! The bearer token named by `--auth-env`: read once from the environment, sent in a
//! header, and redacted from every text that could leave the process.

use qa_shared::exit::{failure, Exit};
use std::fmt;

/// What replaces the token wherever it would appear.
pub const REDACTED: &str = "[redacted]";

/// A token whose value is never printed: `Debug` and `Display` show only the variable.
#[derive(Clone)]
pub struct Bearer {
    variable: String,
    value: String,
}

impl Bearer {
    /// The token in `$variable`. Unset, empty, not Unicode or not usable in a header
    /// (control characters, non-ASCII) is a usage error (exit 64) naming the variable,
    /// never its value.
    pub fn from_env(variable: &str) -> anyhow::Result<Bearer> {
        match std::env::var(variable) {
            Ok(value) if value.is_empty() => Err(failure(
                Exit::Usage,
                format!("--auth-env {variable}: the variable is empty"),
            )),
            Ok(value) if !value.bytes().all(|b| b.is_ascii_graphic() || b == b' ') => {
                Err(failure(
                    Exit::Usage,
                    format!(
                        "--auth-env {variable}: the value is not usable in a header (control or non-ASCII characters)"
                    ),
                ))
            }
            Ok(value) => Ok(Bearer {
                variable: variable.to_string(),
                value,
            }),
            Err(std::env::VarError::NotPresent) => Err(failure(
                Exit::Usage,
                format!("--auth-env {variable}: the variable is not set"),
            )),
            Err(std::env::VarError::NotUnicode(_)) => Err(failure(
                Exit::Usage,
                format!("--auth-env {variable}: the variable is not valid Unicode"),
            )),
        }
    }

    /// The `Authorization` header value.
    pub fn header(&self) -> String {
        format!("Bearer {}", self.value)
    }

    /// `text` with every occurrence of the token replaced by [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.value, REDACTED)
    }
}

impl fmt::Debug for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bearer(${})", self.variable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(value: &str) -> Bearer {
        Bearer {
            variable: "QA_TOKEN".into(),
            value: value.into(),
        }
    }

    #[test]
    fn redaction_removes_every_occurrence() {
        let t = token("s3cr3t");
        assert_eq!(t.redact("a s3cr3t b s3cr3t"), "a [redacted] b [redacted]");
    }

    #[test]
    fn text_without_the_token_is_unchanged() {
        assert_eq!(token("s3cr3t").redact("nothing here"), "nothing here");
    }

    #[test]
    fn debug_output_names_the_variable_only() {
        assert_eq!(format!("{:?}", token("s3cr3t")), "Bearer($QA_TOKEN)");
    }
}
