# Two entry points: `make play` and `make test`. Each makes its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_PLAY := $(VENV)/.installed-play
STAMP_TEST := $(VENV)/.installed-test
# The lock (docs/dependencies.md): every package of each environment, pip and setuptools
# included, pinned with ==, with the hashes of all its files. A changed lock reinstalls.
LOCK_PLAY := requirements/play.txt
LOCK_TEST := requirements/test.txt

.PHONY: play test tools lint typecheck imports pytest test-slow test-ssh cov fmt snapshots bench bench-baseline fuzz map map-breakthrough clean lock upgrade-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Everything from the lock, each file checked against its hashes; then the project itself,
# editable, with no dependencies and no build isolation (setuptools comes from the lock too).
$(STAMP_PLAY): pyproject.toml $(LOCK_PLAY) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK_PLAY)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# The test lock holds the play lock's pins (make lock): a test environment plays too.
$(STAMP_TEST): pyproject.toml $(LOCK_PLAY) $(LOCK_TEST) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK_TEST)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@ $(STAMP_PLAY)

play: $(STAMP_PLAY)
	$(BIN)/ardennes $(ARGS)

lint: $(STAMP_TEST)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP_TEST)
	$(BIN)/mypy

imports: $(STAMP_TEST)
	$(BIN)/lint-imports

# The suite and the doctests (pyproject.toml), on JOBS cores (pytest-xdist; the tests of one
# xdist_group share a worker): everything but the slow tests (make test-slow: the 30 full
# self-play games, each checked against tests/data/) and the OpenSSH server tests (make
# test-ssh). About 4 minutes of CPU: 2 of wall time on two idle cores.
JOBS ?= auto
XDIST = -n $(JOBS) --dist loadgroup
pytest: $(STAMP_TEST)
	$(BIN)/pytest -q $(XDIST)

# The tests that run OpenSSH (ssh-keygen -Y verify) skip without it: say so, and how to get it.
tools:
	@command -v ssh-keygen >/dev/null 2>&1 || echo "note: ssh-keygen not found: the OpenSSH interop tests will be skipped (Debian/Ubuntu: apt-get install openssh-client)"

test: tools lint typecheck imports pytest

# Only the slow tests (the 30 full self-play games, the balance summary's --jobs, the email game
# in tmux).
test-slow: $(STAMP_TEST)
	$(BIN)/pytest -q $(XDIST) -m slow

# Breakthrough's balance reading: self-play of seeds 1-20, Twelve Days, level 3, the verdicts and
# the losses against history (docs/rules-notes-breakthrough.md, "Balance"). CPU-heavy: run it alone.
.PHONY: balance-breakthrough
balance-breakthrough: $(STAMP_TEST)
	nice $(BIN)/python -m tests.kit.bita_balance 1 20 twelve-days 3

# Play the committed self-play games of tests/data/ again and rewrite them (tests.kit.records):
# tests/bots/test_records.py and make test-slow fail, naming this target, when the engine or the
# bots would write other records. Review the diff before committing it.
.PHONY: records
records: $(STAMP_TEST)
	$(BIN)/python -m tests.kit.records

# The armour's preset dictionary deflate+dict2 (docs/pbem-protocol.md section 7), made again from
# the structure of a packet (tests/kit/zdict_build.py): prints its SHA-256 and checks that it is
# the one pbem/core/zdict2.py holds. A published dictionary never changes: a new one is a new
# encoding name.
.PHONY: zdict
zdict: $(STAMP_TEST)
	$(BIN)/python -m tests.kit.zdict_build --check

# Players logging in over SSH and landing in the game (docs/ssh.md), end to end against a real
# OpenSSH server on loopback, in tmux; not part of make test, since it needs sshd (its system
# service need not run). As root sshd needs its privilege separation directory (/run/sshd on
# Debian, made by its service): made here when missing.
test-ssh: $(STAMP_TEST)
	@command -v tmux >/dev/null 2>&1 || { echo "make test-ssh needs tmux (Debian/Ubuntu: apt-get install tmux)"; exit 1; }
	@command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 || { echo "make test-ssh needs the OpenSSH client, ssh and ssh-keygen (Debian/Ubuntu: apt-get install openssh-client)"; exit 1; }
	@PATH="$$PATH:/usr/sbin:/usr/local/sbin:/sbin" command -v sshd >/dev/null 2>&1 || { echo "make test-ssh needs the OpenSSH server, sshd (Debian/Ubuntu: apt-get install openssh-server)"; exit 1; }
	@if [ "$$(id -u)" = 0 ] && [ ! -d /run/sshd ] && [ -d /run ]; then echo "mkdir -p -m 0755 /run/sshd (sshd's privilege separation directory)"; mkdir -p -m 0755 /run/sshd; fi
	$(BIN)/pytest -q -m ssh tests/ssh

