"""The Textual bindings of the keys as data (:data:`ardennes_tui.present.keymap.KEYMAP`)."""

from __future__ import annotations

from textual.binding import Binding

from ardennes_tui.present.keymap import KEYMAP, Scope


def bindings(scope: Scope) -> list[Binding]:
    """Textual bindings of one scope, ids included."""
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
        for kb in KEYMAP
        if kb.scope == scope
    ]
