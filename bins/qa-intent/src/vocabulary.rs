//! Partitioning changed files that no commit text explains (working tree, `wip`), by
//! specific vocabulary anchored in a path or a changed symbol.

use std::collections::BTreeSet;

/// Words too common in code, paths or UI mechanics to say two files share a purpose.
const GENERIC: &[&str] = &[
    "api", "app", "apps", "args", "aria", "async", "await", "base", "bin", "btn", "button",
    "buttons", "callback", "callbacks", "class", "classname", "click", "cmd", "common", "component",
    "components", "config", "const", "context", "controller", "controllers", "core", "crate",
    "css", "data", "default", "div", "dom", "element", "error", "errors", "event", "events",
    "export", "false", "file", "files", "fn", "for", "from", "func", "function", "get", "handle",
    "handler", "handlers", "helper", "helpers", "hook", "hooks", "html", "impl", "import", "index",
    "init", "internal", "item", "items", "label", "layout", "let", "lib", "list", "main", "mod",
    "model", "models", "module", "modules", "new", "none", "null", "onclick", "onchange", "open",
    "page", "pages", "pkg", "private", "props", "pub", "public", "render", "result", "return",
    "route", "router", "routes", "scripts", "self", "service", "services", "set", "shared",
    "source", "span", "src", "state", "static", "str", "string", "style", "styles", "test",
    "tests", "text", "the", "this", "true", "type", "types", "use", "util", "utils", "value",
    "values", "var", "view", "views", "void", "with", "navigation", "nav", "add", "remove",
    "update", "value", "input", "output", "ok", "err", "self", "super", "tsx", "jsx", "mjs",
];

/// The terms a file offers for joining.
#[derive(Debug, Clone, Default)]
pub struct FileTerms {
    pub path: String,
    /// From the path and from symbols declared on changed lines: these can anchor a join.
    pub anchors: BTreeSet<String>,
    /// From identifiers used on changed lines: these can only meet an anchor.
    pub words: BTreeSet<String>,
}

/// Splits an identifier or path into lowercase words (`invoiceView` -> invoice, view;
/// `order_items` -> order, items), keeping only specific ones.
pub fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(split_camel)
        .map(|w| w.to_lowercase())
        .filter(|w| is_specific(w))
}

fn split_camel(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    for k in 1..chars.len() {
        let (i, c) = chars[k];
        let prev = chars[k - 1].1;
        let next_lower = chars.get(k + 1).is_some_and(|&(_, n)| n.is_lowercase());
        if c.is_uppercase() && (prev.is_lowercase() || prev.is_ascii_digit() || next_lower && prev.is_uppercase()) {
            parts.push(&word[start..i]);
            start = i;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// True for a word specific enough to tie files together.
pub fn is_specific(word: &str) -> bool {
    word.chars().count() >= 3
        && !word.chars().all(|c| c.is_ascii_digit())
        && !GENERIC.contains(&word)
}

/// The anchor terms of a path: its directory names and file stem, minus extensions.
pub fn path_terms(path: &str) -> BTreeSet<String> {
    let without_ext = match path.rfind('.') {
        Some(i) if i > path.rfind('/').map_or(0, |s| s + 1) => &path[..i],
        _ => path,
    };
    words_of(without_ext).collect()
}

/// Groups files (in the given order) that share an anchored term: a term both files carry
/// that is an anchor (path or changed symbol) in at least one of them. Returns groups of
/// indices with the shared terms that joined them, ordered by first member.
pub fn partition(files: &[FileTerms]) -> Vec<(Vec<usize>, BTreeSet<String>)> {
    let n = files.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut shared: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            let terms = joining_terms(&files[a], &files[b]);
            if terms.is_empty() {
                continue;
            }
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            let (keep, drop) = (ra.min(rb), ra.max(rb));
            parent[drop] = keep;
            let moved = std::mem::take(&mut shared[drop]);
            shared[keep].extend(moved);
            shared[keep].extend(terms);
        }
    }
    let mut groups: Vec<(Vec<usize>, BTreeSet<String>)> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for i in 0..n {
        let r = root(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push((Vec::new(), std::mem::take(&mut shared[r])));
        }
        groups[slot[r]].0.push(i);
    }
    groups
}

fn joining_terms(a: &FileTerms, b: &FileTerms) -> BTreeSet<String> {
    let carries = |f: &FileTerms, t: &String| f.anchors.contains(t) || f.words.contains(t);
    a.anchors
        .iter()
        .filter(|t| carries(b, t))
        .chain(b.anchors.iter().filter(|t| carries(a, t)))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(path: &str, symbols: &[&str], words: &[&str]) -> FileTerms {
        let mut anchors = path_terms(path);
        anchors.extend(symbols.iter().flat_map(|s| words_of(s)));
        FileTerms {
            path: path.to_string(),
            anchors,
            words: words.iter().flat_map(|s| words_of(s)).collect(),
        }
    }

    #[test]
    fn words_split_camel_and_snake_case_and_drop_generic_ones() {
        let got: Vec<String> = words_of("invoiceView order_items HTTPServer getUser").collect();
        assert_eq!(got, ["invoice", "order", "http", "server", "user"]);
    }

    #[test]
    fn path_terms_drop_extensions_and_generic_directories() {
        let got = path_terms("src/billing/invoiceView.tsx");
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["billing", "invoice"]);
    }

    #[test]
    fn files_sharing_a_path_term_join_and_unrelated_files_do_not() {
        let files = [
            terms("src/billing/invoice.ts", &[], &[]),
            terms("src/profile/avatar.ts", &[], &[]),
            terms("src/billing/invoiceView.tsx", &[], &[]),
        ];
        let groups: Vec<Vec<usize>> = partition(&files).into_iter().map(|g| g.0).collect();
        assert_eq!(groups, vec![vec![0, 2], vec![1]]);
    }

    #[test]
    fn a_word_used_in_code_joins_only_when_the_other_file_anchors_it() {
        // search.ts declares nothing about "quota"; limits.ts has it in its path.
        let files = [
            terms("src/search.ts", &[], &["quota"]),
            terms("src/quota.ts", &[], &[]),
        ];
        assert_eq!(partition(&files).len(), 1);
        // The same word used in both files' code but anchored in neither does not join.
        let files = [
            terms("src/search.ts", &[], &["quota"]),
            terms("src/avatar.ts", &[], &["quota"]),
        ];
        assert_eq!(partition(&files).len(), 2);
    }

    #[test]
    fn ui_mechanics_never_join_files() {
        let files = [
            terms("src/Header.tsx", &["onClick"], &["button", "callback", "aria"]),
            terms("src/Footer.tsx", &["handleClick"], &["button", "callback", "aria"]),
        ];
        assert_eq!(partition(&files).len(), 2);
    }
}
