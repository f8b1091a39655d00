"""Operation points and the non-moving commands of an Operation Phase (7.3-7.4, 7.7-7.10, 13.5).

Allowances (BA-7.4a-i, G10, G11): :func:`first_allowance` at the start of the turn and
:func:`second_allowance` at the start of the side's second Operation Phase. Commands, each
returning the unit after it or a :class:`~rules.rejection.Rejection` naming the case:
:func:`change_mode` (BA-7.7a-b, 13.5l), :func:`fortify` (BA-7.8a-b, 13.5q-r),
:func:`plot_attack` (BA-7.9a-c, 13.5p, BA-4.3k, BA-2.4c) and :func:`exit_map` (BA-7.10a-b, G30).
The menus and keys (7.1a, 7.3a) are the app's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal

import msgspec
import msgspec.structs

from rules import hexgrid
from rules.breakthrough.profile import Profile
from rules.breakthrough.resolve import Plot
from rules.breakthrough.supply import allowance
from rules.breakthrough.units import MAX_FORT, Mode, Side, Unit
from rules.hexgrid import HexId
from rules.rejection import Rejection

Phase = Literal[1, 2]

SECOND_MAX_AMERICAN_MOBILE: Final = 24
SECOND_MAX_GERMAN_MOBILE: Final = 20
SECOND_MAX_NON_MOBILE: Final = 12
"""7.4: second-phase maxima (BA-7.4f)."""
CARRY_DIVISOR: Final = 2
"""G11: half of the first allowance left unused carries to the second phase, rounded down."""
FIRST_TURN: Final = 1
SLOW_TURN: Final = 2
"""G10: the turns with reduced allowances (16 and 17 December, 2.4)."""
MODE_COST: Final = {"german": (7, 3), "american": (10, 6)}
"""13.5 "Change Mode (American) 7(10) 3(6)", mobile / non-mobile (BA-13.5l)."""
AMERICAN_NON_MOBILE_LEAVE_TRAVEL: Final = 12
"""13.5 note 6: "American non-mobile units incur double (twelve) the cost to leave travel"."""
FORT_COST: Final = ((10, 6), (5, 3))
FORT_COST_ZOC: Final = ((20, 12), (10, 6))
"""13.5 "Fortify (Eng.) 10(5) 6(3)", "Fortify in ZOC (Eng.) 20(10) 12(6)": [engineer][mobile]
(BA-13.5q-r)."""
ATTACK_COST: Final = 6
"""13.5 "Attack in Combat 6 6" (BA-13.5p): the points "sufficient" to plot (G14)."""


def first_allowance(
    unit: Unit, profile: Profile, turn: int, next_to_enemy: bool, interdiction: int = 0
) -> int:
    """Operation points received at the beginning of the turn (BA-7.4a-d, BA-7.4g-h, G10).

    The base first-phase allowance, doubled for an American non-mobile unit in travel mode
    (7.4g), halved (down) when unsupplied, zero when isolated (7.4h), less ``interdiction``
    (the points the Air Phase took, 3.3, G8), never below zero. G10 reading for 16 and 17
    December: on turn 1 only mobile American units get points, half their allowance (the
    reserves that moved that day), and German units get their allowance only when next to an
    American unit (the assault), mobile ones half of it (the panzer divisions waited for the
    breach); on turn 2 non-mobile American units get half.
    """
    base = profile.first
    if turn == FIRST_TURN:
        if unit.side == "american":
            base = base // 2 if profile.mobile else 0
        elif not next_to_enemy:
            base = 0
        elif profile.mobile:
            base //= 2
    elif turn == SLOW_TURN and unit.side == "american" and not profile.mobile:
        base //= 2
    if unit.side == "american" and not profile.mobile and unit.mode == "travel":
        base *= 2
    return max(0, allowance(base, unit.supply) - interdiction)


def second_maximum(side: Side, mobile: bool) -> int:
    """7.4: American mobile 24, German mobile 20, non-mobile 12 (BA-7.4f)."""
    if not mobile:
        return SECOND_MAX_NON_MOBILE
    return SECOND_MAX_AMERICAN_MOBILE if side == "american" else SECOND_MAX_GERMAN_MOBILE


def second_allowance(
    unit: Unit, profile: Profile, turn: int, unused_first: int, interdiction: int = 0
) -> int:
    """The unit's points for its second Operation Phase: they replace what it has left
    (BA-7.4a, BA-7.4e-i, G11, C20, C21, C25).

    The base second-phase allowance (none on 16 December, 7.4i) plus half of the first-phase
    points left unused (rounded down, G11; on 16 December the carry-over alone, so the
    Germans, who may not move in the first phase, move in the second: C20), capped at the
    second-phase maximum (7.4f); then doubled for an American non-mobile unit in travel mode
    (7.4g: the cap is on the "regular allowance", C25), halved when unsupplied, zero when
    isolated, less ``interdiction``.
    """
    base = 0 if turn == FIRST_TURN else profile.second
    points = min(base + unused_first // CARRY_DIVISOR, second_maximum(unit.side, profile.mobile))
    if unit.side == "american" and not profile.mobile and unit.mode == "travel":
        points *= 2
    return max(0, allowance(points, unit.supply) - interdiction)


def with_points(unit: Unit, op: int) -> Unit:
    """``unit`` holding ``op`` operation points."""
    return msgspec.structs.replace(unit, op=op)


def _spend(unit: Unit, cost: int, case: str, what: str) -> Unit | Rejection:
    if cost > unit.op:
        return Rejection(case, f"{unit.id}: {what} costs {cost} operation points; {unit.op} left")
    return msgspec.structs.replace(unit, op=unit.op - cost)


def mode_cost(unit: Unit, profile: Profile, to: Mode) -> int:
    """13.5l: German 7 / 3, American 10 / 6 (mobile / non-mobile); an American non-mobile
    unit leaving travel mode pays 12."""
    if unit.side == "american" and not profile.mobile and to == "normal":
        return AMERICAN_NON_MOBILE_LEAVE_TRAVEL
    return MODE_COST[unit.side][0 if profile.mobile else 1]


def change_mode(unit: Unit, profile: Profile) -> Unit | Rejection:
    """Change between normal and travel mode (BA-7.7a-b, BA-4.3f, BA-6.6f).

    Refused to an unsupplied or isolated unit going into travel mode, and to a divisional
    unit. An American non-mobile unit entering travel mode has its points left after paying
    doubled (7.7b). The fortification level is kept (the unit does not move)."""
    to: Mode = "normal" if unit.mode == "travel" else "travel"
    if to == "travel":
        if unit.supply != "supplied":
            return Rejection("BA-7.7a", f"{unit.id}: an {unit.supply} unit may not enter travel")
        if unit.divisional:
            return Rejection("BA-6.6f", f"{unit.id}: divisional units may not enter travel mode")
    paid = _spend(unit, mode_cost(unit, profile, to), "BA-7.7a", "changing mode")
    if isinstance(paid, Rejection):
        return paid
    doubled = to == "travel" and unit.side == "american" and not profile.mobile
    op = paid.op * 2 if doubled else paid.op
    return msgspec.structs.replace(paid, mode=to, op=op)


def fortify_cost(unit: Unit, units: Sequence[Unit], profiles: Mapping[str, Profile]) -> int:
    """13.5q-r: 10 / 6, next to an enemy unit 20 / 12 (mobile / non-mobile), each halved when
    an engineer unit in normal mode is in the hex, the unit itself included (BA-7.8b)."""
    board = [unit, *(u for u in units if u.id != unit.id)]
    engineer = any(
        u.side == unit.side
        and u.hex == unit.hex
        and u.mode == "normal"
        and u.strength > 0
        and (p := profiles.get(u.id)) is not None
        and p.engineer
        for u in board
    )
    near = any(
        u.side != unit.side and u.strength > 0 and hexgrid.adjacent(u.hex, unit.hex) for u in units
    )
    table = FORT_COST_ZOC if near else FORT_COST
    return table[int(engineer)][0 if profiles[unit.id].mobile else 1]


def fortify(unit: Unit, units: Sequence[Unit], profiles: Mapping[str, Profile]) -> Unit | Rejection:
    """Fortify one level (BA-7.8a-b, BA-4.3e): at most five; not when unsupplied or isolated
    (C17)."""
    if unit.supply != "supplied":
        return Rejection("BA-4.3e", f"{unit.id}: an {unit.supply} unit may not fortify")
    if unit.fort >= MAX_FORT:
        return Rejection("BA-7.8a", f"{unit.id}: already at fortification level {MAX_FORT}")
    paid = _spend(unit, fortify_cost(unit, units, profiles), "BA-7.8a", "fortifying")
    if isinstance(paid, Rejection):
        return paid
    return msgspec.structs.replace(paid, fort=unit.fort + 1)


def plot_attack(
    unit: Unit,
    target: HexId,
    units: Sequence[Unit],
    phase: Phase,
    plotted: Sequence[Plot] = (),
) -> tuple[Unit, Plot] | Rejection:
    """Plot ``unit``'s attack on the adjacent enemy-held ``target`` (BA-7.9a-c, G14).

    It needs the 6 points of 13.5p, which it spends; in the second Operation Phase it spends
    all it has (7.9a, note 8). Refused: isolated units (BA-4.3k), a unit that already plotted
    this phase (G14), a hex not next to it or without enemy units. A plot stands: nothing
    takes it back (7.9c). German units may plot on 16 December although they may not move
    (2.4c)."""
    if any(p.unit == unit.id for p in plotted):
        return Rejection("BA-7.9c", f"{unit.id}: already plotted an attack this phase")
    if unit.supply == "isolated":
        return Rejection("BA-4.3k", f"{unit.id}: isolated units may not attack")
    if not hexgrid.adjacent(unit.hex, target):
        return Rejection("BA-7.9b", f"{unit.id}: {target} is not next to {unit.hex}")
    if not any(u.hex == target and u.side != unit.side and u.strength > 0 for u in units):
        return Rejection("BA-7.9b", f"{unit.id}: no enemy unit in {target}")
    if unit.op < ATTACK_COST:
        return Rejection(
            "BA-7.9b", f"{unit.id}: an attack needs {ATTACK_COST} operation points; {unit.op} left"
        )
    op = 0 if phase == 2 else unit.op - ATTACK_COST
    return msgspec.structs.replace(unit, op=op), Plot(unit.id, target)


def may_move(unit: Unit, turn: int, phase: Phase) -> Rejection | None:
    """2.4: "The Germans on December 16th (the first turn) may not move during the 1st phase"
    (BA-2.4c); everything else stays open to them."""
    if turn == FIRST_TURN and phase == 1 and unit.side == "german":
        return Rejection("BA-2.4c", f"{unit.id}: German units may not move on 16 December (1st)")
    return None


class Exited(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A German unit gone off the map (BA-7.10a-c): for 10.1d's points and 5.2c's delays."""

    unit: str
    hex: HexId
    strength: int
    turn: int


def exit_map(unit: Unit, exits: frozenset[HexId], turn: int) -> Exited | Rejection:
    """Exit a German unit from an exit hex (BA-7.10a-b, C6, C7, G30).

    G30 reading: a German unit in an exit hex leaves in its Operation Phase, in either mode,
    for no operation points; its unmodified strength at that moment is what counts (10.1d,
    5.2c). The caller removes it for good (7.10b)."""
    if unit.side != "german":
        return Rejection("BA-7.10a", f"{unit.id}: only German units exit the map")
    if unit.hex not in exits:
        return Rejection("BA-7.10a", f"{unit.id}: {unit.hex} is not an exit hex")
    return Exited(unit.id, unit.hex, unit.strength, turn)
