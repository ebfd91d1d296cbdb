//! qa-intent's grouping: which commits join into one intent, which stay apart, which
//! never become product intents, and how uncommitted or wordless work is partitioned.

use crate::common;
use common::*;

const PRICING: &str = r#"import { formatPrice } from "./money";

export function PricingPage(plans: Plan[]): string {
  const rows = plans.map((p) => `<li>${p.name}: ${formatPrice(p.monthly)}</li>`);
  return `<h1>Pricing</h1><ul>${rows.join("")}</ul>`;
}
"#;

const SETTINGS: &str = r#"export function SettingsPage(user: User): string {
  const theme = user.prefersDark ? "dark" : "light";
  return `<h1>Settings</h1><p>Theme: ${theme}</p>`;
}
"#;

const ORDERS_PAGE: &str = r#"export function OrderHistoryPage(orders: Order[]): string {
  if (orders.length === 0) {
    return "<p>You have no orders yet</p>";
  }
  return orders.map((o) => `<p>Order ${o.number}: ${o.status}</p>`).join("");
}
"#;

const HELP: &str = r#"export function HelpPage(topics: string[]): string {
  const links = topics.map((t) => `<a href="/help/${t}">${t}</a>`);
  return `<h1>Help</h1>${links.join(" ")}`;
}
"#;

#[test]
fn four_independent_feats_on_unrelated_files_are_four_intents() {
    let mut r = feature_repo(&[]);
    let commits = [
        commit_files(
            &mut r,
            "feat: add pricing page",
            &[("src/pricing.ts", PRICING)],
        ),
        commit_files(
            &mut r,
            "feat: add settings page",
            &[("src/settings.ts", SETTINGS)],
        ),
        commit_files(
            &mut r,
            "feat: add order history page",
            &[("src/orderHistory.ts", ORDERS_PAGE)],
        ),
        commit_files(&mut r, "feat: add help page", &[("src/help.ts", HELP)]),
    ];
    let s = flow(&r).run();
    let product = s.intents_of_focus("product");
    assert_eq!(product.len(), 4, "{}", s.summary());
    for (oid, path) in commits.iter().zip([
        "src/pricing.ts",
        "src/settings.ts",
        "src/orderHistory.ts",
        "src/help.ts",
    ]) {
        let intent = s.intent_with_commit(oid);
        assert_eq!(
            strs(&intent["data"]["commits"]),
            vec![oid.as_str()],
            "one commit per intent:\n{}",
            s.summary()
        );
        assert_eq!(strs(&intent["data"]["files"]), vec![path]);
    }
}

const DISCOUNT_FIELD: &str = r#"export function DiscountField(onApply: (code: string) => void): HTMLElement {
  const input = document.createElement("input");
  input.placeholder = "Discount code";
  input.addEventListener("change", () => onApply(input.value.trim()));
  return input;
}
"#;

const DISCOUNT_API: &str = r#"export async function validateDiscount(code: string): Promise<boolean> {
  const res = await fetch(`/api/discounts/${encodeURIComponent(code)}`);
  if (res.status === 404) {
    return false;
  }
  return res.ok;
}
"#;

#[test]
fn commits_sharing_a_ticket_join_across_files() {
    let mut r = feature_repo(&[]);
    let a = commit_files(
        &mut r,
        "feat: add discount code field (PROJ-12)",
        &[("src/checkout/DiscountField.ts", DISCOUNT_FIELD)],
    );
    let b = commit_files(
        &mut r,
        "fix: validate discount codes against the API (PROJ-12)",
        &[("src/api/discounts.ts", DISCOUNT_API)],
    );
    let s = flow(&r).run();
    for c in s.of_kind("commit") {
        assert_eq!(
            strs(&c["data"]["tickets"]),
            vec!["PROJ-12"],
            "fixture: both commits carry the ticket"
        );
    }
    let intent = s.intent_with_commit(&a);
    let commits = strs(&intent["data"]["commits"]);
    assert!(
        commits.contains(&b.as_str()) && commits.len() == 2,
        "one intent holds both PROJ-12 commits:\n{}",
        s.summary()
    );
    assert!(strs(&intent["data"]["tickets"]).contains(&"PROJ-12"));
    assert_eq!(s.intents_with_commit(&b).len(), 1, "{}", s.summary());
}

const COUPON_V1: &str = r#"export interface Cart {
  total: number;
  coupon?: string;
}

