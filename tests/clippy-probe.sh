#!/bin/sh
# `make test` runs clippy inside the test build: clippy-driver as RUSTC_WORKSPACE_WRAPPER,
# `-D warnings` passed in CLIPPY_ARGS (the Makefile's CLIPPY_BUILD, how `cargo clippy` drives
# the driver). That protocol is clippy's own, not a documented interface: if a toolchain
# stopped reading CLIPPY_ARGS, the suite would build with lints as warnings and pass. So
# first prove it on two one-line crates: one with a clippy warning must fail, a clean one
# must compile, both with the CLIPPY_ARGS the Makefile passes. Both are compiled to metadata
# only (well under a second each).
set -eu
: "${CLIPPY_ARGS:?clippy-probe: run it as make does, with CLIPPY_ARGS set (Makefile: CLIPPY_BUILD)}"

dir=$(mktemp -d "${TMPDIR:-/tmp}/qa-clippy-probe.XXXXXX")
trap 'rm -rf "$dir"' EXIT
printf 'pub fn probe(x: &u32) -> u32 {\n    x.clone()\n}\n' >"$dir/linted.rs"
printf 'pub fn probe(x: &u32) -> u32 {\n    *x\n}\n' >"$dir/clean.rs"
drive() {
  CARGO_PRIMARY_PACKAGE=1 clippy-driver --edition 2021 --crate-type lib \
    --emit=metadata --out-dir "$dir" "$dir/$1.rs" >"$dir/$1.log" 2>&1
}
if drive linted; then
  echo "clippy-probe: clippy-driver did not deny clone_on_copy through CLIPPY_ARGS: make test would not enforce clippy; run make lint" >&2
  exit 1
fi
if ! drive clean; then
  echo "clippy-probe: clippy-driver failed on a clean file:" >&2
  cat "$dir/clean.log" >&2
  exit 1
fi
echo "clippy-probe: clippy-driver denies lints through CLIPPY_ARGS"
