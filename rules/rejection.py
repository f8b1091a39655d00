"""Typed rejections: why the engine refused a command, naming the rule case.

Every refusal carries the id of the rule case of ``../shared/spec/ao-rule-cases.md`` that it
enforces, and a detail sentence written for the player::

    >>> str(Rejection("AO-7.1A", "2ss a may not leave an enemy-controlled hex (3512)"))
    'AO-7.1A: 2ss a may not leave an enemy-controlled hex (3512)'

A rejection is a value, never an exception: the engine returns it, and a rejected command
changes nothing and emits no events.
"""

from __future__ import annotations

import msgspec

NOT_IMPLEMENTED = "not-implemented"
"""The pseudo case id of a command the engine does not know (never a rule case)."""


class Rejection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A refused command: the rule case it breaks and what exactly was wrong."""

    case: str
    detail: str

    @property
    def message(self) -> str:
        """``"<case>: <detail>"``, the one line shown to players and printed by the CLI."""
        return f"{self.case}: {self.detail}"

    def __str__(self) -> str:
        return self.message


class RejectedError(ValueError):
    """Raised by the convenience helpers (``replay``) when a command is refused."""

    def __init__(self, index: int, rejection: Rejection) -> None:
        super().__init__(f"command {index}: {rejection.message}")
        self.index = index
        self.rejection = rejection
