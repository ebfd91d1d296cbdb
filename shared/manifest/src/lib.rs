//! `.qa/manifest.yaml`: the team's reviewed policy, its critical flows and scenario suppressions.
//!
//! ```yaml
//! version: 1
//! flows:
//!   - name: checkout                  # unique
//!     criticality: critical           # critical | high | normal | low
//!     paths: ["src/checkout/**"]      # globs, see [`Glob`]
//!     symbols: ["submitOrder"]        # changed symbols that anchor the flow
//!     expected: ["the order confirmation shows the order number"]
//!     forbidden: ["a second charge for the same order"]
//! suppressions:
//!   - scenario: "calendar"            # case-insensitive substring of a scenario title
//!     paths: ["src/analyzers/**"]     # optional: only for evidence under these paths
//!     reason: "analyzer word lists are not product journeys"
//! ```
//!
//! The file is read with YAML 1.2 core-schema semantics (`yes` is a string) and is
//! strict: duplicate keys, unknown keys, wrong types, duplicate or empty flow names, bad
//! globs and suppressions without a reason are errors. A team reviewed this file, so a
//! mistake in it must stop the stage (exit 65) rather than silently weaken the policy;
//! each error is one line naming the file and the key path (`flows[1].criticality`).
//!
//! This crate is the one parser of that file (used by qa-intent, qa-manifest and
//! qa-graph's flow adapter); editing it is qa-manifest's. It may use qa-records (exit
//! codes, hashes, bounded file reads); it must not depend on any other qapipe library nor
//! on a stage.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use qa_records::exit::{failure, Exit};
use qa_records::hash::sha256_hex;
use qa_records::regular_file::{self, Refusal, Symlinks};
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_saphyr::options::DuplicateKeyPolicy;
use serde_saphyr::Spanned;

/// The manifest format version this stage reads.
pub const VERSION: u32 = 1;

/// A parsed, checked manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub flows: Vec<Flow>,
    pub suppressions: Vec<Suppression>,
    /// SHA-256 of the file bytes, for the `src` of records that rest on this policy.
    pub sha256: String,
}

/// How much a flow matters to the team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Criticality {
    Critical,
    High,
    Normal,
    Low,
}

/// A product flow the team protects, and what anchors a change to it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub name: String,
    pub criticality: Criticality,
    #[serde(default)]
    pub paths: Vec<Glob>,
    #[serde(default)]
    pub symbols: Vec<String>,
    /// Outcomes the flow must keep producing.
    #[serde(default)]
    pub expected: Vec<String>,
    /// Outcomes the flow must never produce.
    #[serde(default)]
    pub forbidden: Vec<String>,
}

impl Flow {
    /// True when one of the flow's globs matches a changed file or one of its symbols is
    /// a changed symbol (exact, case-sensitive: symbols are identifiers).
    pub fn anchors(&self, files: &[&str], symbols: &[&str]) -> bool {
        self.paths
            .iter()
            .any(|g| files.iter().any(|f| g.matches(f)))
            || self.symbols.iter().any(|s| symbols.contains(&s.as_str()))
    }

    pub fn is_critical(&self) -> bool {
        self.criticality == Criticality::Critical
    }
}

/// A reviewed decision that some scenarios are not worth routing.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suppression {
    /// A case-insensitive substring of the scenario titles it silences.
    pub scenario: String,
    /// When not empty, the suppression applies only to scenarios with evidence under them.
    #[serde(default)]
    pub paths: Vec<Glob>,
    pub reason: String,
}

impl Suppression {
    /// True when `scenario_title` contains this suppression's text (ignoring case) and,
    /// if it names paths, one of the evidence files lies under them.
    pub fn applies(&self, scenario_title: &str, evidence_files: &[&str]) -> bool {
        scenario_title
            .to_lowercase()
            .contains(&self.scenario.to_lowercase())
            && (self.paths.is_empty()
                || self
                    .paths
                    .iter()
                    .any(|g| evidence_files.iter().any(|f| g.matches(f))))
    }
}

