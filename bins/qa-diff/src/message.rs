//! Commit messages: conventional-commit type, scope and breaking flag, and ticket tags.

use regex::Regex;
use std::sync::LazyLock;

/// Conventional-commit types recognised as such; any other `word:` prefix is plain text.
const TYPES: &[&str] = &[
    "feat", "fix", "hotfix", "perf", "refactor", "docs", "style", "ci", "test", "tests", "build",
    "chore", "release", "revert", "deps", "security",
];

/// Upper-case prefixes that look like ticket keys but name standards (`UTF-8`, `SHA-256`).
const NOT_TICKETS: &[&str] = &[
    "UTF", "SHA", "MD", "ISO", "RFC", "CVE", "CWE", "HTTP", "TLS", "SSL", "AES", "RSA", "UCS", "X",
    "ES", "ECMA", "IEEE", "PEP", "WCAG", "H", "P",
];

static CONVENTIONAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()\r\n]*)\))?(?P<bang>!)?:\s+\S")
        .expect("constant regex")
});
static KEY_TICKET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^A-Za-z0-9_/-])(?P<key>[A-Z][A-Z0-9]{0,9})-(?P<num>[1-9][0-9]{0,8})\b")
        .expect("constant regex")
});
static HASH_TICKET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(\[,;:])#(?P<num>[1-9][0-9]{0,8})\b").expect("constant regex")
});
/// A body line that is only a closing keyword and the tickets it closes (`Fixes #12`,
/// `Closes ABC-3, #4`).
static CLOSES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?):?\s+(?:#[1-9][0-9]*|[A-Z][A-Z0-9]{0,9}-[1-9][0-9]*)(?:\s*(?:,|and)\s*(?:#[1-9][0-9]*|[A-Z][A-Z0-9]{0,9}-[1-9][0-9]*))*\s*\.?\s*$",
    )
    .expect("constant regex")
});
static TRAILER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z0-9-]*: \S").expect("constant regex"));

/// What a commit message says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    pub subject: String,
    pub body: String,
    /// The conventional type, lowercased, or None for a plain subject.
    pub kind: Option<String>,
    pub scope: Option<String>,
    pub breaking: bool,
    /// Ticket tags (`ABC-123`, `#123`) from the subject and trailers, sorted, unique.
    pub tickets: Vec<String>,
}

/// Parses a full commit message.
pub fn parse(message: &str) -> Parsed {
    let message = message.replace("\r\n", "\n");
    let (subject, body) = match message.split_once('\n') {
        Some((s, rest)) => (s.trim().to_string(), rest.trim().to_string()),
        None => (message.trim().to_string(), String::new()),
    };
    let mut parsed = Parsed {
        subject,
        body,
        ..Parsed::default()
    };
    if let Some(c) = CONVENTIONAL.captures(&parsed.subject) {
        let kind = c["type"].to_ascii_lowercase();
        if TYPES.contains(&kind.as_str()) {
            parsed.scope = c
                .name("scope")
                .map(|s| s.as_str().trim().to_string())
                .filter(|s| !s.is_empty());
            parsed.breaking = c.name("bang").is_some();
            parsed.kind = Some(kind);
        }
    }
    let trailers = trailers(&parsed.body);
    if trailers
        .iter()
        .any(|t| t.starts_with("BREAKING CHANGE:") || t.starts_with("BREAKING-CHANGE:"))
        && parsed.kind.is_some()
    {
        parsed.breaking = true;
    }
    let mut tickets = tickets_in(&parsed.subject);
    for t in &trailers {
        tickets.extend(tickets_in(t));
    }
    // GitHub's and GitLab's closing keywords name the issue anywhere in the body.
    for line in parsed.body.lines().filter(|l| CLOSES.is_match(l)) {
        tickets.extend(tickets_in(line));
    }
    tickets.sort();
    tickets.dedup();
    parsed.tickets = tickets;
    parsed
}

/// The trailer lines of a body: its last paragraph, when every line is `Key: value`
/// (a `BREAKING CHANGE:` footer counts as a trailer line, as the conventional spec says).
fn trailers(body: &str) -> Vec<&str> {
    let Some(last) = body.rsplit("\n\n").next() else {
        return Vec::new();
    };
    let lines: Vec<&str> = last
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let is_trailer = |l: &&str| TRAILER.is_match(l) || l.starts_with("BREAKING CHANGE: ");
    if !lines.is_empty() && lines.iter().all(is_trailer) {
        lines
    } else {
        Vec::new()
    }
}

fn tickets_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in KEY_TICKET.captures_iter(text) {
        let key = &c["key"];
        if !NOT_TICKETS.contains(&key) {
            out.push(format!("{key}-{}", &c["num"]));
        }
    }
    for c in HASH_TICKET.captures_iter(text) {
        out.push(format!("#{}", &c["num"]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventional_type_scope_and_bang_are_parsed() {
        let p = parse("feat(ui)!: add dark mode");
        assert_eq!(p.kind.as_deref(), Some("feat"));
        assert_eq!(p.scope.as_deref(), Some("ui"));
        assert!(p.breaking);
    }

    #[test]
    fn a_plain_subject_has_no_type() {
        let p = parse("Add support for dark mode");
        assert_eq!(p.kind, None);
        assert!(!p.breaking);
    }

    #[test]
    fn an_unknown_word_before_a_colon_is_not_a_type() {
        assert_eq!(parse("auth: accept expired tokens within grace").kind, None);
        assert_eq!(
            parse("Fix: crash on empty cart").kind.as_deref(),
            Some("fix")
        );
    }

    #[test]
    fn closing_keywords_in_the_body_name_tickets() {
        let p = parse("feat: export invoices\n\nAdds the CSV export.\nFixes #12\nCloses ABC-3");
        assert_eq!(p.tickets, vec!["#12", "ABC-3"]);
        // A number in prose is no ticket.
        let p = parse("feat: export invoices\n\nHandles #12 of the 40 columns.");
        assert!(p.tickets.is_empty(), "{:?}", p.tickets);
    }

    #[test]
    fn breaking_change_footer_sets_breaking() {
        let p = parse("fix: x\n\nlong text\n\nBREAKING CHANGE: the flag is gone");
        assert!(p.breaking);
        assert!(!parse("fix: x\n\nthis mentions BREAKING CHANGE: in prose\nand more").breaking);
    }

    #[test]
    fn subject_and_body_are_split_and_trimmed() {
        let p = parse("fix: a\r\n\r\nbody line\r\n");
        assert_eq!(p.subject, "fix: a");
        assert_eq!(p.body, "body line");
    }

    #[test]
    fn ticket_keys_and_hash_numbers_come_from_subject_and_trailers() {
        let p = parse(
            "feat: login (ABC-12) closes #7\n\nMentions XYZ-9 in prose.\n\nRefs: PAY-300, #41",
        );
        assert_eq!(p.tickets, vec!["#41", "#7", "ABC-12", "PAY-300"]);
    }

    #[test]
    fn tickets_in_body_prose_are_not_taken() {
        assert!(parse("fix: x\n\nsee ABC-1 and #2 here\nand continue")
            .tickets
            .is_empty());
    }

    #[test]
    fn standards_and_colours_are_not_tickets() {
        let p = parse("fix: decode UTF-8 and SHA-256 names, colour #fff, ISO-8601 dates, a&#123;");
        assert!(p.tickets.is_empty(), "{:?}", p.tickets);
    }

    #[test]
    fn lowercase_keys_are_not_tickets() {
        assert!(parse("fix: abc-123 and x86-64").tickets.is_empty());
    }
}
