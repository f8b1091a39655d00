"""The engine's public API is all that its clients use.

The app (``ardennes_tui``, its command line included), the email layer (``pbem``) and the bots
(``rules/bots``) import from the engine only ``rules`` itself (names in ``rules.__all__``) and
the public submodules below; the bots may also import each other and the app may import the
bots. Anything else is an engine internal, free to change. (``scenarios`` builds boards from
the data types of ``rules`` and is not a client in this sense.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_SUBMODULES = frozenset(
    {"rules.hexgrid", "rules.crt", "rules.levels", "rules.position", "rules.record"}
)
CLIENTS = ("ardennes_tui", "pbem", "rules/bots")


def _client_files() -> list[Path]:
    return sorted(p for c in CLIENTS for p in (ROOT / c).rglob("*.py"))


def violations(path: Path, source: str) -> list[str]:
    """The imports of ``source`` (the file ``path``) that reach past the public API."""
    out: list[str] = []
    exported = set(rules.__all__)

    def allowed(module: str) -> bool:
        return (
            module in PUBLIC_SUBMODULES
            or module == "rules.bots"
            or module.startswith("rules.bots.")
        )

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("rules.") and not allowed(a.name):
                    out.append(f"{path.name}:{node.lineno} import {a.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mod = node.module
            if mod == "rules":
                for a in node.names:
                    public = a.name in exported or f"rules.{a.name}" in PUBLIC_SUBMODULES
                    if not public and a.name != "bots":
                        out.append(f"{path.name}:{node.lineno} from rules import {a.name}")
            elif mod.startswith("rules.") and not allowed(mod):
                out.append(f"{path.name}:{node.lineno} from {mod} import ...")
    return out


def test_clients_use_only_the_public_api() -> None:
    found = [v for p in _client_files() for v in violations(p, p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_catches_internal_imports() -> None:
    bad = (
        "from rules.movement import legal_moves\n"
        "import rules.combat\n"
        "from rules import combat, Game, hexgrid\n"
        "from rules.record import encode\n"
        "from rules.bots import bots_for\n"
    )
    assert violations(Path("x.py"), bad) == [
        "x.py:1 from rules.movement import ...",
        "x.py:2 import rules.combat",
        "x.py:3 from rules import combat",
    ]


def test_all_resolves() -> None:
    assert len(set(rules.__all__)) == len(rules.__all__)
    for name in rules.__all__:
        assert getattr(rules, name) is not None, name


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_exists(client: str) -> None:
    assert (ROOT / client).is_dir()
