"""Key bindings as data: binding id -> keys, action, description (the shell's: the map's).

Screens and widgets build their Textual ``BINDINGS`` from key tables like :data:`KEYMAP`
(with :func:`ardennes_tui.widgets.bindings.bindings`: no Textual here), so every binding has an
id; a user keymap (``{binding id: "key,key"}``) can later be applied with ``App.set_keymap``.
This table holds the shell's map widget's keys (the ``map`` scope); each ruleset's screens have
their own table of the same :class:`KeyBinding` (the AO's:
:mod:`ardennes_tui.rulesets.ao.present.keymap`, whose ``KEYMAP`` is this one and its own).
Movement follows our pointy-topped grid (``docs/hex-grid.md``): ``y u`` = north-west/north-east,
``h l`` = west/east, ``b n`` = south-west/south-east, and ``k j`` go straight up/down the
column (alternating NW/NE and SW/SE, which keeps ``CC``). The numeric keypad works the same
way: ``7 9 4 6 1 3`` and ``8 2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

Scope = str
"""Where a binding works: the shell's ``map`` (the map widget), or a scope of a ruleset's
screens (the AO's ``app``, ``play``, ``decide``, ``email``, ``versus``)."""


@dataclass(frozen=True)
class KeyBinding:
    """One binding: ``id`` (stable, for user keymaps), ``keys``, ``action``, ``description``."""

    id: str
    keys: tuple[str, ...]
    action: str
    description: str
    scope: Scope = "map"
    show: bool = False
    priority: bool = False


KEYMAP: Final[tuple[KeyBinding, ...]] = (
    KeyBinding("map.nw", ("y", "7", "home"), "move('NW')", "cursor north-west"),
    KeyBinding("map.ne", ("u", "9", "pageup"), "move('NE')", "cursor north-east"),
    KeyBinding("map.w", ("h", "left", "4"), "move('W')", "cursor west"),
    KeyBinding("map.e", ("l", "right", "6"), "move('E')", "cursor east"),
    KeyBinding("map.sw", ("b", "1", "end"), "move('SW')", "cursor south-west"),
    KeyBinding("map.se", ("n", "3", "pagedown"), "move('SE')", "cursor south-east"),
    KeyBinding("map.up", ("k", "up", "8"), "move('up')", "cursor up the column (NW/NE)"),
    KeyBinding("map.down", ("j", "down", "2"), "move('down')", "cursor down the column (SW/SE)"),
    KeyBinding("map.zoom", ("z",), "toggle_zoom", "zoom: detail / overview", show=True),
    KeyBinding(
        "map.numbers",
        ("number_sign",),
        "toggle_numbers",
        "hex numbers in the margins of the detailed map: on / off (kept)",
    ),
)
"""The map widget's keys (the ``map`` scope)."""


def key_label(key: str) -> str:
    """How a Textual key name is shown to the user (``question_mark`` -> ``?``)."""
    special = {
        "question_mark": "?",
        "pageup": "PgUp",
        "left_parenthesis": "(",
        "right_parenthesis": ")",
        "left_curly_bracket": "{",
        "right_curly_bracket": "}",
        "pagedown": "PgDn",
        "minus": "-",
        "plus": "+",
        "equals_sign": "=",
        "full_stop": ".",
        "comma": ",",
        "right_square_bracket": "]",
        "left_square_bracket": "[",
        "ctrl+p": "Ctrl+P",
        "greater_than_sign": ">",
        "number_sign": "#",
        "less_than_sign": "<",
    }
    if key in special:
        return special[key]
    return key.capitalize() if len(key) > 1 else key
