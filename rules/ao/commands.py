"""Commands: fully specified player intent, one tagged msgspec union (``type`` field).

A command names everything the engine needs; the engine recomputes all consequences. A move
stores its whole path, so a log of commands replays exactly::

    {"type": "move", "unit": "2ss a", "path": ["3512", "3411", "enter_road_mode", "3410"]}
    {"type": "place", "unit": "106 i", "hex": "2109"}
    {"type": "drop", "hex": "2815"}
    {"type": "roll"}
    {"type": "end_phase"}

Path steps are hex ids (``CCRR``) to enter, or one of :data:`ROAD_MODE_STEPS` to change mode in
the current hex (AO-6.3C).

Combat (``docs/engine.md``): ``declare_attack`` (a batch of attacks), ``resolve_attacks``, the
decisions ``waive_immunity``, ``choose_losses``, ``choose_retreat``, ``advance``, and
``standing_orders`` (decide in advance, for play by email)::

    {"type": "declare_attack", "attackers": ["de-1ss-a"], "defenders": ["3411"], "odds": "3-1"}
    {"type": "resolve_attacks"}
    {"type": "choose_retreat", "unit": "us-106-i", "path": ["3310", "3210"]}
"""

from __future__ import annotations

from typing import Final, Literal

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
    """Place ``unit`` on ``hex`` during its side's set-up step (AO-4.2a), or a reinforcement on
    an entry hex of its section in its side's Reinforcement Phase (AO-14.1A)."""

    unit: str
    hex: str


class Drop(_Command, tag="drop", frozen=True):
    """Drop the paratroop unit on ``hex`` at the start of the German Initial Movement Phase of
    its Game-Turn (AO-15.a); :class:`Roll` then rolls the die that decides whether it
    survives (AO-15.b)."""

    hex: str


class Roll(_Command, tag="roll", frozen=True):
    """Roll the die the rules call for now (``GameState.roll``): the German CRT switch at the
    start of a Game-Turn from GT6 (AO-10.3a), or the survival of the paratroop unit after its
    ``Drop`` (AO-15.b). A command of its own, so that by email the roll falls in a packet
    whose dice its author could not know before his earlier decisions were signed."""


class EndPhase(_Command, tag="end_phase", frozen=True):
    """End the current phase (or set-up step) and advance the sequence of play (AO-4)."""


class DeclareAttack(_Command, tag="declare_attack", frozen=True):
    """Declare an attack on the units in the ``defenders`` hexes with ``attackers`` (AO-9).

    ``odds`` lowers the odds voluntarily (AO-9.4L), e.g. ``"3-1"``; ``waive`` names the
    attacker's own town/West Wall hexes whose Ar immunity he waives (AO-11.f*). Declared
    attacks form a batch, resolved in declared order by :class:`ResolveAttacks`."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    odds: str | None = None
    waive: tuple[str, ...] = ()


class ResolveAttacks(_Command, tag="resolve_attacks", frozen=True):
    """Resolve the declared batch in order (needs dice); stops at a pending decision."""


class ChooseRetreat(_Command, tag="choose_retreat", frozen=True):
    """The victor's choice of retreat path for ``unit`` (AO-10.2a): the hexes entered."""

    unit: str
    path: tuple[str, ...]


class Advance(_Command, tag="advance", frozen=True):
    """Advance ``unit`` into the cleared ``hex`` after combat (AO-9.6N); no unit: decline."""

    hex: str
    unit: str | None = None


class ChooseLosses(_Command, tag="choose_losses", frozen=True):
    """The attacker's units eliminated to satisfy an Exchange (AO-10.1b)."""

    units: tuple[str, ...]


class WaiveImmunity(_Command, tag="waive_immunity", frozen=True):
    """The defender waives the town/West Wall immunity of ``hexes`` (possibly none: keep it)
    before the die is rolled (AO-11.f*)."""

    hexes: tuple[str, ...] = ()


class StandingOrders(_Command, tag="standing_orders", frozen=True):
    """``side``'s standing orders, so combat resolves without asking it (play by email):
    see :class:`rules.ao.state.Orders`. ``clear`` removes them (every decision is asked again)."""

    side: Literal["german", "allied"]
    waive: tuple[str, ...] = ()
    retreat: Literal["engine", "ask"] = "engine"
    losses: Literal["engine", "ask"] = "engine"
    advance: Literal["decline", "strongest", "ask"] = "decline"
    clear: bool = False


Command = (
    Move
    | Place
    | Drop
    | Roll
    | EndPhase
    | DeclareAttack
    | ResolveAttacks
    | ChooseRetreat
    | Advance
    | ChooseLosses
    | WaiveImmunity
    | StandingOrders
)
"""Every command the engine knows."""

_DECODER: Final[msgspec.json.Decoder[Command]] = msgspec.json.Decoder(Command)
_ENCODER: Final = msgspec.json.Encoder()


def decode_command(raw: bytes | str) -> Command:
    """Strictly decode one JSON command; raises ``msgspec.ValidationError``/``DecodeError``
    (also for JSON nested too deeply to decode, which msgspec reports as ``RecursionError``
    while skipping an unknown field)."""
    try:
        return _DECODER.decode(raw)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply") from None
    except UnicodeDecodeError as exc:  # msgspec reports invalid UTF-8 in a string this way
        raise msgspec.DecodeError(f"not UTF-8: {exc.reason}") from None


def encode_command(command: Command) -> bytes:
    """Compact JSON of a command (``type`` first)."""
    return _ENCODER.encode(command)


def decode_jsonl(text: str) -> list[Command]:
    """Commands of a JSONL text, one per non-blank line."""
    return [decode_command(line) for line in text.splitlines() if line.strip()]
