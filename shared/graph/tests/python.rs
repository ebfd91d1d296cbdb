//! Python fixtures: a handler reached through the module it imports, and the endpoint
//! of a module that does not import the change left alone.

use crate::common;
use common::*;

fn api() -> Vec<(&'static str, &'static str)> {
    vec![
        ("pyproject.toml", "[project]\nname = \"shop\"\n\n[project.scripts]\nshop-report = \"shop.report:main\"\n"),
        ("src/shop/__init__.py", ""),
        ("src/shop/pricing.py", "def total(items):\n    return sum(items)\n"),
        ("src/shop/audit.py", "def log(event):\n    return event\n"),
        (
            "src/shop/api.py",
            "from fastapi import FastAPI\nfrom shop.pricing import total\n\napp = FastAPI()\n\n@app.get(\"/price\")\ndef price():\n    return total([1, 2])\n",
        ),
        (
            "src/shop/admin.py",
            "from fastapi import APIRouter\nfrom . import audit\n\nrouter = APIRouter()\n\n@router.post('/admin/audit')\ndef record():\n    return audit.log('x')\n",
        ),
        ("src/shop/report.py", "from .pricing import total\n\ndef main():\n    print(total([3]))\n"),
    ]
}

#[test]
fn a_python_handler_is_reached_through_the_module_it_imports() {
    let change = Change::edit(
        &api(),
        "src/shop/pricing.py",
        "def total(items):\n    return round(sum(items), 2)\n",
    );
    let reached = reached(&change.analyze());
    assert!(reached.contains("endpoint GET /price"), "{reached:?}");
    assert!(reached.contains("command shop-report"), "{reached:?}");
    assert!(
        !reached.contains("endpoint POST /admin/audit"),
        "{reached:?}"
    );
}

#[test]
fn a_relative_from_dot_import_reaches_its_handler() {
    let change = Change::edit(
        &api(),
        "src/shop/audit.py",
        "def log(event):\n    return str(event)\n",
    );
    let reached = reached(&change.analyze());
    assert!(
        reached.contains("endpoint POST /admin/audit"),
        "{reached:?}"
    );
    assert!(!reached.contains("endpoint GET /price"), "{reached:?}");
}
