//! Express and Fastify handlers: `app.get('/items', handler)`, `router.post(..)`,
//! `router.route('/x').get(..)`, `fastify.route({ method, url, handler })` in JS/TS
//! modules importing express or fastify (and the plugin modules they register), each
//! an endpoint (`GET /items`) starting at its handler's module; routers mounted with
//! `app.use('/api', router)` or `register(plugin, { prefix })` take the prefix.

use super::{
    add_handled_entrypoint, arguments, handler_module, mounted_prefixes, string_literal, Mount,
};
use crate::adapter::{holds, Adapter, Context, Detection, Layer, TextTest};
use crate::language::{files_with, typescript, workspace::Workspace, Lines};
use crate::model::{Fragment, Located, Module};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{NodeKind, Support};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// The Express/Fastify framework adapter.
#[derive(Debug)]
pub struct Express {
    web_modules: TextTest,
}

impl Default for Express {
    fn default() -> Express {
        Express {
            web_modules: TextTest::new(typescript::EXTENSIONS, web_module),
        }
    }
}

static WEB_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r#"(?:\bfrom\s*|\brequire\s*\(\s*)['"](express|fastify)['"]"#)
});
/// A verb call with a literal path first: `app.get('/items', ...`.
static VERB_CALL: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"\b([A-Za-z_$][\w$]*)\s*\.\s*(get|post|put|patch|delete|head|options|all)\s*\(",
    )
});
/// `router.route('/items')`, then chained verbs; `fastify.route({ .. })`.
static ROUTE_CALL: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\b([A-Za-z_$][\w$]*)\s*\.\s*route\s*\("));
static CHAINED_VERB: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"^\s*\.\s*(get|post|put|patch|delete|head|options|all)\s*\(")
});
static MOUNT_CALL: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\b([A-Za-z_$][\w$]*)\s*\.\s*(use|register)\s*\("));
/// `const app = express()`, `const router = express.Router()`, `Fastify({..})`.
static FACTORY: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*[\w.<>]+\s*)?=\s*(?:await\s+)?(?:express|fastify|Fastify|Router|express\s*\.\s*Router)\s*\(",
    )
});
static OBJECT_METHOD: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bmethod\s*:\s*(\[[^\]]*\]|['"]\w+['"])"#));
static OBJECT_URL: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\b(?:url|path)\s*:\s*['"`]([^'"`\n]*)['"`]"#));
static OBJECT_HANDLER: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\bhandler\s*:\s*([A-Za-z_$][\w$.]*)\s*[,}\n]"));
static PREFIX: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bprefix\s*:\s*['"`]([^'"`\n]*)['"`]"#));
static QUOTED_WORD: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r#"['"](\w+)['"]"#));

/// Receivers conventionally holding an app, a router or a Fastify instance (a plugin's
/// parameter), besides the names a factory call assigns in the module.
const CONVENTIONAL: &[&str] = &["app", "router", "server", "fastify", "api", "instance"];

fn web_module(text: &str) -> bool {
    (holds(text, "express") || holds(text, "fastify")) && WEB_IMPORT.is_match(text)
}

impl Adapter for Express {
    fn id(&self) -> &'static str {
        "express"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    /// Deep: a handler named by an imported identifier is resolved to its module.
    fn support(&self) -> Support {
        Support::Deep
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match files_with(snapshot, typescript::EXTENSIONS)
            .find(|p| self.web_modules.passes(snapshot, p))
        {
            Some(path) => Detection::Accept(format!("{path} imports express or fastify")),
            None => Detection::Decline("no module imports express or fastify".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let workspace = Workspace::read(cx.snapshot);
        let mut routes = Vec::new();
        let mut mounts = Vec::new();
        let mut scanned = BTreeSet::new();
        let mut queue: Vec<String> = files_with(cx.snapshot, typescript::EXTENSIONS)
            .filter(|p| self.web_modules.passes(cx.snapshot, p))
            .map(str::to_string)
            .collect();
        // Registered plugins need not import fastify: they are scanned as mounted.
        while let Some(path) = queue.pop() {
            if !scanned.insert(path.clone()) {
                continue;
            }
            let Some(text) = cx.snapshot.text(&path) else {
                continue;
            };
            let code = typescript::blank_comments(&text);
            let file = RouteModule {
                path: &path,
                lines: Lines::new(&code),
                code,
                modules: cx.modules,
                snapshot: cx.snapshot,
                workspace: &workspace,
            };
            let found = file.mounts();
            queue.extend(found.iter().map(|m| m.target.clone()));
            mounts.extend(found);
            routes.extend(file.routes());
        }
        let prefixes = mounted_prefixes(&mounts, join_path);
        let mut fragment = Fragment::default();
        for route in routes {
            let own = BTreeSet::from([String::new()]);
            for prefix in prefixes.get(&route.file).unwrap_or(&own) {
                let name = format!("{} {}", route.method, join_path(prefix, &route.path));
                add_handled_entrypoint(
                    &mut fragment,
                    NodeKind::Endpoint,
                    &name,
                    &route.file,
                    route.handler.as_deref(),
                    route.at.clone(),
                    Confidence::High,
                );
            }
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.web_modules.look(path, blob, text);
    }
}

/// `prefix` + `path` as a URL path: `/api` + `/items` -> `/api/items`, `/api` + `/`
/// -> `/api`.
fn join_path(prefix: &str, path: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    let path = path.trim_start_matches('/');
    match (prefix.is_empty(), path.is_empty()) {
        (true, true) => "/".to_string(),
        (false, true) => with_slash(prefix),
        (_, false) => format!("{}/{path}", with_slash(prefix).trim_end_matches('/')),
    }
}

fn with_slash(path: &str) -> String {
    match path.starts_with('/') {
        true => path.to_string(),
        false => format!("/{path}"),
    }
}

/// One handler registration.
#[derive(Debug, PartialEq, Eq)]
struct Route {
    method: String,
    path: String,
    /// The module declaring it.
    file: String,
    /// The handler's module, when the handler is an imported name.
    handler: Option<String>,
    at: Located,
}

/// One JS/TS module read for routes and mounts.
struct RouteModule<'a> {
    path: &'a str,
    /// The text with comments blanked.
    code: String,
    lines: Lines,
    modules: &'a BTreeMap<String, Module>,
    snapshot: &'a Snapshot<'a>,
    workspace: &'a Workspace,
}

impl RouteModule<'_> {
    /// Names that hold an app, router or instance here.
    fn receivers(&self) -> BTreeSet<&str> {
        let mut names: BTreeSet<&str> = CONVENTIONAL.iter().copied().collect();
        names.extend(
            FACTORY
                .captures_iter(&self.code)
                .filter_map(|c| c.get(1).map(|m| m.as_str())),
        );
        names
    }

    /// The module an argument names: an imported identifier, or `require('./x')`.
    fn module_of(&self, arg: &str) -> Option<String> {
        let call = arg
            .strip_prefix("require")
            .or_else(|| arg.strip_prefix("import"))
            .map(str::trim_start)
            .filter(|rest| rest.starts_with('('));
        if let Some(rest) = call {
            let (args, _) = arguments(rest, 0)?;
            let spec = string_literal(args.first()?)?;
            return typescript::resolve(self.snapshot, self.workspace, self.path, spec)
                .map(|(file, _)| file);
        }
        handler_module(self.modules, self.path, arg)
    }

    fn route(&self, method: &str, path: &str, handler: Option<&str>, offset: usize) -> Route {
        Route {
            method: method.to_uppercase(),
            path: path.to_string(),
            file: self.path.to_string(),
            handler: handler.and_then(|h| self.module_of(h)),
            at: Located::new(self.path, self.lines.of(offset)),
        }
    }

    fn routes(&self) -> Vec<Route> {
        let receivers = self.receivers();
        let mut routes = Vec::new();
        for c in VERB_CALL.captures_iter(&self.code) {
            if !receivers.contains(&c[1]) {
                continue;
            }
            let open = c.get(0).map_or(0, |m| m.end() - 1);
            let Some((args, _)) = arguments(&self.code, open) else {
                continue;
            };
            // A path and at least one handler: `cache.get('/x')` is a lookup.
            let (Some(path), true) = (args.first().and_then(|a| string_literal(a)), args.len() > 1)
            else {
                continue;
            };
            routes.push(self.route(&c[2], path, args.last().copied(), open));
        }
        for c in ROUTE_CALL.captures_iter(&self.code) {
            if !receivers.contains(&c[1]) {
                continue;
            }
            let open = c.get(0).map_or(0, |m| m.end() - 1);
            let Some((args, end)) = arguments(&self.code, open) else {
                continue;
            };
            match args.first() {
                Some(object) if object.starts_with('{') => {
                    routes.extend(self.route_object(object, open));
                }
                Some(path) => {
                    if let Some(path) = string_literal(path) {
                        routes.extend(self.chained(path, end));
                    }
                }
                None => {}
            }
        }
        routes
    }

    /// `.get(h).post(h2)` chained after `router.route(path)`, which ends at `end`.
    fn chained(&self, path: &str, mut end: usize) -> Vec<Route> {
        let mut routes = Vec::new();
        while let Some(c) = CHAINED_VERB.captures(&self.code[end..]) {
            let open = end + c.get(0).map_or(0, |m| m.end() - 1);
            let Some((args, next)) = arguments(&self.code, open) else {
                break;
            };
            routes.push(self.route(&c[1], path, args.last().copied(), open));
            end = next;
        }
        routes
    }

    /// `{ method: 'GET', url: '/items', handler: list }`, one route per method.
    fn route_object(&self, object: &str, offset: usize) -> Vec<Route> {
        let Some(url) = OBJECT_URL.captures(object) else {
            return Vec::new();
        };
        let handler = OBJECT_HANDLER.captures(object).map(|c| c[1].to_string());
        let methods: Vec<String> = OBJECT_METHOD
            .captures(object)
            .map(|m| {
                QUOTED_WORD
                    .captures_iter(&m[1])
                    .map(|w| w[1].to_string())
                    .collect()
            })
            .unwrap_or_default();
        methods
            .iter()
            .map(|method| self.route(method, &url[1], handler.as_deref(), offset))
            .collect()
    }

    /// `app.use('/api', router)`, `app.use(router)`, `app.register(plugin, { prefix })`.
    fn mounts(&self) -> Vec<Mount> {
        let receivers = self.receivers();
        let mut mounts = Vec::new();
        for c in MOUNT_CALL.captures_iter(&self.code) {
            if !receivers.contains(&c[1]) {
                continue;
            }
            let open = c.get(0).map_or(0, |m| m.end() - 1);
            let Some((args, _)) = arguments(&self.code, open) else {
                continue;
            };
            let (prefix, targets): (String, &[&str]) = match (&c[2], args.split_first()) {
                ("register", Some((plugin, options))) => {
                    let prefix = options
                        .iter()
                        .find_map(|o| PREFIX.captures(o))
                        .map_or(String::new(), |p| p[1].to_string());
                    (prefix, std::slice::from_ref(plugin))
                }
                (_, Some((first, rest))) => match string_literal(first) {
                    Some(prefix) => (prefix.to_string(), rest),
                    None => (String::new(), &args[..]),
                },
                _ => continue,
            };
            for target in targets.iter().filter_map(|a| self.module_of(a)) {
                if target != self.path {
                    mounts.push(Mount {
                        from: self.path.to_string(),
                        prefix: prefix.clone(),
                        target,
                    });
                }
            }
        }
        mounts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_join_as_url_paths() {
        assert_eq!(join_path("", "/items"), "/items");
        assert_eq!(join_path("/api", "/items"), "/api/items");
        assert_eq!(join_path("/api/", "/"), "/api");
        assert_eq!(join_path("", "/"), "/");
        assert_eq!(join_path("api", "items"), "/api/items");
    }

    #[test]
    fn only_modules_importing_express_or_fastify_count() {
        assert!(web_module("import express from 'express';\n"));
        assert!(web_module("const fastify = require(\"fastify\")({});\n"));
        assert!(!web_module("import expressive from 'express-validator';\n"));
    }
}
