//! React Router: `<Route path=".." element={<X/>}>` (and `component={X}`) elements and
//! `{ path: "..", element: <X/> }` route objects, each a route whose screen is the file
//! `X` was imported from (or the router file, when it declares `X` itself).

use super::add_route;
use crate::adapter::{holds, Adapter, Context, Detection, Layer, TextTest};
use crate::language::{files_with, typescript, Lines};
use crate::model::{Fragment, Located};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use regex::Regex;
use std::sync::LazyLock;

/// The React Router framework adapter.
#[derive(Debug)]
pub struct ReactRouter {
    /// Modules importing react-router.
    importers: TextTest,
    /// Modules that may declare routes.
    route_tables: TextTest,
}

impl Default for ReactRouter {
    fn default() -> ReactRouter {
        ReactRouter {
            importers: TextTest::new(typescript::EXTENSIONS, |t| {
                holds(t, "from 'react-router") || holds(t, "from \"react-router")
            }),
            route_tables: TextTest::new(typescript::EXTENSIONS, |t| {
                holds(t, "<Route") || holds(t, "path:")
            }),
        }
    }
}

impl Adapter for ReactRouter {
    fn id(&self) -> &'static str {
        "react-router"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    fn support(&self) -> Support {
        Support::Deep
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        let packages = typescript::Packages::read(snapshot);
        let declared = packages
            .all
            .iter()
            .find(|p| p.depends_on("react-router-dom") || p.depends_on("react-router"));
        if let Some(p) = declared {
            return Detection::Accept(format!("{} depends on react-router", p.manifest));
        }
        match files_with(snapshot, typescript::EXTENSIONS)
            .find(|path| self.importers.passes(snapshot, path))
        {
            Some(path) => Detection::Accept(format!("{path} imports react-router")),
            None => Detection::Decline("nothing depends on react-router".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let mut fragment = Fragment::default();
        for path in files_with(cx.snapshot, typescript::EXTENSIONS) {
            if !self.route_tables.passes(cx.snapshot, path) {
                continue;
            }
            let Some(text) = cx.snapshot.text(path) else {
                continue;
            };
            let code = typescript::blank_comments(&text);
            let lines = Lines::new(&code);
            let module = cx.modules.get(path);
            for (route, component, offset) in routes(&code) {
                // The screen is where the component comes from; an unknown name (a
                // package's component, a typo) names no file of the tree.
                let file = match module.and_then(|m| m.source_of(&component)) {
                    Some(target) => target.to_string(),
                    None if module.is_some_and(|m| m.declares(&component)) => path.to_string(),
                    None => continue,
                };
                let screen = format!("{file}#{component}");
                let at = Located::new(path, lines.of(offset));
                add_route(
                    &mut fragment,
                    &route,
                    &screen,
                    &file,
                    at,
                    Confidence::Medium,
                );
            }
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.importers.look(path, blob, text);
        self.route_tables.look(path, blob, text);
    }
}

static ROUTE_ELEMENT: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"<Route\b"));
static ROUTE_OBJECT: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bpath\s*:\s*['"`]([^'"`]*)['"`]"#));
static PATH_ATTR: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bpath\s*=\s*\{?\s*['"`]([^'"`]*)['"`]"#));
static ELEMENT: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"\b(?:element\s*[=:]\s*\{?\s*<\s*([A-Z][\w$]*)|(?:component|Component)\s*[=:]\s*\{?\s*([A-Z][\w$]*))",
    )
});

/// (route path, component name, byte offset) of each route declaration. A declaration's
/// attributes are read up to the next declaration, at most 600 bytes on.
fn routes(code: &str) -> Vec<(String, String, usize)> {
    let mut starts: Vec<(usize, bool)> = ROUTE_ELEMENT
        .find_iter(code)
        .map(|m| (m.start(), true))
        .chain(ROUTE_OBJECT.find_iter(code).map(|m| (m.start(), false)))
        .collect();
    starts.sort();
    let mut found = Vec::new();
    for (i, &(start, element)) in starts.iter().enumerate() {
        let mut end = starts.get(i + 1).map_or(code.len(), |n| n.0);
        end = end.min(start + 600);
        while !code.is_char_boundary(end) {
            end -= 1;
        }
        let window = &code[start..end];
        let path = if element {
            PATH_ATTR.captures(window)
        } else {
            ROUTE_OBJECT.captures(window)
        };
        let (Some(path), Some(component)) = (path, ELEMENT.captures(window)) else {
            continue;
        };
        let component = component
            .get(1)
            .or_else(|| component.get(2))
            .map_or("", |m| m.as_str());
        let path = &path[1];
        let route = if path.starts_with('/') {
            path.to_string()
        } else {
            format!("/{path}")
        };
        found.push((route, component.to_string(), start));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_elements_and_objects_give_path_and_component() {
        let code = r#"<Routes>
  <Route path="/checkout" element={<Checkout />} />
  <Route path="/cart" component={Cart} />
</Routes>
const router = createBrowserRouter([{ path: "/orders", element: <Orders/> }]);
"#;
        let got: Vec<(String, String)> = routes(code).into_iter().map(|(r, c, _)| (r, c)).collect();
        assert_eq!(
            got,
            [
                ("/checkout".to_string(), "Checkout".to_string()),
                ("/cart".to_string(), "Cart".to_string()),
                ("/orders".to_string(), "Orders".to_string())
            ]
        );
    }

    #[test]
    fn a_route_without_an_element_is_not_a_screen() {
        assert!(routes(r#"<Route path="/x" />"#).is_empty());
        assert!(routes("const a = { path: 'x' };").is_empty());
    }
}
