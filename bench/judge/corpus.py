"""The corpus file (bench/corpus.toml) and the local clones of its repositories."""

import os
import subprocess
import tomllib
from dataclasses import dataclass

from selection import git

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_FILE = os.path.join(BENCH, "corpus.toml")
CLONES = os.path.join(BENCH, "work", "corpus")


@dataclass(frozen=True)
class Repository:
    name: str  # owner/name
    ecosystem: str
    head: str

    @property
    def folder(self):
        """The folder name of its clone and of its results: owner+name."""
        return self.name.replace("/", "+")


@dataclass(frozen=True)
class Corpus:
    selection: dict
    ecosystems: dict  # key -> description, in the file's order
    repositories: list


def load(path=CORPUS_FILE):
    """Read the corpus file."""
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    repos = [Repository(r["name"], r["ecosystem"], r["head"]) for r in doc["repository"]]
    unknown = sorted({r.ecosystem for r in repos} - set(doc["ecosystems"]))
    if unknown:
        raise ValueError(f"{path}: ecosystems not declared: {', '.join(unknown)}")
    return Corpus(doc["selection"], doc["ecosystems"], repos)


def clone_dir(repo, clones=CLONES):
    return os.path.join(clones, repo.folder)


def fetch(repo, mirrors, clones=CLONES):
    """Clone the mirror <mirrors>/<owner>+<name>/repo into the clones folder without a
    checkout, or fetch into the clone when present; return a one-line outcome."""
    source = os.path.join(mirrors, repo.folder, "repo")
    if not os.path.isdir(source):
        source = os.path.join(mirrors, repo.folder)
    if not os.path.isdir(source):
        return f"{repo.name}: skipped, no mirror at {os.path.join(mirrors, repo.folder)}"
    dest = clone_dir(repo, clones)
    if os.path.isdir(os.path.join(dest, ".git")):
        cmd = ["git", "-C", dest, "fetch", "--quiet", source, repo.head]
        verb = "fetched into"
    else:
        os.makedirs(clones, exist_ok=True)
        cmd = ["git", "clone", "--quiet", "--no-checkout", source, dest]
        verb = "cloned to"
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        return f"{repo.name}: failed: {res.stderr.strip().splitlines()[-1:]}"
    if not git(dest, "cat-file", "-e", f"{repo.head}^{{commit}}", check=False, ok=True):
        return f"{repo.name}: {verb} {dest}, but its head {repo.head[:12]} is missing"
    return f"{repo.name}: {verb} {dest}"
