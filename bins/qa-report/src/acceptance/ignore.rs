//! Whether a report folder inside a git work tree is ignored by git, read from the work
//! tree's `.gitignore` and `.git/info/exclude` without running git: private run artifacts
//! must stay out of version control.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// The warning to print when `dir` is inside a git work tree whose ignore files do not
/// ignore it (`examples/shop-site/.qa/ is not ignored by git`); None otherwise. The folder
/// named is the first one on the way to `dir` below `project` (the `--repo` the run is
/// for), so the warning names what to add to `.gitignore`, not a parent of the project.
pub fn warning(dir: &Path, project: Option<&Path>) -> Option<String> {
    let dir = absolute(dir);
    let (root, git) = work_tree(&dir)?;
    let rel: Vec<String> = dir
        .strip_prefix(&root)
        .ok()?
        .components()
        .map(|c| match c {
            Component::Normal(name) => name.to_str().map(str::to_string),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if rel.is_empty() {
        return None;
    }
    // Ignore files apply from the root down; the last line that names a folder decides,
    // and nothing below an ignored folder is seen by git.
    let mut rules: Vec<(usize, String)> = Vec::new();
    let read = |path: PathBuf| fs::read_to_string(path).unwrap_or_default();
    rules.extend(
        read(git.join("info").join("exclude"))
            .lines()
            .map(|l| (0, l.to_string())),
    );
    rules.extend(
        read(root.join(".gitignore"))
            .lines()
            .map(|l| (0, l.to_string())),
    );
    for depth in 1..=rel.len() {
        let prefix: PathBuf = rel[..depth].iter().collect();
        if ignored(&rules, &rel[..depth]) {
            return None;
        }
        rules.extend(
            read(root.join(&prefix).join(".gitignore"))
                .lines()
                .map(|l| (depth, l.to_string())),
        );
    }
    let project = project.map(absolute);
    let named = (1..=rel.len())
        .find(|&depth| {
            let folder: PathBuf = root.join(rel[..depth].iter().collect::<PathBuf>());
            !project.as_ref().is_some_and(|p| p.starts_with(&folder))
        })
        .unwrap_or(rel.len());
    Some(format!("{}/ is not ignored by git", rel[..named].join("/")))
}

/// True when `rules` (each with the depth of the folder its ignore file sits in) leave
/// the folder at `path` (components from the work tree root) ignored. A pattern without
/// an inner `/` matches the folder's name at any depth below its file; one with a
/// leading or inner `/` matches the path from its file's folder. The last match decides.
fn ignored(rules: &[(usize, String)], path: &[String]) -> bool {
    let mut result = false;
    for (base, line) in rules {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') || *base >= path.len() {
            continue;
        }
        let (negated, pattern) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let pattern = pattern.strip_suffix('/').unwrap_or(pattern);
        let anchored = pattern.contains('/');
        let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
        let matches = if anchored {
            let below = path[*base..].join("/");
            name_matches(pattern, &below)
        } else {
            name_matches(pattern, path.last().expect("a non-empty path"))
        };
        if matches {
            result = !negated;
        }
    }
    result
}

/// `pattern` is the name itself, or a prefix ending in `*` (no other glob).
fn name_matches(pattern: &str, name: &str) -> bool {
    pattern == name
        || pattern.strip_suffix('*').is_some_and(|prefix| {
            !prefix.contains(['*', '?', '['])
                && name.starts_with(prefix)
                && !name[prefix.len()..].contains('/')
        })
}

/// True when the root ignore lines leave the top-level folder `top` ignored.
#[cfg(test)]
fn ignores(lines: &str, top: &str) -> bool {
    let rules: Vec<(usize, String)> = lines.lines().map(|l| (0, l.to_string())).collect();
    ignored(&rules, &[top.to_string()])
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

    /// A work tree at `root` holding `examples/shop-site`, with `.gitignore` lines.
    fn tree(gitignore: &[(&str, &str)]) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join(".git/info")).unwrap();
        fs::create_dir_all(root.path().join("examples/shop-site")).unwrap();
        for (at, lines) in gitignore {
            fs::write(root.path().join(at).join(".gitignore"), lines).unwrap();
        }
        root
    }

    fn run_dir(root: &Path) -> PathBuf {
        root.join("examples/shop-site/.qa/acceptance/20261202T000000Z-abcd1234")
    }

    #[test]
    fn the_warning_names_the_folder_below_the_project_not_a_parent_of_it() {
        let root = tree(&[]);
        let project = root.path().join("examples/shop-site");
        assert_eq!(
            warning(&run_dir(root.path()), Some(&project)).as_deref(),
            Some("examples/shop-site/.qa/ is not ignored by git")
        );
    }

    #[test]
    fn a_name_pattern_in_the_root_gitignore_ignores_the_folder_at_any_depth() {
        let root = tree(&[(".", ".qa/\n")]);
        let project = root.path().join("examples/shop-site");
        assert_eq!(warning(&run_dir(root.path()), Some(&project)), None);
    }

    #[test]
    fn the_projects_own_gitignore_ignores_its_folder() {
        let root = tree(&[("examples/shop-site", "/.qa\n")]);
        let project = root.path().join("examples/shop-site");
        assert_eq!(warning(&run_dir(root.path()), Some(&project)), None);
    }

    #[test]
    fn an_anchored_root_pattern_does_not_reach_a_nested_folder() {
        let root = tree(&[(".", "/.qa/\n")]);
        let project = root.path().join("examples/shop-site");
        assert!(warning(&run_dir(root.path()), Some(&project)).is_some());
    }
}
