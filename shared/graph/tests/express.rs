//! Express and Fastify fixtures: a change reaches the endpoints whose handler module
//! imports it, under the prefix its router is mounted at, and no other endpoint.

use crate::common;
use common::*;

fn express_app() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", r#"{"name": "api", "dependencies": {"express": "4.19.0"}}"#),
        ("src/money.ts", "export const money = (n: number) => `$${n}`;\n"),
        ("src/audit.ts", "export const audit = (e: string) => e;\n"),
        (
            "src/handlers/items.ts",
            "import { money } from '../money';\nexport function listItems(req, res) { res.json([money(1)]); }\n",
        ),
        (
            "src/handlers/orders.ts",
            "import { audit } from '../audit';\nexport function createOrder(req, res) { res.json(audit('x')); }\n",
        ),
        (
            "src/routes/items.ts",
            "import { Router } from 'express';\nimport { listItems } from '../handlers/items';\nimport { createOrder } from '../handlers/orders';\nconst router = Router();\nrouter.get('/items', listItems);\nrouter.post('/orders', createOrder);\nconst cache = new Map();\ncache.get('/items', listItems);\nexport default router;\n",
        ),
        (
            "src/app.ts",
            "import express from 'express';\nimport items from './routes/items';\nconst app = express();\napp.use('/api', items);\napp.get('/health', (req, res) => res.send('ok'));\nexport default app;\n",
        ),
    ]
}

fn edit_express(path: &str, text: &str) -> std::collections::BTreeSet<String> {
    reached(&Change::edit(&express_app(), path, text).analyze())
}

#[test]
fn a_util_change_reaches_the_mounted_endpoint_whose_handler_imports_it() {
    let reached = edit_express(
        "src/money.ts",
        "export const money = (n: number) => `USD ${n}`;\n",
    );
    assert!(reached.contains("endpoint GET /api/items"), "{reached:?}");
}

#[test]
fn an_endpoint_whose_handler_does_not_import_the_change_is_not_reached() {
    let reached = edit_express(
        "src/money.ts",
        "export const money = (n: number) => `USD ${n}`;\n",
    );
    // GET /health is inline in app.ts, which imports the router and so the change:
    // module granularity reaches it; the orders handler's module does not import it.
    assert!(
        !reached.contains("endpoint POST /api/orders"),
        "{reached:?}"
    );
}

#[test]
fn an_inline_handler_is_implemented_by_its_declaring_module() {
    let reached = edit_express(
        "src/app.ts",
        "import express from 'express';\nimport items from './routes/items';\nconst app = express();\napp.use('/api', items);\napp.get('/health', (req, res) => res.send('fine'));\nexport default app;\n",
    );
    assert!(reached.contains("endpoint GET /health"), "{reached:?}");
    assert!(!reached.contains("endpoint GET /api/items"), "{reached:?}");
}

#[test]
fn a_lookup_on_a_map_is_not_an_endpoint() {
    let cg = Change::edit(&express_app(), "src/money.ts", "export const money = 1;\n").analyze();
    let endpoints: Vec<&str> = cg
        .head
        .nodes
        .keys()
        .filter(|k| k.kind == qa_records::graph::NodeKind::Endpoint)
        .map(|k| k.name.as_str())
        .collect();
    assert_eq!(
        endpoints,
        ["GET /api/items", "GET /health", "POST /api/orders"]
    );
}

fn fastify_app() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", r#"{"name": "api", "dependencies": {"fastify": "4.0.0"}}"#),
        ("lib/price.js", "exports.price = (n) => n * 2;\n"),
        ("lib/stock.js", "exports.stock = () => 3;\n"),
        (
            "lib/handlers.js",
            "const { price } = require('./price');\nfunction quote(req, reply) { return price(1); }\nmodule.exports = { quote };\n",
        ),
        (
            "routes/stock.js",
            "const { stock } = require('../lib/stock');\nmodule.exports = async function (fastify) {\n  fastify.get('/stock', async () => stock());\n};\n",
        ),
        (
            "server.js",
            "const Fastify = require('fastify');\nconst { quote } = require('./lib/handlers');\nconst app = Fastify();\napp.route({ method: 'POST', url: '/quote', handler: quote });\napp.register(require('./routes/stock'), { prefix: '/v1' });\n",
        ),
    ]
}

#[test]
fn a_fastify_route_object_reaches_its_required_handler_module() {
    let change = Change::edit(
        &fastify_app(),
        "lib/price.js",
        "exports.price = (n) => n * 3;\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("endpoint POST /quote"), "{reached:?}");
    assert!(!reached.contains("endpoint GET /v1/stock"), "{reached:?}");
}

#[test]
fn a_registered_plugin_takes_its_prefix() {
    let change = Change::edit(&fastify_app(), "lib/stock.js", "exports.stock = () => 4;\n");
    let reached = reached(&change.analyze());
    assert!(reached.contains("endpoint GET /v1/stock"), "{reached:?}");
    assert!(!reached.contains("endpoint POST /quote"), "{reached:?}");
}

#[test]
fn without_express_or_fastify_verb_calls_are_not_endpoints() {
    let mut files = express_app();
    files.retain(|(p, _)| *p != "src/app.ts");
    let routes = files
        .iter_mut()
        .find(|(p, _)| *p == "src/routes/items.ts")
        .unwrap();
    routes.1 = "import { listItems } from '../handlers/items';\nconst router = makeRouter();\nrouter.get('/items', listItems);\nexport default router;\n";
    let change = Change::edit(&files, "src/money.ts", "export const money = 2;\n");
    assert!(reached(&change.analyze()).is_empty());
}
