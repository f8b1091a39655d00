"""Commands: fully specified player intent, one tagged msgspec union (``type`` field).

A command names everything the engine needs; the engine recomputes all consequences. A move
stores its whole path, so a log of commands replays exactly::

    {"type": "move", "unit": "2ss a", "path": ["3512", "3411", "enter_road_mode", "3410"]}
    {"type": "place", "unit": "106 i", "hex": "2109"}
    {"type": "end_phase"}

Path steps are hex ids (``CCRR``) to enter, or one of :data:`ROAD_MODE_STEPS` to change mode in
the current hex (AO-6.3C).

The combat commands (``declare_attack``, ``choose_retreat``, ``advance``, ``choose_losses``,
``waive_immunity``) are defined so logs and tools can already carry them; the engine rejects
them as not yet implemented until the combat issue lands.
"""

from __future__ import annotations

from typing import Final

import msgspec

ENTER_ROAD_MODE: Final = "enter_road_mode"
LEAVE_ROAD_MODE: Final = "leave_road_mode"
ROAD_MODE_STEPS: Final = (ENTER_ROAD_MODE, LEAVE_ROAD_MODE)


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Move(_Command, tag="move", frozen=True):
    """Move ``unit`` along ``path`` (hexes to enter, road-mode changes), AO-5 and AO-6."""

    unit: str
    path: tuple[str, ...]


class Place(_Command, tag="place", frozen=True):
    """Place ``unit`` on ``hex`` during its side's set-up step (AO-4.2a)."""

    unit: str
    hex: str


class EndPhase(_Command, tag="end_phase", frozen=True):
    """End the current phase (or set-up step) and advance the sequence of play (AO-4)."""


class DeclareAttack(_Command, tag="declare_attack", frozen=True):
    """Attack the units in ``defenders`` (hexes) with ``attackers`` (AO-9); ``odds`` lowers
    the odds voluntarily (AO-9.4L), e.g. ``"3-1"``."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    odds: str | None = None


class ChooseRetreat(_Command, tag="choose_retreat", frozen=True):
    """The victor's choice of retreat path for ``unit`` (AO-10.2a)."""

    unit: str
    path: tuple[str, ...]


class Advance(_Command, tag="advance", frozen=True):
    """Advance ``unit`` into the vacated ``hex`` after combat (AO-9.6N); no hex: decline."""

    unit: str
    hex: str | None = None


class ChooseLosses(_Command, tag="choose_losses", frozen=True):
    """The attacker's units eliminated to satisfy an Exchange (AO-10.1b)."""

    units: tuple[str, ...]


class WaiveImmunity(_Command, tag="waive_immunity", frozen=True):
    """Waive the town or West Wall immunity of ``hex`` before the die is rolled (AO-11.f*)."""

    hex: str


Command = (
    Move | Place | EndPhase | DeclareAttack | ChooseRetreat | Advance | ChooseLosses | WaiveImmunity
)
"""Every command the engine knows."""

_DECODER: Final[msgspec.json.Decoder[Command]] = msgspec.json.Decoder(Command)
_ENCODER: Final = msgspec.json.Encoder()


def decode_command(raw: bytes | str) -> Command:
    """Strictly decode one JSON command; raises ``msgspec.ValidationError``/``DecodeError``."""
    return _DECODER.decode(raw)


def encode_command(command: Command) -> bytes:
    """Compact JSON of a command (``type`` first)."""
    return _ENCODER.encode(command)


def decode_jsonl(text: str) -> list[Command]:
    """Commands of a JSONL text, one per non-blank line."""
    return [decode_command(line) for line in text.splitlines() if line.strip()]
