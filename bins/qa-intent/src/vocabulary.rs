//! Partitioning changed files that no commit text explains (working tree, `wip`), by
//! specific vocabulary anchored in a path or a changed symbol.

use std::collections::BTreeSet;

/// Words too common in code, paths or UI mechanics to say two files share a purpose.
const GENERIC: &[&str] = &[
    "api",
    "app",
    "apps",
    "args",
    "aria",
    "async",
    "await",
    "base",
    "bin",
    "btn",
    "button",
    "buttons",
    "callback",
    "callbacks",
    "class",
    "classname",
    "click",
    "cmd",
    "common",
    "component",
    "components",
    "config",
    "const",
    "context",
    "controller",
    "controllers",
    "core",
    "crate",
    "css",
    "data",
    "default",
    "div",
    "dom",
    "element",
    "error",
    "errors",
    "event",
    "events",
    "export",
    "false",
    "file",
    "files",
    "fn",
    "for",
    "from",
    "func",
    "function",
    "get",
    "handle",
    "handler",
    "handlers",
    "helper",
    "helpers",
    "hook",
    "hooks",
    "html",
    "impl",
    "import",
    "index",
    "init",
    "internal",
    "item",
    "items",
    "label",
    "layout",
    "let",
    "lib",
    "list",
    "main",
    "mod",
    "model",
    "models",
    "module",
    "modules",
    "new",
    "none",
    "null",
    "onclick",
    "onchange",
    "open",
    "page",
    "pages",
    "pkg",
    "private",
    "props",
    "pub",
    "public",
    "render",
    "result",
    "return",
    "route",
    "router",
    "routes",
    "scripts",
    "self",
    "service",
    "services",
    "set",
    "shared",
    "source",
    "span",
    "src",
    "state",
    "static",
    "str",
    "string",
    "style",
    "styles",
    "test",
    "tests",
    "text",
    "the",
    "this",
    "true",
    "type",
    "types",
    "use",
    "util",
    "utils",
    "value",
    "values",
    "var",
    "view",
    "views",
    "void",
    "with",
    "navigation",
    "nav",
    "add",
    "remove",
    "update",
    "value",
    "input",
    "output",
    "ok",
    "err",
    "self",
    "super",
    "tsx",
    "jsx",
    "mjs",
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
        if c.is_uppercase()
            && (prev.is_lowercase() || prev.is_ascii_digit() || next_lower && prev.is_uppercase())
        {
            parts.push(&word[start..i]);
            start = i;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// A lowercase word without a plural `s` (`amounts` -> amount, `status` stays).
pub fn singular(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') && !stem.ends_with('u') => {
            stem.to_string()
        }
        _ => word.to_string(),
    }
}

/// True for a word specific enough to tie files together.
pub fn is_specific(word: &str) -> bool {
    static GENERIC_SET: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| GENERIC.iter().copied().collect());
    word.chars().count() >= 3
        && !word.chars().all(|c| c.is_ascii_digit())
        && !GENERIC_SET.contains(word)
}

/// The anchor terms of a path: the words of its file stem and of its nearest directory
/// that is not generic (`src/billing/invoiceView.tsx` -> billing, invoice, view). Farther
/// directories are left out: they would tie together everything in a package.
pub fn path_terms(path: &str) -> BTreeSet<String> {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let stem = match name.find('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    };
    let mut terms: BTreeSet<String> = words_of(stem).collect();
    if let Some(dir) = parts.find(|d| words_of(d).next().is_some()) {
        terms.extend(words_of(dir));
    }
    terms
}

/// The anchor term of a declared symbol: the whole name, lowercased, when specific.
pub fn symbol_term(symbol: &str) -> Option<String> {
    let term = symbol
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(symbol)
        .to_lowercase();
    (term.chars().count() >= 4 && is_specific(&term)).then_some(term)
}

/// The terms an identifier used in code offers: the whole name and its words.
pub fn usage_terms(identifier: &str) -> impl Iterator<Item = String> + '_ {
    symbol_term(identifier)
        .into_iter()
        .chain(words_of(identifier))
}