impl Manifest {
    /// The first flow (in file order) anchored by a changed file or symbol.
    pub fn flow_for(&self, files: &[&str], symbols: &[&str]) -> Option<&Flow> {
        self.flows.iter().find(|f| f.anchors(files, symbols))
    }

    /// The first suppression that applies to a scenario.
    pub fn suppression_for(
        &self,
        scenario_title: &str,
        evidence_files: &[&str],
    ) -> Option<&Suppression> {
        self.suppressions
            .iter()
            .find(|s| s.applies(scenario_title, evidence_files))
    }
}

/// The most bytes a manifest may have, like a build file (1 MiB).
pub const MAX_BYTES: u64 = regular_file::MIB;

/// Reads the manifest at `path`; `Ok(None)` when there is none. The manifest is read the
/// way build files are: a regular file of at most [`MAX_BYTES`], never a symlink (a
/// repository could point it at `/dev/zero` or outside itself) and never a FIFO or device
/// (whose reads block or never end); and when `path` is a repository's
/// `.qa/manifest.yaml`, its `.qa` directory must not be a symlink either. A refused file
/// stops the stage like an invalid one: one line, exit 65 (66 for a file that is not a
/// regular file at all, as for an unreadable one).
pub fn load(path: &Path) -> anyhow::Result<Option<Manifest>> {
    load_bytes(path)?
        .map(|bytes| parse(&bytes, &path.display().to_string()))
        .transpose()
}

/// The bytes of the manifest at `path` under [`load`]'s rules; None when there is none.
pub fn load_bytes(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    let name = path.display();
    if let Some(dir) = qa_directory(path) {
        if dir.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
            return Err(failure(
                Exit::DataErr,
                format!(
                    "manifest {name}: {} is a symlink: a repository's manifest is read only inside it",
                    dir.display()
                ),
            ));
        }
    }
    match regular_file::read(path, MAX_BYTES, Symlinks::Refuse) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(Refusal::Missing) => Ok(None),
        Err(why @ Refusal::Symlink) => Err(failure(
            Exit::DataErr,
            format!("manifest {name} {why}: it could lead anywhere, so it is not followed"),
        )),
        Err(why @ Refusal::TooLarge { .. }) => {
            Err(failure(Exit::DataErr, format!("manifest {name} {why}")))
        }
        Err(why) => Err(failure(Exit::NoInput, format!("manifest {name} {why}"))),
    }
}

/// The `.qa` directory of a repository's `REPO/.qa/manifest.yaml`.
fn qa_directory(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    (path.file_name()? == "manifest.yaml" && dir.file_name()? == ".qa").then_some(dir)
}

/// Parses and checks manifest bytes; `name` is how errors refer to the file.
pub fn parse(bytes: &[u8], name: &str) -> anyhow::Result<Manifest> {
    let document: Document =
        serde_saphyr::from_slice_with_options(bytes, options(DuplicateKeyPolicy::Error))
            .map_err(|e| invalid(name, &key_path_of(bytes, &e), &describe(&e)))?;
    if document.version != VERSION {
        return Err(invalid(
            name,
            "version",
            &format!(
                "unsupported manifest version {} (this qa-intent reads version {VERSION})",
                document.version
            ),
        ));
    }
    check(&document).map_err(|(path, message)| invalid(name, &path, &message))?;
    Ok(Manifest {
        flows: document.flows,
        suppressions: document.suppressions,
        sha256: sha256_hex(bytes),
    })
}

/// The file as written, before the checks serde cannot express.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    #[serde(default)]
    flows: Vec<Flow>,
    #[serde(default)]
    suppressions: Vec<Suppression>,
}

fn options(duplicate_keys: DuplicateKeyPolicy) -> serde_saphyr::Options {
    // serde-saphyr's default still reads YAML 1.1 `yes`/`no`/`on`/`off` as booleans.
    serde_saphyr::options! {
        strict_booleans: true,
        duplicate_keys: duplicate_keys,
    }
}

/// One line: the file, the key path when known, and what is wrong.
fn invalid(name: &str, key_path: &str, message: &str) -> anyhow::Error {
    let message = if key_path.is_empty() {
        format!("manifest {name}: {message}")
    } else {
        format!("manifest {name}: {key_path}: {message}")
    };
    failure(Exit::DataErr, message)
}

