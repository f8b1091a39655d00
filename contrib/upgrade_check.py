"""``make upgrade-check``: what taking the newest dependencies would change and what it breaks.

In a scratch copy of the tree and a scratch virtual environment, both in a temporary folder
(never ``.venv``, never the lock), this installs the newest versions that ``pyproject.toml``
and ``requirements/install.in`` allow, ignoring the lock; prints each package whose version
differs from the lock (old -> new); then runs the steps of ``make test`` (the prerequisites of
its ``test`` target, through the Makefile, so exactly as ``make test`` runs them) against those
versions and prints what fails. Exit status: 0 if nothing breaks, 1 if a step fails, 2 if the
newest versions cannot even be installed.

``PYTEST_ARGS`` (environment, or ``make upgrade-check PYTEST_ARGS="tests/cli -q"``) narrows the
pytest step: it is handed to pytest through ``PYTEST_ADDOPTS``. ``--keep`` keeps the temporary
folder. Standard library only: it runs under the ``python3`` that runs ``make``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = Path("requirements/test.txt")
INSTALL_IN = Path("requirements/install.in")
PROJECT = "ardennes"
IGNORED = (
    ".git",
    ".venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
REPORTED = re.compile(r"^(FAILED|ERROR) ")
MAKE_ERROR = re.compile(r"^make(\[\d+\])?: \*\*\* ")


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them (``Jinja2``, ``jinja2``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins(text: str) -> dict[str, str]:
    """Every ``name==version`` of a lock file, by normalized name."""
    pins: dict[str, str] = {}
    for line in text.splitlines():
        match = PIN.match(line)
        if match:
            pins[normalize(match.group(1))] = match.group(2)
    return pins


@dataclass(frozen=True)
class Change:
    """One package whose version the upgrade changes (``None``: not there on that side)."""

    name: str
    old: str | None
    new: str | None

    def __str__(self) -> str:
        old = self.old if self.old is not None else "(not in the lock)"
        new = self.new if self.new is not None else "(no longer installed)"
        return f"{self.name}: {old} -> {new}"


def changes(locked: Mapping[str, str], newest: Mapping[str, str]) -> list[Change]:
    """The packages whose version differs between the lock and the newest install, by name."""
    names = sorted(set(locked) | set(newest))
    return [
        Change(name, locked.get(name), newest.get(name))
        for name in names
        if locked.get(name) != newest.get(name)
    ]


def make_test_steps(makefile: str) -> list[str]:
    """The prerequisites of the Makefile's ``test`` target, in order."""
    for line in makefile.splitlines():
        match = re.match(r"^test\s*:(?!=)(.*)$", line)
        if match:
            return match.group(1).split()
    raise SystemExit("upgrade-check: the Makefile has no test target")


def reported_failures(output: Iterable[str]) -> list[str]:
    """pytest's short summary lines of failed and erroring tests (``-ra``)."""
    return [line.rstrip() for line in output if REPORTED.match(line)]