/// Groups files (in the given order) that share an anchored term: a term both files carry
/// that is an anchor (path or changed symbol) in at least one of them. Returns groups of
/// indices with the shared terms that joined them, ordered by first member.
pub fn partition(files: &[FileTerms]) -> Vec<(Vec<usize>, BTreeSet<String>)> {
    let n = files.len();
    // A term most changed files carry says nothing specific about any two of them (a
    // shared type, the package name): it cannot join.
    let common = common_terms(files);
    let links: Vec<Vec<BTreeSet<String>>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| {
                    if a == b {
                        return BTreeSet::new();
                    }
                    let mut terms = joining_terms(&files[a], &files[b]);
                    terms.retain(|t| !common.contains(t));
                    terms
                })
                .collect()
        })
        .collect();
    let degree = |i: usize| links[i].iter().filter(|t| !t.is_empty()).count();
    // Anchored on the best-connected file, so a chain of files cannot merge unrelated work.
    crate::joining::group_by(
        n,
        |a, b| !links[a][b].is_empty(),
        |i| (std::cmp::Reverse(degree(i)), i),
    )
    .into_iter()
    .map(|mut group| {
        let anchor = group[0];
        let shared = group
            .iter()
            .skip(1)
            .flat_map(|&m| links[anchor][m].iter().cloned())
            .collect();
        group.sort_unstable();
        (group, shared)
    })
    .collect()
}

/// Terms carried by more than a quarter of the files (and by more than three).
fn common_terms(files: &[FileTerms]) -> BTreeSet<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for f in files {
        for t in f.anchors.union(&f.words) {
            *counts.entry(t.as_str()).or_default() += 1;
        }
    }
    let limit = (files.len() / 4).max(3);
    counts
        .into_iter()
        .filter(|&(_, c)| c > limit)
        .map(|(t, _)| t.to_string())
        .collect()
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
        anchors.extend(symbols.iter().filter_map(|s| symbol_term(s)));
        FileTerms {
            path: path.to_string(),
            anchors,
            words: words.iter().flat_map(|s| usage_terms(s)).collect(),
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
        let got = path_terms("bins/qa-intent/src/joining.rs");
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["intent", "joining"]);
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
    fn a_declared_symbol_used_elsewhere_joins_but_its_generic_words_do_not() {
        let files = [
            terms("src/totals.ts", &["totalInvoice"], &[]),
            terms("src/receipt.ts", &[], &["totalInvoice"]),
        ];
        assert_eq!(partition(&files).len(), 1);
        // `addAction` and `acceptAction` share only the generic-looking word "action".
        let files = [
            terms("src/alpha.ts", &["addAction"], &[]),
            terms("src/omega.ts", &["acceptAction"], &["acceptAction"]),
        ];
        assert_eq!(partition(&files).len(), 2);
    }

    #[test]
    fn a_term_most_files_carry_does_not_join_them() {
        let mut files: Vec<FileTerms> = ["alpha", "bravo", "delta", "gamma", "kappa"]
            .iter()
            .map(|n| terms(&format!("src/{n}.rs"), &[], &["ActionKind"]))
            .collect();
        files.push(terms("src/kinds.rs", &["ActionKind"], &[]));
        assert_eq!(partition(&files).len(), 6);
        // Carried by two files of six, the same symbol joins them.
        let files = [
            terms("src/alpha.rs", &[], &["ActionKind"]),
            terms("src/bravo.rs", &[], &[]),
            terms("src/delta.rs", &[], &[]),
            terms("src/gamma.rs", &[], &[]),
            terms("src/kappa.rs", &[], &[]),
            terms("src/kinds.rs", &["ActionKind"], &[]),
        ];
        assert_eq!(partition(&files).len(), 5);
    }

    #[test]
    fn a_chain_of_files_is_resplit_around_the_best_connected_one() {
        // coupon -- checkout (coupon), checkout -- invoice (invoice), invoice -- pdf (pdf).
        let files = [
            terms("src/coupon.ts", &[], &[]),
            terms(
                "src/checkout.ts",
                &["applyCoupon", "printInvoice"],
                &["coupon", "invoice"],
            ),
            terms("src/invoice.ts", &[], &["pdf"]),
            terms("src/pdf.ts", &[], &[]),
        ];
        let groups: Vec<Vec<usize>> = partition(&files).into_iter().map(|g| g.0).collect();
        assert_eq!(groups, vec![vec![0, 1, 2], vec![3]]);
    }

    #[test]
    fn plural_words_meet_their_singular() {
        assert_eq!(singular("amounts"), "amount");
        assert_eq!(singular("status"), "status");
        assert_eq!(singular("address"), "address");
        assert_eq!(singular("gas"), "gas");
    }

    #[test]
    fn ui_mechanics_never_join_files() {
        let files = [
            terms(
                "src/Header.tsx",
                &["onClick"],
                &["button", "callback", "aria"],
            ),
            terms(
                "src/Footer.tsx",
                &["handleClick"],
                &["button", "callback", "aria"],
            ),
        ];
        assert_eq!(partition(&files).len(), 2);
    }
}