/// A parser error without its source snippet (which spans several lines).
fn describe(err: &serde_saphyr::Error) -> String {
    // The library's own text for these suggests other API calls or relaxing the policy.
    let at = |l: &serde_saphyr::Location| format!("at line {}, column {}", l.line(), l.column());
    match err.without_snippet() {
        serde_saphyr::Error::DuplicateMappingKey { key, location } => format!(
            "duplicate key `{}` {}",
            key.as_deref().unwrap_or("(complex key)"),
            at(location)
        ),
        serde_saphyr::Error::MultipleDocuments { location, .. } => {
            format!("more than one YAML document {}", at(location))
        }
        other => other.to_string(),
    }
}

/// Checks serde cannot express: unique non-empty names, anchored flows, no blank text.
fn check(document: &Document) -> Result<(), (String, String)> {
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, flow) in document.flows.iter().enumerate() {
        let at = format!("flows[{i}]");
        not_blank(&flow.name, || format!("{at}.name"))?;
        if let Some(first) = first_at.insert(flow.name.as_str(), i) {
            return Err((
                format!("{at}.name"),
                format!(
                    "duplicate flow name {:?} (first at flows[{first}])",
                    flow.name
                ),
            ));
        }
        if flow.paths.is_empty() && flow.symbols.is_empty() {
            return Err((
                at,
                "a flow needs paths or symbols, or no change can anchor it".into(),
            ));
        }
        for (key, texts) in [
            ("symbols", &flow.symbols),
            ("expected", &flow.expected),
            ("forbidden", &flow.forbidden),
        ] {
            for (j, text) in texts.iter().enumerate() {
                not_blank(text, || format!("{at}.{key}[{j}]"))?;
            }
        }
    }
    for (i, suppression) in document.suppressions.iter().enumerate() {
        // An empty substring would silence every scenario.
        not_blank(&suppression.scenario, || {
            format!("suppressions[{i}].scenario")
        })?;
        not_blank(&suppression.reason, || format!("suppressions[{i}].reason"))?;
    }
    Ok(())
}

fn not_blank(text: &str, key_path: impl FnOnce() -> String) -> Result<(), (String, String)> {
    if text.trim().is_empty() {
        Err((key_path(), "must not be empty".into()))
    } else {
        Ok(())
    }
}

// Key paths of parser errors. serde-saphyr reports a line and column, not a key path, so
// the document is read again as a bare tree of located nodes and the error is placed on
// the last node that starts at or before it.

/// The key path (`flows[1].criticality`) an error points at; empty when unknown.
fn key_path_of(bytes: &[u8], err: &serde_saphyr::Error) -> String {
    let Some(at) = err.location().filter(|l| l.line() > 0) else {
        return String::new();
    };
    // Duplicates pass through so the repeated key itself is in the tree.
    let Ok(tree) = serde_saphyr::from_slice_with_options::<Spanned<Node>>(
        bytes,
        options(DuplicateKeyPolicy::PassThrough),
    ) else {
        return String::new();
    };
    let mut nodes = Vec::new();
    flatten(&tree, String::new(), "", &mut nodes);
    let target = (at.line(), at.column());
    // The last node starting at or before the error. On a tie the first in document
    // order wins: a mapping and its first key start at the same place, and the error is
    // the mapping's (`min_by_key` keeps the first of equals).
    let Some(node) = nodes
        .iter()
        .filter(|node| node.position <= target)
        .min_by_key(|node| Reverse(node.position))
    else {
        return String::new();
    };
    // A missing or unknown field belongs to a mapping, and serde-saphyr reports it at
    // the mapping or at one of its keys, so it is named from the mapping.
    match err.without_snippet() {
        serde_saphyr::Error::SerdeMissingField { field, .. } => join_key(&node.mapping, field),
        serde_saphyr::Error::SerdeUnknownField { field, .. } => join_key(&node.mapping, field),
        _ => node.path.clone(),
    }
}

type Position = (u64, u64);

/// A YAML node reduced to its shape; scalars carry nothing.
enum Node {
    Map(Vec<(Spanned<Key>, Spanned<Node>)>),
    Seq(Vec<Spanned<Node>>),
    Scalar,
}