export function couponInput(cart: Cart, code: string): Cart {
  return { ...cart, coupon: code.toUpperCase() };
}
"#;

#[test]
fn distinct_tickets_on_the_same_file_never_join() {
    let mut r = feature_repo(&[]);
    let a = commit_files(
        &mut r,
        "feat: accept a coupon code ABC-1",
        &[("src/coupon.ts", COUPON_V1)],
    );
    let b = commit_files(
        &mut r,
        "feat: apply the coupon to the cart total ABC-2",
        &[(
            "src/coupon.ts",
            &format!("{COUPON_V1}\nexport function applyCoupon(cart: Cart, percent: number): Cart {{\n  const discounted = Math.round(cart.total * (100 - percent)) / 100;\n  return {{ ...cart, total: discounted }};\n}}\n"),
        )],
    );
    let s = flow(&r).run();
    let mut tickets: Vec<Vec<&str>> = s
        .of_kind("commit")
        .iter()
        .map(|c| strs(&c["data"]["tickets"]))
        .collect();
    tickets.sort();
    assert_eq!(
        tickets,
        vec![vec!["ABC-1"], vec!["ABC-2"]],
        "fixture: one ticket each"
    );
    let first = s.intent_with_commit(&a);
    let second = s.intent_with_commit(&b);
    assert_ne!(
        first["id"],
        second["id"],
        "ABC-1 and ABC-2 are separate intents:\n{}",
        s.summary()
    );
    assert_eq!(strs(&first["data"]["commits"]), vec![a.as_str()]);
    assert_eq!(strs(&second["data"]["commits"]), vec![b.as_str()]);
}

const WISHLIST_V1: &str = r#"export function WishlistButton(count: number): string {
  return `<button aria-label="Add to wishlist">♡ ${count}</button>`;
}
"#;

#[test]
fn feat_then_fix_on_the_same_product_file_join() {
    let mut r = feature_repo(&[]);
    let feat = commit_files(
        &mut r,
        "feat: add wishlist button",
        &[("src/wishlist.ts", WISHLIST_V1)],
    );
    let fix = commit_files(
        &mut r,
        "fix: never show a negative wishlist count",
        &[(
            "src/wishlist.ts",
            &edit(
                WISHLIST_V1,
                "  return",
                "  const shown = Math.max(0, count);\n  return",
            )
            .replace("♡ ${count}", "♡ ${shown}"),
        )],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_commit(&feat);
    let mut commits = strs(&intent["data"]["commits"]);
    commits.sort();
    let mut expected = vec![feat.as_str(), fix.as_str()];
    expected.sort();
    assert_eq!(commits, expected, "{}", s.summary());
    assert_eq!(s.intents_of_focus("product").len(), 1, "{}", s.summary());
}

#[test]
fn shared_vocabulary_alone_does_not_join() {
    let mut r = feature_repo(&[]);
    let button = commit_files(
        &mut r,
        "feat: add checkout button",
        &[(
            "src/CheckoutButton.tsx",
            "export function CheckoutButton({ onCheckout }: Props) {\n  return <button onClick={onCheckout}>Checkout</button>;\n}\n",
        )],
    );
    let banner = commit_files(
        &mut r,
        "feat: add checkout banner",
        &[(
            "src/CheckoutBanner.tsx",
            "export function CheckoutBanner({ freeShipping }: Props) {\n  return <p className=\"banner\">Free shipping over {freeShipping}</p>;\n}\n",
        )],
    );
    let s = flow(&r).run();
    assert_ne!(
        s.intent_with_commit(&button)["id"],
        s.intent_with_commit(&banner)["id"],
        "the words \"add checkout\" alone must not join them:\n{}",
        s.summary()
    );
}

const INVOICE_V1: &str = r#"export function invoiceFooter(total: number): string {
  return `Total due: ${total.toFixed(2)}`;
}
"#;

