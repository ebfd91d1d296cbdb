//! The profile's enumerated values, read only from strings spelt exactly as documented.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// A closed set of documented names.
pub trait Vocabulary: DeserializeOwned {
    /// Every name, in documented order, for messages.
    const NAMES: &'static [&'static str];

    /// The names as the format writes them: `a | b | c`.
    fn choices() -> String {
        Self::NAMES.join(" | ")
    }
}

/// The value as a member of `T`: only a string spelt exactly as one of its names.
pub fn read<T: Vocabulary>(v: Option<&Value>) -> Option<T> {
    v.filter(|v| v.is_string())
        .and_then(|v| T::deserialize(v).ok())
}

macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl Vocabulary for $name {
            const NAMES: &'static [&'static str] = &[$($text),+];
        }
    };
}

vocabulary! {
    /// Where cases, statuses and bugs live (`tracker`, default clickup).
    Tracker { Clickup = "clickup", None = "none" }
}

vocabulary! {
    /// What an environment is (`environments.*.kind`); never guessed from its hostname.
    EnvKind { Qa = "qa", Staging = "staging", Production = "production" }
}

vocabulary! {
    /// Where an environment's traces go (`environments.*.evidence_upload`).
    EvidenceUpload { Tracker = "tracker", Reference = "reference", Local = "local" }
}

vocabulary! {
    /// What `sha_source` reads (`environments.*.sha_source.format`, default commit).
    ShaFormat { Commit = "commit", BuildId = "build-id" }
}

vocabulary! {
    /// How sign-in is arranged (`auth.model`).
    AuthModel { DevHandoff = "dev-handoff", RoleAccounts = "role-accounts", Mixed = "mixed" }
}

vocabulary! {
    /// Whether specs may assert on network events (`assertions.network_events`).
    NetworkEvents { Allowed = "allowed", Forbidden = "forbidden" }
}

vocabulary! {
    /// What specs assert on (`assertions.style`).
    AssertionStyle { UiState = "ui-state", Mixed = "mixed" }
}

vocabulary! {
    /// Extra evidence a run keeps (`evidence.extra[]`).
    EvidenceExtra { ConsoleLog = "console_log" }
}

vocabulary! {
    /// How much evidence a run keeps (`evidence.capture`, default always).
    Capture { Always = "always", OnFailure = "on-failure", Off = "off" }
}

vocabulary! {
    /// The ClickUp plan (`clickup.plan_tier`); read by nothing, checked against typos.
    PlanTier { Free = "free", Unlimited = "unlimited", Business = "business", Enterprise = "enterprise" }
}

vocabulary! {
    /// A signature's request method (`mutation.*_signatures[].method`), uppercase or `*`.
    Method {
        Get = "GET", Head = "HEAD", Post = "POST", Put = "PUT", Patch = "PATCH",
        Delete = "DELETE", Options = "OPTIONS", Any = "*",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_exact_spellings_are_members() {
        assert_eq!(
            read::<ShaFormat>(Some(&json!("build-id"))),
            Some(ShaFormat::BuildId)
        );
        assert_eq!(read::<Method>(Some(&json!("*"))), Some(Method::Any));
        assert_eq!(read::<Method>(Some(&json!("post"))), None);
        assert_eq!(read::<EnvKind>(Some(&json!("Production"))), None);
        assert_eq!(read::<EnvKind>(Some(&json!(null))), None);
        assert_eq!(read::<EnvKind>(None), None);
    }

    #[test]
    fn choices_list_names_in_documented_order() {
        assert_eq!(EnvKind::choices(), "qa | staging | production");
    }
}
