//! Hand-typed lists of the binaries: the one list is the folders of `bins/`; a list typed
//! elsewhere drifts when a binary is added. Found as three or more binary names in a row:
//! one per line as Rust string literals (`"qa-diff",`), or on one line separated by
//! blanks, quotes, commas or brackets (shell, make, a Rust array on one line), outside
//! comments. A pipeline (`qa-diff | qa-intent`) is not a list.

/// The hand lists in `text`: for each, its first line (1-based) and the names in it. Only
/// names in `binaries` count.
pub fn hand_lists(text: &str, binaries: &[String]) -> Vec<(usize, Vec<String>)> {
    let is_bin = |w: &str| binaries.iter().any(|b| b == w);
    let mut found = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut run_start = 0;
    for (i, line) in text.lines().enumerate() {
        let literal = line
            .trim()
            .strip_prefix('"')
            .and_then(|l| l.strip_suffix("\",").or_else(|| l.strip_suffix('"')))
            .filter(|name| is_bin(name));
        match literal {
            Some(name) => {
                if run.is_empty() {
                    run_start = i + 1;
                }
                run.push(name.to_string());
                continue;
            }
            None => {
                if run.len() >= 3 {
                    found.push((run_start, std::mem::take(&mut run)));
                }
                run.clear();
            }
        }
        // Prose in comments may name binaries in a row; a list is code.
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || "\"'=,[]()".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        let mut longest: Vec<String> = Vec::new();
        let mut current: Vec<String> = Vec::new();
        for w in words {
            if is_bin(w) {
                current.push(w.to_string());
            } else {
                current.clear();
            }
            if current.len() > longest.len() {
                longest = current.clone();
            }
        }
        if longest.len() >= 3 {
            found.push((i + 1, longest));
        }
    }
    if run.len() >= 3 {
        found.push((run_start, run));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bins() -> Vec<String> {
        ["qa-a", "qa-b", "qa-c", "qa-d"].map(String::from).to_vec()
    }

    #[test]
    fn rust_literals_one_per_line_are_a_hand_list() {
        let text = "const BINS: [&str; 3] = [\n    \"qa-a\",\n    \"qa-b\",\n    \"qa-c\",\n];\n";
        assert_eq!(hand_lists(text, &bins()), [(2, bins()[..3].to_vec())]);
    }

    #[test]
    fn a_shell_word_list_is_a_hand_list() {
        let text = "x=1\nbins=\"qa-a qa-b qa-c qa-d\"\n";
        assert_eq!(hand_lists(text, &bins()), [(2, bins())]);
    }

    #[test]
    fn a_rust_array_on_one_line_is_a_hand_list() {
        let text = "let all = [\"qa-a\", \"qa-b\", \"qa-c\"];\n";
        assert_eq!(hand_lists(text, &bins()).len(), 1);
    }

    #[test]
    fn two_names_or_names_apart_are_not_a_list() {
        let text = "\"qa-a\",\n\"qa-b\",\nother\n\"qa-c\",\nrun qa-a then qa-b, not qa-c\n";
        assert!(hand_lists(text, &bins()).is_empty());
    }

    #[test]
    fn a_pipeline_or_a_comment_is_not_a_list() {
        let text = "qa-a | qa-b | qa-c\n/// reads qa-a, qa-b, qa-c records\n# qa-a qa-b qa-c\n";
        assert!(hand_lists(text, &bins()).is_empty());
    }

    #[test]
    fn names_that_are_not_binaries_do_not_count() {
        let text = "\"qa-x\",\n\"qa-y\",\n\"qa-z\",\nqa-x qa-y qa-z\n";
        assert!(hand_lists(text, &bins()).is_empty());
    }
}