/// A mapping key as text, whatever scalar type it has (a complex key leaves the path unknown).
struct Key(String);

/// A node of the located tree, flattened.
struct Located {
    position: Position,
    /// The key path of the node (a key and its value share one).
    path: String,
    /// The key path of the nearest mapping at or above the node.
    mapping: String,
}

/// Every node and key of `node` with its position and paths, in document order; `mapping`
/// is the path of the nearest mapping above it.
fn flatten(node: &Spanned<Node>, path: String, mapping: &str, out: &mut Vec<Located>) {
    let mapping = match node.value {
        Node::Map(_) => path.clone(),
        _ => mapping.to_string(),
    };
    out.push(Located {
        position: position(node),
        path: path.clone(),
        mapping: mapping.clone(),
    });
    match &node.value {
        Node::Map(entries) => {
            for (key, value) in entries {
                let inner = join_key(&path, &key.value.0);
                out.push(Located {
                    position: position(key),
                    path: inner.clone(),
                    mapping: mapping.clone(),
                });
                flatten(value, inner, &mapping, out);
            }
        }
        Node::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(item, format!("{path}[{i}]"), &mapping, out);
            }
        }
        Node::Scalar => {}
    }
}

fn position<T>(spanned: &Spanned<T>) -> Position {
    (spanned.referenced.line(), spanned.referenced.column())
}

fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any YAML node")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_i128<E>(self, _: i128) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_u128<E>(self, _: u128) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_bytes<E>(self, _: &[u8]) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                Node::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Node::Map(entries))
            }
        }
        deserializer.deserialize_any(NodeVisitor)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a scalar mapping key")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Key, E> {
                Ok(Key("null".into()))
            }
            fn visit_none<E>(self) -> Result<Key, E> {
                Ok(Key("null".into()))
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

/// A repository-relative path pattern, matched segment by segment against `/`-separated
/// paths: `*` matches any run of characters within one segment, `?` one character of a
/// segment, and `**` (a whole segment) any number of segments, none included. Patterns
/// are anchored at the repository root (`*.ts` is a root file; `**/*.ts` any depth) and
/// case-sensitive, as git paths are. Other glob syntax (`[...]`, `{a,b}`, `\`) is refused
/// rather than taken literally, so a pattern never silently matches less than it says.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Glob(String);

/// Why a pattern is not a [`Glob`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadGlob {
    pub pattern: String,
    pub reason: &'static str,
}

impl fmt::Display for BadGlob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad glob {:?}: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for BadGlob {}

