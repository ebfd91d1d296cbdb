//! qa-syntax's readers of repository code: any text read by every grammar, and as a Vue
//! or Svelte component: outlines, imports, each line's facts and `@qa` annotations.

use qa_syntax::{sfc, Grammar};

const GRAMMARS: [Grammar; 8] = [
    Grammar::Rust,
    Grammar::TypeScript,
    Grammar::Tsx,
    Grammar::JavaScript,
    Grammar::Python,
    Grammar::Go,
    Grammar::Java,
    Grammar::Kotlin,
];

/// `data` as the text of a file in each grammar and as a component: lines stay within the
/// text, every symbol's parent comes before it.
pub fn syntax(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines = u32::try_from(text.lines().count() + 1).unwrap_or(u32::MAX);
    let mut files: Vec<qa_syntax::File> = GRAMMARS
        .iter()
        .map(|&g| qa_syntax::read(g, &text))
        .collect();
    files.push(sfc::read(&text));
    let all: std::collections::BTreeSet<u32> = (1..=lines).collect();
    for g in GRAMMARS {
        let Some(tree) = qa_syntax::parse(g, &text) else {
            continue;
        };
        let facts = qa_syntax::lines::read(g, &tree, &text, &all);
        assert!(
            facts.keys().eq(all.iter()),
            "{g:?}: a line outside those asked"
        );
        assert!(facts
            .values()
            .all(|f| f.calls.iter().all(|c| !c.is_empty())));
        for a in qa_syntax::annotations::read(g, &tree, &text, &all) {
            assert!(all.contains(&a.line), "{a:?}");
        }
    }
    let facts = qa_syntax::lines::read_component(&text, &all);
    assert!(
        facts.keys().eq(all.iter()),
        "a component line outside those asked"
    );
    for file in files {
        for (i, symbol) in file.symbols.iter().enumerate() {
            assert!(
                symbol.start <= symbol.end && symbol.end <= lines,
                "{symbol:?}"
            );
            assert!(symbol.parent.is_none_or(|p| p < i), "{symbol:?}");
        }
        for import in &file.imports {
            assert!(import.line >= 1 && import.line <= lines, "{import:?}");
        }
    }
}
