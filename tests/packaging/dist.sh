#!/bin/sh
# make dist: packs the built binaries into OUT_DIR/qapipe-<version>-<target>.tar.gz, one
# top folder holding bin/ (the binaries), share/man/man1 (from man/), the bash, zsh and fish
# completions under share/, pipelines/, README.md, LICENSE-MIT, LICENSE-APACHE and a
# SHA256SUMS of every other file; then writes OUT_DIR/SHA256SUMS for the archives there.
# Environment (the Makefile sets them):
#   BINS         the binaries to ship (names)
#   BIN_DIR      where they are built (target/release by default in the Makefile)
#   OUT_DIR      where the archive goes (default dist)
#   TARGET       the target triple in the name (default: rustc's host)
#   COMPLETIONS  the completion generator (default BIN_DIR/qa-completions)
#   GZIP_LEVEL   1 (fast, for tests) to 9 (default: smallest download)
set -eu
umask 022
root=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "dist: $*" >&2; exit 1; }

bins=${BINS:?set BINS to the binaries to ship}
bin_dir=$(cd "${BIN_DIR:?set BIN_DIR to the folder of the built binaries}" 2>/dev/null && pwd) \
  || die "BIN_DIR $BIN_DIR: no such folder (build first: make release, or make build with PROFILE=debug)"
for b in $bins; do
  [ -x "$bin_dir/$b" ] || die "$bin_dir/$b: not built (build first: make release, or make build with PROFILE=debug)"
  [ -f "$root/man/$b.1" ] || die "man/$b.1: missing (make man)"
done
completions=${COMPLETIONS:-$bin_dir/qa-completions}
[ -x "$completions" ] || die "$completions: the completion generator is not built (cargo build -p qa-packaging, or set COMPLETIONS=path/to/qa-completions)"

first=${bins%% *}
version=$("$bin_dir/$first" --version | cut -d' ' -f2)
[ -n "$version" ] || die "$bin_dir/$first --version printed no version"
target=${TARGET:-$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')}
[ -n "$target" ] || die "no target triple: set TARGET (rustc -vV names the host)"
name=qapipe-$version-$target

if command -v sha256sum >/dev/null; then sums() { sha256sum "$@"; }
elif command -v shasum >/dev/null; then sums() { shasum -a 256 "$@"; }
else die "neither sha256sum nor shasum found"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/$name
mkdir -p "$stage/bin" "$stage/share/man/man1"
for b in $bins; do
  cp "$bin_dir/$b" "$stage/bin/$b" && chmod 755 "$stage/bin/$b"
  cp "$root/man/$b.1" "$stage/share/man/man1/$b.1" && chmod 644 "$stage/share/man/man1/$b.1"
done
"$completions" "$stage"
cp "$root/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$stage/"
cp -R "$root/pipelines" "$stage/pipelines"
(cd "$stage" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort \
  | while IFS= read -r f; do sums "$f"; done > SHA256SUMS)

out=${OUT_DIR:-dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Same bytes for the same inputs where GNU tar allows it: sorted names, no owner, fixed times.
set --
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
  set -- --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch"
fi
# A failing tar must not leave a truncated archive behind gzip's success.
{ tar -C "$work" "$@" -cf - "$name" || echo "tar failed" > "$work/tar.failed"; } \
  | gzip -n "-${GZIP_LEVEL:-9}" > "$out/$name.tar.gz.part"
[ ! -e "$work/tar.failed" ] || { rm -f "$out/$name.tar.gz.part"; die "tar could not pack $stage"; }
mv "$out/$name.tar.gz.part" "$out/$name.tar.gz"
(cd "$out" && for a in qapipe-*.tar.gz; do sums "$a"; done > SHA256SUMS)
echo "dist: wrote $out/$name.tar.gz ($(wc -l < "$stage/SHA256SUMS" | tr -d ' ') files) and $out/SHA256SUMS"
