"""The Last Seven Days set-up: ``setup21.toml``, typed, checked and placed (BA-2.1g, BA-2.2a, G25).

The manual gives no 21 December position (checklist G25); ``setup21.toml`` reconstructs one
from history, a line and a ``source`` a unit. :func:`load_setup21` decodes it strictly and checks
it against the order of battle: every unit of 13.2 dated up to the 20th is placed or ``gone``
exactly once, none dated later; hexes on the grid; strengths within 13.2's value; no German in
hexrow ``x = 0`` (BA-1.4h); never both sides in a hex; at most three stacking points a hex
(BA-7.6g). :func:`front_owner` turns the placements into the ownership of every hex (the
rule is documented there). The reasoning is in ``docs/rules-notes-breakthrough.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import msgspec

from rules.breakthrough.units import MAX_EFFICIENCY, MAX_STACK, Side, Supply, Unit
from scenarios.breakthrough.grid import (
    Coord,
    CoordError,
    distance,
    neighbours,
    parse_label,
    to_hex,
)
from scenarios.breakthrough.oob import FIRST_DAY, OrderOfBattle

SETUP21_PATH: Final = Path(__file__).resolve().parent / "setup21.toml"
MAX_SETUP_BYTES: Final = 256 * 1024
SET_UP_DAY: Final = 21
"""The morning of 21 December: units dated up to the 20th are on the map (placed or gone);
those dated the 21st enter in turn 6's Reinforcement Phase (BA-5.0a)."""


class SetupDataError(ValueError):
    """``setup21.toml`` is missing, too large or inconsistent with the order of battle."""


class Placement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit on the morning of the 21st. ``strength`` None: 13.2's full value."""

    id: str
    hex: str
    source: str
    strength: int | None = None
    efficiency: int = MAX_EFFICIENCY
    fort: int = 0
    supply: Supply = "supplied"

    @property
    def coord(self) -> Coord:
        return parse_label(self.hex)