impl Glob {
    pub fn new(pattern: &str) -> Result<Glob, BadGlob> {
        let bad = |reason| {
            Err(BadGlob {
                pattern: pattern.to_string(),
                reason,
            })
        };
        if pattern.is_empty() {
            return bad("empty pattern");
        }
        if pattern.starts_with('/') {
            return bad("absolute; patterns are relative to the repository root");
        }
        if pattern.contains(['[', ']', '{', '}', '\\']) {
            return bad("unsupported syntax; only `*`, `**` and `?` are wildcards");
        }
        for segment in pattern.split('/') {
            if segment.is_empty() {
                return bad("empty path segment (`//` or a trailing `/`; use `dir/**`)");
            }
            if segment == "." || segment == ".." {
                return bad("`.` and `..` segments are not allowed");
            }
            if segment != "**" && segment.contains("**") {
                return bad("`**` must be a whole path segment");
            }
        }
        Ok(Glob(pattern.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True when `path` (repository-relative, `/`-separated) matches the whole pattern.
    pub fn matches(&self, path: &str) -> bool {
        let pattern: Vec<&str> = self.0.split('/').collect();
        let segments: Vec<&str> = path.split('/').collect();
        wildcard(
            &pattern,
            &segments,
            |p| *p == "**",
            |p, segment| segment_matches(p, segment),
        )
    }
}

impl TryFrom<String> for Glob {
    type Error = BadGlob;
    fn try_from(pattern: String) -> Result<Glob, BadGlob> {
        Glob::new(&pattern)
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One pattern segment against one path segment: `*` any run, `?` one character.
fn segment_matches(pattern: &str, segment: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let segment: Vec<char> = segment.chars().collect();
    wildcard(
        &pattern,
        &segment,
        |p| *p == '*',
        |p, c| *p == '?' || p == c,
    )
}

/// Whole-sequence wildcard matching: a `star` item matches any run of subject items and
/// every other item exactly one (through `one`). Used for `**` over path segments and for
/// `*` over characters. Backtracking only to the last star is enough because a star can
/// absorb anything an earlier star could, so this stays O(pattern x subject).
fn wildcard<P, S>(
    pattern: &[P],
    subject: &[S],
    is_star: impl Fn(&P) -> bool,
    one: impl Fn(&P, &S) -> bool,
) -> bool {
    let (mut p, mut s) = (0, 0);
    // After the last star seen: the pattern index following it, and how far its run reaches.
    let mut last_star: Option<(usize, usize)> = None;
    while s < subject.len() {
        if p < pattern.len() && is_star(&pattern[p]) {
            last_star = Some((p + 1, s));
            p += 1;
        } else if p < pattern.len() && one(&pattern[p], &subject[s]) {
            p += 1;
            s += 1;
        } else if let Some((after, reach)) = last_star {
            last_star = Some((after, reach + 1));
            p = after;
            s = reach + 1;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(is_star)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"version: 1
flows:
  - name: checkout
    criticality: critical
    paths: ["src/checkout/**", "src/cart.ts"]
    symbols: ["submitOrder", "CartTotal"]
    expected: ["the order confirmation shows the order number"]
    forbidden: ["a second charge for the same order"]
  - name: search
    criticality: normal
    symbols: ["searchProducts"]
suppressions:
  - scenario: "calendar"
    paths: ["src/analyzers/**"]
    reason: "analyzer word lists are not product journeys"
  - scenario: "Tooltip"
    reason: "cosmetic"
"#;

    fn example() -> Manifest {
        parse(EXAMPLE.as_bytes(), ".qa/manifest.yaml").unwrap()
    }

    /// The one-line error for a manifest that must be refused.
    fn refusal(yaml: &str) -> String {
        let err = parse(yaml.as_bytes(), ".qa/manifest.yaml").unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::DataErr, "{err:#}");
        format!("{err:#}")
    }

    fn glob(pattern: &str) -> Glob {
        Glob::new(pattern).unwrap()
    }

    // Parsing.

    #[test]
    fn a_valid_manifest_keeps_every_field_in_file_order() {
        let m = example();
        assert_eq!(m.flows.len(), 2);
        let checkout = &m.flows[0];
        assert_eq!(checkout.name, "checkout");
        assert_eq!(checkout.criticality, Criticality::Critical);
        assert_eq!(
            checkout.paths,
            vec![glob("src/checkout/**"), glob("src/cart.ts")]
        );
        assert_eq!(checkout.symbols, ["submitOrder", "CartTotal"]);
        assert_eq!(
            checkout.expected,
            ["the order confirmation shows the order number"]
        );
        assert_eq!(checkout.forbidden, ["a second charge for the same order"]);
        assert_eq!(m.flows[1].criticality, Criticality::Normal);
        assert!(m.flows[1].paths.is_empty() && m.flows[1].expected.is_empty());
        assert_eq!(m.suppressions.len(), 2);
        assert_eq!(m.suppressions[0].scenario, "calendar");
        assert_eq!(m.suppressions[0].paths, vec![glob("src/analyzers/**")]);
        assert!(m.suppressions[1].paths.is_empty());
    }

    #[test]
    fn the_manifest_hash_is_the_sha256_of_its_bytes() {
        assert_eq!(example().sha256, sha256_hex(EXAMPLE.as_bytes()));
    }

    #[test]
    fn a_manifest_without_flows_or_suppressions_is_valid() {
        let m = parse(b"version: 1\n", "m.yaml").unwrap();
        assert!(m.flows.is_empty() && m.suppressions.is_empty());
    }

    #[test]
    fn yes_stays_a_string() {
        let m = parse(
            b"version: 1\nflows:\n  - name: yes\n    criticality: low\n    symbols: [no, on]\n",
            "m.yaml",
        )
        .unwrap();
        assert_eq!(m.flows[0].name, "yes");
        assert_eq!(m.flows[0].symbols, ["no", "on"]);
    }

    // Errors: each is one line naming the file and the key path.

    #[test]
    fn an_error_is_one_line_naming_the_manifest_file() {
        let message = refusal("version: 1\nflows:\n  - name: a\n    criticality: urgent\n");
        assert!(!message.contains('\n'), "{message}");
        assert!(
            message.starts_with("manifest .qa/manifest.yaml: "),
            "{message}"
        );
    }

    #[test]
    fn invalid_yaml_is_refused_with_its_line() {
        let message = refusal("version: 1\nflows: [\n");
        assert!(message.contains("line "), "{message}");
    }

    #[test]
    fn a_wrong_enum_value_names_its_key_path() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    symbols: [x]\n  - name: b\n    criticality: urgent\n    symbols: [y]\n",
        );
        assert!(message.contains(": flows[1].criticality: "), "{message}");
        assert!(message.contains("urgent"), "{message}");
    }

    #[test]
    fn an_unknown_key_names_its_key_path() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    symbols: [x]\n    owner: me\n",
        );
        assert!(message.contains(": flows[0].owner: "), "{message}");
    }

    #[test]
    fn an_unknown_key_first_in_its_mapping_names_its_key_path() {
        let message =
            refusal("version: 1\nsuppressions:\n  - title: x\n    scenario: x\n    reason: r\n");
        assert!(message.contains(": suppressions[0].title: "), "{message}");
    }

    #[test]
    fn an_unknown_top_level_key_names_it() {
        let message = refusal("version: 1\nflow: []\n");
        assert!(message.contains(": flow: "), "{message}");
    }

    #[test]
    fn a_wrong_type_names_its_key_path() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    paths: src/a.ts\n",
        );
        assert!(message.contains(": flows[0].paths: "), "{message}");
    }

