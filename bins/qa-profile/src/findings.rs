//! What validation found: errors (the profile is invalid) and warnings, each at the dotted
//! path of the offending key.

use std::fmt;

/// One problem, at the dotted path of the key it is about (`context.sources[1].path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every error and warning, in the order the rules met them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

impl Findings {
    pub fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.errors.push(Finding {
            path: path.into(),
            message: message.into(),
        });
    }

    pub fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Finding {
            path: path.into(),
            message: message.into(),
        });
    }

    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}
