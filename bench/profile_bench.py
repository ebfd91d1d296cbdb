#!/usr/bin/env python3
"""qa-profile on a generated 100-environment profile, 1,000 runs: the median per run.

Target (issue 6): under 5 ms per run. The profile has two apps, a production environment
with write signatures, context sources and declared statuses, so every rule runs.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def profile(environments: int) -> str:
    lines = [
        "project: bench",
        "apps:",
        "  storefront: {framework: vue3, spec_dir: e2e, repo: .}",
        "  admin: {framework: react, spec_dir: e2e, repo: ../admin}",
        "environments:",
    ]
    for i in range(environments):
        kind = "production" if i == 0 else ("staging" if i % 2 else "qa")
        lines += [
            f"  env{i:03}:",
            f"    kind: {kind}",
            f"    apps:",
            f"      storefront: https://env{i:03}.qa.example.com",
            f"      admin: https://admin-env{i:03}.qa.example.com",
            f"    sha_source:",
            f"      url: https://env{i:03}.qa.example.com/index.html",
            f"      regex: 'assets/index-([A-Za-z0-9_-]+)\\.js'",
        ]
        if kind == "production":
            lines.append("    test_account: qa-runner@example.com, own tenant, no admin")
    lines += [
        "auth: {model: role-accounts, playwright_min: \"1.52.0\", storage_state: {indexed_db: true}}",
        "assertions: {network_events: allowed, style: mixed}",
        "evidence: {extra: [console_log], capture: always}",
        "selectors: {testid_attribute: data-testid}",
        "models: {generation_approved: [claude-fable-5]}",
        "sandbox: {mode: {env_var: VITE_API_MODE, value: mocks}}",
        "cross_app: {propagation_window_s: 30, spec_home: storefront}",
        "context:",
        "  sources:",
        "    - {name: design, description: design docs, path: docs/design}",
        "mutation:",
        "  deny_controls: {text: ['^(delete|wipe)\\b'], icons: [fa-trash]}",
        "  write_signatures:",
        "    - {method: POST, url: '/graphql$', body: '\"query\"\\s*:\\s*\"mutation'}",
        "    - {method: '*', url: '/api/(?!search)'}",
        "clickup:",
        "  space: QA",
        "  statuses: {case_review: a, approved_for_execution: b, under_review: c, approved: d,"
        " rejected: e, retest: f, quarantined: g}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin-dir", default="target/release")
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--environments", type=int, default=100)
    args = ap.parse_args()
    binary = os.path.join(args.bin_dir, "qa-profile")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "qa-pilot.config.yaml")
        with open(path, "w") as f:
            f.write(profile(args.environments))
        check = subprocess.run([binary, path], capture_output=True)
        if check.returncode != 0:
            sys.stderr.write(check.stderr.decode())
            return 1
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([binary, path], stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
    median_ms = statistics.median(times) * 1000
    print(f"qa-profile: {args.environments} environments, {args.runs} runs, "
          f"median {median_ms:.2f} ms per run (target < 5 ms)")
    return 0 if median_ms < 5 else 1


if __name__ == "__main__":
    sys.exit(main())
