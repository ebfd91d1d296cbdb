//! The record kinds qapipe knows, with the schema version this build understands.

use std::fmt;

/// A record kind this build knows. Unknown kinds are not an error: stages forward them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Range,
    Commit,
    File,
    Intent,
    Scenario,
    Route,
    Capability,
    Trace,
    Draft,
    Plan,
    Criterion,
    TargetSpec,
    CheckSpec,
    Target,
    TargetVerify,
    Build,
    BuildVerify,
    Observation,
    Execution,
    Verdict,
    Profile,
    Node,
    Edge,
    Diag,
    Event,
}

impl Kind {
    pub const ALL: [Kind; 25] = [
        Kind::Range,
        Kind::Commit,
        Kind::File,
        Kind::Intent,
        Kind::Scenario,
        Kind::Route,
        Kind::Capability,
        Kind::Trace,
        Kind::Draft,
        Kind::Plan,
        Kind::Criterion,
        Kind::TargetSpec,
        Kind::CheckSpec,
        Kind::Target,
        Kind::TargetVerify,
        Kind::Build,
        Kind::BuildVerify,
        Kind::Observation,
        Kind::Execution,
        Kind::Verdict,
        Kind::Profile,
        Kind::Node,
        Kind::Edge,
        Kind::Diag,
        Kind::Event,
    ];

    /// The name used in the envelope's `kind` field.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Range => "range",
            Kind::Commit => "commit",
            Kind::File => "file",
            Kind::Intent => "intent",
            Kind::Scenario => "scenario",
            Kind::Route => "route",
            Kind::Capability => "capability",
            Kind::Trace => "trace",
            Kind::Draft => "draft",
            Kind::Plan => "plan",
            Kind::Criterion => "criterion",
            Kind::TargetSpec => "target.spec",
            Kind::CheckSpec => "check.spec",
            Kind::Target => "target",
            Kind::TargetVerify => "target.verify",
            Kind::Build => "build",
            Kind::BuildVerify => "build.verify",
            Kind::Observation => "observation",
            Kind::Execution => "execution",
            Kind::Verdict => "verdict",
            Kind::Profile => "profile",
            Kind::Node => "node",
            Kind::Edge => "edge",
            Kind::Diag => "diag",
            Kind::Event => "event",
        }
    }

    /// The kind named `name`, if this build knows it.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The newest schema version of this kind that this build reads and writes.
    pub fn version(self) -> u64 {
        1
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_name() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()), Some(k));
        }
    }

    #[test]
    fn unknown_names_are_not_kinds() {
        assert_eq!(Kind::parse("File"), None);
        assert_eq!(Kind::parse("x-custom"), None);
    }
}
