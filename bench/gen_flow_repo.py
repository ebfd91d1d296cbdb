#!/usr/bin/env python3
"""Generate a deterministic polyglot repository whose feature range exercises the change flow.

Usage: python3 bench/gen_flow_repo.py DIR [--commits 50] [--files 200] [--seed 1] [--force]

Creates a fresh repository at DIR with:
  * `main`: one base commit of a small shop monorepo: a React/TypeScript front end (web/,
    package.json with a vitest `test` script), a Python service (service/, pyproject.toml
    with [tool.pytest.ini_options]), a Rust engine (Cargo.toml workspace + engine/), a Go
    gateway (gateway/go.mod), docs/ and CI. Sources hold functions with `if` comparisons
    against limits, thrown errors / `raise`, `fetch(` calls, `setStatus("...")`, JSX text,
    state changes and saves; tests are `it("...")`, `def test_`, `#[test] fn`, `func TestX`.
  * `feature`: exactly --commits linear commits in `main..feature` that change exactly
    --files paths in `git diff -M --name-only main...feature` (edits, new files, renames,
    deletions, config bumps). Subjects mix feat:/fix:/refactor:/docs:/chore:/test:,
    tickets (ABC-12, shared by commits of one theme), plain subjects and `wip`.

Like gen_history.py (whose fast-import writer it reuses) it writes the history with one
`git fast-import` run from a seeded random.Random with fixed identities and dates, so
commit ids are identical for identical arguments. HEAD is left checked out at `feature`
(qa-route reads build files from the working tree). Exits non-zero when the range does
not have exactly --commits commits and --files changed paths (within 5%).
"""

import os
import random
import re
import string
import sys
import textwrap
import time

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from gen_history import Repo, apply_changes, arg_parser, count_patch_bytes, git, init_repo

# (noun, the numeric field its limits apply to)
THEMES = [
    ("refund", "amount"), ("invoice", "total"), ("coupon", "discount"), ("upload", "size"),
    ("session", "ttl"), ("cart", "quantity"), ("password", "length"), ("shipment", "weight"),
    ("subscription", "seats"), ("report", "rows"), ("comment", "length"), ("payment", "amount"),
    ("webhook", "retries"), ("backup", "files"), ("booking", "guests"), ("profile", "age"),
]
# verb -> the state it moves a record to
VERBS = {
    "submit": "submitted", "approve": "approved", "cancel": "cancelled", "archive": "archived",
    "validate": "validated", "apply": "applied", "retry": "queued", "schedule": "scheduled",
    "confirm": "confirmed", "reopen": "open", "refresh": "fresh", "assign": "assigned",
}
LIMITS = [3, 5, 10, 20, 25, 50, 100, 250, 500, 1000, 5000]
TICKET_PROJECTS = ["ABC", "SHOP", "PAY", "WEB"]

# area -> (path pattern, share of the base tree, language); {N}=Noun, {n}=noun, {P}/{p}=part
AREAS = {
    "components": ("web/src/components/{N}{P}.tsx", 0.26, "tsx"),
    "api": ("web/src/api/{n}{P}.ts", 0.09, "ts"),
    "webtests": ("web/src/components/__tests__/{N}{P}.test.tsx", 0.09, "tsx"),
    "py": ("service/app/{n}_{p}.py", 0.13, "py"),
    "pytests": ("service/tests/test_{n}_{p}.py", 0.07, "py"),
    "rs": ("engine/src/{n}_{p}.rs", 0.12, "rs"),
    "rstests": ("engine/tests/{n}_{p}.rs", 0.05, "rs"),
    "go": ("gateway/{n}_{p}.go", 0.08, "go"),
    "gotests": ("gateway/{n}_{p}_test.go", 0.04, "go"),
    "docs": ("docs/{n}-{p}.md", 0.07, "md"),
}
PARTS = {
    "components": ["Panel", "Form", "List", "Dialog", "Card", "Page", "Summary", "Editor", "Table", "Banner"],
    "api": ["Client", "Api", "Store", "Queries"],
    "py": ["service", "views", "rules", "tasks", "repository", "serializers"],
    "rs": ["rules", "limits", "ledger", "state", "policy", "codec"],
    "go": ["handler", "client", "store", "middleware"],
    "docs": ["guide", "limits", "lifecycle", "faq", "runbook", "api"],
}
PARTS.update(webtests=PARTS["components"], pytests=PARTS["py"], rstests=PARTS["rs"], gotests=PARTS["go"])
# stack -> (product areas with pick weights, test areas)
STACKS = {
    "web": ([("components", 3), ("api", 1)], ["webtests"]),
    "service": ([("py", 1)], ["pytests"]),
    "engine": ([("rs", 1)], ["rstests"]),
    "gateway": ([("go", 1)], ["gotests"]),
}
SCOPES = {"web": "ui", "service": "api", "engine": "core", "gateway": "gateway"}
CONFIGS = ["package.json", "engine/Cargo.toml", "pyproject.toml", "gateway/go.mod",
           ".github/workflows/ci.yml", ".gitignore"]
