"""Dice: every die of the game enters the rules through :class:`DiceSource`.

A source is a pure function of the draw number: ``d6(index)`` is the value of draw ``index``
(0-based; the position is ``GameState.dice_drawn``, the number of dice drawn so far). Nothing here
keeps hidden state, so replaying a log from any point draws the same dice.

:class:`SeededDice` is the source of real games. Draw ``index`` is read from the 32 bytes of::

    block0 = SHA-256(b"ardennes-d6/1" + seed + index.to_bytes(8, "big"))

by *rejection sampling*: the bytes are taken in order, every byte ``>= 252`` is skipped, and the
first byte ``b < 252`` gives ``b % 6 + 1``. 252 = 6 x 42, so each face has exactly 42 of the 252
accepted byte values and the die is exactly uniform (a plain ``b % 6`` over all 256 values
would favour 1-4). If all 32 bytes are rejected (probability ``(4/256)**32``, about 1e-58) the
draw continues, in the same way, with the extension blocks::

    block_k = SHA-256(b"ardennes-d6/1" + seed + index.to_bytes(8, "big") + k.to_bytes(8, "big"))

for ``k = 1, 2, ...`` until a byte is accepted. The seed (agreed by the players' commit-reveal,
see ``pbem``) is an opaque byte string here. (Because the seed has no length prefix, block ``k``
of ``(seed, index)`` hashes the same bytes as block 0 of ``(seed + index8, k)``; this only
matters after 32 rejected bytes in a row, and not at all for seeds of one fixed length.)

:class:`ScriptedDice` replays given values, for tests and hand-worked examples.
:func:`draw` turns one draw into a :class:`DieRoll` record for the event log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final, Protocol

import msgspec

DOMAIN: Final = b"ardennes-d6/1"
"""Domain-separation prefix of every hashed block (versioned: a new scheme gets a new tag)."""

ACCEPT_BELOW: Final = 252
"""Bytes ``>= 252`` are rejected: 252 is the largest multiple of 6 not above 256."""


class DiceSource(Protocol):
    """Where dice come from: the value of draw number ``index``, deterministic in ``index``."""

    def d6(self, index: int) -> int: ...


class DiceError(ValueError):
    """A dice source cannot give the requested draw (scripted dice exhausted, bad index)."""


def _hash(data: bytes) -> bytes:
    """SHA-256 of ``data`` (a module function so tests can substitute crafted digests)."""
    return hashlib.sha256(data).digest()


def _block(seed: bytes, index: int, k: int) -> bytes:
    head = DOMAIN + seed + index.to_bytes(8, "big")
    return _hash(head if k == 0 else head + k.to_bytes(8, "big"))


def d6_from_seed(seed: bytes, index: int) -> int:
    """The value of draw ``index`` of :class:`SeededDice` (``seed``); see the module docstring."""
    if index < 0:
        raise DiceError(f"draw index must be >= 0, got {index}")
    k = 0
    while True:
        for b in _block(seed, index, k):
            if b < ACCEPT_BELOW:
                return b % 6 + 1
        k += 1


class SeededDice:
    """The dice of a real game: draw ``index`` from SHA-256 of the seed and the index."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes):
            raise TypeError("the dice seed must be bytes")
        self.seed = seed

    def d6(self, index: int) -> int:
        return d6_from_seed(self.seed, index)

    def __repr__(self) -> str:
        return f"SeededDice(<{len(self.seed)} bytes>)"


class ScriptedDice:
    """Given values: draw ``start + i`` is ``values[i]``. Every value must be 1..6."""

    __slots__ = ("start", "values")

    def __init__(self, values: Sequence[int], start: int = 0) -> None:
        bad = [(i, v) for i, v in enumerate(values) if not (type(v) is int and 1 <= v <= 6)]
        if bad:
            i, v = bad[0]
            raise DiceError(f"scripted die {i} is {v!r}: a d6 shows 1 to 6")
        self.values: tuple[int, ...] = tuple(values)
        self.start = start

    def d6(self, index: int) -> int:
        i = index - self.start
        if i < 0:
            raise DiceError(f"draw {index} comes before the script, which starts at {self.start}")
        if i >= len(self.values):
            raise DiceError(
                f"scripted dice exhausted: draw {index} asked, only {len(self.values)} "
                f"value(s) scripted from draw {self.start}"
            )
        return self.values[i]


class DieRoll(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="die_rolled"
):
    """One die drawn: draw number, value and what it was for (``"combat:3512"``,
    ``"crt_switch"``, ``"paradrop"``). Shaped like the events of ``rules.events``."""

    index: int
    value: int
    purpose: str


def draw(source: DiceSource, state_dice_index: int, purpose: str) -> tuple[DieRoll, int]:
    """Draw die number ``state_dice_index``: the record and the next dice position."""
    value = source.d6(state_dice_index)
    if not (type(value) is int and 1 <= value <= 6):
        raise DiceError(f"dice source gave {value!r} for draw {state_dice_index}")
    return DieRoll(index=state_dice_index, value=value, purpose=purpose), state_dice_index + 1
