#!/bin/sh
# `make check`: formatting of the workspace, clippy, then the tests of the crates the
# change touches: files changed against HEAD, untracked ones included, each mapped to the
# crate folder it sits in (bins/*, shared/*, tests/*). The test build covers the whole
# workspace as `make test` does, so it shares its build (selecting packages with -p would
# resolve other features and build everything again once); only what changed is rebuilt
# (and linted), and only the touched crates' tests run. RUNNER=nextest|cargo as in the Makefile.
set -eu
cargo=${CARGO:-cargo}
cd "$(dirname "$0")/.."
changed=$({ git diff --name-only HEAD; git ls-files --others --exclude-standard; } | sort -u)
packages=
for dir in $(printf '%s\n' "$changed" | sed -n 's#^\(bins/[^/]*\)/.*#\1#p; s#^\(shared/[^/]*\)/.*#\1#p; s#^\(tests/[^/]*\)/.*#\1#p' | sort -u); do
  [ -f "$dir/Cargo.toml" ] || continue
  name=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$dir/Cargo.toml" | head -n 1)
  packages="$packages $name"
done
echo "check: cargo fmt --all -- --check"
$cargo fmt --all -- --check
if [ -z "$packages" ]; then
  echo "check: no crate changed against HEAD: formatting only"
  exit 0
fi
# The Makefile runs this with clippy-driver as the workspace's rustc wrapper (CLIPPY_BUILD,
# as `make test` does): the test build below is clippy's run too, and shares make test's build.
echo "check: the tests of$packages, built by clippy-driver (its lints are errors)"
if [ "${RUNNER:-cargo}" = nextest ]; then
  filter=
  for p in $packages; do filter="${filter:+$filter | }package($p)"; done
  $cargo nextest run --workspace -E "$filter"
else
  set --
  for p in $packages; do set -- "$@" -p "$p"; done
  # The binaries other crates' tests run, built as the workspace's tests build them.
  $cargo build --workspace --tests
  $cargo test "$@"
fi
