"""``--ruleset ID``: which game a command creates (``ardennes invite``, ``ardennes selfplay
--dice``), among the rulesets plugged into the program (:mod:`ardennes_tui.rulesets`).

The choices are the rulesets with an email kit (:func:`pbem.kits.ids`); the default is The
Ardennes Offensive, ``ao``. A command that reads a game (``import``, ``accept``, ``show``,
``verify``, ``audit``) takes no flag: the invitation or the record names the ruleset.
"""

from __future__ import annotations

import argparse

from ardennes_tui.errors import UserError
from pbem import kits
from pbem.core.packets import DEFAULT_RULESET
from rules import registry

__all__ = ["add_ruleset_option", "ruleset_sides", "side_choices"]


def add_ruleset_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--ruleset`` to ``parser``; ``what``: what it chooses the ruleset of."""
    parser.add_argument(
        "--ruleset",
        default=DEFAULT_RULESET,
        choices=kits.ids(),
        metavar="ID",
        help=f"the ruleset of {what}: {', '.join(kits.ids())} (default {DEFAULT_RULESET}, "
        "The Ardennes Offensive)",
    )


def ruleset_sides(ruleset: str) -> tuple[str, str]:
    """The two sides of ``ruleset`` (a one-line :class:`UserError` for one the program has
    not)."""
    if ruleset not in registry.ids():
        raise UserError(f"this program has no ruleset {ruleset!r}", 2)
    return registry.get(ruleset).sides


def side_choices() -> tuple[str, ...]:
    """Every side of the rulesets with an email kit, the AO's first (German, Allied)."""
    out: list[str] = []
    for rid in sorted(kits.ids(), key=lambda r: (r != DEFAULT_RULESET, r)):
        if rid in registry.ids():
            out.extend(s for s in reversed(registry.get(rid).sides) if s not in out)
    return tuple(out)
