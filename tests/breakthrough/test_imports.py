"""``rules.breakthrough`` reaches nothing of The Ardennes Offensive nor of ``scenarios``: of the
engine it imports only the generic core (``rules.hexgrid``), so it stays put when issue 23
moves AO under ``rules/ao/``. (The import-linter contract "The rules engine is pure" already
keeps ``scenarios``, I/O and randomness out of every ``rules`` module.)"""

from __future__ import annotations

import ast
from pathlib import Path

import rules.breakthrough

PACKAGE = Path(rules.breakthrough.__file__).parent
GENERIC = {"rules.hexgrid", "rules.rejection"}
OUTSIDE = {"__future__", "collections.abc", "dataclasses", "typing", "msgspec", "msgspec.structs"}


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in {"rules", "rules.breakthrough"}:
                out.update(f"{node.module}.{a.name}" for a in node.names)
            else:
                out.add(node.module)
    return out


def test_only_the_generic_core_and_the_package_itself() -> None:
    found = set().union(*(imported(p) for p in sorted(PACKAGE.glob("*.py"))))
    own = {m for m in found if m.startswith("rules.breakthrough.")}
    assert own
    assert found - own - OUTSIDE <= GENERIC, found - own - OUTSIDE - GENERIC
    assert "rules.hexgrid" in found
