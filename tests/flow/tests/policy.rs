//! Who owns a judgment: a reviewed `.qa/manifest.yaml` flow (team policy) or suppression,
//! a changed test (repository contract), or nothing but inference.

use crate::common;
use common::*;

const CHECKOUT_FLOW: &str = r#"version: 1
flows:
  - name: checkout
    criticality: critical
    paths: ["src/checkout/**"]
"#;

const SUBMIT_V1: &str = r#"export async function submitOrder(cart: Cart, api: Api): Promise<string> {
  const order = await api.post("/orders", cart);
  return order.number;
}
"#;

const SUBMIT_V2: &str = r#"export async function submitOrder(cart: Cart, api: Api): Promise<string> {
  const order = await api.post("/orders", cart);
  toast.success(`Order ${order.number} is confirmed`);
  return order.number;
}
"#;

const AVATAR_V1: &str = r#"export function avatar(user: User): string {
  return `<img src="${user.avatarUrl}" alt="${user.name}">`;
}
"#;

const AVATAR_V2: &str = r#"export function avatar(user: User): string {
  if (!user.avatarUrl) {
    return `<span class="initials">${initials(user.name)}</span>`;
  }
  return `<img src="${user.avatarUrl}" alt="${user.name}">`;
}
"#;

#[test]
fn a_manifest_flow_makes_matching_work_team_policy_and_required() {
    let mut r = feature_repo(&[
        (".qa/manifest.yaml", CHECKOUT_FLOW),
        ("src/checkout/submitOrder.ts", SUBMIT_V1),
        ("src/profile/avatar.ts", AVATAR_V1),
    ]);
    commit_files(
        &mut r,
        "feat(checkout): confirm the order number after payment",
        &[("src/checkout/submitOrder.ts", SUBMIT_V2)],
    );
    commit_files(
        &mut r,
        "feat: show initials when the avatar is missing",
        &[("src/profile/avatar.ts", AVATAR_V2)],
    );
    let s = flow(&r).run();
    let checkout = s.intent_with_file("src/checkout/submitOrder.ts");
    assert_eq!(
        checkout["data"]["authority"],
        "team-policy",
        "{}",
        s.summary()
    );
    assert_eq!(checkout["data"]["flow"], "checkout");
    let scenarios = s.scenarios_of(checkout);
    assert!(!scenarios.is_empty(), "{}", s.summary());
    for scenario in &scenarios {
        let d = &scenario["data"];
        assert_eq!(d["test_class"], "golden", "{d}");
        assert_eq!(d["priority"], "critical", "{d}");
        if is_located(scenario) {
            assert_eq!(
                s.route_of(scenario)["data"]["decision"],
                "required",
                "critical and located: {d}"
            );
        }
    }
    assert!(
        scenarios.iter().any(|sc| is_located(sc)),
        "a confirmation toast is located evidence:\n{}",
        s.summary()
    );
    let avatar = s.intent_with_file("src/profile/avatar.ts");
    assert_eq!(
        avatar["data"]["authority"], "inference",
        "src/profile is outside the flow's paths"
    );
    assert!(avatar["data"]["flow"].is_null());
}

const CART_V1: &str = r#"export function loadCart(storage: Storage): string[] {
  return [];
}
"#;

const CART_V2: &str = r#"export function loadCart(storage: Storage): string[] {
  const saved = storage.getItem("cart");
  return saved ? JSON.parse(saved) : [];
}

export function saveCart(storage: Storage, items: string[]): void {
  storage.setItem("cart", JSON.stringify(items));
}
"#;

const CART_TEST: &str = r#"import { loadCart, saveCart } from "./cart";

it("keeps items after reload", () => {
  const storage = new MemoryStorage();
  saveCart(storage, ["sku-1"]);
  expect(loadCart(storage)).toEqual(["sku-1"]);
});
"#;

const SUPPRESS_RELOAD: &str = r#"version: 1
flows: []
suppressions:
  - scenario: "reload"
    reason: "reload behaviour is covered by the storage contract suite"
"#;

/// `feat: keep cart items after reload` on src/cart.ts, with the manifest in main if given
/// and the changed test if asked.
fn cart_reload(manifest: Option<&str>, with_test: bool) -> Repo {
    let mut base = vec![("src/cart.ts", CART_V1)];
    if let Some(m) = manifest {
        base.push((".qa/manifest.yaml", m));
    }
    let mut r = feature_repo(&base);
    let mut change = vec![("src/cart.ts", CART_V2)];
    if with_test {
        change.push(("src/cart.test.ts", CART_TEST));
    }
    commit_files(&mut r, "feat: keep cart items after reload", &change);
    r
}

fn reload_titles(s: &Stream) -> Vec<String> {
    s.scenarios()
        .iter()
        .map(|sc| title(sc))
        .filter(|t| t.contains("reload"))
        .collect()
}

#[test]
fn without_a_suppression_the_reload_scenario_is_there() {
    let s = flow(&cart_reload(None, false)).run();
    assert!(!reload_titles(&s).is_empty(), "{}", s.summary());
}

#[test]
fn a_manifest_suppression_removes_the_matching_scenario() {
    let s = flow(&cart_reload(Some(SUPPRESS_RELOAD), false)).run();
    assert!(
        reload_titles(&s).is_empty(),
        "suppressed by the manifest: {:?}",
        reload_titles(&s)
    );
}

#[test]
fn a_product_change_with_its_changed_test_is_a_repository_contract() {
    let s = flow(&cart_reload(None, true)).run();
    let intent = s.intent_with_file("src/cart.ts");
    assert_eq!(
        intent["data"]["authority"],
        "repository-contract",
        "{}",
        s.summary()
    );
}

#[test]
fn a_product_change_without_a_test_is_inference() {
    let s = flow(&cart_reload(None, false)).run();
    let intent = s.intent_with_file("src/cart.ts");
    assert_eq!(intent["data"]["authority"], "inference", "{}", s.summary());
}