# commit kind -> (share of the commits, share of the changed files)
KINDS = {
    "feat": (0.24, 6), "fix": (0.20, 4), "refactor": (0.08, 5), "docs": (0.08, 3),
    "chore": (0.06, 3), "test": (0.06, 3), "ticket": (0.12, 5), "plain": (0.10, 4), "wip": (0.06, 4),
}
SUBJECTS = {
    "feat": ["add ${noun} ${field} limit", "show ${noun} status in the ${part}",
             "support bulk ${noun} ${verb}", "validate ${noun} ${field} before ${verb}",
             "send ${noun} receipts by email", "retry failed ${noun} requests"],
    "fix": ["reject negative ${noun} ${field}", "handle missing ${noun} on ${verb}",
            "keep ${noun} status after reload", "prevent double ${noun} submit",
            "return 404 for unknown ${noun}", "allow ${noun} ${field} of exactly ${limit}"],
    "refactor": ["extract ${noun} validation", "split ${noun} ${part} into smaller functions",
                 "simplify ${noun} state handling", "clean up unused ${noun} helpers",
                 "validate ${noun} ${field} in one place"],
    "docs": ["document ${noun} limits", "describe the ${noun} ${verb} flow",
             "fix typos in the ${noun} guide"],
    "chore": ["bump dependency versions", "bump CI actions"],
    "chore-move": ["move legacy ${noun} helpers", "remove stale ${noun} modules"],
    "test": ["cover ${noun} ${field} boundaries", "add regression test for ${noun} ${verb}"],
    "wip": ["wip", "WIP", "wip ${noun}", "checkpoint"],
}
SUBJECTS["ticket"] = SUBJECTS["plain"] = SUBJECTS["feat"] + SUBJECTS["fix"]

