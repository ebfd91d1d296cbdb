//! Comment-preserving text edits of the manifest: one item appended to the `flows:` or
//! `suppressions:` block sequence, every other byte of the file kept as it was.
//!
//! The manifest is reviewed by people and diffed in pull requests, so it is never
//! re-serialized: the new item is written in the file's own indentation and line endings
//! right after the last item of its block (or under a new key at the end of the file). The
//! caller re-validates the result with qa-intent's parser before anything is written.

use qa_records::exit::{failure, Exit};
use qa_records::untrusted::is_hidden;

/// The top-level sequence an item goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Flows,
    Suppressions,
}

impl Section {
    pub fn key(self) -> &'static str {
        match self {
            Section::Flows => "flows",
            Section::Suppressions => "suppressions",
        }
    }
}

/// One line of an appended item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// `key: value`, the value written as it is (an enum name such as `critical`).
    Plain(&'static str, String),
    /// `key: "text"`, quoted.
    Text(&'static str, String),
    /// `key: ["a", "b"]`, each element quoted.
    List(&'static str, Vec<String>),
    /// `# text`: a note for the reviewer, at the item's key indentation.
    Comment(String),
}

/// Dash and key columns of a block sequence item (`  - name:` is (2, 4)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Indent {
    dash: usize,
    key: usize,
}

const DEFAULT_INDENT: Indent = Indent { dash: 2, key: 4 };

/// `text` with one item appended to `section`'s block sequence. The first line must be a
/// key line. Refused (exit 65) when the key holds something other than a block sequence or
/// an empty `[]`, which cannot be appended to without rewriting it.
pub fn append(text: &str, section: Section, item: &[Line]) -> anyhow::Result<String> {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let indent = indent_of(&lines);
    let key = section.key();
    let rendered = render(item, indent, newline);

    let Some(at) = lines.iter().position(|l| value_of_key(l, key).is_some()) else {
        // No such key: a new block at the end of the file.
        let mut out = with_final_newline(text, newline);
        out.push_str(key);
        out.push(':');
        out.push_str(newline);
        out.push_str(&rendered);
        return Ok(out);
    };
    let value = value_of_key(lines[at], key).unwrap_or_default();
    let (value, comment) = split_comment(value);
    let mut out = String::with_capacity(text.len() + rendered.len());
    match value.trim() {
        "" => {
            let last = last_item_line(&lines, at);
            for (i, line) in lines.iter().enumerate() {
                out.push_str(line);
                if i == last {
                    if !line.ends_with('\n') {
                        out.push_str(newline);
                    }
                    out.push_str(&rendered);
                }
            }
        }
        "[]" => {
            // An empty flow sequence becomes a block one; a comment on the line stays.
            for (i, line) in lines.iter().enumerate() {
                if i != at {
                    out.push_str(line);
                    continue;
                }
                out.push_str(key);
                out.push(':');
                if let Some(comment) = comment {
                    out.push(' ');
                    out.push_str(comment.trim_end());
                }
                out.push_str(newline);
                out.push_str(&rendered);
            }
        }
        other => {
            return Err(failure(
                Exit::DataErr,
                format!(
                    "`{key}: {other}` is not a block sequence: write it as `{key}:` followed by `  - ...` items so qa-manifest can append to it"
                ),
            ))
        }
    }
    Ok(out)
}

/// A double-quoted YAML scalar holding exactly `text`: JSON-style escapes, plus `\u`
/// (`\U` past U+FFFF) escapes for what YAML does not allow unescaped (C0/C1 controls,
/// line and paragraph separators, U+FFFE/U+FFFF) and for every hidden character
/// (`untrusted::is_hidden`: format characters such as a zero-width space, the byte-order
/// mark or a bidi override), so a reviewer reading manifest.yaml sees each one as an
/// escape and no raw one can reorder or hide what the line says.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden(c) || matches!(c, '\u{2028}' | '\u{2029}' | '\u{fffe}' | '\u{ffff}') => {
                match u32::from(c) {
                    code @ ..=0xffff => out.push_str(&format!("\\u{code:04x}")),
                    code => out.push_str(&format!("\\U{code:08x}")),
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The item as text at `indent`, each line ending with `newline`.
fn render(item: &[Line], indent: Indent, newline: &str) -> String {
    let mut out = String::new();
    for (i, line) in item.iter().enumerate() {
        if i == 0 {
            out.push_str(&" ".repeat(indent.dash));
            out.push('-');
            out.push_str(&" ".repeat(indent.key - indent.dash - 1));
        } else {
            out.push_str(&" ".repeat(indent.key));
        }
        match line {
            Line::Plain(key, value) => out.push_str(&format!("{key}: {value}")),
            Line::Text(key, value) => out.push_str(&format!("{key}: {}", quote(value))),
            Line::List(key, values) => {
                let quoted: Vec<String> = values.iter().map(|v| quote(v)).collect();
                out.push_str(&format!("{key}: [{}]", quoted.join(", ")));
            }
            Line::Comment(text) => out.push_str(&format!("# {text}")),
        }
        out.push_str(newline);
    }
    out
}

/// What follows `key:` on a top-level key line, or None when the line is not that key.
fn value_of_key<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start_matches(' ');
    let value = rest.strip_prefix(':')?;
    let value = value.trim_end_matches(['\n', '\r']);
    (value.is_empty() || value.starts_with([' ', '\t'])).then_some(value)
}

/// A value and its trailing comment (`[]  # none yet`), if any.
fn split_comment(value: &str) -> (&str, Option<&str>) {
    match value.find(" #").or_else(|| value.find("\t#")) {
        Some(i) => (&value[..i], Some(value[i..].trim_start())),
        None => (value, None),
    }
}

/// The index of the last line belonging to the block under the key at `at`: its items,
/// their indented comments and continuation lines. A column-0 comment after the block
/// belongs to whatever follows it, so the new item goes before it.
fn last_item_line(lines: &[&str], at: usize) -> usize {
    let mut last = at;
    for (i, line) in lines.iter().enumerate().skip(at + 1) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with([' ', '\t']) || is_column0_item(line) {
            last = i;
        } else {
            break;
        }
    }
    last
}

