//! Django URL confs: `path('items/', views.items)`, `re_path(r'^items/$', ..)` and
//! `url(..)` entries of `urlpatterns` in modules importing django, each an endpoint
//! named by its URL (`/shop/items/`, no method: a view answers them all) starting at
//! its view's module; `include('shop.urls')` mounts a conf under the entry's prefix.

use super::{
    add_handled_entrypoint, arguments, handler_module, mounted_prefixes, string_literal, Mount,
};
use crate::adapter::{holds, Adapter, Context, Detection, Layer, TextTest};
use crate::language::{files_with, python, Lines, RawImport};
use crate::model::{Fragment, Located, Module};
use crate::tree::{join, parent, Snapshot};
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{NodeKind, Support};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// The Django framework adapter.
#[derive(Debug)]
pub struct Django {
    url_confs: TextTest,
}

impl Default for Django {
    fn default() -> Django {
        Django {
            url_confs: TextTest::new(python::EXTENSIONS, url_conf),
        }
    }
}

static DJANGO_IMPORT: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"(?m)^[ \t]*(?:from|import)[ \t]+django\b"));
static URL_ENTRY: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\b(path|re_path|url)[ \t]*\("));
static INCLUDE: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"^include[ \t]*\("));

/// A module that declares URL patterns with django.
fn url_conf(text: &str) -> bool {
    holds(text, "urlpatterns") && DJANGO_IMPORT.is_match(text)
}

impl Adapter for Django {
    fn id(&self) -> &'static str {
        "django"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    /// Deep: a view named through an imported module or name is resolved to its module.
    fn support(&self) -> Support {
        Support::Deep
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match files_with(snapshot, python::EXTENSIONS).find(|p| self.url_confs.passes(snapshot, p))
        {
            Some(path) => Detection::Accept(format!("{path} declares django urlpatterns")),
            None => Detection::Decline("no module declares django urlpatterns".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let roots = python::Roots::of(cx.snapshot);
        let mut entries = Vec::new();
        let mut mounts = Vec::new();
        for path in files_with(cx.snapshot, python::EXTENSIONS) {
            if !self.url_confs.passes(cx.snapshot, path) {
                continue;
            }
            let Some(text) = cx.snapshot.text(path) else {
                continue;
            };
            let conf = UrlConf {
                path,
                text: &text,
                modules: cx.modules,
                snapshot: cx.snapshot,
                roots: &roots,
            };
            conf.read(&mut entries, &mut mounts);
        }
        let prefixes = mounted_prefixes(&mounts, concat);
        let mut fragment = Fragment::default();
        for entry in entries {
            let own = BTreeSet::from([String::new()]);
            for prefix in prefixes.get(&entry.file).unwrap_or(&own) {
                let name = format!("/{}", concat(prefix, &entry.route));
                add_handled_entrypoint(
                    &mut fragment,
                    NodeKind::Endpoint,
                    &name,
                    &entry.file,
                    entry.view.as_deref(),
                    entry.at.clone(),
                    Confidence::High,
                );
            }
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.url_confs.look(path, blob, text);
    }
}

/// Django joins an include's prefix and the included route by concatenation.
fn concat(prefix: &str, route: &str) -> String {
    format!("{prefix}{route}")
}

/// A route as Django matches it, without a regex's anchors: `^items/$` -> `items/`.
fn route_text(route: &str, regex: bool) -> String {
    match regex {
        true => route
            .trim_start_matches('^')
            .trim_end_matches('$')
            .to_string(),
        false => route.to_string(),
    }
}

/// One URL pattern and the module of its view.
struct Entry {
    route: String,
    file: String,
    view: Option<String>,
    at: Located,
}

/// One URL conf module.
struct UrlConf<'a> {
    path: &'a str,
    text: &'a str,
    modules: &'a BTreeMap<String, Module>,
    snapshot: &'a Snapshot<'a>,
    roots: &'a python::Roots,
}

impl UrlConf<'_> {
    fn read(&self, entries: &mut Vec<Entry>, mounts: &mut Vec<Mount>) {
        let lines = Lines::new(self.text);
        for c in URL_ENTRY.captures_iter(self.text) {
            let whole = c.get(0).map_or(0..0, |m| m.range());
            // `os.path(..)` or `x.url(..)` are not URL patterns.
            if self.text[..whole.start].ends_with('.') {
                continue;
            }
            let Some((args, _)) = arguments(self.text, whole.end - 1) else {
                continue;
            };
            let (Some(route), Some(target)) =
                (args.first().and_then(|a| string_literal(a)), args.get(1))
            else {
                continue;
            };
            let route = route_text(route, &c[1] != "path");
            if INCLUDE.is_match(target) {
                let open = target.find('(').unwrap_or(0);
                let included = arguments(target, open)
                    .and_then(|(inner, _)| inner.first().and_then(|a| self.conf_of(a)));
                if let Some(included) = included.filter(|t| t != self.path) {
                    mounts.push(Mount {
                        from: self.path.to_string(),
                        prefix: route,
                        target: included,
                    });
                }
                continue;
            }
            entries.push(Entry {
                route,
                file: self.path.to_string(),
                view: handler_module(self.modules, self.path, target),
                at: Located::new(self.path, lines.of(whole.start)),
            });
        }
    }

    /// The URL conf an `include` argument names: `'shop.urls'` (from the import roots,
    /// or from a directory above this conf, where manage.py usually sits) or an
    /// imported module.
    fn conf_of(&self, arg: &str) -> Option<String> {
        let Some(dotted) = string_literal(arg) else {
            return handler_module(self.modules, self.path, arg);
        };
        let raw = RawImport {
            spec: dotted.to_string(),
            line: 0,
            names: Vec::new(),
        };
        if let Some(found) = self.roots.resolve(self.snapshot, self.path, &raw).pop() {
            return Some(found);
        }
        let rel = dotted.replace('.', "/");
        let mut dir = parent(self.path);
        loop {
            if let Some(found) = python::module_file(self.snapshot, &join(dir, &rel)) {
                return Some(found);
            }
            if dir.is_empty() {
                return None;
            }
            dir = parent(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_routes_lose_their_anchors_and_path_routes_keep_converters() {
        assert_eq!(
            route_text("^items/(?P<pk>\\d+)/$", true),
            "items/(?P<pk>\\d+)/"
        );
        assert_eq!(route_text("items/<int:pk>/", false), "items/<int:pk>/");
    }

    #[test]
    fn only_django_modules_with_urlpatterns_are_url_confs() {
        assert!(url_conf("from django.urls import path\nurlpatterns = []\n"));
        assert!(!url_conf("from flask import Flask\nurlpatterns = []\n"));
        assert!(!url_conf("from django.db import models\n"));
    }
}