# ---- code templates: string.Template ($name, $$ for a literal $), one list per area.
# Lines between "[?" and "?]" form an optional group. Go templates are indented with
# four spaces here and written with tabs.
T = {}
T["components"] = [r'''
export function ${Noun}${Part}({ ${noun}, onDone }: ${Noun}${Part}Props) {
    const [status, setStatus] = useState<Status>("idle");
    const [error, setError] = useState<string | null>(null);

    async function handle${Verb}() {
        if (${noun}.${field} ${cmp} ${limit}) {
            setError("${Noun} ${field} is over the limit of ${limit}");
            return;
        }
        setStatus("saving");
        const res = await fetch(`/api/${noun}s/$${${noun}.id}/${verb}`, { method: "POST" });
        if (!res.ok) {
            setStatus("failed");
            throw new Error("Could not ${verb} the ${noun}");
        }
[?
        localStorage.setItem("last-${noun}", String(${noun}.id));
        toast.success("${Noun} ${state}");
?]
        setStatus("${state}");
        onDone?.();
    }

    return (
        <section className="${noun}-${part}">
            <h2>${Verb} ${noun}</h2>
            {error && <p role="alert">{error}</p>}
            <button disabled={status === "saving"} onClick={handle${Verb}}>
                ${Verb} ${noun}
            </button>
        </section>
    );
}
''', r'''
export function ${Noun}${Verb}Status({ ${noun} }: { ${noun}: ${Noun} }) {
    if (!${noun}) return null;
    if (${noun}.${field} >= ${limit}) {
        return <p className="warning">${Noun} ${field} reached ${limit}</p>;
    }
[?
    if (${noun}.status === "${state}") {
        return <span className="badge">${Noun} is ${state}</span>;
    }
?]
    return <span>{${noun}.${field}} of ${limit}</span>;
}
''', r'''
export function use${Noun}${Verb}(id: string) {
    const [${noun}, set${Noun}] = useState<${Noun} | null>(null);
    useEffect(() => {
        fetch(`/api/${noun}s/$${id}`)
            .then((res) => (res.ok ? res.json() : Promise.reject(new Error("${noun} not found"))))
            .then(set${Noun});
    }, [id]);
    return ${noun};
}
''']
T["api"] = [r'''
export async function ${verb}${Noun}(id: string, ${field}: number): Promise<${Noun}> {
    if (${field} ${cmp} ${limit}) {
        throw new Error("${Noun} ${field} must be ${cmpword} ${limit}");
    }
    const res = await fetch(`$${API}/${noun}s/$${id}/${verb}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ${field} }),
    });
[?
    if (res.status === 409) {
        throw new ConflictError("${Noun} was changed by someone else");
    }
?]
    if (!res.ok) {
        throw new Error(`${verb} ${noun} failed: $${res.status}`);
    }
    return (await res.json()) as ${Noun};
}
''', r'''
export function is${Noun}${Field}Allowed(value: number): boolean {
    if (value < 0) {
        throw new RangeError("${noun} ${field} cannot be negative");
    }
    return value <= ${limit};
}
''']
T["webtests"] = [r'''
describe("${Noun}${Part} ${verb}", () => {
    it("${verb}s the ${noun} when the ${field} is within ${limit}", async () => {
        render(<${Noun}${Part} ${noun}={make${Noun}({ ${field}: ${below} })} />);
        await userEvent.click(screen.getByRole("button", { name: "${Verb} ${noun}" }));
        expect(await screen.findByText("${Noun} ${state}")).toBeInTheDocument();
    });

    it("shows an error when the ${field} is over ${limit}", async () => {
        render(<${Noun}${Part} ${noun}={make${Noun}({ ${field}: ${above} })} />);
        await userEvent.click(screen.getByRole("button", { name: "${Verb} ${noun}" }));
        expect(screen.getByRole("alert")).toHaveTextContent("over the limit of ${limit}");
    });
});
''']
T["py"] = [r'''
def ${verb}_${noun}(${noun}, ${field}, *, max_${field}=${limit}):
    """${Verb} a ${noun} once its ${field} is within the limit."""
    if ${field} is None:
        raise ValueError("${noun} ${field} is required")
    if ${field} ${cmp} max_${field}:
        raise ${Noun}Error(f"${noun} ${field} {${field}} is over {max_${field}}")
[?
    response = requests.post(f"{API_URL}/${noun}s/{${noun}.id}/${verb}", json={"${field}": ${field}}, timeout=5)
    if response.status_code >= 400:
        raise ${Noun}Error(f"${verb} failed with {response.status_code}")
?]
    ${noun}.status = "${state}"
    ${noun}.save()
    logger.info("${noun} %s is ${state}", ${noun}.id)
    return ${noun}
''', r'''
@bp.post("/${noun}s/<int:${noun}_id>/${verb}")
def ${verb}_${noun}_view(${noun}_id):
    ${noun} = ${Noun}.query.get(${noun}_id)
    if ${noun} is None:
        return jsonify(error="${noun} not found"), 404
    payload = request.get_json() or {}
    if payload.get("${field}", 0) > ${limit}:
        return jsonify(error="${field} over ${limit}"), 422
    ${verb}_${noun}(${noun}, payload.get("${field}"))
    return jsonify(id=${noun}.id, status=${noun}.status)
''']
T["pytests"] = [r'''
def test_${verb}_${noun}_rejects_${field}_over_${limit}():
    ${noun} = make_${noun}()
    with pytest.raises(${Noun}Error):
        ${verb}_${noun}(${noun}, ${above})


def test_${verb}_${noun}_marks_it_${state}():
    ${noun} = make_${noun}()
    ${verb}_${noun}(${noun}, ${below})
    assert ${noun}.status == "${state}"
''']
T["rs"] = [r'''
/// ${Verb} a ${noun} once its ${field} is within the limit.
pub fn ${verb}_${noun}(${noun}: &mut ${Noun}, ${field}: u64) -> Result<(), EngineError> {
    if ${field} == 0 {
        return Err(EngineError::Invalid("${noun} ${field} must be positive".into()));
    }
    if ${field} ${cmp} ${limit} {
        return Err(EngineError::Limit("${noun} ${field} over ${limit}".into()));
    }
[?
    if ${noun}.state == State::Archived {
        return Err(EngineError::Invalid("cannot ${verb} an archived ${noun}".into()));
    }
?]
    ${noun}.state = State::${State};
    ${noun}.${field} = ${field};
    Ok(())
}
''', r'''
/// How much ${field} is left before a ${noun} reaches its limit.
pub fn remaining_${noun}_${field}(${noun}: &${Noun}) -> u64 {
    if ${noun}.${field} >= ${limit} {
        return 0;
    }
    ${limit} - ${noun}.${field}
}
''']
T["rstests"] = [r'''
#[test]
fn ${verb}_${noun}_rejects_${field}_over_${limit}() {
    let mut ${noun} = ${Noun}::default();
    assert!(${verb}_${noun}(&mut ${noun}, ${above}).is_err());
}

#[test]
fn ${verb}_${noun}_moves_it_to_${state}() {
    let mut ${noun} = ${Noun}::default();
    ${verb}_${noun}(&mut ${noun}, ${below}).unwrap();
    assert_eq!(${noun}.state, State::${State});
}
''']
T["go"] = [r'''
// Handle${Verb}${Noun} ${verb}s a ${noun} from an HTTP request.
func Handle${Verb}${Noun}(w http.ResponseWriter, r *http.Request) {
    ${field}, err := strconv.Atoi(r.URL.Query().Get("${field}"))
    if err != nil || ${field} < 0 {
        http.Error(w, "invalid ${noun} ${field}", http.StatusBadRequest)
        return
    }
    if ${field} ${cmp} ${limit} {
        http.Error(w, "${noun} ${field} over the limit", http.StatusUnprocessableEntity)
        return
    }
[?
    if err := store.${Verb}${Noun}(r.Context(), r.PathValue("id"), ${field}); err != nil {
        http.Error(w, err.Error(), http.StatusInternalServerError)
        return
    }
?]
    w.WriteHeader(http.StatusAccepted)
}
''', r'''
// ${Verb}${Noun} asks the service to ${verb} a ${noun}.
func (c *Client) ${Verb}${Noun}(ctx context.Context, id string, ${field} int) error {
    if ${field} > ${limit} {
        return fmt.Errorf("${noun} ${field} %d over ${limit}", ${field})
    }
    req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/${noun}s/"+id+"/${verb}", nil)
    if err != nil {
        return err
    }
    resp, err := c.http.Do(req)
    if err != nil {
        return err
    }
    defer resp.Body.Close()
    if resp.StatusCode >= 400 {
        return errors.New("${verb} ${noun} failed")
    }
    return nil
}
''']
T["gotests"] = [r'''
func Test${Verb}${Noun}RejectsOver${limit}(t *testing.T) {
    req := httptest.NewRequest(http.MethodPost, "/${noun}s/1/${verb}?${field}=${above}", nil)
    rec := httptest.NewRecorder()
    Handle${Verb}${Noun}(rec, req)
    if rec.Code != http.StatusUnprocessableEntity {
        t.Fatalf("status = %d, want %d", rec.Code, http.StatusUnprocessableEntity)
    }
}
''']
T["docs"] = [r'''
## ${Verb} a ${noun}

A ${noun} can be ${state} while its ${field} is at most ${limit}. Past that the
service answers 422 and the page shows "${Noun} ${field} is over the limit of ${limit}".

- `${field}`: a whole number from 1 to ${limit}.
- After `${verb}` the ${noun} is `${state}`; a failed request leaves it unchanged.
''']
HEADERS = {
    "components": 'import { useEffect, useState } from "react";\nimport { toast } from "../toast";\nimport type { ${Noun}, Status } from "../api/types";\n\ntype ${Noun}${Part}Props = { ${noun}: ${Noun}; onDone?: () => void };\n',
    "api": 'import type { ${Noun} } from "./types";\nimport { API, ConflictError } from "./http";\n',
    "webtests": 'import { render, screen } from "@testing-library/react";\nimport userEvent from "@testing-library/user-event";\nimport { describe, expect, it } from "vitest";\nimport { ${Noun}${Part} } from "../${Noun}${Part}";\nimport { make${Noun} } from "../../fixtures";\n',
    "py": '"""${Noun} ${part}."""\n\nimport logging\n\nimport requests\nfrom flask import Blueprint, jsonify, request\n\nfrom .errors import ${Noun}Error\nfrom .models import ${Noun}\nfrom .settings import API_URL\n\nlogger = logging.getLogger(__name__)\nbp = Blueprint("${noun}_${part}", __name__)\n\n',
    "pytests": 'import pytest\n\nfrom service.app.errors import ${Noun}Error\nfrom service.app.${noun}_service import *  # noqa: F403\nfrom service.tests.fixtures import make_${noun}\n\n',
    "rs": '//! ${Noun} ${part}.\n\nuse crate::{${Noun}, EngineError, State};\n',
    "rstests": 'use engine::*;\n',
    "go": 'package gateway\n\nimport (\n\t"context"\n\t"errors"\n\t"fmt"\n\t"net/http"\n\t"strconv"\n)\n',
    "gotests": 'package gateway\n\nimport (\n\t"net/http"\n\t"net/http/httptest"\n\t"testing"\n)\n',
    "docs": '# ${Noun} ${part}\n\nHow ${noun}s behave in the shop, for support and on-call.\n',
}
COMPARISON = re.compile(r"(<=|>=|<|>) (\d+)\b")
# Where a top-level block starts: a blank-line run followed by an unindented line that
# does not close a bracket. The split keeps each run with the block after it.
TOP_LEVEL = re.compile(r"(?<=[^\n])(?=\n\n+[^\s}\])])")


