# qapipe: build, test, install, release archives, man pages, benchmarks and the flows.
CARGO ?= cargo
PREFIX ?= /usr/local
# The binaries qapipe ships: one per folder of bins/ (the one list; tests/layout checks
# that no other list is typed by hand).
BINS := $(sort $(notdir $(patsubst %/,%,$(wildcard bins/*/))))
# Cargo's target folder (CARGO_TARGET_DIR when set), as an absolute path.
TARGET_DIR := $(abspath $(or $(CARGO_TARGET_DIR),target))
DEBUG_DIR := $(TARGET_DIR)/debug
RELEASE_DIR := $(TARGET_DIR)/release
BUILD_BINS = $(CARGO) build --workspace --bins

.PHONY: all bins build release test check test-times lint style unit pipeline-tests peers man install dist demo changes qa acceptance bench baseline judge judge-test fuzz clean

all: build

## The binaries qapipe ships, one per line (from bins/).
bins:
	@printf '%s\n' $(BINS)

# Cargo prints its own progress; make's echo of the command would only add noise to `make qa`.
build:
	@$(BUILD_BINS)

release:
	$(CARGO) build --workspace --bins --release

## The whole suite: formatting, lints, unit and integration tests, pipeline cases.
## Clippy's lints run inside the test build (LINTED), so the workspace compiles once.
test: LINTED := 1
test: style unit pipeline-tests

## Formatting and lints: `style`, then clippy on every target.
lint: style
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# The checks that compile nothing: rustfmt, shellcheck, and the change-flow judge's
# scoring functions (judge-test: well under a second, no mirrors).
style: judge-test
	$(CARGO) fmt --all -- --check
	@command -v shellcheck >/dev/null || $(MAKE) --no-print-directory peers
	shellcheck pipelines/*.sh pipelines/ci/*.sh examples/*.sh

# Clippy inside a build: clippy-driver as the workspace's rustc wrapper with `-D warnings`
# in CLIPPY_ARGS (how `cargo clippy` drives it) lints every workspace crate the build
# compiles (libraries, binaries, tests and examples: what --all-targets covers here, there
# are no benches) while it compiles them. A separate `cargo clippy` checks every dependency
# again, 2-3 min on 2 cores (bench/README.md, issue 28). tests/clippy-probe.sh first proves
# the driver still denies a lint this way, so a changed protocol cannot pass silently.
CLIPPY_BUILD = RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

# The flow suite (tests/flow) runs the built binaries. Cargo builds every binary of a
# package whose integration tests it builds, with the dev-dependencies' features (qa-cli's
# `man`), into the same target/debug: so the tests build them, and a `make build` first
# would only build them all a second time (2 min on 2 cores). The runner is
# cargo-nextest when it is installed (every test its own process, one pool across all test
# binaries, so slow tests overlap; bench/README.md, issue 28), else `cargo test`;
# RUNNER=cargo forces the plain one. nextest's JUnit report feeds `make test-times`.
RUNNER ?= $(if $(shell $(CARGO) nextest --version 2>/dev/null),nextest,cargo)
TEST_RUN = $(if $(filter nextest,$(RUNNER)),$(CARGO) nextest run --no-fail-fast,$(CARGO) test)
# The tests' TMPDIR: a private folder on /dev/shm when it is a usable tmpfs (tests/tmpdir.sh):
# on a disk mounted with online discard, removing the tests' temporary repositories waits on
# the device. TEST_TMPDIR=DIR picks another, TEST_TMPDIR= keeps the caller's TMPDIR.
# Probed once, and only by the targets that run tests.
ifeq ($(origin TEST_TMPDIR),undefined)
TEST_TMPDIR = $(eval TEST_TMPDIR := $$(shell sh tests/tmpdir.sh))$(TEST_TMPDIR)
endif
TEST_ENV = QA_BIN_DIR=$(DEBUG_DIR)$(if $(TEST_TMPDIR), TMPDIR=$(TEST_TMPDIR))
unit: peers
	@echo "unit: running the tests with $(RUNNER)$(if $(LINTED), (clippy-driver builds the workspace: its lints are errors))$(if $(TEST_TMPDIR), (TMPDIR $(TEST_TMPDIR)))"
	$(if $(LINTED),$(CLIPPY_BUILD) sh tests/clippy-probe.sh)
	$(TEST_ENV) $(if $(LINTED),$(CLIPPY_BUILD) )$(TEST_RUN) --workspace

## The 20 slowest tests of the last `make test` run by nextest (its JUnit report), slowest
## first; runs the tests first when there is no report. nextest keeps it under the
## workspace's target/nextest (its store dir), even when CARGO_TARGET_DIR is elsewhere.
TEST_TIMES := target/nextest/default/junit.xml
test-times:
	@test -f $(TEST_TIMES) || $(MAKE) --no-print-directory unit RUNNER=nextest
	@sh tests/times.sh $(TEST_TIMES) 20

## Daily work: formatting, then clippy and the tests of the crates the change touches
## (files changed against HEAD, untracked ones included); see tests/check.sh.
check:
	@$(CLIPPY_BUILD) sh tests/clippy-probe.sh
	@CARGO="$(CARGO)" RUNNER=$(RUNNER) $(TEST_ENV) $(CLIPPY_BUILD) sh tests/check.sh

# After `unit` (as in `make test`) the binaries are built; alone, it builds them first.
pipeline-tests: $(if $(filter unit test,$(MAKECMDGOALS)),,build) peers
	$(TEST_ENV) sh tests/run.sh

## The real protocol peers the tests drive (shared/testkit/src/peers.rs): the MCP Python SDK's
## virtualenv, playwright-core, @playwright/test, vitest and jest, Debian's Chromium headless
## shell (chromium-headless-shell: real headless Chromium, about half the CPU and memory of a
## launch of the full browser); and Debian's shellcheck, which make lint runs. It
## first says what it will install, where and why (one line each); each step is skipped when
## already done.
PEERS := tests/peers
VENV_STAMP := $(PEERS)/venv/.installed
NPM_STAMP := $(PEERS)/node_modules/.package-lock.json
# The browser the tests launch (qa_testkit::peers::chromium); the product's default stays
# `chromium` on PATH.
CHROMIUM_HEADLESS := /usr/lib/chromium/chromium-headless-shell
peers:
	@todo=; \
	if ! $(MAKE) -q --no-print-directory $(VENV_STAMP); then todo=1; \
	  echo "peers: installing the MCP Python SDK and pytest ($(PEERS)/requirements.txt, from PyPI) into $(PEERS)/venv: the real MCP server the agent-interface checks are tested against, and the pytest qa-check --exec counts"; fi; \
	if ! test -L $(PEERS)/node_modules && ! $(MAKE) -q --no-print-directory $(NPM_STAMP); then todo=1; \
	  echo "peers: installing playwright-core, @playwright/test, vitest and jest ($(PEERS)/package-lock.json, from npm) into $(PEERS)/node_modules: the browser driver of the browser checks, and the runners of qa-route's narrowed JS commands"; fi; \
	if ! test -x $(CHROMIUM_HEADLESS); then todo=1; \
	  echo "peers: installing Debian's chromium-headless-shell (apt-get install --no-install-recommends, needs root) into /usr/lib/chromium: the headless Chromium the browser tests drive"; fi; \
	if ! command -v shellcheck >/dev/null; then todo=1; \
	  echo "peers: installing Debian's shellcheck (apt-get install --no-install-recommends, needs root) into /usr/bin: the linter make lint runs on pipelines/ and examples/ shell scripts"; fi; \
	test -n "$$todo" || echo "peers: all present ($(PEERS)/venv, $(PEERS)/node_modules, $(CHROMIUM_HEADLESS), shellcheck)"
	@$(MAKE) --no-print-directory $(VENV_STAMP) $(NPM_STAMP)
	@test -x $(CHROMIUM_HEADLESS) || { \
	  if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	    echo "peers: $(CHROMIUM_HEADLESS) is missing: install it as root (apt-get install --no-install-recommends chromium-headless-shell), then run make peers again" >&2; exit 1; fi; \
	  apt-get update -qq && apt-get install -y -q --no-install-recommends chromium-headless-shell; }
	@command -v shellcheck >/dev/null || { \
	  if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	    echo "peers: shellcheck is missing: install it as root (apt-get install --no-install-recommends shellcheck), then run make peers again" >&2; exit 1; fi; \
	  apt-get update -qq && apt-get install -y -q --no-install-recommends shellcheck; }

$(VENV_STAMP): $(PEERS)/requirements.txt
	test -x $(PEERS)/venv/bin/python || python3 -m venv $(PEERS)/venv
	$(PEERS)/venv/bin/pip install -q --disable-pip-version-check -r $(PEERS)/requirements.txt
	touch $@

$(NPM_STAMP): $(PEERS)/package.json $(PEERS)/package-lock.json
	# A registry connection that stalls is dropped after 60 s and retried (npm waits 5 min by default).
	# npm ci empties node_modules first: through a link (a worktree sharing another checkout's
	# peers, whose stamp looks older than the worktree's fresh package.json) it would empty
	# the other checkout's install under its running tests, so a link is left alone.
	@if test -L $(PEERS)/node_modules; then \
	  echo "peers: $(PEERS)/node_modules is a link to another install: not reinstalled through it"; \
	else npm ci --prefix $(PEERS) --no-audit --no-fund --fetch-timeout=60000 --fetch-retries=4; fi

## Regenerate man/ from --help (a test fails when they drift).
man:
	QAPIPE_BLESS=1 $(CARGO) test --workspace man_page -- --quiet

## Binaries, man pages, bash/zsh/fish completions and the flows under $(DESTDIR)$(PREFIX):
## pipelines/ in share/qapipe/, started by the qa-changes and qa-acceptance wrappers in bin/
## (each puts its own bin/ first on PATH). A release build unless BIN_DIR=dir names
## binaries already built (nothing is built then).
INSTALL_BIN_DIR = $(or $(BIN_DIR),$(RELEASE_DIR))
install: $(if $(BIN_DIR),,release)
	@install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/qapipe/pipelines/ci
	@for b in $(BINS); do install -m 755 $(INSTALL_BIN_DIR)/$$b $(DESTDIR)$(PREFIX)/bin/$$b; done
	@for b in $(BINS); do install -m 644 man/$$b.1 $(DESTDIR)$(PREFIX)/share/man/man1/$$b.1; done
	@install -m 644 pipelines/*.sh $(DESTDIR)$(PREFIX)/share/qapipe/pipelines/
	@install -m 644 pipelines/ci/*.sh $(DESTDIR)$(PREFIX)/share/qapipe/pipelines/ci/
	@for flow in changes acceptance; do \
	  printf '#!/bin/sh\n# qapipe: the %s flow (share/qapipe/pipelines/%s.sh) with this bin/ first on PATH.\nhere=$$(cd "$$(dirname "$$0")" && pwd)\nPATH="$$here:$$PATH" exec sh "$$here/../share/qapipe/pipelines/%s.sh" "$$@"\n' \
	    $$flow $$flow $$flow > $(DESTDIR)$(PREFIX)/bin/qa-$$flow && chmod 755 $(DESTDIR)$(PREFIX)/bin/qa-$$flow; \
	done
	@$(INSTALL_BIN_DIR)/qa-completions $(DESTDIR)$(PREFIX)
	@echo "installed $(words $(BINS)) binaries, qa-changes and qa-acceptance, man pages and completions under $(DESTDIR)$(PREFIX)"

## A release archive: dist/qapipe-<version>-<target>.tar.gz with the ten binaries, man
## pages, bash/zsh/fish completions, pipelines/, README, licences and SHA256SUMS, and
## dist/SHA256SUMS beside it (tests/packaging/dist.sh). A release build unless PROFILE=debug;
## BIN_DIR=dir packs binaries already built there (nothing is built then).
PROFILE ?= release
DIST_DIR ?= dist
dist: $(if $(BIN_DIR),,$(if $(filter debug,$(PROFILE)),build,release))
	@BINS="$(BINS)" BIN_DIR="$(or $(BIN_DIR),$(TARGET_DIR)/$(PROFILE))" OUT_DIR="$(DIST_DIR)" \
	  COMPLETIONS="$(COMPLETIONS)" TARGET="$(TARGET)" GZIP_LEVEL="$(GZIP_LEVEL)" sh tests/packaging/dist.sh

## Build, then run both flows on the examples: the change flow on a generated repository's
## feature branch, and the acceptance flow on a copy of examples/shop-site. Only the reports
## and a line before each show (errors stay visible). DEMO_DIR (default target) holds it all.
DEMO_DIR ?= target
demo:
	@echo "demo: builds qapipe, then shows the change report of a generated repository's feature branch and the acceptance verdict of a copy of examples/shop-site"
	@$(BUILD_BINS)
	@sh examples/make-demo-repo.sh $(DEMO_DIR)/demo-repo
	@echo; echo "== 1/2 the change flow (qa-diff | qa-intent | qa-route | qa-trace | qa-report) on $(DEMO_DIR)/demo-repo: branch feature/checkout against main"
	@QA_SAVE=$(DEMO_DIR)/demo.ndjson QA_DRAFT=manual QA_OUT=$(DEMO_DIR)/demo-report PATH=$(DEBUG_DIR):$$PATH sh pipelines/changes.sh --repo $(DEMO_DIR)/demo-repo
	@echo "demo: the change stream is in $(DEMO_DIR)/demo.ndjson, the report files in $(DEMO_DIR)/demo-report/"
	@rm -rf $(DEMO_DIR)/demo-shop && cp -r examples/shop-site $(DEMO_DIR)/demo-shop
	@echo; echo "== 2/2 the acceptance flow on $(DEMO_DIR)/demo-shop (a copy of examples/shop-site): its plan's criteria, checks and verdict"
	@QA_REPO=$(DEMO_DIR)/demo-shop PATH=$(DEBUG_DIR):$$PATH sh pipelines/acceptance.sh $(DEMO_DIR)/demo-shop/acceptance.example.json
	@echo "demo: the acceptance run folder is under $(DEMO_DIR)/demo-shop/.qa/acceptance/"

## The acceptance flow: PLAN (required) against REPO (default .); FLAGS=--allow-network ...
acceptance: build
	@test -n "$(PLAN)" || { echo "usage: make acceptance PLAN=path/to/plan.json [REPO=dir] [FLAGS=--allow-network]"; exit 64; }
	QA_REPO=$(or $(REPO),.) PATH=$(DEBUG_DIR):$$PATH sh pipelines/acceptance.sh $(PLAN) $(FLAGS)

## The change flow on REPO (default: this repository) from BASE (default: resolved as the
## README says); FORMAT=markdown|json|sarif|github|agent. The stream is kept in
## $(TARGET_DIR)/qa.ndjson. An empty range (HEAD is its base, or behind it) is qa-report's
## exit 3 with the sentence saying which, and make then stops with "Error 3".
QA_STREAM := $(TARGET_DIR)/qa.ndjson
changes qa: build
	@QA_SAVE=$(QA_STREAM) QA_FORMAT=$(or $(FORMAT),text) PATH=$(DEBUG_DIR):$$PATH \
	  sh pipelines/changes.sh --repo '$(or $(REPO),.)' $(if $(BASE),--base '$(BASE)')

## qa-diff against git on a generated 300+ commit history (and on vuejs/core's last 300
## commits when cloned into bench/work/real/vuejs-core), the whole change flow stage by
## stage on a generated 50-commit, 200-file range, the acceptance flow on 100 HTTP checks
## against a local server, qa-fetch's 10,000-file manifest against openssl per core,
## qa-profile, and 20 MCP checks and one browser check against the SDK's own client and
## bare Playwright, and qa-mcp's change_report against the same pipeline from the shell
## (see bench/README.md).
bench: release peers
	python3 bench/gen_history.py bench/work/history --force
	python3 bench/diff_bench.py --qa-diff $(RELEASE_DIR)/qa-diff --repo bench/work/history
	@if [ -d bench/work/real/vuejs-core/.git ]; then python3 bench/diff_bench.py --qa-diff $(RELEASE_DIR)/qa-diff --repo bench/work/real/vuejs-core --base HEAD~300 --head HEAD --runs 11; else echo "diff_bench (real history): skipped, bench/work/real/vuejs-core not found (a full clone of github.com/vuejs/core; see bench/README.md)"; fi
	python3 bench/gen_flow_repo.py bench/work/flow --force
	python3 bench/flow_bench.py --bin-dir $(RELEASE_DIR) --repo bench/work/flow
	$(PEERS)/venv/bin/python bench/mcp_bench.py --bin-dir $(RELEASE_DIR) --repo bench/work/flow
	python3 bench/report_bench.py --bin-dir $(RELEASE_DIR) --repo bench/work/flow
	python3 bench/acceptance_bench.py --bin-dir $(RELEASE_DIR)
	python3 bench/screenshot_bench.py --bin-dir $(RELEASE_DIR)
	python3 bench/gen_manifest_tree.py bench/work/manifest --force
	python3 bench/manifest_bench.py --bin-dir $(RELEASE_DIR) --project bench/work/manifest
	python3 bench/profile_bench.py --bin-dir $(RELEASE_DIR)
	python3 bench/exec_bench.py --bin-dir $(RELEASE_DIR)
	python3 bench/agent_bench.py --bin-dir $(RELEASE_DIR)
	python3 bench/gen_graph_repo.py bench/work/graph --force
	$(CARGO) build --release -p qa-graph --example graph-bench && python3 bench/graph_bench.py --bin-dir $(RELEASE_DIR) --repo bench/work/graph
	@if [ -d bench/work/real/vuejs-core/.git ]; then python3 bench/real_flow_bench.py --bin-dir $(RELEASE_DIR) --repo bench/work/real/vuejs-core $(if $(wildcard $(BASELINE_DIR)/target/release/qa-intent),--baseline-bin-dir $(BASELINE_DIR)/target/release --runs 41,); else echo "real_flow_bench: skipped, bench/work/real/vuejs-core not fetched (see bench/README.md)"; fi

## The change-flow stages at BASELINE_REV (the code issue 13 measured its wall target on),
## built apart under bench/work: real_flow_bench then runs them side by side with ours, 41
## rounds (the ratio of two medians of 5 swung by 10% on a 2-core host; bench/README.md).
BASELINE_REV ?= 86a42be
BASELINE_DIR := bench/work/baseline-$(BASELINE_REV)
baseline:
	@if [ ! -f $(BASELINE_DIR)/Cargo.toml ]; then mkdir -p $(BASELINE_DIR) && git archive $(BASELINE_REV) | tar -x -C $(BASELINE_DIR); fi
	cd $(BASELINE_DIR) && CARGO_TARGET_DIR=target $(CARGO) build --release -p qa-diff -p qa-intent -p qa-route -p qa-trace -p qa-report

## The change-flow judge (issue 29, bench/README.md): the flow on the commits bench/corpus.toml
## selects, scored per commit, for the repositories cloned under bench/work/corpus (by hand:
## `python3 bench/judge fetch`; the others are skipped with a line). HALF=tune|report|holdout|fresh|fresh2|all
## (tune), REPO='owner/name ...', JOBS=n, BIN_DIR=dir of the qa-* binaries (default: a release
## build). Never in CI nor in make test.
HALF ?= tune
judge: $(if $(BIN_DIR),,release)
	python3 bench/judge --half $(HALF) --bin-dir $(or $(BIN_DIR),$(RELEASE_DIR)) $(foreach r,$(REPO),--repo $(r)) $(if $(JOBS),--jobs $(JOBS))

## The judge's own tests: its scoring functions on planted inputs (run by make lint).
judge-test:
	python3 bench/judge/test_judge.py

## Coverage-guided fuzzing (AFL++ through afl.rs, stable toolchain): each target of
## tests/fuzz/ for SECONDS (default 60); crashes land in tests/fuzz/regressions/, replayed by `cargo test`.
SECONDS ?= 60
fuzz:
	sh tests/fuzz/run.sh $(SECONDS) "$(TARGETS)"

clean:
	$(CARGO) clean
	rm -rf bench/work
