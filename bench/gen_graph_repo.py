#!/usr/bin/env python3
"""Generate a deterministic 2,000-file TypeScript repository for the behavior-graph bench.

Usage: python3 bench/gen_graph_repo.py DIR [--files 2000] [--changed 20] [--seed 1] [--force]

Creates a fresh repository at DIR with:
  * `main`: one commit of a Next.js shop (package.json depending on next) with --files
    TypeScript files: utilities (src/lib/), components (src/components/, importing
    utilities and lower-numbered components), feature modules (src/features/, importing
    both, some through `@/` and index files) and pages (pages/, importing components and
    features), so imports form a layered graph with shared hubs;
  * `feature`: one commit on top that edits --changed files spread over the layers.

Like gen_flow_repo.py it writes the history with one `git fast-import` run (gen_history's
writer) from a seeded random.Random with fixed identities and dates, so commit ids are
identical for identical arguments. HEAD is left at `feature`.
"""

import argparse
import random
import sys

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from gen_history import Gen, Repo, git, init_repo

# Share of the files per layer (pages get the rest).
LAYERS = [("lib", 0.15), ("components", 0.40), ("features", 0.35)]


def body(rng, name, lines):
    """Return plausible TypeScript statements declaring `name`."""
    out = [f"export function {name}(input: number): number {{", "  let total = input;"]
    for i in range(lines):
        out.append(f"  if (total > {rng.randint(1, 999)}) {{ total -= {rng.randint(1, 9)}; }}")
    out += ["  return total;", "}", ""]
    return out


def layout(files):
    """Return {layer: count} summing to files."""
    counts = {layer: max(1, int(files * share)) for layer, share in LAYERS}
    counts["pages"] = files - sum(counts.values())
    return counts


def path_of(layer, i):
    return {
        "lib": f"src/lib/util{i}.ts",
        "components": f"src/components/Widget{i}.tsx",
        "features": f"src/features/feature{i}/index.ts",
        "pages": f"pages/page{i}.tsx",
    }[layer]


def name_of(layer, i):
    return {"lib": f"util{i}", "components": f"Widget{i}", "features": f"feature{i}",
            "pages": f"Page{i}"}[layer]


def spec(layer, i, importer_layer):
    """The import specifier of file (layer, i) as written from a file of importer_layer."""
    if layer == "lib":
        return f"@/lib/util{i}" if importer_layer == "features" else f"../lib/util{i}"
    if layer == "components":
        return f"./Widget{i}" if importer_layer == "components" else (
            f"../../components/Widget{i}" if importer_layer == "features" else f"../src/components/Widget{i}")
    return f"../features/feature{i}" if importer_layer == "features" else f"../src/features/feature{i}"


def source(rng, counts, layer, i):
    """Return the text of file (layer, i)."""
    deps = []
    if layer == "components":
        deps += [("lib", rng.randrange(counts["lib"])) for _ in range(rng.randint(1, 3))]
        if i > 0:
            deps += [("components", rng.randrange(i)) for _ in range(rng.randint(0, 2))]
    elif layer == "features":
        deps += [("lib", rng.randrange(counts["lib"])) for _ in range(rng.randint(1, 2))]
        deps += [("components", rng.randrange(counts["components"])) for _ in range(rng.randint(1, 3))]
        if i > 0 and rng.random() < 0.3:
            deps.append(("features", rng.randrange(i)))
    elif layer == "pages":
        deps += [("components", rng.randrange(counts["components"])) for _ in range(rng.randint(1, 4))]
        deps += [("features", rng.randrange(counts["features"])) for _ in range(rng.randint(0, 2))]
    lines = []
    for dep in sorted(set(deps)):
        lines.append(f"import {{ {name_of(*dep)} }} from '{spec(dep[0], dep[1], layer)}';")
    lines.append("")
    lines += body(rng, name_of(layer, i), rng.randint(20, 40))
    if layer == "pages":
        lines.append(f"export default function Screen() {{ return {name_of(layer, i)}(1); }}")
    return ("\n".join(lines) + "\n").encode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--changed", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()
    if args.files < 10 or not 0 < args.changed <= args.files:
        ap.error("--files must be >= 10 and --changed between 1 and --files")
    rng = random.Random(args.seed)
    counts = layout(args.files - 1)  # package.json is the last file
    files = {"package.json": b'{"name": "bench-shop", "dependencies": {"next": "15.0.0"}}\n'}
    for layer, count in counts.items():
        for i in range(count):
            files[path_of(layer, i)] = source(rng, counts, layer, i)
    repo = Repo(Gen(rng))
    base = repo.commit("refs/heads/main", [("M", "100644", p, d) for p, d in sorted(files.items())],
                       [], "feat: bench shop")
    changed = rng.sample(sorted(p for p in files if p.endswith((".ts", ".tsx"))), args.changed)
    edits = [("M", "100644", p, files[p] + b"// edited for the bench\nexport const edited = 1;\n")
             for p in sorted(changed)]
    repo.commit("refs/heads/feature", edits, [base], "feat: edit shared widgets")
    init_repo(args.dir, args.force)
    git(args.dir, "fast-import", "--quiet", data=repo.stream())
    git(args.dir, "symbolic-ref", "HEAD", "refs/heads/feature")
    count = len(git(args.dir, "ls-tree", "-r", "--name-only", "feature").splitlines())
    if count != args.files:
        sys.exit(f"gen_graph_repo: the tree has {count} files, not {args.files}")
    print(f"gen_graph_repo: {args.dir}: {count} files, {args.changed} changed on feature")


if __name__ == "__main__":
    main()
