//! PLACEHOLDER until the language-aware reader lands (another agent is writing this file;
//! overwrite it freely).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    TypeScript,
    Python,
    Rust,
    Go,
    Other,
}

pub fn language_of(path: &str) -> Language {
    match path.rsplit('.').next().unwrap_or("") {
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" => Language::TypeScript,
        "py" => Language::Python,
        "rs" => Language::Rust,
        "go" => Language::Go,
        _ => Language::Other,
    }
}

#[derive(Debug, Clone, Default)]
pub struct LexState;

#[derive(Debug, Clone, Default)]
pub struct LineFacts {
    pub calls: Vec<String>,
    pub declared: Vec<String>,
    pub exported: bool,
    pub identifiers: Vec<String>,
    pub strings: Vec<String>,
    pub matcher_strings: Vec<String>,
    pub jsx_text: Vec<String>,
    pub jsx_attrs: Vec<(String, String)>,
    pub comment: Option<String>,
}

pub fn read_line(_lang: Language, text: &str, _state: &mut LexState) -> LineFacts {
    let mut f = LineFacts::default();
    let mut word = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i <= chars.len() {
        let c = chars.get(i).copied().unwrap_or(' ');
        if c.is_alphanumeric() || c == '_' || c == '.' {
            word.push(c);
        } else {
            if !word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()) {
                if c == '(' {
                    f.calls.push(word.clone());
                }
                f.identifiers.push(word.clone());
            }
            word.clear();
            if c == '"' || c == '\'' {
                let mut j = i + 1;
                while j < chars.len() && chars[j] != c {
                    j += 1;
                }
                f.strings.push(chars[i + 1..j.min(chars.len())].iter().collect());
                i = j;
            }
        }
        i += 1;
    }
    f
}

pub fn test_contracts(_lang: Language, _path: &str, _lines: &[(u32, &str)]) -> Vec<(u32, String, &'static str)> {
    Vec::new()
}

pub fn annotations(_lines: &[(u32, &str)]) -> Vec<(u32, String, String)> {
    Vec::new()
}
