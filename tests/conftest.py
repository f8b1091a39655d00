"""Shared test configuration.

Tests that check a rule case carry ``@pytest.mark.rule("AO-7.4E")`` (one or more ids from
``tests/data/ao-rule-cases.md``, the copy of ``../shared/spec/ao-rule-cases.md``);
``tests/test_rule_markers.py`` keeps the ids honest. Tests found by the rule audit against the
rule book carry ``@pytest.mark.audit``.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from hypothesis import settings

import ardennes_tui.rulesets  # noqa: F401 - the composition root: the rulesets plugged in
from rules.ao.state import Board, GameState
from tests.kit.realmap import HAVE_REAL_MAP, RealScenario

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect once, then freeze what survives (the games the tests keep): pytest's own
    collections at exit then walk only what is new, and an xdist worker ends within the 5 s
    execnet gives it (past them it sends the worker a SIGINT, a stray KeyboardInterrupt in the
    output)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def real_scenario() -> RealScenario:
    """``real_scenario(n)``: scenario ``n`` on the compiled map, its board and the state before
    the Allied set-up (:func:`tests.kit.engine.scenario_start`), built once per session and
    shared (a board is immutable by convention). Skips the test when ``map.json`` is not
    built."""
    if not HAVE_REAL_MAP:
        pytest.skip("scenarios/ardennes/map.json not built")
    from tests.kit.engine import scenario_start

    built: dict[int, tuple[Board, GameState]] = {}

    def get(number: int) -> tuple[Board, GameState]:
        if number not in built:
            built[number] = scenario_start(number)
        return built[number]

    return get


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The session's own user directories (``XDG_*``, one set per xdist worker): a test that
    falls back on the default store or config never reads or writes the user's, nor shares
    them with a test running beside it."""
    root = tmp_path_factory.mktemp("xdg")
    patch = pytest.MonkeyPatch()
    for kind in ("data", "config", "cache", "state"):
        patch.setenv(f"XDG_{kind.upper()}_HOME", str(root / kind))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def tmux_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests' own tmux server (``TMUX_TMPDIR`` a temporary folder, so a user's tmux is
    never touched; one per xdist worker), started once from a clean environment: a server that
    a test started inherited pytest's environment, and its apps then never heard of a window
    resize (no SIGWINCH: the app stayed 80 columns wide in a 79-column window). Only the tests
    that run tmux ask for it (``pytest.mark.usefixtures("tmux_server")``)."""
    if shutil.which("tmux") is None:
        yield
        return
    folder = tmp_path_factory.mktemp("tmux")
    before = os.environ.get("TMUX_TMPDIR")
    os.environ["TMUX_TMPDIR"] = str(folder)
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMUX_TMPDIR") if k in os.environ}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", "tests-keepalive", "sleep 86400"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
        check=False,
    )
    try:
        yield
    finally:
        subprocess.run(["tmux", "kill-server"], env=env, capture_output=True, timeout=10)
        if before is None:
            os.environ.pop("TMUX_TMPDIR", None)
        else:
            os.environ["TMUX_TMPDIR"] = before
