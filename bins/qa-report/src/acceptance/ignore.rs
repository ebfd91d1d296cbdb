//! Whether a report folder inside a git work tree is ignored by git, read from the work
//! tree's `.gitignore` and `.git/info/exclude` without running git: private run artifacts
//! must stay out of version control.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// The warning to print when `dir` is inside a git work tree whose ignore files do not
/// ignore the top-level folder holding it (`.qa/ is not ignored by git`); None otherwise.
pub fn warning(dir: &Path) -> Option<String> {
    let dir = absolute(dir);
    let (root, git) = work_tree(&dir)?;
    let top = match dir.strip_prefix(&root).ok()?.components().next()? {
        Component::Normal(name) => name.to_str()?.to_string(),
        _ => return None,
    };
    let mut lines = fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    lines.push('\n');
    lines.push_str(&fs::read_to_string(git.join("info").join("exclude")).unwrap_or_default());
    (!ignores(&lines, &top)).then(|| format!("{top}/ is not ignored by git"))
}

/// True when the ignore lines leave top-level folder `top` ignored: the last line that
/// names it (`top`, `top/`, `/top`, `/top/`, or a glob ending in `*` whose prefix starts
/// `top`, such as `.qa*`) decides, and a `!` line un-ignores.
pub fn ignores(lines: &str, top: &str) -> bool {
    let mut ignored = false;
    for line in lines.lines() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (negated, pattern) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
        let pattern = pattern.strip_suffix('/').unwrap_or(pattern);
        let names = pattern == top
            || pattern.strip_suffix('*').is_some_and(|prefix| {
                !prefix.contains(['*', '?', '[', '/']) && top.starts_with(prefix)
            });
        if names {
            ignored = !negated;
        }
    }
    ignored
}

/// The nearest ancestor of `dir` holding `.git`, and its git directory (`.git` itself, or
/// the `gitdir:` a `.git` file names).
fn work_tree(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    for ancestor in dir.ancestors() {
        let dot_git = ancestor.join(".git");
        if dot_git.is_dir() {
            return Some((ancestor.to_path_buf(), dot_git));
        }
        if dot_git.is_file() {
            let text = fs::read_to_string(&dot_git).ok()?;
            let gitdir = text.trim().strip_prefix("gitdir:")?.trim();
            return Some((ancestor.to_path_buf(), ancestor.join(gitdir)));
        }
    }
    None
}

/// `dir` made absolute against the current directory, with `.` and `..` resolved
/// lexically (the folder may not exist yet).
fn absolute(dir: &Path) -> PathBuf {
    let joined = std::env::current_dir()
        .map(|cwd| cwd.join(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_of_the_folder_ignores_it() {
        for line in [".qa", ".qa/", "/.qa", "/.qa/", ".qa*", ".q*"] {
            assert!(ignores(&format!("target\n{line}\n"), ".qa"), "{line}");
        }
    }

    #[test]
    fn other_names_comments_and_later_negations_do_not() {
        for lines in [
            "target\n",
            "# .qa\n",
            ".qa-old\n",
            ".qa\n!.qa/\n",
            "x/.qa\n",
        ] {
            assert!(!ignores(lines, ".qa"), "{lines:?}");
        }
    }
}