#[test]
fn a_chain_is_split_around_its_anchor() {
    let mut r = feature_repo(&[("src/invoice.ts", "export const CURRENCY = \"EUR\";\n")]);
    let a = commit_files(
        &mut r,
        "feat: add coupon field",
        &[("src/coupon.ts", COUPON_V1)],
    );
    let b = commit_files(
        &mut r,
        "fix: coupon rounding and invoice footer",
        &[
            (
                "src/coupon.ts",
                &edit(
                    COUPON_V1,
                    "code.toUpperCase() }",
                    "code.toUpperCase(), total: Math.round(cart.total * 100) / 100 }",
                ),
            ),
            ("src/invoice.ts", INVOICE_V1),
        ],
    );
    let c = commit_files(
        &mut r,
        "feat: add invoice export",
        &[(
            "src/invoice.ts",
            &format!("{INVOICE_V1}\nexport function exportInvoice(lines: string[]): Blob {{\n  return new Blob([lines.join(\"\\n\")], {{ type: \"text/csv\" }});\n}}\n"),
        )],
    );
    let s = flow(&r).run();
    let with_a = s.intent_with_commit(&a);
    let commits = strs(&with_a["data"]["commits"]);
    assert!(
        commits.contains(&b.as_str()),
        "A and B share src/coupon.ts:\n{}",
        s.summary()
    );
    assert!(
        !commits.contains(&c.as_str()),
        "C reaches A only through B's second file: it must stay out:\n{}",
        s.summary()
    );
    assert_ne!(s.intent_with_commit(&c)["id"], with_a["id"]);
}

const CART_V1: &str = r#"export interface Item {
  sku: string;
  qty: number;
}

export function addItem(items: Item[], sku: string): Item[] {
  const found = items.find((i) => i.sku === sku);
  if (found) {
    return items.map((i) => (i.sku === sku ? { ...i, qty: i.qty + 1 } : i));
  }
  return [...items, { sku, qty: 1 }];
}
"#;

/// The cart helpers after review: locals renamed (every use of each), behaviour unchanged.
fn cart_reviewed() -> String {
    CART_V1
        .replace("found", "existing")
        .replace("(i)", "(item)")
        .replace("i.", "item.")
        .replace("...i,", "...item,")
        .replace(": i)", ": item)")
}

/// main, then `feat: add items to the cart` on src/cart.ts, then optionally a review tip.
fn cart_feature(with_tip: bool) -> (Repo, String, Option<String>) {
    let mut r = feature_repo(&[]);
    let feat = commit_files(
        &mut r,
        "feat: add items to the cart",
        &[("src/cart.ts", CART_V1)],
    );
    let tip = with_tip.then(|| {
        commit_files(
            &mut r,
            "address review comments",
            &[("src/cart.ts", &cart_reviewed())],
        )
    });
    (r, feat, tip)
}

#[test]
fn a_cleanup_tip_is_provenance_of_the_feature_not_a_behaviour() {
    let (r, feat, tip) = cart_feature(true);
    let tip = tip.expect("built with a tip");
    let s = flow(&r).run();
    assert_eq!(s.intents().len(), 1, "{}", s.summary());
    let intent = &s.intent_with_commit(&feat)["data"];
    assert_eq!(strs(&intent["commits"]), vec![feat.as_str()]);
    assert_eq!(strs(&intent["cleanup_commits"]), vec![tip.as_str()]);
    assert!(
        s.intents_with_commit(&tip).is_empty(),
        "the review tip is never a behaviour-bearing commit"
    );
    let (without, _, _) = cart_feature(false);
    let baseline = flow(&without).run();
    assert_eq!(
        s.scenarios().len(),
        baseline.scenarios().len(),
        "the tip adds no scenarios:\nwith tip:\n{}without:\n{}",
        s.summary(),
        baseline.summary()
    );
}

#[test]
fn a_minor_refactor_is_cleanup_with_no_scenarios() {
    let mut r = feature_repo(&[("src/cartHelpers.ts", CART_V1)]);
    commit_files(
        &mut r,
        "refactor: minor cleanup of cart helpers",
        &[("src/cartHelpers.ts", &cart_reviewed())],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_file("src/cartHelpers.ts");
    assert_eq!(intent["data"]["cleanup"], true, "{}", s.summary());
    assert_eq!(intent["data"]["focus"], "cleanup");
    assert!(s.scenarios_of(intent).is_empty(), "{}", s.summary());
}

const CHECKOUT_BASE: &str = r#"export function checkout(cart: Cart, coupon?: Coupon): Order {
  const total = coupon ? applyCoupon(cart.total, coupon) : cart.total;
  return { items: cart.items, total };
}
"#;