def top_level_blocks(text):
    """Split text into top-level blocks; "".join(blocks) == text."""
    return TOP_LEVEL.split(text)


def fixed_files():
    """Return {path: text} of the build files, shared modules and CI of the base tree."""
    themes = [n for n, _ in THEMES]
    errors = "".join(f"\n\nclass {n.title()}Error(ServiceError):\n    pass\n" for n in themes)
    return {
        "README.md": "# shop\n\nA small shop: web/ (React), service/ (Python), engine/ (Rust), gateway/ (Go).\n\n"
                     "Run every suite with `npm test`, `pytest`, `cargo test` and `go test ./...` in gateway/.\n",
        ".gitignore": "node_modules/\n/target\n__pycache__/\n.venv/\n",
        "package.json": '{\n  "name": "shop-web",\n  "private": true,\n  "version": "1.4.0",\n'
                        '  "scripts": {\n    "build": "vite build",\n    "test": "vitest run"\n  },\n'
                        '  "dependencies": {\n    "react": "18.3.1"\n  },\n'
                        '  "devDependencies": {\n    "@testing-library/react": "16.0.0",\n'
                        '    "@testing-library/user-event": "14.5.2",\n    "vite": "5.4.2",\n    "vitest": "2.0.5"\n  }\n}\n',
        "tsconfig.json": '{\n  "compilerOptions": {\n    "jsx": "react-jsx",\n    "strict": true,\n    "target": "es2022"\n  },\n  "include": ["web/src"]\n}\n',
        "Cargo.toml": '[workspace]\nmembers = ["engine"]\nresolver = "2"\n',
        "engine/Cargo.toml": '[package]\nname = "engine"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\nthiserror = "1.0.63"\n',
        "engine/src/lib.rs": "//! Shop engine: limits and state rules shared by the service and the gateway.\n\n"
                             "#[derive(Debug, thiserror::Error)]\npub enum EngineError {\n"
                             "    #[error(\"invalid: {0}\")]\n    Invalid(String),\n"
                             "    #[error(\"limit: {0}\")]\n    Limit(String),\n}\n\n"
                             "#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]\npub enum State {\n    #[default]\n    Open,\n"
                             + "".join(f"    {s.title()},\n" for s in sorted(set(VERBS.values())) if s != "open")
                             + "}\n",
        "pyproject.toml": '[project]\nname = "shop-service"\nversion = "2.1.0"\nrequires-python = ">=3.11"\n'
                          'dependencies = ["flask>=3.0.3", "requests>=2.32.3"]\n\n'
                          '[tool.pytest.ini_options]\ntestpaths = ["service/tests"]\naddopts = "-q"\n',
        "service/app/__init__.py": '"""Shop service."""\n',
        "service/app/errors.py": '"""Errors the service raises."""\n\n\nclass ServiceError(Exception):\n    pass' + errors,
        "gateway/go.mod": "module example.com/shop/gateway\n\ngo 1.22.5\n",
        ".github/workflows/ci.yml": "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
                                    "    steps:\n      - uses: actions/checkout@v4.1.7\n      - uses: actions/setup-node@v4.0.3\n"
                                    "      - run: npm ci && npm test\n      - run: pip install -e . pytest && pytest\n"
                                    "      - run: cargo test --workspace\n      - run: cd gateway && go test ./...\n",
    }


