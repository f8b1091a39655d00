# Two entry points: `make play` and `make test`. Each makes its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_PLAY := $(VENV)/.installed-play
STAMP_TEST := $(VENV)/.installed-test

.PHONY: play test tools lint typecheck imports pytest test-slow test-ssh cov fmt snapshots bench map clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_PLAY): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

# The whole suite, slow tests included (full games of every scenario): CI stays under 10 minutes.
# The OpenSSH server tests are not in it: make test-ssh.
pytest: $(STAMP_TEST)
	$(BIN)/pytest -q -m "not ssh"

# The tests that run OpenSSH (ssh-keygen -Y verify) skip without it: say so, and how to get it.
tools:
	@command -v ssh-keygen >/dev/null 2>&1 || echo "note: ssh-keygen not found: the OpenSSH interop tests will be skipped (Debian/Ubuntu: apt-get install openssh-client)"

test: tools lint typecheck imports pytest

# Only the slow tests (full self-play games, the balance summary).
test-slow: $(STAMP_TEST)
	$(BIN)/pytest -q -m slow

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
	$(BIN)/pytest -q --cov=rules --cov=scenarios --cov=pbem --cov=ardennes_tui --cov-report=term-missing:skip-covered

# Format and fix what ruff can.
fmt: $(STAMP_TEST)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Regenerate the 80x24 snapshots of the app (look at tests/tui/__snapshots__ before committing).
snapshots: $(STAMP_TEST)
	$(BIN)/pytest -q tests/tui/test_snapshots.py --snapshot-update

bench: $(STAMP_TEST)
	$(BIN)/pytest tests/bench --benchmark-only --benchmark-columns=min,median,max,rounds -q

map: $(STAMP_TEST)
	$(BIN)/python -m scenarios.build

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .benchmarks
