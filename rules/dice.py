"""Dice: every die of a game enters the rules through :class:`DiceSource`.

A source is a pure function of the draw number: ``uniform(index, n)`` is the value (1..n) of
draw ``index``
(0-based; the position is ``GameState.dice_drawn``, the number of dice drawn so far). Nothing here
keeps hidden state, so replaying a log from any point draws the same dice.

:class:`SeededDice` is the source of real games. Draw ``index`` is read from the 32 bytes of::

    block0 = SHA-256(b"ardennes-d6/1" + seed + index.to_bytes(8, "big"))

by *rejection sampling*: the bytes are taken in order, every byte ``>= 256 - 256 % n`` is
skipped, and the first byte ``b`` below that gives ``b % n + 1`` (``n`` from 1 to 256 faces).
For a d6 the bound is 252 = 6 x 42, so each face has exactly 42 of the 252 accepted byte values
and the die is exactly uniform (a plain ``b % 6`` over all 256 values would favour 1-4); a
percentage die (``n = 100``) accepts bytes below 200. ``d6(index)`` is ``uniform(index, 6)``:
the AO's draws of every game so far, bit for bit. (The faces are not hashed in: a game draws
each index once, with the faces its rule calls for.) If all 32 bytes are rejected
(probability ``(4/256)**32`` for a d6, about 1e-58) the draw continues, in the same way, with
the extension blocks::

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
"""For a d6, bytes ``>= 252`` are rejected: 252 is the largest multiple of 6 not above 256."""
MAX_FACES: Final = 256
"""The most faces one draw may have (one byte a try)."""


class DiceSource(Protocol):
    """Where dice come from: the value (1..n) of draw number ``index``, deterministic in
    ``index`` and ``n``."""

    def uniform(self, index: int, n: int) -> int: ...


class DiceError(ValueError):
    """A dice source cannot give the requested draw (scripted dice exhausted, bad index)."""


def _hash(data: bytes) -> bytes:
    """SHA-256 of ``data`` (a module function so tests can substitute crafted digests)."""
    return hashlib.sha256(data).digest()


def _block(seed: bytes, index: int, k: int) -> bytes:
    head = DOMAIN + seed + index.to_bytes(8, "big")
    return _hash(head if k == 0 else head + k.to_bytes(8, "big"))


def uniform_from_seed(seed: bytes, index: int, n: int) -> int:
    """The value (1..n) of draw ``index`` of :class:`SeededDice` (``seed``); see the module
    docstring."""
    if index < 0:
        raise DiceError(f"draw index must be >= 0, got {index}")
    if not 1 <= n <= MAX_FACES:
        raise DiceError(f"a die has 1 to {MAX_FACES} faces, not {n}")
    accept = MAX_FACES - MAX_FACES % n
    k = 0
    while True:
        for b in _block(seed, index, k):
            if b < accept:
                return b % n + 1
        k += 1


def d6_from_seed(seed: bytes, index: int) -> int:
    """The value of draw ``index`` of :class:`SeededDice` (``seed``) as a d6."""
    return uniform_from_seed(seed, index, 6)


class SeededDice:
    """The dice of a real game: draw ``index`` from SHA-256 of the seed and the index."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes):
            raise TypeError("the dice seed must be bytes")
        self.seed = seed

    def uniform(self, index: int, n: int) -> int:
        return uniform_from_seed(self.seed, index, n)

    def d6(self, index: int) -> int:
        return uniform_from_seed(self.seed, index, 6)

    def __repr__(self) -> str:
        return f"SeededDice(<{len(self.seed)} bytes>)"


class ScriptedDice:
    """Given values: draw ``start + i`` is ``values[i]``. Every value must be 1..``faces``
    (6 unless told: the AO's d6), and a draw of ``n`` faces must find a value 1..n."""

    __slots__ = ("faces", "start", "values")

    def __init__(self, values: Sequence[int], start: int = 0, faces: int = 6) -> None:
        bad = [(i, v) for i, v in enumerate(values) if not (type(v) is int and 1 <= v <= faces)]
        if bad:
            i, v = bad[0]
            what = "a d6 shows 1 to 6" if faces == 6 else f"the dice show 1 to {faces}"
            raise DiceError(f"scripted die {i} is {v!r}: {what}")
        self.values: tuple[int, ...] = tuple(values)
        self.start = start
        self.faces = faces

    def d6(self, index: int) -> int:
        return self.uniform(index, 6)

    def uniform(self, index: int, n: int) -> int:
        i = index - self.start
        if i < 0:
            raise DiceError(f"draw {index} comes before the script, which starts at {self.start}")
        if i >= len(self.values):
            raise DiceError(
                f"scripted dice exhausted: draw {index} asked, only {len(self.values)} "
                f"value(s) scripted from draw {self.start}"
            )
        v = self.values[i]
        if v > n:
            raise DiceError(f"scripted die {index} is {v}: a {n}-sided draw was asked")
        return v


class DieRoll(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    tag_field="type",
    tag="die_rolled",
):
    """One die drawn: draw number, value, what it was for (``"combat:3512"``,
    ``"crt_switch"``, ``"paradrop"``) and its faces (``uniform(index, faces)``; a d6 unless
    told, and then left out of the encoding, so the AO's events are spelled as before). Shaped
    like the events of ``rules.ao.events``; an email packet lists each die's faces and value
    (``docs/pbem-protocol.md`` section 3)."""

    index: int
    value: int
    purpose: str
    faces: int = 6


def draw(
    source: DiceSource, state_dice_index: int, purpose: str, n: int = 6
) -> tuple[DieRoll, int]:
    """Draw die number ``state_dice_index`` with ``n`` faces (a d6 unless told): the record and
    the next dice position."""
    value = source.uniform(state_dice_index, n)
    if not (type(value) is int and 1 <= value <= n):
        raise DiceError(f"dice source gave {value!r} for draw {state_dice_index}")
    roll = DieRoll(index=state_dice_index, value=value, purpose=purpose, faces=n)
    return roll, state_dice_index + 1
