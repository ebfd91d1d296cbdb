//! Which names a capture leaves out, and why: repository machinery, dependencies, dotenv
//! files and private keys. A bounded list, not a secret scanner.

/// Why a name is excluded, as written in a `target` record's `excluded[].reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// `.git`, `.qa`.
    Repository,
    /// `node_modules`, `vendor`.
    Dependencies,
    /// `.env`, `.env.local`, `.envrc`, ...
    Environment,
    /// `*.pem`, `id_rsa`, ...
    PrivateKey,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Repository => "repository metadata",
            Reason::Dependencies => "installed dependencies",
            Reason::Environment => "environment file",
            Reason::PrivateKey => "private-key file",
        }
    }
}

const KEY_EXTENSIONS: &[&str] = &[".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"];
const KEY_PREFIXES: &[&str] = &["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];

/// Why a file or directory named `name` is left out, or None when it is captured.
/// Key names are matched without regard to ASCII case (`SERVER.PEM` is a key too).
pub fn of(name: &str) -> Option<Reason> {
    match name {
        ".git" | ".qa" => return Some(Reason::Repository),
        "node_modules" | "vendor" => return Some(Reason::Dependencies),
        _ => {}
    }
    if name.starts_with(".env") {
        return Some(Reason::Environment);
    }
    let lower = name.to_ascii_lowercase();
    if KEY_EXTENSIONS.iter().any(|ext| lower.ends_with(ext))
        || KEY_PREFIXES.iter().any(|p| lower.starts_with(p))
    {
        return Some(Reason::PrivateKey);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_and_dependency_folders_are_excluded() {
        assert_eq!(of(".git"), Some(Reason::Repository));
        assert_eq!(of(".qa"), Some(Reason::Repository));
        assert_eq!(of("node_modules"), Some(Reason::Dependencies));
        assert_eq!(of("vendor"), Some(Reason::Dependencies));
    }

    #[test]
    fn names_that_only_resemble_them_are_kept() {
        for name in [
            ".gitignore",
            ".github",
            "vendors",
            "my_node_modules",
            "qa",
            "env",
        ] {
            assert_eq!(of(name), None, "{name}");
        }
    }

    #[test]
    fn dotenv_files_are_excluded() {
        for name in [".env", ".env.local", ".env.production", ".envrc"] {
            assert_eq!(of(name), Some(Reason::Environment), "{name}");
        }
        assert_eq!(of("example.env.txt"), None);
    }

    #[test]
    fn private_key_files_are_excluded_in_any_case() {
        for name in [
            "server.pem",
            "tls.KEY",
            "cert.p12",
            "cert.pfx",
            "id_rsa",
            "id_rsa.pub",
            "id_dsa",
            "id_ecdsa",
            "id_ed25519",
            "release.keystore",
            "app.jks",
        ] {
            assert_eq!(of(name), Some(Reason::PrivateKey), "{name}");
        }
    }

    #[test]
    fn ordinary_files_are_kept() {
        for name in [
            "index.html",
            "keys.txt",
            "pem.md",
            "monkey.js",
            "id.txt",
            "key",
        ] {
            assert_eq!(of(name), None, "{name}");
        }
    }
}
