"""The Makefile and the lock (docs/dependencies.md).

``make play ARGS="..."`` passes its arguments to ``ardennes``; both environments install from
the lock, and a changed lock reinstalls; the lock pins every package with ``==`` and hashes,
agrees with pyproject.toml, and pins the Textual that ``ardennes_tui/wire.py`` was checked
against. The tests that run ``make`` are skipped without it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from ardennes_tui import wire

ROOT = Path(__file__).resolve().parents[2]
PLAY_LOCK = ROOT / "requirements" / "play.txt"
TEST_LOCK = ROOT / "requirements" / "test.txt"
INSTALL_IN = ROOT / "requirements" / "install.in"
FROM_PYPROJECT = "ardennes (pyproject.toml)"
FROM_INSTALL_IN = "-r requirements/install.in"
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")
PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!]+)")
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")


@dataclass
class Pin:
    version: str
    hashes: set[str] = field(default_factory=set)
    via: list[str] = field(default_factory=list)


def read_lock(path: Path) -> dict[str, Pin]:
    """Every package of a pip-compile lock, by canonical name; fails on anything else in it."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        where = f"{path.name}:{number}: {raw!r}"
        if line.startswith("#"):
            via = line.lstrip("#").strip()
            if current is not None and via not in ("via", ""):
                current.via.append(via.removeprefix("via").strip())
            continue
        body = line.removesuffix("\\").strip()
        if raw[0].isspace():  # the hashes of the requirement above
            assert current is not None and HASH.fullmatch(body), where
            current.hashes.add(body)
            continue
        match = PIN.fullmatch(body)
        assert match, f"not a pin with == (nor an option a lock may hold): {where}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"pinned twice: {where}"
        current = pins[name] = Pin(match.group(2))
    return pins


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def requirements_of(lock: Path) -> dict[str, list[Requirement]]:
    """What each lock is compiled from, by where: pyproject.toml and requirements/install.in."""
    project = pyproject()["project"]
    assert isinstance(project, dict)
    wanted = list(project["dependencies"])
    if lock == TEST_LOCK:
        wanted += project["optional-dependencies"]["test"]
    installer = [
        line.strip()
        for line in INSTALL_IN.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return {
        FROM_PYPROJECT: [Requirement(spec) for spec in wanted],
        FROM_INSTALL_IN: [Requirement(spec) for spec in installer],
    }


def make_n(*args: str) -> str:
    """What ``make -n`` would run, as a user's own make would (not the flags and variables of
    a make that runs these tests: make test VENV=..., make upgrade-check)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(
        ["make", "-n", "-s", "-C", str(ROOT), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    ).stdout


@needs_make
def test_make_play_passes_its_arguments() -> None:
    out = make_n("play", "ARGS=--scenario 3 --seed x")
    assert out.splitlines()[-1] == ".venv/bin/ardennes --scenario 3 --seed x"
    alone = make_n("play")
    assert alone.splitlines()[-1].rstrip() == ".venv/bin/ardennes"


@pytest.mark.parametrize("lock", [PLAY_LOCK, TEST_LOCK], ids=["play", "test"])
def test_the_lock_pins_every_package_with_its_hashes(lock: Path) -> None:
    pins = read_lock(lock)
    assert pins
    for name, pin in pins.items():
        assert pin.hashes, f"{name}=={pin.version} has no --hash=sha256: in {lock.name}"


@pytest.mark.parametrize("lock", [PLAY_LOCK, TEST_LOCK], ids=["play", "test"])
def test_the_lock_agrees_with_pyproject(lock: Path) -> None:
    """Every requirement is pinned at a version it allows, and the lock holds no requirement
    that is no longer wanted: make lock was run after pyproject.toml last changed."""
    pins = read_lock(lock)
    for source, requirements in requirements_of(lock).items():
        for requirement in requirements:
            name = canonicalize_name(requirement.name)
            assert name in pins, f"{requirement} ({source}) is not in {lock.name}: make lock"
            version = pins[name].version
            assert requirement.specifier.contains(version, prereleases=True), (
                f"{lock.name} pins {name}=={version}, which {requirement} ({source}) refuses"
            )
        wanted = {canonicalize_name(requirement.name) for requirement in requirements}
        annotated = {name for name, pin in pins.items() if source in pin.via}
        assert annotated == wanted, f"{lock.name} is stale against {source}: make lock"


def test_the_build_backend_is_in_the_lock() -> None:
    """make installs the project with --no-build-isolation: [build-system] comes from the lock."""
    build = pyproject()["build-system"]
    assert isinstance(build, dict)
    installer = {canonicalize_name(r.name) for r in requirements_of(TEST_LOCK)[FROM_INSTALL_IN]}
    for spec in build["requires"]:
        assert canonicalize_name(Requirement(spec).name) in installer


def test_the_test_lock_holds_the_play_lock() -> None:
    """make test's environment is make play's too: the same pins, the same hashes."""
    play, test = read_lock(PLAY_LOCK), read_lock(TEST_LOCK)
    for name, pin in play.items():
        assert name in test, name
        assert (test[name].version, test[name].hashes) == (pin.version, pin.hashes), name


def test_textual_is_pinned_where_wire_was_checked() -> None:
    """wire.py's patch is read against exact Textual versions: the lock takes one of them."""
    for lock in (PLAY_LOCK, TEST_LOCK):
        assert read_lock(lock)["textual"].version in wire.CHECKED, lock.name


def test_the_packet_code_libraries_are_pinned() -> None:
    for lock in (PLAY_LOCK, TEST_LOCK):
        pins = read_lock(lock)
        assert {"msgspec", "cryptography", "bcrypt"} <= pins.keys(), lock.name


def fake_venv(tmp_path: Path) -> Path:
    """A .venv that make takes as installed: its python and both stamps newer than every lock."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    newest = max(
        p.stat().st_mtime for p in (ROOT / "pyproject.toml", PLAY_LOCK, TEST_LOCK, INSTALL_IN)
    )
    when = max(time.time(), newest + 1)
    for made in ("bin/python", ".installed-play", ".installed-test"):
        (venv / made).touch()
        os.utime(venv / made, (when, when))
    return venv


@needs_make
@pytest.mark.parametrize(
    ("target", "lock"), [("play", "requirements/play.txt"), ("lint", "requirements/test.txt")]
)
def test_a_changed_lock_reinstalls(tmp_path: Path, target: str, lock: str) -> None:
    venv = fake_venv(tmp_path)
    installs = f"-m pip install --quiet --require-hashes -r {lock}"
    project = "-m pip install --quiet --no-deps --no-build-isolation -e ."
    assert installs not in make_n(f"VENV={venv}", target)
    for changed in (lock, "pyproject.toml"):
        out = make_n(f"VENV={venv}", f"--what-if={changed}", target)
        assert f"{venv}/bin/python {installs}" in out, changed
        assert f"{venv}/bin/python {project}" in out, changed


def upgrade_check() -> ModuleType:
    path = ROOT / "contrib" / "upgrade_check.py"
    spec = importlib.util.spec_from_file_location("upgrade_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_upgrade_check_runs_the_steps_of_make_test() -> None:
    steps = upgrade_check().make_test_steps((ROOT / "Makefile").read_text(encoding="utf-8"))
    assert {"lint", "typecheck", "imports", "pytest"} <= set(steps)


def test_upgrade_check_reads_the_lock_and_names_each_change() -> None:
    module = upgrade_check()
    locked = module.lock_pins(TEST_LOCK.read_text(encoding="utf-8"))
    assert locked == {name: pin.version for name, pin in read_lock(TEST_LOCK).items()}
    newest = {**locked, "textual": "9.0.0", "new-one": "1.0"}
    del newest["ruff"]
    assert [str(c) for c in module.changes(locked, newest)] == [
        "new-one: (not in the lock) -> 1.0",
        f"ruff: {locked['ruff']} -> (no longer installed)",
        f"textual: {locked['textual']} -> 9.0.0",
    ]
