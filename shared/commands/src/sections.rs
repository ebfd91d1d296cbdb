//! Section headers and `key = "value"` lines of TOML and INI build files, read just far
//! enough to find a package name or a tool's section (no TOML parser: the two questions
//! asked never need one).

/// The name inside a `[header]` line; `[[array]]` headers come back as `[array` so they
/// never equal a plain section name.
fn header(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix('[')?;
    let end = inner.find(']')?;
    Some(inner[..end].trim())
}

/// True when the text has a `[name]` section.
pub fn has_section(text: &str, name: &str) -> bool {
    text.lines().any(|line| header(line) == Some(name))
}

/// The quoted string value of `key` in section `[section]`.
pub fn string_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines() {
        if let Some(name) = header(line) {
            inside = name == section;
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() != key {
            continue;
        }
        let v = v.trim();
        let quote = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let rest = &v[1..];
        return rest.find(quote).map(|end| rest[..end].to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARGO: &str = "[package]\nname = \"alpha\" # the crate\nversion = \"0.1.0\"\n\n[dependencies]\nname = \"not-this\"\n";

    #[test]
    fn the_package_name_is_read_from_its_section() {
        assert_eq!(
            string_value(CARGO, "package", "name").as_deref(),
            Some("alpha")
        );
    }

    #[test]
    fn a_key_of_another_section_is_not_taken() {
        let text = "[dependencies]\nname = \"x\"\n[package]\nversion = \"1\"\n";
        assert_eq!(string_value(text, "package", "name"), None);
    }

    #[test]
    fn a_name_inherited_from_the_workspace_is_not_a_string() {
        let text = "[package]\nname.workspace = true\n";
        assert_eq!(string_value(text, "package", "name"), None);
    }

    #[test]
    fn sections_are_found_by_exact_header() {
        let text = "[workspace]\nmembers = []\n[[bin]]\nname = \"b\"\n[tool.pytest.ini_options]\n";
        assert!(has_section(text, "workspace"));
        assert!(has_section(text, "tool.pytest.ini_options"));
        assert!(!has_section(text, "bin"));
        assert!(!has_section(text, "package"));
        assert!(!has_section("# [workspace]\n", "workspace"));
    }

    #[test]
    fn single_quoted_values_are_read() {
        let text = "[package]\nname = 'beta'\n";
        assert_eq!(
            string_value(text, "package", "name").as_deref(),
            Some("beta")
        );
    }
}
