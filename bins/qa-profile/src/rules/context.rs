//! `context.sources`: where documented intent lives, each source named, described, and
//! either a command or a path (never an env file).

use super::{unknown_keys, Scope};
use crate::findings::Findings;
use crate::jsvalue::text;

const SOURCE_KEYS: &[&str] = &["name", "description", "command", "path"];

pub(super) fn check(scope: &Scope, f: &mut Findings) {
    let Some(context) = scope.raw.get("context") else {
        return;
    };
    let Some(context) = context.as_object() else {
        f.error("context", "must be a mapping with a sources list");
        return;
    };
    unknown_keys(context, "context", &["sources"], f);
    let Some(sources) = context
        .get("sources")
        .and_then(|s| s.as_array())
        .filter(|s| !s.is_empty())
    else {
        f.error(
            "context.sources",
            "required, a non-empty list when context is set",
        );
        return;
    };
    let mut names: Vec<&str> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let at = format!("context.sources[{i}]");
        let Some(source) = source.as_object() else {
            f.error(at, "must be a mapping");
            continue;
        };
        unknown_keys(source, &at, SOURCE_KEYS, f);
        match text(source.get("name")) {
            None => f.error(format!("{at}.name"), "required, a non-empty string"),
            Some(name) if names.contains(&name) => f.error(
                format!("{at}.name"),
                format!("\"{name}\" is used twice; names must be unique"),
            ),
            Some(name) => names.push(name),
        }
        if text(source.get("description")).is_none() {
            f.error(
                format!("{at}.description"),
                "required. Say what it holds and which features it covers.",
            );
        }
        let command = text(source.get("command"));
        let path = text(source.get("path"));
        if command.is_some() == path.is_some() {
            f.error(
                at.as_str(),
                "set exactly one of command | path, as a non-empty string",
            );
        }
        if let Some(path) = path.filter(|p| names_env_file(p)) {
            f.error(
                format!("{at}.path"),
                format!("\"{path}\" names .env files, which are never read as context"),
            );
        }
    }
}

/// True when the last segment of `path` starts with `.env` (`.env`, `.env.local`,
/// `config/.env*`): env files hold secrets and are never read.
pub fn names_env_file(path: &str) -> bool {
    path.split('/')
        .rfind(|segment| !segment.is_empty())
        .is_some_and(|last| last.starts_with(".env"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_files_are_recognised_by_their_last_segment() {
        for path in [
            ".env",
            ".env.local",
            "config/.env.production",
            "**/.env*",
            "a/.env/",
        ] {
            assert!(names_env_file(path), "{path}");
        }
        for path in [
            "docs/environment.md",
            ".envrc-docs/readme.md",
            "docs/env",
            "docs",
        ] {
            assert!(!names_env_file(path), "{path}");
        }
    }
}
