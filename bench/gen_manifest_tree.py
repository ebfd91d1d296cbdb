#!/usr/bin/env python3
"""Generate a deterministic directory target for benchmarking qa-fetch's manifest.

Usage: python3 bench/gen_manifest_tree.py DIR [--files 10000] [--bytes 31457280]
                                          [--seed 1] [--force]

Creates a fresh project at DIR with:
  * `site/`: exactly --files files (default 10,000, qa-fetch's entry limit) holding exactly
    --bytes bytes (default 30 MiB, under its 32 MiB limit) spread evenly over the 200
    leaf folders `assets/a00/s0/` ... `pages/p19/s4/` (242 folders in all), plus
    `site/index.html` and eight "bundles" `assets/bundle-N.js` of 256 KiB-1.5 MiB that take
    about a quarter of the bytes. The rest are log-normally sized (median about 1.2 KB, none
    near the 4 MiB per-file limit). Contents are seeded random
    bytes, so nothing compresses or deduplicates; no name is one qa-fetch excludes.
  * `.qa-acceptance.json`: a plan whose target is the directory `site`, with one request
    criterion and one file check (index.html contains "Bench site"), for `qa-intent --plan`.

All randomness comes from a seeded random.Random: identical arguments give identical
bytes (and so the same manifest hash). Exits 1 when DIR is not empty without --force, or
when the tree does not have exactly --files files and --bytes bytes.
"""

import argparse
import json
import math
import os
import random
import sys
import time

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from gen_history import empty_dir

TARGET = "site"
INDEX = b"<!doctype html><title>Bench site</title><h1>Bench site</h1>\n"
EXTENSIONS = [".html", ".js", ".css", ".json", ".svg", ".png", ".woff2", ".txt"]
LARGE_FILES = 8
LARGE_SIZES = (256 << 10, 3 << 19)  # 256 KiB to 1.5 MiB
MAX_FILE = 4 << 20  # qa-fetch's per-file limit


def folders():
    """Return the 200 leaf folders the small files are spread over."""
    return [f"{top}/{top[0]}{i:02d}/s{j}" for top in ("assets", "pages")
            for i in range(20) for j in range(5)]


def sizes(rng, files, total):
    """Return `files` sizes summing to `total`: index.html, LARGE_FILES bundles, then
    log-normal sizes scaled to the remainder (the last bundle absorbs rounding)."""
    large = [rng.randint(*LARGE_SIZES) for _ in range(LARGE_FILES)]
    small_count = files - 1 - LARGE_FILES
    weights = [rng.lognormvariate(0.0, 1.2) for _ in range(small_count)]
    rest = total - len(INDEX) - sum(large)
    scale = rest / sum(weights)
    small = [max(1, math.floor(w * scale)) for w in weights]
    large[-1] += rest - sum(small)
    result = [len(INDEX), *large, *small]
    if min(result) < 1 or max(result) > MAX_FILE:
        sys.exit(f"gen_manifest_tree: sizes out of range for --files {files} --bytes {total}")
    return result


def layout(rng, count):
    """Return `count` relative file paths (after index.html): bundles under assets/, the
    rest spread over folders() with mixed extensions."""
    dirs = folders()
    paths = [f"assets/bundle-{i}.js" for i in range(LARGE_FILES)]
    for n in range(count - LARGE_FILES):
        paths.append(f"{dirs[n % len(dirs)]}/f{n:05d}{rng.choice(EXTENSIONS)}")
    return paths


def write_plan(project):
    plan = {
        "target": {"kind": "directory", "value": TARGET, "buildId": "bench-manifest-1"},
        "criteria": [{"id": "home", "expected": "The home page names the site",
                      "source": {"kind": "request", "text": "The home page says Bench site"}}],
        "checks": [{"id": "home-title", "criterion": "home", "kind": "file",
                    "path": "index.html", "contains": "Bench site"}],
    }
    with open(os.path.join(project, ".qa-acceptance.json"), "w") as fh:
        json.dump(plan, fh, indent=2)
        fh.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=10_000, help="files in the target (max 10,000)")
    ap.add_argument("--bytes", type=int, default=30 << 20, help="bytes in all (max 32 MiB)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true", help="remove DIR first if it exists")
    args = ap.parse_args()
    if args.files < LARGE_FILES + 2 or args.bytes < 2 * args.files + LARGE_SIZES[1] * LARGE_FILES:
        ap.error(f"--files must be >= {LARGE_FILES + 2} and --bytes large enough for the bundles")

    start = time.perf_counter()
    rng = random.Random(args.seed)
    empty_dir(args.dir, args.force)
    site = os.path.join(args.dir, TARGET)
    file_sizes = sizes(rng, args.files, args.bytes)
    paths = ["index.html", *layout(rng, args.files - 1)]
    for rel, size in zip(paths, file_sizes):
        path = os.path.join(site, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(INDEX if rel == "index.html" else rng.randbytes(size))
    write_plan(args.dir)

    found, total, dirs = 0, 0, 0
    for root, subdirs, names in os.walk(site):
        dirs += len(subdirs)
        found += len(names)
        total += sum(os.lstat(os.path.join(root, n)).st_size for n in names)
    elapsed = time.perf_counter() - start
    print(f"gen_manifest_tree: {site}: {found} files in {dirs} folders, {total} bytes "
          f"({total / (1 << 20):.1f} MiB, largest {max(file_sizes)}, median "
          f"{sorted(file_sizes)[len(file_sizes) // 2]}), {elapsed:.1f}s")
    if (found, total) != (args.files, args.bytes):
        print(f"gen_manifest_tree: expected {args.files} files and {args.bytes} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