def copy_tree(target: Path) -> None:
    """The working tree as it is now (edits included), less caches and environments."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z", "-c", "-o", "--exclude-standard"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*IGNORED), symlinks=True)
        return
    for name in sorted({entry.decode() for entry in listed.split(b"\0") if entry}):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination, follow_symlinks=False)


@dataclass(frozen=True)
class Ran:
    """What a command exited with and printed."""

    returncode: int
    output: list[str]


def quietly(command: Sequence[str], cwd: Path) -> None:
    """Run ``command``; print what it said only if it fails, and raise."""
    print("+ " + " ".join(command), flush=True)
    done = subprocess.run(
        list(command), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if done.returncode != 0:
        print(done.stdout, end="", flush=True)
        raise subprocess.CalledProcessError(done.returncode, list(command))


def stream(command: Sequence[str], cwd: Path, env: Mapping[str, str]) -> Ran:
    """Run ``command``, echoing its output as it comes; return its status and output."""
    print("+ " + " ".join(command), flush=True)
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        output.append(line)
    return Ran(process.wait(), output)


def install_newest(python: Path, tree: Path) -> dict[str, str]:
    """The newest versions allowed, installed in the scratch environment: name -> version."""
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    quietly([*pip, "--upgrade", "-r", str(tree / INSTALL_IN)], tree)
    quietly([*pip, "--no-build-isolation", "-e", ".[test]"], tree)
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {
        normalize(entry["name"]): entry["version"]
        for entry in json.loads(listed)
        if normalize(entry["name"]) != PROJECT
    }


def check(keep: bool, pytest_args: str) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="ardennes-upgrade-check-"))
    try:
        return _check(scratch, pytest_args)
    finally:
        if keep:
            print(f"upgrade-check: kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def _check(scratch: Path, pytest_args: str) -> int:
    tree, venv = scratch / "tree", scratch / "venv"
    print(f"upgrade-check: a copy of the tree and a virtual environment in {scratch}", flush=True)
    copy_tree(tree)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    try:
        newest = install_newest(venv / "bin" / "python", tree)
    except subprocess.CalledProcessError as error:
        print(f"\nupgrade-check: the newest versions allowed do not install ({error})")
        return 2
    locked = lock_pins((tree / LOCK).read_text(encoding="utf-8"))
    changed = changes(locked, newest)

    # The Makefile's own recipes, with the scratch environment as its .venv; the install stamps
    # are marked as made so that make never reinstalls from the lock (-o: never remake).
    stamps = [venv / ".installed-play", venv / ".installed-test"]
    for stamp in stamps:
        stamp.touch()
    make = ["make", "--no-print-directory", f"VENV={venv}"]
    for target in [venv / "bin" / "python", *stamps]:
        make.append(f"--old-file={target}")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    if pytest_args:
        env["PYTEST_ADDOPTS"] = f"{env.get('PYTEST_ADDOPTS', '')} {pytest_args}".strip()
    failures: list[str] = []
    for step in make_test_steps((tree / "Makefile").read_text(encoding="utf-8")):
        print(f"\n== make {step}", flush=True)
        ran = stream([*make, step], tree, env)
        if ran.returncode != 0:
            said = [line.strip() for line in ran.output if line.strip()]
            last = next((line for line in reversed(said) if not MAKE_ERROR.match(line)), "")
            failures.append(f"make {step} (exit {ran.returncode}): {last}")
            failures.extend(f"  {line}" for line in reported_failures(ran.output))

    report(locked, changed, failures, pytest_args)
    return 1 if failures else 0


def report(
    locked: Mapping[str, str], changed: Sequence[Change], failures: Sequence[str], pytest_args: str
) -> None:
    print(f"\nupgrade-check: the newest versions pyproject.toml allows, against {LOCK}")
    if changed:
        for change in changed:
            print(f"  {change}")
    else:
        print("  none: the lock already has the newest versions")
    print(f"  ({len(locked) - sum(1 for c in changed if c.old is not None)} packages unchanged)")
    if any(change.name == "textual" for change in changed):
        print(
            "  textual changes: re-read ardennes_tui/wire.py against it before taking it"
            " (docs/dependencies.md)"
        )
    if pytest_args:
        print(f"  pytest ran on a subset only: PYTEST_ARGS={pytest_args!r}")
    if failures:
        print("upgrade-check: what breaks")
        for failure in failures:
            print(f"  {failure}")
    elif changed:
        print("upgrade-check: nothing breaks; take the upgrade with make lock, then commit.")
    else:
        print("upgrade-check: nothing to take, and nothing breaks.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--pytest-args",
        default=os.environ.get("PYTEST_ARGS", ""),
        help="arguments added to pytest's (default: $PYTEST_ARGS)",
    )
    args = parser.parse_args(argv)
    if shutil.which("make") is None:
        raise SystemExit("upgrade-check: needs make")
    return check(args.keep, args.pytest_args)


if __name__ == "__main__":
    sys.exit(main())
