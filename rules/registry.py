"""The rulesets this program plays, by id (``ao``...): where a record's header or an email
packet that names a ruleset finds it.

The core imports no ruleset (an import-linter contract): each ruleset registers itself when
its package is imported (``rules/ao/__init__.py`` ends with ``registry.register(AO)``), and a
program imports the rulesets it plays. In phase 1 of issue 23 ``import rules`` still imports
``rules.ao`` (the transitional re-export of the AO's names, ``docs/engine.md``), so the AO is
always there; a test's own ruleset (``tests/kit/tiny.py``) registers itself the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.ruleset import Ruleset

_RULESETS: dict[str, Ruleset[Any, Any, Any, Any, Any, Any, Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any, Any, Any, Any, Any, Any, Any]) -> None:
    """Make ``ruleset`` known by its id; registering the same object again does nothing, and
    another ruleset under a taken id is a :class:`ValueError`."""
    old = _RULESETS.get(ruleset.id)
    if old is not None and old is not ruleset:
        raise ValueError(f"a ruleset {ruleset.id!r} is registered already")
    _RULESETS[ruleset.id] = ruleset


def get(ruleset_id: str) -> Ruleset[Any, Any, Any, Any, Any, Any, Any, Any]:
    """The ruleset of that id; :class:`KeyError` when none is registered."""
    return _RULESETS[ruleset_id]


def ids() -> tuple[str, ...]:
    """The ids of the registered rulesets, sorted."""
    return tuple(sorted(_RULESETS))
