//! Next.js file routes: `pages/` (API routes under `pages/api` as endpoints) and the
//! `app/` router (`page.tsx` as a route, `route.ts` as an endpoint), for every package
//! that depends on `next`.

use super::{add_entrypoint, add_route};
use crate::adapter::{Adapter, Context, Detection, Layer};
use crate::language::{has_extension, typescript::Packages};
use crate::model::{Fragment, Located};
use crate::tree::{file_name, join, Snapshot};
use qa_records::change::Confidence;
use qa_records::graph::{NodeKind, Support};

const PAGE_EXTENSIONS: &[&str] = &["tsx", "ts", "jsx", "js", "mdx"];

/// The Next.js framework adapter.
#[derive(Debug, Default)]
pub struct NextJs;

impl Adapter for NextJs {
    fn id(&self) -> &'static str {
        "nextjs"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    fn support(&self) -> Support {
        Support::Deep
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        let packages = Packages::read(snapshot);
        match packages.all.iter().find(|p| p.depends_on("next")) {
            Some(p) => Detection::Accept(format!("{} depends on next", p.manifest)),
            None => Detection::Decline("no package.json depends on next".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let mut fragment = Fragment::default();
        let packages = Packages::read(cx.snapshot);
        for package in packages.all.iter().filter(|p| p.depends_on("next")) {
            let roots: [(&str, RouteOf); 4] = [
                ("pages", pages_route),
                ("src/pages", pages_route),
                ("app", app_route),
                ("src/app", app_route),
            ];
            for (root, route_of) in roots {
                let root = join(&package.dir, root);
                for file in cx.snapshot.files_under(&root) {
                    let Some((route, kind)) = route_of(&file[root.len() + 1..]) else {
                        continue;
                    };
                    // Two apps of one monorepo may both have `/`: the app's folder
                    // tells them apart.
                    let name = match package.dir.as_str() {
                        "" => route,
                        dir => format!("{route} ({dir})"),
                    };
                    let at = Located::new(file, 0);
                    match kind {
                        RouteFile::Page => {
                            add_route(&mut fragment, &name, file, file, at, Confidence::High)
                        }
                        RouteFile::Handler => add_entrypoint(
                            &mut fragment,
                            NodeKind::Endpoint,
                            &name,
                            file,
                            at,
                            Confidence::High,
                        ),
                    }
                }
            }
        }
        Ok(fragment)
    }
}

/// How the files under one routing root map to routes.
type RouteOf = fn(&str) -> Option<(String, RouteFile)>;

/// A page a user opens, or an HTTP handler.
enum RouteFile {
    Page,
    Handler,
}

/// The route of a file under `pages/`: `checkout/index.tsx` -> `/checkout`, a handler
/// under `api/`; None for `_app`, `_document` and other non-page files.
fn pages_route(rel: &str) -> Option<(String, RouteFile)> {
    if !has_extension(rel, PAGE_EXTENSIONS) || rel.split('/').any(|s| s.starts_with('_')) {
        return None;
    }
    let stem = rel.rsplit_once('.').map_or(rel, |(s, _)| s);
    let stem = stem.strip_suffix("/index").unwrap_or(stem);
    let stem = if stem == "index" { "" } else { stem };
    let kind = match stem == "api" || stem.starts_with("api/") {
        true => RouteFile::Handler,
        false => RouteFile::Page,
    };
    Some((format!("/{stem}"), kind))
}

/// The route of a file under `app/`: `(shop)/checkout/page.tsx` -> `/checkout`.
fn app_route(rel: &str) -> Option<(String, RouteFile)> {
    let name = file_name(rel);
    let kind = match name.rsplit_once('.') {
        Some(("page", ext)) if PAGE_EXTENSIONS.contains(&ext) => RouteFile::Page,
        Some(("route", ext)) if PAGE_EXTENSIONS.contains(&ext) => RouteFile::Handler,
        _ => return None,
    };
    let dir = &rel[..rel.len() - name.len()];
    let segments: Vec<&str> = dir
        .split('/')
        .filter(|s| {
            !(s.is_empty() || s.starts_with('@') || (s.starts_with('(') && s.ends_with(')')))
        })
        .collect();
    Some((format!("/{}", segments.join("/")), kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_files_map_to_routes_and_special_files_do_not() {
        let route = |rel| pages_route(rel).map(|(r, _)| r);
        assert_eq!(route("index.tsx").as_deref(), Some("/"));
        assert_eq!(route("checkout/index.tsx").as_deref(), Some("/checkout"));
        assert_eq!(route("product/[id].tsx").as_deref(), Some("/product/[id]"));
        assert!(matches!(
            pages_route("api/items.ts"),
            Some((_, RouteFile::Handler))
        ));
        assert!(pages_route("_app.tsx").is_none());
        assert!(pages_route("styles.css").is_none());
    }

    #[test]
    fn app_router_groups_vanish_and_only_pages_and_handlers_count() {
        let (route, kind) = app_route("(shop)/checkout/page.tsx").unwrap();
        assert_eq!(route, "/checkout");
        assert!(matches!(kind, RouteFile::Page));
        assert!(matches!(
            app_route("api/items/route.ts").unwrap().1,
            RouteFile::Handler
        ));
        assert!(app_route("checkout/layout.tsx").is_none());
        assert_eq!(app_route("page.tsx").unwrap().0, "/");
    }
}
