//! Impact bounds: an import cycle ends, a long chain is cut at the depth bound, and
//! the cut is recorded.

use crate::common;
use common::*;
use qa_graph::impact::Bounds;

#[test]
fn an_import_cycle_is_followed_once_and_ends() {
    let files = [
        (
            "package.json",
            r#"{"name": "c", "dependencies": {"next": "15"}}"#,
        ),
        (
            "lib/a.ts",
            "import { b } from './b';\nexport const a = () => b();\n",
        ),
        (
            "lib/b.ts",
            "import { c } from './c';\nexport const b = () => c();\n",
        ),
        (
            "lib/c.ts",
            "import { a } from './a';\nexport const c = () => 1;\n",
        ),
        ("lib/d.ts", "export const d = 4;\n"),
        (
            "pages/index.tsx",
            "import { a } from '../lib/a';\nexport default () => a();\n",
        ),
        (
            "pages/other.tsx",
            "import { d } from '../lib/d';\nexport default () => d;\n",
        ),
    ];
    let change = Change::edit(
        &files,
        "lib/c.ts",
        "import { a } from './a';\nexport const c = () => 2;\n",
    );
    let cg = change.analyze();
    let reached = reached(&cg);
    assert!(reached.contains("route /"), "{reached:?}");
    assert!(!reached.contains("route /other"), "{reached:?}");
    for file in ["lib/a.ts", "lib/b.ts"] {
        assert!(reaches_file(&cg, file), "{file}");
    }
}

/// f0 <- f1 <- ... <- f9: each file imports the one before it.
fn chain() -> Vec<(String, String)> {
    (0..10)
        .map(|i| {
            let text = match i {
                0 => "export const v0 = 0;\n".to_string(),
                _ => format!(
                    "import {{ v{p} }} from './f{p}';\nexport const v{i} = v{p} + 1;\n",
                    p = i - 1
                ),
            };
            (format!("src/f{i}.ts"), text)
        })
        .collect()
}

fn chain_change() -> Change {
    let files = chain();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    Change::edit(&files, "src/f0.ts", "export const v0 = 10;\n")
}

#[test]
fn impact_stops_at_the_depth_bound_and_records_the_cut() {
    let cg = chain_change().analyze();
    let depth = Bounds::default().depth as usize;
    assert!(reaches_file(&cg, &format!("src/f{depth}.ts")));
    assert!(!reaches_file(&cg, &format!("src/f{}.ts", depth + 1)));
    assert_eq!(cg.impacts.cut_by_depth, 1);
    assert_eq!(
        cg.impacts.nodes[&NodeKey::file(format!("src/f{depth}.ts"))].hops,
        depth as u32
    );
}

#[test]
fn a_wider_bound_reaches_the_whole_chain_and_cuts_nothing() {
    let cg = chain_change().analyze_bounded(Bounds {
        depth: 20,
        fan_out: 200,
    });
    assert!(reaches_file(&cg, "src/f9.ts"));
    assert_eq!(cg.impacts.cut_by_depth, 0);
}

#[test]
fn fan_out_past_the_bound_is_cut_and_counted() {
    let mut files = vec![(
        "src/shared.ts".to_string(),
        "export const s = 1;\n".to_string(),
    )];
    for i in 0..5 {
        files.push((
            format!("src/user{i}.ts"),
            "import { s } from './shared';\nexport const u = s;\n".to_string(),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let change = Change::edit(&files, "src/shared.ts", "export const s = 2;\n");
    let cg = change.analyze_bounded(Bounds {
        depth: 6,
        fan_out: 3,
    });
    let reached_users = (0..5)
        .filter(|i| reaches_file(&cg, &format!("src/user{i}.ts")))
        .count();
    assert_eq!(reached_users, 3);
    assert_eq!(cg.impacts.cut_by_fan_out, 2);
}
