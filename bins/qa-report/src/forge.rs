//! Links from evidence `file:line` to the forge's view of the file at the head commit,
//! when the CI environment names a forge: GitHub (`GITHUB_SERVER_URL` and
//! `GITHUB_REPOSITORY`) or GitLab (`CI_PROJECT_URL`). Only an absolute http(s) URL without
//! credentials, quotes or spaces is used, the path is percent-encoded segment by segment,
//! and anything doubtful gives no link at all.

/// A forge the environment names, with the base every link starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forge {
    /// `{server}/{repo}/blob` (GitHub) or `{project}/-/blob` (GitLab), no trailing `/`.
    blob: String,
}

impl Forge {
    /// The forge `var` (an environment lookup) names, if any: GitHub first, then GitLab.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Option<Forge> {
        let github = || {
            let server = base_url(&var("GITHUB_SERVER_URL")?)?;
            let repo = var("GITHUB_REPOSITORY")?;
            repository(&repo).then(|| Forge {
                blob: format!("{server}/{repo}/blob"),
            })
        };
        let gitlab = || {
            let project = base_url(&var("CI_PROJECT_URL")?)?;
            Some(Forge {
                blob: format!("{project}/-/blob"),
            })
        };
        github().or_else(gitlab)
    }

    /// The forge the process environment names.
    pub fn from_process() -> Option<Forge> {
        Forge::from_env(|name| std::env::var(name).ok())
    }

    /// `{blob}/{head}/{path}#L{line}`; None unless `head` is a full object id, `path` a
    /// plain relative path and `line` a line.
    pub fn link(&self, head: &str, path: &str, line: u32) -> Option<String> {
        let oid = matches!(head.len(), 40 | 64) && head.bytes().all(|b| b.is_ascii_hexdigit());
        if !oid || line == 0 {
            return None;
        }
        let encoded = encode_path(path)?;
        Some(format!("{}/{head}/{encoded}#L{line}", self.blob))
    }
}

/// `value` without its trailing `/` when it is an absolute `http://` or `https://` URL with
/// a host, no user info, query or fragment, and only visible ASCII that needs no quoting.
fn base_url(value: &str) -> Option<String> {
    let value = value.trim_end_matches('/');
    let lower = value.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let host = rest.split('/').next().unwrap_or("");
    let plain = value.bytes().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/' | b':' | b'%')
    });
    let host_ok = !host.is_empty() && !host.starts_with(':') && !host.starts_with('.');
    (plain && host_ok && !rest.contains("//")).then(|| value.to_string())
}

/// `owner/name` with GitHub's characters only.
fn repository(value: &str) -> bool {
    let mut parts = value.split('/');
    let name_ok = |s: &str| {
        !s.is_empty()
            && s != "."
            && s != ".."
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    };
    matches!((parts.next(), parts.next(), parts.next()), (Some(o), Some(n), None) if name_ok(o) && name_ok(n))
}

/// Each segment of a relative path percent-encoded (unreserved characters kept); None for
/// an absolute path, an empty segment or a `.`/`..` one.
pub fn encode_path(path: &str) -> Option<String> {
    let mut out = String::with_capacity(path.len());
    for (i, segment) in path.split('/').enumerate() {
        if segment.is_empty() || segment == "." || segment == ".." {
            return None;
        }
        if i > 0 {
            out.push('/');
        }
        for b in segment.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const HEAD: &str = "0123456789abcdef0123456789abcdef01234567";

    fn forge(vars: &[(&str, &str)]) -> Option<Forge> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Forge::from_env(|name| map.get(name).cloned())
    }

    #[test]
    fn github_links_a_file_line_at_the_head_commit() {
        let f = forge(&[
            ("GITHUB_SERVER_URL", "https://github.com"),
            ("GITHUB_REPOSITORY", "acme/shop"),
        ])
        .unwrap();
        assert_eq!(
            f.link(HEAD, "src/cart.ts", 12).unwrap(),
            format!("https://github.com/acme/shop/blob/{HEAD}/src/cart.ts#L12")
        );
    }

    #[test]
    fn gitlab_links_through_its_project_url() {
        let f = forge(&[(
            "CI_PROJECT_URL",
            "https://gitlab.example.com/group/sub/shop/",
        )])
        .unwrap();
        assert_eq!(
            f.link(HEAD, "a.rs", 3).unwrap(),
            format!("https://gitlab.example.com/group/sub/shop/-/blob/{HEAD}/a.rs#L3")
        );
    }

    #[test]
    fn no_forge_variables_give_no_forge() {
        assert_eq!(forge(&[]), None);
        assert_eq!(forge(&[("GITHUB_SERVER_URL", "https://github.com")]), None);
    }

    #[test]
    fn a_url_that_is_not_plain_absolute_http_gives_no_forge() {
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "//evil.example",
            "ftp://host/x",
            "https://",
            "https://user:pw@host/x",
            "https://host/x?a=b",
            "https://host/x#y",
            "https://host/\"onmouseover=x",
            "https://host/a b",
            "https:///path",
            "relative/path",
        ] {
            assert_eq!(forge(&[("CI_PROJECT_URL", bad)]), None, "{bad}");
        }
    }

    #[test]
    fn a_repository_that_is_not_owner_slash_name_gives_no_forge() {
        for bad in ["acme", "acme/shop/x", "../x", "acme/..", "a\"b/c", "a/b?c"] {
            let vars = [
                ("GITHUB_SERVER_URL", "https://github.com"),
                ("GITHUB_REPOSITORY", bad),
            ];
            assert_eq!(forge(&vars), None, "{bad}");
        }
    }

    #[test]
    fn paths_are_percent_encoded_segment_by_segment() {
        assert_eq!(
            encode_path("src/a b/<x>\"#?.ts").unwrap(),
            "src/a%20b/%3Cx%3E%22%23%3F.ts"
        );
        assert_eq!(encode_path("döc/ü.md").unwrap(), "d%C3%B6c/%C3%BC.md");
    }

    #[test]
    fn a_path_leaving_the_tree_or_a_missing_line_or_oid_gives_no_link() {
        let f = forge(&[("CI_PROJECT_URL", "https://gitlab.com/a/b")]).unwrap();
        assert_eq!(f.link(HEAD, "../etc/passwd", 1), None);
        assert_eq!(f.link(HEAD, "/etc/passwd", 1), None);
        assert_eq!(f.link(HEAD, "a//b", 1), None);
        assert_eq!(f.link(HEAD, "a.rs", 0), None);
        assert_eq!(f.link("main", "a.rs", 1), None);
        assert_eq!(f.link("javascript:x", "a.rs", 1), None);
    }
}
