#!/bin/sh
# The release workflow's steps (.github/workflows/release.yml), kept here so the tests run
# them as they run the other CI scripts.
#
#   release.sh tag TAG              TAG must be v<the workspace version> (exit 65 otherwise):
#                                   a release named after one version never ships another.
#   release.sh assemble OUT PART... each PART is one build job's dist/ folder (`make dist`
#                                   TARGET=...): its archives, each checked against that
#                                   folder's SHA256SUMS, are copied to OUT with one
#                                   SHA256SUMS listing them all, which install.sh checks.
#                                   A part without sums, an archive they do not match or
#                                   list, or two parts shipping the same archive name is
#                                   exit 65 and OUT is left without a SHA256SUMS.
set -eu
home=$(cd "$(dirname "$0")/../.." && pwd)
die() {
  code=$1
  shift
  echo "release: error: $*" >&2
  exit "$code"
}
if command -v sha256sum > /dev/null; then sums() { sha256sum "$@"; }
elif command -v shasum > /dev/null; then sums() { shasum -a 256 "$@"; }
else die 69 "neither sha256sum nor shasum found"; fi

version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' "$home/Cargo.toml" | head -n 1
}

tag() {
  want=v$(version)
  [ "$1" = "$want" ] || die 65 "tag $1 does not name the workspace version: expected $want (Cargo.toml)"
  echo "release: $1 is the workspace version"
}

assemble() {
  out=$1
  shift
  [ $# -gt 0 ] || die 64 "assemble OUT PART...: no part given"
  mkdir -p "$out"
  [ ! -e "$out/SHA256SUMS" ] || die 65 "$out/SHA256SUMS exists already: assemble into a new folder"
  list=$(mktemp)
  trap 'rm -f "$list"' EXIT
  for part in "$@"; do
    [ -f "$part/SHA256SUMS" ] || die 65 "$part: no SHA256SUMS (is it a make dist folder?)"
    found=
    for archive in "$part"/qapipe-*.tar.gz; do
      [ -f "$archive" ] || continue
      name=${archive##*/}
      digest=$(sums "$archive" | cut -d' ' -f1)
      grep -qx "$digest  $name" "$part/SHA256SUMS" \
        || die 65 "$part/$name: not listed with this digest in $part/SHA256SUMS"
      ! grep -q "  $name\$" "$list" || die 65 "$name: shipped by two parts"
      printf '%s  %s\n' "$digest" "$name" >> "$list"
      cp "$archive" "$out/$name"
      found=1
    done
    [ -n "$found" ] || die 65 "$part: no qapipe-*.tar.gz archive"
  done
  sort -k 2 "$list" > "$out/SHA256SUMS"
  echo "release: $(wc -l < "$out/SHA256SUMS" | tr -d ' ') archives and SHA256SUMS in $out"
}

case ${1:-} in
  tag) [ $# -eq 2 ] || die 64 "usage: release.sh tag TAG"; tag "$2" ;;
  assemble) shift; [ $# -ge 1 ] || die 64 "usage: release.sh assemble OUT PART..."; assemble "$@" ;;
  *) die 64 "usage: release.sh tag TAG | assemble OUT PART..." ;;
esac