class Gone(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit destroyed or surrendered before the 21st: out of play."""

    id: str
    source: str


class Held(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The victory towns the German held at the end of one day before the 21st (10.1b)."""

    day: int
    towns: tuple[str, ...]
    source: str


class Blown(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A bridge site (6.7) blown before the 21st: the hexside between ``a`` and ``b``."""

    a: str
    b: str
    source: str


class Setup21(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit: tuple[Placement, ...]
    gone: tuple[Gone, ...] = ()
    blown: tuple[Blown, ...] = ()
    held: tuple[Held, ...] = ()
    """One entry a day, 16-20 December: the town points carried into turn 6 (G25)."""


def _check(s: Setup21, oob: OrderOfBattle) -> None:
    by_id = {u.id: u for u in oob.units}
    due = {u.id for u in oob.units if u.day < SET_UP_DAY}
    seen: set[str] = set()
    for uid in [p.id for p in s.unit] + [g.id for g in s.gone]:
        if uid not in by_id:
            raise SetupDataError(f"setup21: {uid!r} is not in the order of battle")
        if uid in seen:
            raise SetupDataError(f"setup21: {uid} is listed twice")
        if uid not in due:
            day = by_id[uid].day
            raise SetupDataError(f"setup21: {uid} is dated {day} December: it arrives, not placed")
        seen.add(uid)
    if missing := sorted(due - seen):
        raise SetupDataError(f"setup21: no placement for {', '.join(missing)}")
    if [h.day for h in s.held] != list(range(FIRST_DAY, SET_UP_DAY)):
        raise SetupDataError("setup21: [[held]] must give each day 16-20 in order")
    sides: dict[Coord, set[Side]] = {}
    stack: dict[Coord, int] = {}
    for p in s.unit:
        u = by_id[p.id]
        if not p.source.strip():
            raise SetupDataError(f"setup21: {p.id} has no source")
        try:
            c = p.coord
        except CoordError as exc:
            raise SetupDataError(f"setup21: {p.id}: {exc}") from None
        if p.strength is not None and not 1 <= p.strength <= u.combat:
            raise SetupDataError(f"setup21: {p.id}: strength {p.strength} not 1..{u.combat}")
        if u.side == "german" and c[0] == 0:
            raise SetupDataError(f"setup21: {p.id}: no German unit in hexrow x = 0 (BA-1.4h)")
        try:
            Unit(p.id, u.side, to_hex(c), 1, efficiency=p.efficiency, fort=p.fort)
        except ValueError as exc:
            raise SetupDataError(f"setup21: {exc}") from None
        sides.setdefault(c, set()).add(u.side)
        stack[c] = stack.get(c, 0) + 1
        if len(sides[c]) > 1:
            raise SetupDataError(f"setup21: both sides in {p.hex}")
        if stack[c] > MAX_STACK:
            raise SetupDataError(f"setup21: more than {MAX_STACK} units in {p.hex} (BA-7.6g)")


def decode_setup21(raw: bytes, oob: OrderOfBattle) -> Setup21:
    """Decode and check ``setup21.toml``'s bytes (one clear :class:`SetupDataError`)."""
    if len(raw) > MAX_SETUP_BYTES:
        raise SetupDataError(f"setup21: larger than {MAX_SETUP_BYTES} bytes")
    try:
        s = msgspec.toml.decode(raw, type=Setup21)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise SetupDataError(f"not a Last Seven Days set-up: {exc}") from None
    _check(s, oob)
    return s


def load_setup21(oob: OrderOfBattle, path: Path = SETUP21_PATH) -> Setup21:
    """Read ``setup21.toml`` (one clear :class:`SetupDataError` on any problem)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_SETUP_BYTES + 1)
    except OSError as exc:
        raise SetupDataError(f"cannot read {path}: {exc.strerror}") from None
    return decode_setup21(raw, oob)


def carried_towns(s: Setup21, towns: Mapping[str, int]) -> int:
    """10.1b's points of the 16th-20th: each day, the points of the victory towns held
    (``towns``: name -> points a turn; an unknown name is refused)."""
    total = 0
    for h in s.held:
        for name in h.towns:
            if name not in towns:
                raise SetupDataError(f"setup21: {name!r} of the {h.day}th is no victory town")
            total += towns[name]
    return total


def units21(s: Setup21, oob: OrderOfBattle, two_player: bool) -> tuple[Unit, ...]:
    """The units on the map on the 21st, sorted by id: the placed strength, never above the
    game's 13.2 value (two-player engineers and TDs are weaker, BA-13.2c)."""
    by_id = {u.id: u for u in oob.units}
    out = []
    for p in s.unit:
        u = by_id[p.id]
        full = u.combat_value(two_player)
        strength = full if p.strength is None else min(p.strength, full)
        out.append(
            Unit(
                p.id,
                u.side,
                to_hex(p.coord),
                strength,
                efficiency=p.efficiency,
                fort=p.fort,
                supply=p.supply,
            )
        )
    return tuple(sorted(out, key=lambda x: x.id))


def front_owner(
    cells: Iterable[Coord], placed: Mapping[Coord, Side], owner16: Mapping[Coord, Side]
) -> dict[Coord, Side]:
    """Who owns each hex on the 21st (BA-1.4f, G25). The German owns the ground his armies
    took from the east: a hex nearer (hex distance) to a German unit than to any American one,
    or as near to both and German on the 16th, provided such hexes join it to his ground of
    the 16th; and every hex a German unit is in. Every other hex is American, except that
    hexrow ``x = 0``, which German units may not enter (BA-1.4h), keeps its owner of the
    16th. So a German pocket behind the American line (Peiper at La Gleize) owns only its own
    hex, and an American one (Bastogne) the hexes nearer to it than to the units round it.
    ``placed``: hex -> side of the units in it."""
    cells = sorted(cells)
    hexes = sorted(placed)
    far = 1 << 30
    leaning: set[Coord] = set()
    for c in cells:
        best: dict[Side, int] = {}
        for h in hexes:
            d = distance(c, h)
            if d < best.get(placed[h], far):
                best[placed[h]] = d
        am, de = best.get("american", far), best.get("german", far)
        if c[0] == 0:
            continue
        if de < am or (de == am and owner16[c] == "german"):
            leaning.add(c)
    german = {c for c in leaning if owner16[c] == "german"}
    todo = sorted(german)
    while todo:
        for n in neighbours(todo.pop()):
            if n in leaning and n not in german:
                german.add(n)
                todo.append(n)
    german |= {h for h, s in placed.items() if s == "german"}
    german |= {c for c in cells if c[0] == 0 and owner16[c] == "german"}
    return {c: ("german" if c in german else "american") for c in cells}
