#!/bin/sh
# Installs the qapipe binaries for a CI job: the release archive
# qapipe-<version>-<target>.tar.gz, or, when no archive fits this machine, `cargo install
# --path bins/<name>` per binary from this source tree. Prints the bin directory last; on
# GitHub it also goes on $GITHUB_PATH. An archive is used only when the release's
# SHA256SUMS beside it (or a pinned QAPIPE_SHA256) matches it, its own SHA256SUMS matches
# its files, and it holds nothing else than regular files that SHA256SUMS lists: an archive
# without sums is refused, never installed.
#
# Environment:
#   QAPIPE_INSTALL=auto|release|cargo|none  auto (default): the archive, else cargo;
#                   none: the qa-* binaries are already on PATH (checked)
#   QAPIPE_VERSION  the version to install (default: this tree's Cargo.toml version)
#   QAPIPE_PREFIX   where to install (default: $RUNNER_TEMP/qapipe, else $HOME/.qapipe)
#   QAPIPE_TARGET   the target triple (default: from uname)
#   QAPIPE_RELEASE_URL  where the release assets are (default:
#                   $GITHUB_SERVER_URL/$QAPIPE_REPOSITORY/releases/download/v<version>)
#   QAPIPE_REPOSITORY   owner/name of qapipe on GitHub (default: $GITHUB_ACTION_REPOSITORY)
#   QAPIPE_SHA256   the archive's pinned SHA-256 (64 hex digits): checked instead of the
#                   release's SHA256SUMS
# Exit status: 0 installed; 64 bad setting; 65 an archive refused (its checksums missing
# or not matching, or a file they do not list);
# 69 no archive (release) or no cargo; 70 an install step failed.
set -eu
home=$(cd "$(dirname "$0")/../.." && pwd)
QA_CI_HOME=$home
# shellcheck source=common.sh
. "$home/pipelines/ci/common.sh"
# The binaries: one per folder of the action's bins/ (the one list; tests/layout checks
# that no other is typed by hand).
bins=
for dir in "$home"/bins/*/; do
  dir=${dir%/}
  [ -d "$dir" ] && bins="$bins ${dir##*/}"
done
[ -n "$bins" ] || { echo "qapipe install: error: no bins/ folder beside the installer: $home is not a qapipe tree" >&2; exit 69; }

die() {
  code=$1
  shift
  echo "qapipe install: error: $*" >&2
  exit "$code"
}

say() {
  echo "qapipe install: $*" >&2
}

work=
trap 'rm -rf "$work"' EXIT

mode=${QAPIPE_INSTALL:-auto}
version=${QAPIPE_VERSION:-}
if [ -z "$version" ]; then
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$home/Cargo.toml" | head -n 1)
fi
if [ -n "${QAPIPE_PREFIX:-}" ]; then
  prefix=$QAPIPE_PREFIX
elif [ -n "${RUNNER_TEMP:-}" ]; then
  prefix=$RUNNER_TEMP/qapipe
else
  prefix=${HOME:?}/.qapipe
fi

pin=${QAPIPE_SHA256:-}
case $pin in
  *[!0-9a-f]*) die 64 "QAPIPE_SHA256 is 64 lowercase hex digits, not '$pin'" ;;
esac
if [ -n "$pin" ] && [ "${#pin}" -ne 64 ]; then
  die 64 "QAPIPE_SHA256 is 64 lowercase hex digits, not '$pin'"
fi

target() {
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64 | Linux-amd64) echo x86_64-unknown-linux-gnu ;;
    Linux-aarch64 | Linux-arm64) echo aarch64-unknown-linux-gnu ;;
    Darwin-x86_64) echo x86_64-apple-darwin ;;
    Darwin-arm64 | Darwin-aarch64) echo aarch64-apple-darwin ;;
    *) echo unknown ;;
  esac
}

# Downloads $1 to $2; false when there is no such asset.
download() {
  curl -fsSL --retry 3 --proto '=https,file' -o "$2" "$1" 2> /dev/null
}