# Line coverage of the four packages (pytest-cov).
cov: $(STAMP_TEST)
	$(BIN)/pytest -q $(XDIST) --cov=rules --cov=scenarios --cov=pbem --cov=ardennes_tui --cov-report=term-missing:skip-covered

# Format and fix what ruff can.
fmt: $(STAMP_TEST)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Regenerate the 80x24 snapshots of the app (look at tests/tui/__snapshots__ before committing).
snapshots: $(STAMP_TEST)
	$(BIN)/pytest -q tests/tui/test_snapshots.py --snapshot-update

# The benchmarks against the committed baseline (tests/bench/baseline.json), each beside its
# baseline figure; fails when one is 40% slower at its fastest round. Run it on a quiet machine.
# `make bench-baseline` records a new baseline (a deliberate step, like `make lock`).
BENCH_BASELINE := tests/bench/baseline.json
BENCH_ARGS := --benchmark-only --benchmark-columns=min,median,max,rounds --benchmark-sort=name -q

bench: $(STAMP_TEST)
	$(BIN)/pytest tests/bench $(BENCH_ARGS) --benchmark-compare=$(BENCH_BASELINE) --benchmark-compare-fail=min:40%

bench-baseline: $(STAMP_TEST)
	$(BIN)/pytest tests/bench $(BENCH_ARGS) --benchmark-json=$(BENCH_BASELINE)

# The import fuzzer (tests/pbem/fuzz.py, docs/pbem-protocol.md section 5): structure-aware
# cases (the signed body, the SSHSIG blob, the deflate stream, the base64, the armour, the mail)
# into a player's store; fails on any crash or partial write. FUZZ_CASES, FUZZ_JOBS to change.
FUZZ_CASES ?= 100000
FUZZ_JOBS ?= 2
fuzz: $(STAMP_TEST)
	$(BIN)/python -m tests.pbem.fuzz --cases $(FUZZ_CASES) --jobs $(FUZZ_JOBS) --minutes 40

# The compiled maps (committed; tests check each equals a fresh compile): AO's
# scenarios/ardennes/map.json and setup_hexes.json, and Breakthrough's
# scenarios/breakthrough/map.json (from the same geography, scenarios/breakthrough/README.md).
map: $(STAMP_TEST)
	$(BIN)/python -m scenarios.build
	$(BIN)/python -m scenarios.breakthrough.compile

map-breakthrough: $(STAMP_TEST)
	$(BIN)/python -m scenarios.breakthrough.compile

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .benchmarks

# Regenerate the lock from pyproject.toml and requirements/install.in: a deliberate step, after
# make upgrade-check (docs/dependencies.md). pip-compile runs in a scratch virtual environment
# with the versions pinned here, under Python 3.11, the oldest Python the project supports.
# make lock: the newest versions pyproject.toml allows; make lock ONLY="rich pytest": only
# those packages upgraded (or added), every other pin kept.
LOCK_TOOLS := pip==26.3 pip-tools==7.6.2
PIP_COMPILE_FLAGS := --quiet --allow-unsafe --generate-hashes --strip-extras --no-emit-index-url --no-emit-find-links $(if $(strip $(ONLY)),$(addprefix --upgrade-package ,$(ONLY)),--upgrade)
lock:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "make lock resolves under Python 3.11, the oldest supported: make lock PYTHON=python3.11"; exit 1; }
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --quiet $(LOCK_TOOLS); \
	echo "pip-compile: $(LOCK_TEST)"; \
	CUSTOM_COMPILE_COMMAND="make lock" "$$tmp/venv/bin/pip-compile" $(PIP_COMPILE_FLAGS) --extra test -o $(LOCK_TEST) pyproject.toml requirements/install.in; \
	echo "pip-compile: $(LOCK_PLAY) (constrained to $(LOCK_TEST))"; \
	CUSTOM_COMPILE_COMMAND="make lock" "$$tmp/venv/bin/pip-compile" $(PIP_COMPILE_FLAGS) -c $(LOCK_TEST) -o $(LOCK_PLAY) pyproject.toml requirements/install.in
	@git diff --stat -- $(LOCK_PLAY) $(LOCK_TEST) 2>/dev/null || true

# In a scratch virtual environment and a scratch copy of the tree (never .venv, never the lock):
# the newest versions pyproject.toml allows, which ones differ from the lock, and make test's
# steps against them; exits non-zero if any fails. PYTEST_ARGS narrows pytest (PYTEST_ARGS="tests/cli").
upgrade-check:
	$(PYTHON) contrib/upgrade_check.py