/// `- ...` at column 0: YAML allows a sequence at the same indentation as its key.
fn is_column0_item(line: &str) -> bool {
    line.starts_with("- ") || line.trim_end() == "-"
}

/// The indentation of the file's first block sequence item under a top-level key.
fn indent_of(lines: &[&str]) -> Indent {
    let mut under_key = false;
    for line in lines {
        let trimmed = line.trim_start_matches(' ');
        if trimmed.trim().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let dash = line.len() - trimmed.len();
        if under_key && (trimmed.starts_with("- ") || trimmed.starts_with("-\t")) {
            let after = &trimmed[1..];
            let key = dash + 1 + (after.len() - after.trim_start_matches(' ').len());
            if key > dash + 1 {
                return Indent { dash, key };
            }
        }
        under_key = dash == 0 && trimmed.trim_end().ends_with(':');
    }
    DEFAULT_INDENT
}

fn with_final_newline(text: &str, newline: &str) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(newline);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(name: &str) -> Vec<Line> {
        vec![
            Line::Text("name", name.into()),
            Line::Plain("criticality", "normal".into()),
            Line::List("paths", vec!["src/a.ts".into()]),
        ]
    }

    fn parses(text: &str) -> qa_team_manifest::Manifest {
        qa_team_manifest::parse(text.as_bytes(), "m.yaml")
            .unwrap_or_else(|e| panic!("{e:#}\n{text}"))
    }

    #[test]
    fn an_item_is_appended_after_the_last_item_of_its_block() {
        let text = "version: 1\nflows:\n  - name: a\n    criticality: low\n    symbols: [x]\n# later\nsuppressions: []\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert_eq!(
            out,
            "version: 1\nflows:\n  - name: a\n    criticality: low\n    symbols: [x]\n  - name: \"b\"\n    criticality: normal\n    paths: [\"src/a.ts\"]\n# later\nsuppressions: []\n"
        );
        assert_eq!(parses(&out).flows.len(), 2);
    }

    #[test]
    fn the_files_own_indentation_is_kept() {
        let text = "version: 1\nflows:\n- name: a\n  criticality: low\n  symbols: [x]\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert!(
            out.ends_with("- name: \"b\"\n  criticality: normal\n  paths: [\"src/a.ts\"]\n"),
            "{out}"
        );
        assert_eq!(parses(&out).flows[1].name, "b");
    }

    #[test]
    fn a_missing_key_is_added_at_the_end() {
        let out = append(
            "version: 1 # v\n",
            Section::Suppressions,
            &[
                Line::Text("scenario", "x".into()),
                Line::Text("reason", "r".into()),
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            "version: 1 # v\nsuppressions:\n  - scenario: \"x\"\n    reason: \"r\"\n"
        );
    }

    #[test]
    fn a_file_without_a_final_newline_gets_one_before_the_new_key() {
        let out = append("version: 1", Section::Flows, &flow("b")).unwrap();
        assert!(out.starts_with("version: 1\nflows:\n  - name"), "{out}");
    }

    #[test]
    fn an_empty_flow_sequence_becomes_a_block_keeping_its_comment() {
        let text = "version: 1\nflows: []   # none yet\nsuppressions: []\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert_eq!(
            out,
            "version: 1\nflows: # none yet\n  - name: \"b\"\n    criticality: normal\n    paths: [\"src/a.ts\"]\nsuppressions: []\n"
        );
        parses(&out);
    }

    #[test]
    fn a_non_empty_flow_sequence_is_refused() {
        let err = append(
            "version: 1\nflows: [{name: a}]\n",
            Section::Flows,
            &flow("b"),
        )
        .unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::DataErr);
        assert!(
            format!("{err:#}").contains("not a block sequence"),
            "{err:#}"
        );
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text =
            "version: 1\r\nflows:\r\n  - name: a\r\n    criticality: low\r\n    symbols: [x]\r\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert!(out.starts_with(text));
        assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    }

    #[test]
    fn a_key_that_only_starts_like_the_section_is_not_it() {
        let text = "version: 1\nflowsx: 1\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert!(out.starts_with(text) && out.contains("\nflows:\n"), "{out}");
    }

    #[test]
    fn indented_comments_after_the_last_item_stay_with_it() {
        let text = "flows:\n  - name: a\n    # expected: []\n\nversion: 1\n";
        let out = append(text, Section::Flows, &flow("b")).unwrap();
        assert!(
            out.starts_with("flows:\n  - name: a\n    # expected: []\n  - name: \"b\""),
            "{out}"
        );
    }

    #[test]
    fn quoting_round_trips_through_the_parser() {
        for text in [
            "plain",
            "yes",
            "a: b # c",
            "\"q\" \\ ",
            "tab\there",
            "line\nbreak",
            "\u{85}nel\u{2028}",
            "é 日本 🎉",
            "- [x] {y}",
            "'single'",
            "Ign\u{200b}ore \u{2060}\u{ad}\u{202e}txt.exe\u{feff}",
            "tag \u{e0041}\u{e007f}",
        ] {
            let yaml = format!(
                "version: 1\nsuppressions:\n  - scenario: {}\n    reason: r\n",
                quote(text)
            );
            assert_eq!(parses(&yaml).suppressions[0].scenario, text, "{yaml}");
        }
    }

    #[test]
    fn a_quoted_scalar_holds_no_raw_hidden_character() {
        let quoted = quote("Ign\u{200b}ore \u{202e}gpj.exe \u{e0041}");
        assert_eq!(quoted, r#""Ign\u200bore \u202egpj.exe \U000e0041""#);
        // The control: the detector below finds a raw one in the text before quoting.
        let raw = |s: &str| s.chars().any(is_hidden);
        assert!(raw("Ign\u{200b}ore") && !raw(&quoted));
    }
}
