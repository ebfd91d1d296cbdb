//! Web fixtures: a shared component reaches the pages that render it, through Next.js
//! file routes and React Router elements, and nothing that does not import it.

use crate::common;
use common::*;

const NEXT_PACKAGE: &str =
    r#"{"name": "shop", "dependencies": {"next": "15.0.0", "react": "19.0.0"}}"#;

fn shop_with_button() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", NEXT_PACKAGE),
        ("components/Button.tsx", "export function Button() { return <button>Pay</button>; }\n"),
        ("components/Header.tsx", "export const Header = () => <h1>Shop</h1>;\n"),
        (
            "pages/checkout.tsx",
            "import { Button } from '../components/Button';\nexport default function Checkout() { return <Button/>; }\n",
        ),
        (
            "pages/cart/index.tsx",
            "import { Button } from \"@/components/Button\";\nimport { Header } from '../../components/Header';\nexport default () => <Button/>;\n",
        ),
        (
            "pages/about.tsx",
            "import { Header } from '../components/Header';\nexport default () => <Header/>;\n",
        ),
    ]
}

#[test]
fn a_shared_button_reaches_both_pages_that_import_it() {
    // The cart imports it as `@/components/Button`: `@/` is the package root without src/.
    let change = Change::edit(
        &shop_with_button(),
        "components/Button.tsx",
        "export function Button() { return <button>Pay now</button>; }\n",
    );
    let cg = change.analyze();
    let reached = reached(&cg);
    assert!(reached.contains("route /checkout"), "{reached:?}");
    assert!(reached.contains("route /cart"), "{reached:?}");
}

#[test]
fn the_page_that_does_not_import_the_button_is_not_reached() {
    let change = Change::edit(
        &shop_with_button(),
        "components/Button.tsx",
        "export function Button() { return <button>Pay now</button>; }\n",
    );
    let cg = change.analyze();
    assert!(!reached(&cg).contains("route /about"), "{:?}", reached(&cg));
    assert!(!reaches_file(&cg, "components/Header.tsx"));
}

#[test]
fn a_header_change_reaches_about_and_cart_but_not_checkout() {
    let change = Change::edit(
        &shop_with_button(),
        "components/Header.tsx",
        "export const Header = () => <h1>Our shop</h1>;\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("route /about"), "{reached:?}");
    assert!(reached.contains("route /cart"), "{reached:?}");
    assert!(!reached.contains("route /checkout"), "{reached:?}");
}

#[test]
fn without_next_in_package_json_pages_are_files_not_routes() {
    let mut files = shop_with_button();
    files[0].1 = r#"{"name": "shop", "dependencies": {"react": "19.0.0"}}"#;
    let change = Change::edit(
        &files,
        "components/Button.tsx",
        "export function Button() { return <button>Pay now</button>; }\n",
    );
    let cg = change.analyze();
    assert!(reached(&cg).is_empty(), "{:?}", reached(&cg));
    assert!(reaches_file(&cg, "pages/checkout.tsx"));
}

fn router_app() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", r#"{"name": "spa", "dependencies": {"react-router-dom": "7.0.0"}}"#),
        ("src/ui/Button.tsx", "export const Button = () => <button>Go</button>;\n"),
        ("src/ui/Badge.tsx", "export const Badge = () => <span>New</span>;\n"),
        (
            "src/screens/Checkout.tsx",
            "import { Button } from '../ui/Button';\nexport default function Checkout() { return <Button/>; }\n",
        ),
        (
            "src/screens/Orders.tsx",
            "import { Badge } from '../ui/Badge';\nexport function Orders() { return <Badge/>; }\n",
        ),
        (
            "src/App.tsx",
            "import { Routes, Route } from 'react-router-dom';\nimport Checkout from './screens/Checkout';\nimport { Orders } from './screens/Orders';\nexport function App() {\n  return (<Routes>\n    <Route path=\"/checkout\" element={<Checkout />} />\n    <Route path=\"/orders\" element={<Orders />} />\n  </Routes>);\n}\n",
        ),
    ]
}

#[test]
fn a_react_router_route_rendering_a_screen_that_imports_the_change_is_reached() {
    let change = Change::edit(
        &router_app(),
        "src/ui/Button.tsx",
        "export const Button = () => <button>Go on</button>;\n",
    );
    let cg = change.analyze();
    let reached = reached(&cg);
    assert!(reached.contains("route /checkout"), "{reached:?}");
    assert!(!reached.contains("route /orders"), "{reached:?}");
    assert_eq!(
        qa_graph::records::reaches(&cg, ["src/ui/Button.tsx"]),
        ["route /checkout"]
    );
}

/// Two Next.js apps with a `src/util.ts` each, and a `@mono/ui` package only admin
/// imports (by name, its `main` pointing at a build): what does editing `path` reach?
fn monorepo_reached(path: &str, text: &str) -> std::collections::BTreeSet<String> {
    let files = [
        ("packages/shop/package.json", r#"{"name": "@mono/shop", "dependencies": {"next": "15.0.0"}}"#),
        ("packages/shop/src/util.ts", "export const price = (n: number) => n;\n"),
        ("packages/shop/pages/index.tsx", "import { price } from '../src/util';\nexport default () => price(1);\n"),
        ("packages/admin/package.json", r#"{"name": "@mono/admin", "dependencies": {"next": "15.0.0", "@mono/ui": "*"}}"#),
        ("packages/admin/src/util.ts", "export const price = (n: number) => n;\n"),
        ("packages/admin/pages/index.tsx", "import { price } from '../src/util';\nimport { Table } from '@mono/ui';\nexport default () => price(2);\n"),
        ("packages/ui/package.json", r#"{"name": "@mono/ui", "main": "dist/index.js"}"#),
        ("packages/ui/src/index.ts", "export const Table = () => null;\n"),
    ];
    reached(&Change::new(&files, &[(path, text)]).analyze())
}

#[test]
fn a_monorepo_change_stays_inside_the_package_that_imports_it() {
    let reached = monorepo_reached(
        "packages/shop/src/util.ts",
        "export const price = (n: number) => n * 2;\n",
    );
    assert!(reached.contains("route / (packages/shop)"), "{reached:?}");
    assert!(!reached.contains("route / (packages/admin)"), "{reached:?}");
}

#[test]
fn a_workspace_package_change_reaches_only_the_package_importing_it_by_name() {
    let reached = monorepo_reached(
        "packages/ui/src/index.ts",
        "export const Table = () => 'table';\n",
    );
    assert!(reached.contains("route / (packages/admin)"), "{reached:?}");
    assert!(!reached.contains("route / (packages/shop)"), "{reached:?}");
}

#[test]
fn a_path_changed_only_in_the_working_tree_counts_as_changed() {
    // Base and head are the same commit: only the diff's paths say what changed.
    let change = Change::new(&shop_with_button(), &[]);
    let analyze = |changed: &[&str]| {
        qa_graph::analyze(
            change.repo.path(),
            &change.head,
            &change.head,
            &changed.iter().map(|p| p.to_string()).collect(),
            &qa_graph::adapters(),
            &qa_graph::Options::default(),
        )
        .unwrap()
    };
    assert!(reached(&analyze(&[])).is_empty());
    let reached = reached(&analyze(&["components/Button.tsx"]));
    assert!(reached.contains("route /checkout"), "{reached:?}");
    assert!(!reached.contains("route /about"), "{reached:?}");
}
