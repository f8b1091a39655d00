"""The Textual bindings of keys as data (:class:`ardennes_tui.present.keymap.KeyBinding`): the
shell's map keys (:data:`ardennes_tui.present.keymap.KEYMAP`) or a ruleset's table."""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding

from ardennes_tui.present.keymap import KEYMAP, KeyBinding, Scope


def bindings(scope: Scope, keymap: Iterable[KeyBinding] = KEYMAP) -> list[Binding]:
    """Textual bindings of one scope of ``keymap`` (default: the shell's), ids included."""
    return [
        Binding(
            ",".join(kb.keys),
            kb.action,
            kb.description,
            show=kb.show,
            priority=kb.priority,
            id=kb.id,
            tooltip=kb.description,
        )
        for kb in keymap
        if kb.scope == scope
    ]