class Gen:
    """Seeded generator of themed paths, code blocks, edits and commit messages."""

    def __init__(self, rng):
        self.rng = rng
        self.used = set()

    def ctx(self, theme, part="", verb=None):
        """Return the template variables for a theme (noun, field), a part and a verb."""
        r = self.rng
        noun, field = theme
        verb = verb or r.choice(sorted(VERBS))
        limit = r.choice(LIMITS)
        cmp = r.choice([">", ">="])
        return {
            "noun": noun, "Noun": noun.title(), "field": field, "Field": field.title(),
            "verb": verb, "Verb": verb.title(), "state": VERBS[verb], "State": VERBS[verb].title(),
            "part": part.lower(), "Part": part, "limit": limit, "cmp": cmp,
            "cmpword": "below" if cmp == ">=" else "at most",
            "below": max(1, limit // 2), "above": limit + r.choice([1, 5, 50]),
        }

    def render(self, template, ctx, lang):
        """Fill a template; keep each optional group with probability 0.6."""
        out, keep = [], True
        for line in textwrap.dedent(template).strip("\n").split("\n"):
            if line.strip() == "[?":
                keep = self.rng.random() < 0.6
            elif line.strip() == "?]":
                keep = True
            elif keep:
                line = string.Template(line).substitute(ctx)
                if lang == "go":
                    stripped = line.lstrip(" ")
                    line = "\t" * ((len(line) - len(stripped)) // 4) + stripped
                out.append(line)
        return out

    def block(self, area, ctx):
        """Return one function/test/section (lines) for area, ending with a blank line."""
        return self.render(self.rng.choice(T[area]), ctx, AREAS[area][2]) + [""]

    def new_path(self, area, theme):
        """Return an unused path for a file of theme in area, and its part."""
        pattern = AREAS[area][0]
        noun = theme[0]
        parts = list(PARTS[area])
        self.rng.shuffle(parts)
        n = 1
        while True:
            for part in parts:
                p = part + (str(n) if n > 1 else "")
                path = pattern.format(N=noun.title(), n=noun, P=p, p=p.lower())
                if path not in self.used:
                    self.used.add(path)
                    return path, part
            n += 1

    def file_text(self, area, theme, part):
        """Return the contents of a new file: a header and 2-7 blocks."""
        lines = self.render(HEADERS[area], self.ctx(theme, part), AREAS[area][2]) + [""]
        for verb in self.rng.sample(sorted(VERBS), self.rng.randint(2, 7)):
            lines += self.block(area, self.ctx(theme, part, verb))
        return "\n".join(lines).rstrip("\n") + "\n"

    def edit(self, area, theme, part, text, verb):
        """Return text with 1-3 edits of its top-level blocks (the header stays): a new
        block, a changed limit, a replaced or a removed block."""
        r = self.rng
        blocks = top_level_blocks(text.rstrip("\n"))
        head = len(top_level_blocks(HEADERS[area].strip("\n")))
        for _ in range(r.randint(1, 3)):
            op = r.random()
            new = "\n\n" + "\n".join(self.block(area, self.ctx(theme, part, verb))).rstrip("\n")
            body = range(head, len(blocks))
            limits = [i for i in body if COMPARISON.search(blocks[i])]
            if op < 0.45 or len(body) < 2:
                blocks.insert(r.randint(max(head, len(blocks) - 2), len(blocks)), new)
            elif op < 0.75 and limits:
                i = r.choice(limits)
                blocks[i] = COMPARISON.sub(lambda m: f"{r.choice(['>', '>=', '<'])} {r.choice(LIMITS)}",
                                           blocks[i], count=1)
            elif op < 0.92:
                blocks[r.choice(body)] = new
            else:
                del blocks[r.choice(body)]
        if "".join(blocks) == text.rstrip("\n"):  # a limit changed to itself: the path must change
            blocks.append("\n\n" + "\n".join(self.block(area, self.ctx(theme, part, verb))).rstrip("\n"))
        return "".join(blocks) + "\n"

    def bump_config(self, path, text):
        """Return a config file with one version bumped (or, without one, a line added)."""
        versions = list(re.finditer(r"\d+\.\d+\.\d+", text))
        if not versions:
            return text + f"/coverage-{self.rng.randint(1, 99)}/\n"
        m = self.rng.choice(versions)
        major, minor, _ = m.group().split(".")
        return text[:m.start()] + f"{major}.{int(minor) + 1}.0" + text[m.end():]

    def message(self, kind, ctx, stack, ticket):
        """Return a commit message of the given kind for ctx."""
        r = self.rng
        subject = string.Template(r.choice(SUBJECTS[kind])).substitute(ctx)
        if kind == "ticket":
            subject = f"{ticket}: {subject[0].upper()}{subject[1:]}"
        elif kind == "plain":
            subject = subject[0].upper() + subject[1:]
        elif kind != "wip":
            scope = f"({SCOPES[stack]})" if stack and r.random() < 0.6 else ""
            subject = f"{kind.split('-')[0]}{scope}: {subject}"
            if kind in ("feat", "fix") and r.random() < 0.35:
                subject += f" ({ticket})"
        msg = subject + "\n"
        if kind not in ("wip", "chore", "chore-move") and r.random() < 0.4:
            msg += (f"\nThe {ctx['noun']} {ctx['field']} is checked against {ctx['limit']} "
                    f"before the {ctx['noun']} becomes {ctx['state']}.\n")
            if r.random() < 0.4:
                msg += f"\nRefs: {ticket}\n"
        return msg


class History:
    """The base tree and the feature commits, tracked so the range changes exactly --files paths."""

    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.gen = Gen(self.rng)
        self.repo = Repo(self.gen)
        self.tree = {}       # path -> (mode, bytes)
        self.meta = {}       # path -> (area, theme, part)
        self.changed = set()  # paths in `git diff -M --name-only main...feature`
        self.pinned = set()  # renamed paths: re-editing them could break rename detection
        self.tickets = {}    # theme -> ticket shared by its commits
        self.args = args

    def add_file(self, area, theme):
        """Return the change adding a new file of theme in area."""
        path, part = self.gen.new_path(area, theme)
        self.meta[path] = (area, theme, part)
        return ("M", "100644", path, self.gen.file_text(area, theme, part).encode())

    def base_commit(self):
        """Write the base tree on main; return its mark."""
        size = round(self.args.files * 1.3)
        for area, (_, share, _) in AREAS.items():
            for _ in range(max(2, round(size * share))):
                ch = self.add_file(area, self.rng.choice(THEMES))
                self.tree[ch[2]] = (ch[1], ch[3])
        for path, text in fixed_files().items():
            self.tree[path] = ("100644", text.encode())
        return self.repo.commit("refs/heads/main",
                                [("M", m, p, d) for p, (m, d) in sorted(self.tree.items())], [],
                                "chore: initial import of the shop\n")

    def untouched(self, area, theme):
        """Base files of area the range has not changed yet, theme matches first."""
        paths = sorted(p for p, (a, _, _) in self.meta.items()
                       if a == area and p in self.tree and p not in self.changed)
        return sorted(paths, key=lambda p: self.meta[p][1] != theme)

    def fresh_change(self, area, theme, verb, p_new):
        """Return a change to one path the range has not changed yet (edit or new file)."""
        candidates = self.untouched(area, theme)
        if not candidates or self.rng.random() < p_new:
            return self.add_file(area, theme)
        path = candidates[0] if self.rng.random() < 0.7 else self.rng.choice(candidates)
        a, t, part = self.meta[path]
        text = self.gen.edit(a, t, part, self.tree[path][1].decode(), verb)
        return ("M", self.tree[path][0], path, text.encode())

    def move_or_delete(self, area):
        """Return the changes renaming (with a small edit, half the time) or deleting one base file."""
        candidates = self.untouched(area, None)
        if not candidates:
            return [self.add_file(area, self.rng.choice(THEMES))]
        old = self.rng.choice(candidates)
        a, theme, _ = self.meta[old]
        if self.rng.random() < 0.3:
            return [("D", old)]
        new, part = self.gen.new_path(a, theme)
        self.meta[new] = (a, theme, part)
        self.pinned.add(new)
        changes = [("R", old, new)]
        if self.rng.random() < 0.5:
            text = COMPARISON.sub(f"> {self.rng.choice(LIMITS)}", self.tree[old][1].decode(), count=1)
            changes.append(("M", self.tree[old][0], new, text.encode()))
        return changes

    def commit_changes(self, kind, budget, theme, verb, stack):
        """Return the change list of one commit that changes `budget` new paths."""
        r = self.rng
        products, tests = STACKS[stack]
        changes = []
        for i in range(budget):
            if kind == "docs":
                step = [self.fresh_change("docs", theme, verb, 0.3)]
            elif kind == "chore":
                configs = [c for c in CONFIGS if c not in self.changed]
                if configs:
                    text = self.gen.bump_config(configs[0], self.tree[configs[0]][1].decode())
                    step = [("M", "100644", configs[0], text.encode())]
                else:
                    step = self.move_or_delete(r.choice([a for a, _ in products]))
            elif kind == "test" or (kind != "refactor" and i == budget - 1 and budget > 1
                                    and r.random() < 0.7):
                step = [self.fresh_change(r.choice(tests), theme, verb, 0.2)]
            elif kind == "refactor" and i == 0 and budget > 2:
                step = self.move_or_delete(products[0][0])
            else:
                area = r.choices([a for a, _ in products], [w for _, w in products])[0]
                step = [self.fresh_change(area, theme, verb, 0.15)]
            apply_changes(self.tree, step)
            self.changed.update(c[1] if c[0] == "D" else c[2] for c in step)
            changes += step
        # Re-edit a path an earlier commit already changed: same path, no new entry.
        again = sorted(p for p in self.changed if p in self.tree and p not in self.pinned
                       and p in self.meta and self.meta[p][0] in {a for a, _ in products} | set(tests)
                       and p not in {c[2] for c in changes if c[0] != "D"})
        if kind not in ("docs", "chore") and again and r.random() < 0.35:
            path = r.choice(again)
            a, t, part = self.meta[path]
            ch = ("M", self.tree[path][0], path, self.gen.edit(a, t, part, self.tree[path][1].decode(), verb).encode())
            changes.append(ch)
            apply_changes(self.tree, [ch])
        return changes

    def budgets(self, kinds):
        """Split --files over the commits by kind weight (largest remainder, at least 1 each)."""
        weights = [KINDS[k][1] for k in kinds]
        raw = [self.args.files * w / sum(weights) for w in weights]
        out = [max(1, int(x)) for x in raw]
        while sum(out) < self.args.files:
            out[max(range(len(out)), key=lambda i: raw[i] - out[i])] += 1
        while sum(out) > self.args.files:
            out[max(range(len(out)), key=lambda i: out[i])] -= 1
        return out

    def build(self):
        """Return the fast-import stream of main and feature."""
        tip = self.base_commit()
        names = list(KINDS)
        kinds = names + self.rng.choices(names, [KINDS[k][0] for k in names], k=self.args.commits - len(names))
        self.rng.shuffle(kinds)
        for kind, budget in zip(kinds, self.budgets(kinds)):
            theme = self.rng.choice(THEMES)
            stack = self.rng.choice(sorted(STACKS))
            ctx = self.gen.ctx(theme, self.rng.choice(PARTS["components"]))
            ticket = self.tickets.get(theme[0])
            if ticket is None or self.rng.random() < 0.4:
                ticket = self.tickets[theme[0]] = f"{self.rng.choice(TICKET_PROJECTS)}-{self.rng.randint(10, 999)}"
            changes = self.commit_changes(kind, budget, theme, ctx["verb"], stack)
            if kind == "chore" and any(c[0] in "RD" for c in changes):
                kind = "chore-move"
            msg = self.gen.message(kind, ctx, None if kind.startswith(("docs", "chore")) else stack, ticket)
            tip = self.repo.commit("refs/heads/feature", changes, [tip], msg)
        return self.repo.stream()


def main():
    ap = arg_parser(__doc__, 50, 200, "paths changed in main...feature")
    args = ap.parse_args()
    if args.commits < len(KINDS):
        ap.error(f"--commits must be >= {len(KINDS)} (one commit of each kind)")
    if args.files < args.commits:
        ap.error("--files must be >= --commits (every commit changes a new path)")

    start = time.perf_counter()
    d = args.dir
    init_repo(d, args.force)
    git(d, "fast-import", "--quiet", "--done", data=History(args).build())
    git(d, "checkout", "-q", "feature")

    commits = int(git(d, "rev-list", "--count", "main..feature"))
    names = [x.decode() for x in git(d, "diff", "-M", "--name-only", "-z", "main...feature").split(b"\0") if x]
    by_ext = {}
    for name in names:
        ext = os.path.splitext(name)[1] or os.path.basename(name)
        by_ext[ext] = by_ext.get(ext, 0) + 1
    patch = count_patch_bytes(d, "main...feature")
    exts = ", ".join(f"{k} {v}" for k, v in sorted(by_ext.items(), key=lambda kv: (-kv[1], kv[0])))
    print(f"gen_flow_repo: {d}: {commits} commits in main..feature, {len(names)} files changed ({exts}), "
          f"{patch} patch bytes, head {git(d, 'rev-parse', '--short', 'HEAD').decode().strip()}, "
          f"{time.perf_counter() - start:.1f}s")
    if commits != args.commits or abs(len(names) - args.files) > args.files * 0.05:
        print(f"gen_flow_repo: shape missed: want {args.commits} commits and {args.files} files (±5%)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
