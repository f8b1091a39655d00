# Two entry points: `make play` and `make test`. Each makes its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_PLAY := $(VENV)/.installed-play
STAMP_TEST := $(VENV)/.installed-test

.PHONY: play test lint typecheck imports pytest bench map clean

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
	$(BIN)/ardennes

lint: $(STAMP_TEST)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP_TEST)
	$(BIN)/mypy

imports: $(STAMP_TEST)
	$(BIN)/lint-imports

pytest: $(STAMP_TEST)
	$(BIN)/pytest -q

test: lint typecheck imports pytest

bench: $(STAMP_TEST)
	$(BIN)/pytest tests/bench --benchmark-only --benchmark-columns=min,median,max,rounds -q

map: $(STAMP_TEST)
	$(BIN)/python -m scenarios.build

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .benchmarks