    #[test]
    fn a_missing_version_is_refused() {
        let message = refusal("flows: []\n");
        assert!(message.contains(": version: "), "{message}");
    }

    #[test]
    fn a_newer_version_is_refused() {
        let message = refusal("version: 2\n");
        assert!(
            message.contains(": version: unsupported manifest version 2"),
            "{message}"
        );
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    name: b\n    symbols: [x]\n",
        );
        assert!(
            message.contains(": flows[0].name: duplicate key `name`"),
            "{message}"
        );
    }

    #[test]
    fn a_duplicate_flow_name_is_refused() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    symbols: [x]\n  - name: a\n    criticality: low\n    symbols: [y]\n",
        );
        assert!(
            message.contains(": flows[1].name: duplicate flow name \"a\" (first at flows[0])"),
            "{message}"
        );
    }

    #[test]
    fn an_empty_flow_name_is_refused() {
        let message = refusal(
            "version: 1\nflows:\n  - name: \" \"\n    criticality: high\n    symbols: [x]\n",
        );
        assert!(
            message.contains(": flows[0].name: must not be empty"),
            "{message}"
        );
    }

    #[test]
    fn a_missing_flow_name_is_refused() {
        let message = refusal("version: 1\nflows:\n  - criticality: high\n    symbols: [x]\n");
        assert!(message.contains(": flows[0].name: "), "{message}");
    }

    #[test]
    fn a_flow_nothing_can_anchor_is_refused() {
        let message = refusal("version: 1\nflows:\n  - name: a\n    criticality: high\n");
        assert!(
            message.contains(": flows[0]: a flow needs paths or symbols"),
            "{message}"
        );
    }

    #[test]
    fn a_bad_glob_names_its_key_path() {
        let message = refusal(
            "version: 1\nflows:\n  - name: a\n    criticality: high\n    paths: [\"src/**\", \"src/a**\"]\n",
        );
        assert!(
            message.contains(": flows[0].paths[1]: bad glob \"src/a**\""),
            "{message}"
        );
    }

    #[test]
    fn a_suppression_without_a_reason_is_refused() {
        let message = refusal("version: 1\nsuppressions:\n  - scenario: calendar\n");
        assert!(message.contains(": suppressions[0].reason: "), "{message}");
    }

    #[test]
    fn a_suppression_with_a_blank_reason_is_refused() {
        let message =
            refusal("version: 1\nsuppressions:\n  - scenario: calendar\n    reason: \"\"\n");
        assert!(
            message.contains(": suppressions[0].reason: must not be empty"),
            "{message}"
        );
    }

    #[test]
    fn a_suppression_with_an_empty_scenario_is_refused() {
        let message = refusal("version: 1\nsuppressions:\n  - scenario: \"\"\n    reason: r\n");
        assert!(
            message.contains(": suppressions[0].scenario: must not be empty"),
            "{message}"
        );
    }

    // Loading.

    #[test]
    fn a_missing_manifest_file_is_no_manifest() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(&dir.path().join(".qa/manifest.yaml"))
            .unwrap()
            .is_none());
    }

    #[test]
    fn an_existing_manifest_file_is_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.yaml");
        std::fs::write(&path, EXAMPLE).unwrap();
        assert_eq!(load(&path).unwrap(), Some(example()));
    }

    #[test]
    fn a_broken_manifest_file_is_an_error_naming_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.yaml");
        std::fs::write(&path, "version: 1\nextra: 1\n").unwrap();
        let err = load(&path).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::DataErr);
        assert!(format!("{err:#}").contains(&path.display().to_string()));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_manifest_is_refused_even_to_a_valid_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("real.yaml"), EXAMPLE).unwrap();
        let path = dir.path().join("manifest.yaml");
        std::os::unix::fs::symlink("real.yaml", &path).unwrap();
        let err = load(&path).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::DataErr);
        assert!(format!("{err:#}").contains("is a symlink"), "{err:#}");
    }

    #[cfg(unix)]
    #[test]
    fn a_repositorys_qa_directory_must_not_be_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::fs::write(dir.path().join("real/manifest.yaml"), EXAMPLE).unwrap();
        std::os::unix::fs::symlink("real", dir.path().join(".qa")).unwrap();
        let err = load(&dir.path().join(".qa/manifest.yaml")).unwrap_err();
        assert!(format!("{err:#}").contains(".qa is a symlink"), "{err:#}");
        // Under another name the directory is the user's choice.
        std::os::unix::fs::symlink("real", dir.path().join("policy")).unwrap();
        assert!(load(&dir.path().join("policy/manifest.yaml")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_not_a_manifest() {
        let err = load(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::NoInput);
        assert!(format!("{err:#}").contains("is a device"), "{err:#}");
    }

    #[test]
    fn a_manifest_over_the_cap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.yaml");
        let padding = "#\n".repeat(usize::try_from(MAX_BYTES).unwrap() / 2);
        std::fs::write(&path, format!("version: 1\n{padding}")).unwrap();
        let err = load(&path).unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::DataErr);
        assert!(
            format!("{err:#}").contains("over the 1 MiB limit"),
            "{err:#}"
        );
    }

    // Globs.

    #[test]
    fn a_literal_glob_matches_only_that_path() {
        assert!(glob("src/cart.ts").matches("src/cart.ts"));
        assert!(!glob("src/cart.ts").matches("src/cart.tsx"));
        assert!(!glob("src/cart.ts").matches("lib/src/cart.ts"));
    }

    #[test]
    fn a_star_matches_within_one_segment() {
        assert!(glob("src/*.ts").matches("src/cart.ts"));
        assert!(glob("src/*.ts").matches("src/.ts"));
        assert!(!glob("src/*.ts").matches("src/checkout/cart.ts"));
        assert!(!glob("*.ts").matches("src/cart.ts"));
    }

    #[test]
    fn stars_backtrack_within_a_segment() {
        assert!(glob("a*b*c").matches("axxbyybzc"));
        assert!(!glob("a*b*c").matches("axxbyyc_"));
    }

    #[test]
    fn a_question_mark_matches_one_character_of_a_segment() {
        assert!(glob("src/v?.ts").matches("src/v2.ts"));
        assert!(glob("src/v?.ts").matches("src/vé.ts"));
        assert!(!glob("src/v?.ts").matches("src/v.ts"));
        assert!(!glob("src/v?.ts").matches("src/v10.ts"));
        assert!(!glob("src/v?x").matches("src/v/x"));
    }

    #[test]
    fn a_double_star_matches_any_depth() {
        let g = glob("src/checkout/**");
        assert!(g.matches("src/checkout/pay.ts"));
        assert!(g.matches("src/checkout/a/b/c.ts"));
        assert!(!g.matches("src/checkouts/pay.ts"));
        assert!(!g.matches("lib/src/checkout/pay.ts"));
    }

    #[test]
    fn a_double_star_in_the_middle_matches_zero_or_more_segments() {
        let g = glob("src/**/test_*.py");
        assert!(g.matches("src/test_a.py"));
        assert!(g.matches("src/x/y/test_a.py"));
        assert!(!g.matches("src/x/y/a_test.py"));
        assert!(!g.matches("test_a.py"));
    }

    #[test]
    fn a_leading_double_star_matches_at_any_depth() {
        assert!(glob("**/*.ts").matches("cart.ts"));
        assert!(glob("**/*.ts").matches("a/b/cart.ts"));
        assert!(!glob("**/*.ts").matches("a/b/cart.tsx"));
    }

    #[test]
    fn malformed_globs_are_refused() {
        for pattern in [
            "",
            "/src/a.ts",
            "src//a.ts",
            "src/",
            "src/../a.ts",
            "./src",
            "src/a**",
            "***",
            "src/[ab].ts",
            "src/{a,b}.ts",
            "src\\a.ts",
        ] {
            assert!(Glob::new(pattern).is_err(), "{pattern:?} was accepted");
        }
    }

    #[test]
    fn well_formed_globs_are_accepted() {
        for pattern in [
            "src/a.ts",
            "**",
            "*",
            "src/**/a?.ts",
            "*.config.*",
            ".github/**",
        ] {
            assert!(Glob::new(pattern).is_ok(), "{pattern:?} was refused");
        }
    }

    // Flows and suppressions.

    #[test]
    fn a_flow_is_found_by_a_changed_path() {
        let m = example();
        let flow = m.flow_for(&["README.md", "src/checkout/pay.ts"], &[]);
        assert_eq!(flow.map(|f| f.name.as_str()), Some("checkout"));
    }

    #[test]
    fn a_flow_is_found_by_a_changed_symbol() {
        let m = example();
        let flow = m.flow_for(&["src/other.ts"], &["searchProducts"]);
        assert_eq!(flow.map(|f| f.name.as_str()), Some("search"));
    }

    #[test]
    fn the_first_matching_flow_wins() {
        let m = example();
        let flow = m.flow_for(&["src/cart.ts"], &["searchProducts"]);
        assert_eq!(flow.map(|f| f.name.as_str()), Some("checkout"));
    }

    #[test]
    fn no_flow_matches_unrelated_paths_or_symbols() {
        let m = example();
        assert!(m
            .flow_for(&["src/cartography.ts"], &["submitorder", "Search"])
            .is_none());
        assert!(m.flow_for(&[], &[]).is_none());
    }

    #[test]
    fn a_suppression_matches_a_title_substring_ignoring_case() {
        let m = example();
        let s = m.suppression_for("Hover TOOLTIP shows the price", &[]);
        assert_eq!(s.map(|s| s.reason.as_str()), Some("cosmetic"));
    }

    #[test]
    fn a_suppression_with_paths_needs_evidence_under_them() {
        let m = example();
        let title = "Calendar dates are recognised";
        let s = m.suppression_for(title, &["src/analyzers/words.ts"]);
        assert_eq!(s.map(|s| s.scenario.as_str()), Some("calendar"));
        assert!(m
            .suppression_for(title, &["src/booking/calendar.ts"])
            .is_none());
        assert!(m.suppression_for(title, &[]).is_none());
    }

    #[test]
    fn no_suppression_matches_an_unrelated_title() {
        let m = example();
        assert!(m
            .suppression_for("Checkout charges once", &["src/analyzers/words.ts"])
            .is_none());
    }
}