#[test]
fn a_refactor_describing_behaviour_is_a_product_intent() {
    let mut r = feature_repo(&[("src/checkout.ts", CHECKOUT_BASE)]);
    commit_files(
        &mut r,
        "refactor: reject expired coupons at checkout",
        &[(
            "src/checkout.ts",
            &edit(
                CHECKOUT_BASE,
                "  const total",
                "  if (coupon && coupon.expiresAt < new Date()) {\n    throw new Error(\"This coupon has expired\");\n  }\n  const total",
            ),
        )],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_file("src/checkout.ts");
    assert_eq!(intent["data"]["focus"], "product", "{}", s.summary());
    assert_eq!(intent["data"]["cleanup"], false);
    assert!(!s.scenarios_of(intent).is_empty(), "{}", s.summary());
}

#[test]
fn non_behaviour_commit_types_yield_product_intents_only_where_their_diff_changes_behaviour() {
    let mut r = feature_repo(&[
        (
            "src/app.ts",
            "export function greet(name: string) { return `Hello, ${name}`; }\n",
        ),
        (
            "src/footer.ts",
            "export const COPYRIGHT = \"© 2025 Shop\";\n",
        ),
        (
            "package.json",
            "{\n  \"name\": \"shop\",\n  \"version\": \"1.1.0\"\n}\n",
        ),
    ]);
    commit_files(
        &mut r,
        "docs: describe local setup",
        &[("docs/setup.md", "# Setup\n\nRun `npm install`.\n")],
    );
    commit_files(
        &mut r,
        "style: format greeting",
        &[(
            "src/app.ts",
            "export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n",
        )],
    );
    commit_files(
        &mut r,
        "ci: run tests on pull requests",
        &[(
            ".github/workflows/ci.yml",
            "on: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n",
        )],
    );
    commit_files(
        &mut r,
        "build: add a test script",
        &[(
            "package.json",
            "{\n  \"name\": \"shop\",\n  \"version\": \"1.1.0\",\n  \"scripts\": { \"test\": \"vitest run\" }\n}\n",
        )],
    );
    commit_files(
        &mut r,
        "chore: bump copyright year",
        &[(
            "src/footer.ts",
            "export const COPYRIGHT = \"© 2026 Shop\";\n",
        )],
    );
    commit_files(
        &mut r,
        "test: cover the greeting",
        &[(
            "src/app.test.ts",
            "import { greet } from \"./app\";\n\nit(\"greets by name\", () => {\n  expect(greet(\"Ada\")).toBe(\"Hello, Ada\");\n});\n",
        )],
    );
    commit_files(
        &mut r,
        "release: 1.2.0",
        &[
            ("CHANGELOG.md", "# 1.2.0\n\n- Greeting tests.\n"),
            (
                "package.json",
                "{\n  \"name\": \"shop\",\n  \"version\": \"1.2.0\",\n  \"scripts\": { \"test\": \"vitest run\" }\n}\n",
            ),
        ],
    );
    let s = flow(&r).run();
    // The chore's diff changes what the footer shows: its text may lower confidence but
    // never hide the line (issue 29). Every other commit leaves the product as it was.
    let product = s.intents_of_focus("product");
    assert_eq!(product.len(), 1, "{}", s.summary());
    assert_eq!(product[0]["data"]["title"], "Bump copyright year");
    assert_ne!(product[0]["data"]["confidence"], "high");
    let files: Vec<&str> = s
        .scenarios_of_focus("product")
        .iter()
        .flat_map(|sc| sc["data"]["evidence"].as_array().unwrap())
        .filter(|e| e["line"].as_u64() > Some(0))
        .filter_map(|e| e["file"].as_str())
        .collect();
    assert!(files.iter().all(|f| *f == "src/footer.ts"), "{files:?}");
}

const GIFTCARD: &str = r#"export function redeemGiftCard(balance: number, code: string): number {
  if (!/^[A-Z0-9]{16}$/.test(code)) {
    throw new Error("Invalid gift card code");
  }
  return balance + lookupGiftCard(code).amount;
}
"#;

#[test]
fn a_plain_subject_on_product_code_is_a_product_intent() {
    let mut r = feature_repo(&[]);
    let c = commit_files(
        &mut r,
        "Add support for gift cards",
        &[("src/giftcard.ts", GIFTCARD)],
    );
    let s = flow(&r).run();
    let intent = s.intent_with_commit(&c);
    assert_eq!(intent["data"]["focus"], "product", "{}", s.summary());
}

