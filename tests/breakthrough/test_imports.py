"""``rules.breakthrough`` (its bots included) reaches nothing of The Ardennes Offensive nor of
``scenarios``: of the engine it imports only the generic core (``rules.hexgrid``, the dice, the
ruleset seam, the game, the record and the registry): "a ruleset imports the core, never
another ruleset". (The import-linter contract "The rules engine is pure" already
keeps ``scenarios``, I/O and randomness out of every ``rules`` module.)"""

from __future__ import annotations

import ast
from pathlib import Path

import rules.breakthrough

PACKAGE = Path(rules.breakthrough.__file__).parent
GENERIC = {
    "rules.hexgrid",
    "rules.rejection",
    "rules.dice",
    "rules.game",
    "rules.record",
    "rules.registry",
    "rules.ruleset",
}
OUTSIDE = {
    "__future__",
    "collections.abc",
    "dataclasses",
    "functools",
    "hashlib",
    "typing",
    "msgspec",
    "msgspec.structs",
}


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in {"rules", "rules.breakthrough", "rules.breakthrough.bots"}:
                out.update(f"{node.module}.{a.name}" for a in node.names)
            else:
                out.add(node.module)
    return out


def test_only_the_generic_core_and_the_package_itself() -> None:
    found = set().union(*(imported(p) for p in sorted(PACKAGE.rglob("*.py"))))
    own = {m for m in found if m.startswith("rules.breakthrough.")}
    assert own
    assert found - own - OUTSIDE <= GENERIC, found - own - OUTSIDE - GENERIC
    assert "rules.hexgrid" in found
