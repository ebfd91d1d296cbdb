//! Playwright locators read from changed lines: `data-testid`, `aria-label`, `role` and
//! element text, in that order of preference, and the element a listener or a stored value
//! names through a variable assigned on another changed line of the same file.

use std::sync::LazyLock;

use regex::Regex;

use super::sources::ChangedLines;

/// How the spec finds an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Locator {
    TestId(String),
    /// An `aria-label` (Playwright's `getByLabel` matches it).
    Label(String),
    Role {
        role: String,
        name: Option<String>,
    },
    Text(String),
}

impl Locator {
    /// The TypeScript expression that finds the element on `page`.
    pub fn code(&self) -> String {
        match self {
            Locator::TestId(id) => format!("page.getByTestId({})", js(id)),
            Locator::Label(label) => format!("page.getByLabel({}, {{ exact: true }})", js(label)),
            Locator::Role { role, name: None } => format!("page.getByRole({})", js(role)),
            Locator::Role {
                role,
                name: Some(name),
            } => format!("page.getByRole({}, {{ name: {} }})", js(role), js(name)),
            Locator::Text(text) => format!("page.getByText({}, {{ exact: true }})", js(text)),
        }
    }
}

/// A JavaScript string literal (JSON's escaping is valid JavaScript).
pub fn js(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("locator pattern")
}

// Attribute values in markup (`data-testid="x"`, `={"x"}`) and in CSS attribute selectors.
static TEST_ID: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:data-testid|data-test-id|data-test|data-cy|data-qa|testID)\s*=\s*\{?\s*["'`]([^"'`]+)["'`]|getByTestId\(\s*["'`]([^"'`]+)["'`]"#,
    )
});
static ARIA_LABEL: LazyLock<Regex> =
    LazyLock::new(|| re(r#"aria-label\s*=\s*\{?\s*["'`]([^"'`]+)["'`]"#));
static ROLE: LazyLock<Regex> = LazyLock::new(|| re(r#"\brole\s*=\s*\{?\s*["'`]([a-z]+)["'`]"#));
static BUTTON_TEXT: LazyLock<Regex> =
    LazyLock::new(|| re(r"<(button|a)\b[^>]*>\s*([^<>{}]*[A-Za-z][^<>{}]*?)\s*</(?:button|a)>"));

/// The element a changed line names, when it names one.
pub fn on_line(text: &str) -> Option<Locator> {
    let first = |r: &Regex| {
        r.captures(text).and_then(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .next()
                .map(|m| m.as_str().to_string())
        })
    };
    if let Some(id) = first(&TEST_ID) {
        return Some(Locator::TestId(id));
    }
    if let Some(label) = first(&ARIA_LABEL) {
        return Some(Locator::Label(label));
    }
    let text_of = BUTTON_TEXT.captures(text);
    if let Some(role) = first(&ROLE) {
        let name = text_of.as_ref().map(|c| c[2].trim().to_string());
        return Some(Locator::Role { role, name });
    }
    text_of.map(|c| {
        let role = if &c[1] == "a" { "link" } else { "button" };
        Locator::Role {
            role: role.to_string(),
            name: Some(c[2].trim().to_string()),
        }
    })
}

/// The element `line` names itself, or through the variable it starts from
/// (`saveButton.addEventListener(...)`, `themeInput.value`) when a changed line of `file`
/// assigns that variable a located element. Returns the locator and the line it was read on.
pub fn element(
    lines: &ChangedLines,
    file: &str,
    text: &str,
    at: u32,
    variable: Option<&str>,
) -> Option<(Locator, u32)> {
    if let Some(found) = on_line(text) {
        return Some((found, at));
    }
    let var = variable?;
    let assign = re(&format!(
        r"(?:\b(?:const|let|var)\s+|^\s*|\bthis\.){}\s*=[^=]",
        regex::escape(var)
    ));
    lines
        .of(file)
        .filter(|(_, t)| assign.is_match(t))
        .find_map(|(n, t)| on_line(t).map(|l| (l, n)))
}

/// The receiver of a listener call: `saveButton` in `saveButton.addEventListener(...)`.
pub fn listener_receiver(text: &str) -> Option<String> {
    static RECEIVER: LazyLock<Regex> =
        LazyLock::new(|| re(r"([A-Za-z_$][\w$]*)\s*\.\s*addEventListener\s*\("));
    RECEIVER.captures(text).map(|c| c[1].to_string())
}

/// The handler a listener line names: `saveSettings` in
/// `addEventListener("click", saveSettings)`.
pub fn listener_handler(text: &str) -> Option<String> {
    static HANDLER: LazyLock<Regex> = LazyLock::new(|| {
        re(r#"addEventListener\s*\(\s*["'`]\w+["'`]\s*,\s*(?:\(\)\s*=>\s*)?([A-Za-z_$][\w$.]*)"#)
    });
    HANDLER
        .captures(text)
        .map(|c| c[1].trim_start_matches("this.").to_string())
}

/// The function a changed line declares (`function save(`, `const save = (...) =>`).
pub fn declared_function(text: &str) -> Option<String> {
    static DECLARED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\bfunction\s+([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>",
        )
    });
    DECLARED
        .captures(text)
        .and_then(|c| c.get(1).or(c.get(2)))
        .map(|m| m.as_str().to_string())
}

/// A click-like event name (`click`, `onClick`, `onPress`, `tap`).
pub fn is_click(event: &str) -> bool {
    let e = event.to_ascii_lowercase();
    let e = e.strip_prefix("on").unwrap_or(&e);
    matches!(e, "click" | "press" | "tap")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_id_wins_over_a_label_and_text() {
        let l = on_line(r#"<button data-testid="save" aria-label="Save it">Save</button>"#);
        assert_eq!(l, Some(Locator::TestId("save".into())));
    }

    #[test]
    fn a_css_attribute_selector_names_a_test_id() {
        let l = on_line(r#"const b = document.querySelector('[data-testid="save-settings"]');"#);
        assert_eq!(l, Some(Locator::TestId("save-settings".into())));
    }

    #[test]
    fn button_text_is_a_role_with_a_name_and_plain_code_is_no_locator() {
        assert_eq!(
            on_line("<button onClick={save}>Save</button>"),
            Some(Locator::Role {
                role: "button".into(),
                name: Some("Save".into())
            })
        );
        assert_eq!(on_line("const total = price * amount;"), None);
    }

    #[test]
    fn a_variable_is_resolved_only_through_a_changed_assignment() {
        let mut lines = ChangedLines::default();
        lines.insert(
            "a.js",
            1,
            r#"const saveButton = document.querySelector('[data-testid="s"]');"#,
        );
        lines.insert("a.js", 2, r#"saveButton.addEventListener("click", save);"#);
        let text = lines.line("a.js", 2).unwrap();
        let var = listener_receiver(text);
        assert_eq!(
            element(&lines, "a.js", text, 2, var.as_deref()),
            Some((Locator::TestId("s".into()), 1))
        );
        assert_eq!(element(&lines, "a.js", text, 2, Some("other")), None);
    }
}