#[test]
fn a_plain_subject_on_docs_only_is_no_product_intent() {
    let mut r = feature_repo(&[]);
    commit_files(
        &mut r,
        "Add support for gift cards",
        &[(
            "docs/giftcards.md",
            "# Gift cards\n\nCustomers can redeem a 16-character gift card code at checkout.\n",
        )],
    );
    let s = flow(&r).run();
    assert!(s.intents_of_focus("product").is_empty(), "{}", s.summary());
    assert!(
        s.scenarios_of_focus("product").is_empty(),
        "{}",
        s.summary()
    );
}

#[test]
fn wip_commits_are_partitioned_by_anchored_vocabulary() {
    let mut r = feature_repo(&[]);
    commit_files(
        &mut r,
        "wip",
        &[
            (
                "src/billing/invoice.ts",
                "export function invoiceTotal(lines: InvoiceLine[]): number {\n  return lines.reduce((sum, l) => sum + l.amount, 0);\n}\n",
            ),
            (
                "src/profile/avatar.ts",
                "export function avatarUrl(userId: string, size = 64): string {\n  return `/avatars/${userId}?s=${size}`;\n}\n",
            ),
        ],
    );
    commit_files(
        &mut r,
        "wip",
        &[(
            "src/billing/invoiceView.tsx",
            "export function InvoiceView({ lines }: { lines: InvoiceLine[] }) {\n  return <p>Invoice total: {invoiceTotal(lines)}</p>;\n}\n",
        )],
    );
    let s = flow(&r).run();
    let billing = s.intent_with_file("src/billing/invoice.ts");
    let files = strs(&billing["data"]["files"]);
    assert!(
        files.contains(&"src/billing/invoiceView.tsx"),
        "the invoice files share an anchored term:\n{}",
        s.summary()
    );
    assert!(
        !files.contains(&"src/profile/avatar.ts"),
        "the avatar is unrelated, though committed with the invoice:\n{}",
        s.summary()
    );
    let avatar = s.intent_with_file("src/profile/avatar.ts");
    for intent in [billing, avatar] {
        let d = &intent["data"];
        assert_eq!(d["source"], "vocabulary", "{}", s.summary());
        assert_eq!(d["confidence"], "low");
        assert_eq!(d["review_required"], true);
    }
}

#[test]
fn uncommitted_work_is_low_confidence_and_review_required() {
    let r = feature_repo(&[("src/cart.ts", CART_V1)]);
    r.write(
        "src/cart.ts",
        CART_V1.replace("qty: 1", "qty: Math.max(1, initialQty)"),
    );
    r.write(
        "src/cartBadge.tsx",
        "export function CartBadge({ count }: { count: number }) {\n  return <span className=\"badge\">{count} items in your cart</span>;\n}\n",
    );
    let s = flow(&r).worktree().run();
    assert_eq!(one(&s.records, "range")["mode"], "worktree");
    assert!(
        !s.intents().is_empty(),
        "uncommitted work still has intents"
    );
    for intent in s.intents() {
        let d = &intent["data"];
        assert_eq!(d["confidence"], "low", "{}", s.summary());
        assert_eq!(d["review_required"], true, "{}", s.summary());
    }
}

#[test]
fn the_work_being_edited_now_comes_first() {
    let mut r = feature_repo(&[("src/cart.ts", CART_V1)]);
    commit_files(
        &mut r,
        "feat: show the invoice total",
        &[(
            "src/invoice.ts",
            "export function invoiceTotal(lines: number[]) {\n  toast.success(\"Invoice total updated\");\n  return lines.reduce((a, b) => a + b, 0);\n}\n",
        )],
    );
    r.write(
        "src/cart.ts",
        CART_V1.replace("qty: 1", "qty: Math.max(1, initialQty)"),
    );
    let s = flow(&r).worktree().run();
    let intents = s.intents();
    assert!(intents.len() >= 2, "{}", s.summary());
    assert_eq!(intents[0]["data"]["current"], true, "{}", s.summary());
    assert!(strs(&intents[0]["data"]["files"]).contains(&"src/cart.ts"));
    let committed = s.intent_with_file("src/invoice.ts");
    assert_eq!(committed["data"]["current"], false);
    // Without uncommitted work nothing is current.
    let s = flow(&r).run();
    assert!(s.intents().iter().all(|i| i["data"]["current"] == false));
}
