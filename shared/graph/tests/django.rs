//! Django fixtures: a change reaches the URL patterns whose view module imports it,
//! under the prefix of the `include` that mounts their URL conf.

use crate::common;
use common::*;

fn site() -> Vec<(&'static str, &'static str)> {
    vec![
        ("manage.py", "import os\n"),
        ("site_conf/__init__.py", ""),
        (
            "site_conf/urls.py",
            "from django.urls import include, path\n\nurlpatterns = [\n    path('shop/', include('shop.urls')),\n    path('health/', lambda r: None),\n]\n",
        ),
        ("shop/__init__.py", ""),
        ("shop/pricing.py", "def total(items):\n    return sum(items)\n"),
        ("shop/audit.py", "def log(e):\n    return e\n"),
        (
            "shop/views.py",
            "from .pricing import total\n\ndef items(request):\n    return total([1])\n",
        ),
        (
            "shop/admin_views.py",
            "from .audit import log\n\nclass AuditView:\n    pass\n",
        ),
        (
            "shop/urls.py",
            "from django.urls import path, re_path\nfrom . import views\nfrom .admin_views import AuditView\n\nurlpatterns = [\n    path('items/', views.items, name='items'),\n    re_path(r'^audit/$', AuditView.as_view()),\n]\n",
        ),
    ]
}

fn edit_site(path: &str, text: &str) -> std::collections::BTreeSet<String> {
    reached(&Change::edit(&site(), path, text).analyze())
}

#[test]
fn a_view_dependency_reaches_the_included_url_under_its_prefix() {
    let reached = edit_site(
        "shop/pricing.py",
        "def total(items):\n    return round(sum(items))\n",
    );
    assert!(reached.contains("endpoint /shop/items/"), "{reached:?}");
}

#[test]
fn a_url_whose_view_module_does_not_import_the_change_is_not_reached() {
    let reached = edit_site(
        "shop/pricing.py",
        "def total(items):\n    return round(sum(items))\n",
    );
    assert!(!reached.contains("endpoint /shop/audit/"), "{reached:?}");
    assert!(!reached.contains("endpoint /health/"), "{reached:?}");
}

#[test]
fn a_class_based_view_reaches_through_its_imported_module_and_a_regex_loses_anchors() {
    let reached = edit_site("shop/audit.py", "def log(e):\n    return str(e)\n");
    assert!(reached.contains("endpoint /shop/audit/"), "{reached:?}");
    assert!(!reached.contains("endpoint /shop/items/"), "{reached:?}");
}

#[test]
fn without_django_urlpatterns_are_not_endpoints() {
    let mut files = site();
    for (path, text) in files.iter_mut() {
        if path.ends_with("urls.py") {
            *text = match *path {
                "shop/urls.py" => {
                    "from . import views\n\nurlpatterns = [\n    path('items/', views.items),\n]\n"
                }
                _ => "urlpatterns = []\n",
            };
        }
    }
    let change = Change::edit(
        &files,
        "shop/pricing.py",
        "def total(items):\n    return 0\n",
    );
    assert!(reached(&change.analyze()).is_empty());
}
