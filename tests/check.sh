#!/bin/sh
# `make check`: formatting of the workspace, then clippy and the tests of the crates the
# change touches: files changed against HEAD, untracked ones included, each mapped to the
# crate folder it sits in (bins/*, shared/*, tests/*). The binaries are built first (only
# what changed is rebuilt): many tests run them. RUNNER=nextest|cargo as in the Makefile.
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
set --
for p in $packages; do set -- "$@" -p "$p"; done
echo "check: clippy and tests of$packages"
$cargo clippy "$@" --all-targets -- -D warnings
$cargo build --workspace --bins
if [ "${RUNNER:-cargo}" = nextest ]; then
  $cargo nextest run "$@"
else
  $cargo test "$@"
fi
