#!/bin/sh
# Creates a small example repository at $1: a main branch and a feature branch with a few
# conventional commits, a rename, a test and a docs change. Fixed dates: the same every run.
set -eu
dir=${1:?usage: make-demo-repo.sh DIR}
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q -b main
git config commit.gpgsign false
mkdir -p src tests docs
cat > src/cart.js <<'JS'
export function addItem(cart, item) {
  cart.items.push(item);
  return cart;
}
JS
printf '# Shop\n\nA tiny shop.\n' > README.md
printf '{"name":"shop","version":"1.0.0","type":"module","scripts":{"test":"jest"}}\n' > package.json
git add -A && git commit -q -m "chore: initial shop"
git checkout -q -b feature/checkout
cat > src/cart.js <<'JS'
export function addItem(cart, item) {
  if (item.quantity <= 0) {
    throw new Error("quantity must be positive");
  }
  cart.items.push(item);
  cart.total += item.price * item.quantity;
  return cart;
}
JS
git commit -q -am "fix(cart): reject non-positive quantities (SHOP-12)"
cat > src/checkout.js <<'JS'
export function checkout(cart, pay) {
  if (cart.items.length === 0) return { ok: false, error: "empty cart" };
  const receipt = pay(cart.total);
  localStorage.setItem("lastReceipt", receipt.id);
  return { ok: true, receipt };
}
JS
cat > tests/checkout.test.js <<'JS'
import { checkout } from "../src/checkout.js";
test("empty cart is refused", () => {
  expect(checkout({ items: [] }, () => {}).ok).toBe(false);
});
JS
git add -A && git commit -q -m "feat(checkout): pay for a cart and keep the receipt (SHOP-14)"
git mv README.md docs/README.md
printf '\nSee docs for checkout.\n' >> docs/README.md
git commit -q -am "docs: move the readme under docs"
