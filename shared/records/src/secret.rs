//! The bearer token named by `--auth-env`: read once from the environment, sent only as an
//! `Authorization` header, and redacted from every text that could leave the process, in
//! every form a server could say it back in (see `echoes`).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use anyhow::Result;
use regex::Regex;

use crate::base64::{self, Alphabet};
use crate::exit::{failure, Exit};

/// What a redacted token is replaced with.
pub const REDACTED: &str = "[redacted]";

/// A token value. Its Debug form never shows the value.
#[derive(Clone)]
pub struct Secret {
    value: Arc<str>,
    /// Every form of the value a server could echo (`echoes`).
    echoes: Regex,
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
        Ok(Secret::new(&value))
    }

    fn new(value: &str) -> Secret {
        Secret {
            value: value.into(),
            echoes: echoes(value),
        }
    }

    /// The `Authorization` header value.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.value)
    }

    /// `text` with every occurrence of the token, in any form a server could echo it in
    /// ([`echoes`]), replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.echoes.replace_all(text, REDACTED)
    }
}

/// One pattern for every form in which a server could say `value` back:
/// - each character as sent, percent-encoded (`%2F` or `%2f`, whichever safe set the
///   encoder keeps: `/`, `+`, `=`, `:` or none; `+` for a space) or JSON-escaped (`\/`,
///   `\"`, `\\`, `\u00XX` in either case), in any mix, so no list of safe sets can miss
///   one;
/// - base64 and base64url, padded or not, of the value and of the whole header value
///   `Bearer <value>` (a server that echoes the header encoded).
///
/// The value never starts or ends with a space ([`Secret::from_env`]), so the trimmed
/// form a server reads is the value itself.
fn echoes(value: &str) -> Regex {
    let mut encoded = Vec::new();
    for plain in [value.to_string(), format!("Bearer {value}")] {
        for alphabet in [Alphabet::Standard, Alphabet::Url] {
            let padded = base64::encode(plain.as_bytes(), alphabet);
            encoded.push(padded.trim_end_matches('=').to_string());
            encoded.push(padded);
        }
    }
    // Longer first: at one start the first alternative that matches wins, and an
    // unpadded form is a prefix of its padded one.
    encoded.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    encoded.dedup();
    let mut alternatives: Vec<String> = encoded.iter().map(|e| regex::escape(e)).collect();
    alternatives.push(value.chars().map(char_forms).collect());
    Regex::new(&alternatives.join("|")).expect("a token's echo pattern is a valid regex")
}

/// A group matching `c` as sent, percent-encoded or JSON-escaped (the value is printable
/// ASCII, see [`Secret::from_env`]).
fn char_forms(c: char) -> String {
    let code = u32::from(c);
    let literal = regex::escape(&c.to_string());
    let mut forms = vec![
        literal.clone(),
        format!("(?i:%{code:02x})"),
        format!(r"(?i:\\u{code:04x})"),
    ];
    match c {
        ' ' => forms.push(r"\+".to_string()),
        '/' | '"' | '\\' => forms.push(format!(r"\\{literal}")),
        _ => {}
    }
    format!("(?:{})", forms.join("|"))
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
        Secret::new(value)
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

    /// Every form a server could echo `s3cr3t/t0k+en=~?>` in.
    const ECHOED: &[(&str, &str)] = &[
        ("as sent", "s3cr3t/t0k+en=~?>"),
        ("percent, nothing kept", "s3cr3t%2Ft0k%2Ben%3D~%3F%3E"),
        ("percent, lower hex", "s3cr3t%2ft0k%2ben%3d~%3f%3e"),
        ("percent, / kept", "s3cr3t/t0k%2Ben%3D~%3F%3E"),
        ("percent, + kept", "s3cr3t%2Ft0k+en%3D~%3F%3E"),
        ("percent, = kept", "s3cr3t%2Ft0k%2Ben=~%3F%3E"),
        ("percent, / + = kept", "s3cr3t/t0k+en=~%3F%3E"),
        ("percent, ~ encoded too", "s3cr3t%2Ft0k%2Ben%3D%7E%3F%3E"),
        (r"JSON, \/", r"s3cr3t\/t0k+en=~?>"),
        (
            r"JSON, \u00XX",
            r"s3cr3t\u002ft0k\u002Ben\u003d~\u003f\u003E",
        ),
        ("base64", "czNjcjN0L3Qwaytlbj1+Pz4="),
        ("base64 unpadded", "czNjcjN0L3Qwaytlbj1+Pz4"),
        ("base64url", "czNjcjN0L3Qwaytlbj1-Pz4="),
        ("base64url unpadded", "czNjcjN0L3Qwaytlbj1-Pz4"),
        ("base64 of the header", "QmVhcmVyIHMzY3IzdC90MGsrZW49fj8+"),
        (
            "base64url of the header",
            "QmVhcmVyIHMzY3IzdC90MGsrZW49fj8-",
        ),
    ];

    #[test]
    fn every_form_a_server_could_echo_is_replaced() {
        let s = secret("s3cr3t/t0k+en=~?>");
        for (form, echoed) in ECHOED {
            let text = format!("{{\"seen\":\"{echoed}\"}}");
            assert_eq!(
                s.redact(&text),
                "{\"seen\":\"[redacted]\"}",
                "{form}: {echoed}"
            );
        }
    }

    #[test]
    fn the_forms_of_another_token_are_kept() {
        // The control: the same table is left alone for a token one character off.
        let other = secret("s3cr3t/t0k+en=~?<");
        for (form, echoed) in ECHOED {
            assert_eq!(other.redact(echoed), *echoed, "{form}");
        }
    }

    #[test]
    fn a_space_is_replaced_as_sent_as_plus_or_as_percent_20() {
        let s = secret("a b/c=");
        for text in [
            "?t=a%20b%2Fc%3D",
            "?t=a%20b%2fc%3d",
            "?t=a+b%2Fc%3D",
            "?t=a b/c=",
        ] {
            assert_eq!(s.redact(text), "?t=[redacted]", "{text}");
        }
    }

    #[test]
    fn json_escapes_of_a_quote_and_a_backslash_are_replaced() {
        let s = secret(r#"a"b\c"#);
        assert_eq!(s.redact(r#"x a\"b\\c y"#), "x [redacted] y");
        assert_eq!(s.redact(r"x a\u0022b\u005Cc y"), "x [redacted] y");
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
