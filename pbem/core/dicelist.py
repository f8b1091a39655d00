"""The ``dice`` field of a packet: the faces and value of every die its commands drew, in order
(``docs/pbem-protocol.md`` section 3, "The dice a packet lists").

A die is ``(faces, value)``: the engine's ``uniform(index, faces)`` gave ``value``
(:class:`rules.dice.DieRoll`, 1 to :data:`rules.dice.MAX_FACES` faces). Two spellings, by the
packet's version:

* **version 3**: one digit ``1``-``6`` a die, every die a d6 (``"3415"``). The AO and *Tiny*
  roll only d6, so their packets stay exactly as they were.
* **version 4**: runs of dice of the same faces, one space between runs; a run is ``d``, the
  faces, ``:``, then the values separated by commas (``"d100:37,5,100 d6:4"``). Every number
  is decimal without sign or leading zero; faces are 1 to 256, a value 1 to its faces; a run
  holds at least one die, and two runs side by side have different faces (each run is as long
  as it can be). So a list of dice has exactly one spelling: :func:`parse` re-spells what it
  read and refuses anything else.

Which version a packet is written in is not the author's choice (:func:`version_for`): the
lowest that can list the game's dice so far, never going back: version 3 until a packet lists
a die that is not a d6, version 4 from that packet on. An auditor without this program reads
each die's faces from the packet itself and redraws ``uniform(seed, index, faces)``
(``contrib/ardennes-dice-check``); the receiver's replay checks that the rules drew exactly
those faces and values (:meth:`pbem.core.protocol.EmailGame.receive`), so a faces value the
rules did not use is refused there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from rules.dice import MAX_FACES, DieRoll

LEGACY_VERSION: Final = 2
"""Version 2 packets list no dice."""

D6_VERSION: Final = 3
"""The version whose ``dice`` are digits 1-6 (d6 only)."""
ANY_FACES_VERSION: Final = 4
"""The version whose ``dice`` are runs of dice of any faces."""
MAX_DICE: Final = 2_000
"""The most dice one packet lists (as many as it may have commands)."""
MAX_CHARS: Final = MAX_DICE * 4 + MAX_DICE * 6
"""The longest ``dice`` text read: 2,000 dice of 3 digits and a comma, each in a run of its
own (``d256:`` and a space); anything longer is refused before it is parsed."""

Die = tuple[int, int]
"""A die as a packet lists it: (faces, value)."""

_D6: Final = re.compile(r"[1-6]*")
_NUMBER: Final = re.compile(r"[1-9][0-9]{0,2}")


class DiceListError(ValueError):
    """A ``dice`` text that is not a list of dice in its one spelling (the message says why,
    in a few words, for ``packet N: the dice ...``)."""


def dice_of(events: Iterable[object]) -> tuple[Die, ...]:
    """(faces, value) of every :class:`rules.dice.DieRoll` among ``events``, in order."""
    return tuple((e.faces, e.value) for e in events if isinstance(e, DieRoll))


def version_for(dice: Sequence[Die], previous: int) -> int:
    """The version of a packet listing ``dice`` after a packet of version ``previous``: 4 once
    any packet of the game has listed a die that is not a d6, else 3 (a game begun in version
    2 goes on in 3)."""
    if previous >= ANY_FACES_VERSION or any(faces != 6 for faces, _ in dice):
        return ANY_FACES_VERSION
    return D6_VERSION


def spell(dice: Sequence[Die], version: int) -> str:
    """The one spelling of ``dice`` in a packet of ``version`` ("" for none); a
    :class:`DiceListError` when version 3 is asked to list a die that is not a d6."""
    for faces, value in dice:
        if not 1 <= faces <= MAX_FACES or not 1 <= value <= faces:
            raise DiceListError(f"hold a d{faces} showing {value}")
    if version < ANY_FACES_VERSION:
        if any(faces != 6 for faces, _ in dice):
            raise DiceListError(f"are not all d6: version {version} lists only d6")
        return "".join(str(value) for _, value in dice)
    runs: list[tuple[int, list[int]]] = []
    for faces, value in dice:
        if runs and runs[-1][0] == faces:
            runs[-1][1].append(value)
        else:
            runs.append((faces, [value]))
    return " ".join(f"d{faces}:{','.join(map(str, values))}" for faces, values in runs)


def parse(text: str, version: int) -> tuple[Die, ...]:
    """The dice ``text`` lists in a packet of ``version``, read strictly: a
    :class:`DiceListError` unless ``text`` is their one spelling (:func:`spell`) and within
    :data:`MAX_DICE`."""
    if len(text) > MAX_CHARS:
        raise DiceListError(f"are over {MAX_CHARS} characters")
    if version < ANY_FACES_VERSION:
        if not _D6.fullmatch(text):
            raise DiceListError("are not digits 1 to 6")
        if len(text) > MAX_DICE:
            raise DiceListError(f"are over {MAX_DICE}")
        return tuple((6, int(c)) for c in text)
    if not text:
        return ()
    dice: list[Die] = []
    for i, run in enumerate(text.split(" ")):
        head, colon, values = run.partition(":")
        if not (colon and head[:1] == "d" and _NUMBER.fullmatch(head[1:])):
            raise DiceListError(f"run {i + 1} {run[:12]!r} does not begin d<faces>:")
        faces = int(head[1:])
        if faces > MAX_FACES:
            raise DiceListError(f"run {i + 1}: a die has 1 to {MAX_FACES} faces, not {faces}")
        for v in values.split(","):
            if not _NUMBER.fullmatch(v):
                raise DiceListError(f"run {i + 1}: {v[:8]!r} is not a value 1 to {faces}")
            value = int(v)
            if value > faces:
                raise DiceListError(f"run {i + 1}: a d{faces} shows 1 to {faces}, not {value}")
            dice.append((faces, value))
        if len(dice) > MAX_DICE:
            raise DiceListError(f"are over {MAX_DICE}")
    if spell(dice, version) != text:
        raise DiceListError(
            "are not in their one spelling (runs of different faces, one space between)"
        )
    return tuple(dice)


def version_refusal(version: int, previous: int, text: str) -> str | None:
    """Why a packet of ``version`` listing ``text`` (read already) may not follow a packet of
    version ``previous`` (the end of a sentence that begins ``packet N``), else None: never
    a lower version, and version 4 only from the first packet listing a die not a d6 on."""
    if version < previous:
        return f"is version {version}, after a version {previous} packet"
    if version == ANY_FACES_VERSION and version_for(parse(text, version), previous) != version:
        return (
            f"is version {version}, but lists only d6: version {D6_VERSION} until a die that "
            "is not a d6 (section 3)"
        )
    return None


def listed_refusal(text: str, version: int, drawn: Sequence[Die]) -> str | None:
    """Why a packet of ``version`` whose ``dice`` is ``text`` does not list exactly the dice
    its commands ``drew`` (what follows ``packet N: ``), else None."""
    if version == LEGACY_VERSION and not text:
        return None  # a version 2 packet lists no dice
    try:
        spelled = spell(drawn, version)
    except DiceListError:
        faces = next(f for f, _ in drawn if f != 6)
        return f"its commands drew a d{faces}, which a version {version} packet cannot list"
    if text != spelled:
        listed, drew = text[:24] or "none", spelled[:24] or "none"
        return f"it lists the dice {listed}, its commands drew {drew}"
    return None