# The release archive, verified, unpacked into $prefix; false when none fits.
from_release() {
  triple=${QAPIPE_TARGET:-$(target)}
  [ "$triple" != unknown ] || return 1
  name=qapipe-$version-$triple.tar.gz
  repository=${QAPIPE_REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-}}
  url=${QAPIPE_RELEASE_URL:-}
  if [ -z "$url" ]; then
    [ -n "$repository" ] || return 1
    url=${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download/v$version
  fi
  work=$(mktemp -d)
  if ! download "$url/$name" "$work/$name"; then
    say "no release archive $url/$name"
    return 1
  fi
  # The archive itself: its pinned SHA-256, else the line of the release's SHA256SUMS.
  if [ -n "$pin" ]; then
    printf '%s  %s\n' "$pin" "$name" > "$work/SHA256SUMS"
    (cd "$work" && qa_ci_sha256_check SHA256SUMS) > /dev/null 2>&1 \
      || die 65 "$name does not match QAPIPE_SHA256: refusing it"
  else
    download "$url/SHA256SUMS" "$work/SHA256SUMS.release" \
      || die 65 "$name has no SHA256SUMS beside it at $url (set QAPIPE_SHA256 to pin it): refusing it"
    grep " [ *]\{0,1\}$name\$" "$work/SHA256SUMS.release" > "$work/SHA256SUMS" \
      || die 65 "the release's SHA256SUMS does not list $name"
    (cd "$work" && qa_ci_sha256_check SHA256SUMS) > /dev/null 2>&1 \
      || die 65 "$name does not match the release's SHA256SUMS: refusing it"
  fi
  mkdir -p "$work/x"
  tar -xzf "$work/$name" -C "$work/x" || die 65 "$name is not a gzip tar archive"
  # The archive's files sit at its root or in one top-level folder.
  root=$work/x
  if [ ! -f "$root/SHA256SUMS" ]; then
    root=$(find "$work/x" -mindepth 2 -maxdepth 2 -name SHA256SUMS | head -n 1)
    root=${root%/SHA256SUMS}
  fi
  if [ -z "$root" ] || [ ! -f "$root/SHA256SUMS" ]; then
    die 65 "$name has no SHA256SUMS: refusing it"
  fi
  (cd "$root" && qa_ci_sha256_check SHA256SUMS) > /dev/null 2>&1 \
    || die 65 "$name: its files do not match its SHA256SUMS: refusing it"
  for b in $bins; do
    grep -q " [ *]\{0,1\}\(\./\)\{0,1\}bin/$b\$" "$root/SHA256SUMS" \
      || die 65 "$name: bin/$b is missing or not covered by its SHA256SUMS: refusing it"
  done
  # Everything installed is listed: no other file, no symlink, no name a line cannot hold.
  odd=$(cd "$root" && find . -name '*[!A-Za-z0-9._+-]*' | head -n 1)
  [ -z "$odd" ] || die 65 "$name holds a name other than letters, digits and ._+-: refusing it"
  listed=$(sed 's/^[0-9a-f]\{64\} [ *]\(\.\/\)\{0,1\}//' "$root/SHA256SUMS")
  unlisted=$(cd "$root" && find . ! -type d ! -name SHA256SUMS | sed 's|^\./||' | while IFS= read -r file; do
    if [ -L "$file" ] || [ ! -f "$file" ] || ! printf '%s\n' "$listed" | grep -qxF "$file"; then
      echo "$file"
    fi
  done | head -n 1)
  [ -z "$unlisted" ] || die 65 "$name: $unlisted is not a file its SHA256SUMS lists: refusing it"
  mkdir -p "$prefix"
  cp -R "$root"/. "$prefix"/
  say "installed qapipe $version ($triple) from $url/$name into $prefix"
}

# cargo install --path per binary, sharing one build folder.
from_source() {
  command -v cargo > /dev/null || die 69 "no release archive fits and cargo is not on PATH"
  [ -f "$home/bins/qa-diff/Cargo.toml" ] || die 69 "no release archive fits and $home holds no qapipe sources"
  build=${CARGO_TARGET_DIR:-$prefix.build}
  for b in $bins; do
    say "cargo install --path bins/$b"
    CARGO_TARGET_DIR=$build cargo install --locked --quiet --path "$home/bins/$b" --root "$prefix" \
      || die 70 "cargo install --path bins/$b failed"
  done
  say "built qapipe $version into $prefix"
}

case $mode in
  none)
    for b in $bins; do
      command -v "$b" > /dev/null || die 69 "install: none, but $b is not on PATH"
    done
    dirname "$(command -v qa-diff)"
    exit 0
    ;;
  auto) from_release || from_source ;;
  release) from_release || die 69 "no release archive of qapipe $version for this machine" ;;
  cargo) from_source ;;
  *) die 64 "QAPIPE_INSTALL is auto, release, cargo or none, not '$mode'" ;;
esac
for b in $bins; do
  [ -x "$prefix/bin/$b" ] || die 70 "$prefix/bin/$b was not installed"
done
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$prefix/bin" >> "$GITHUB_PATH"
fi
echo "$prefix/bin"
