"""A Combat Phase: every plotted combat resolved in the order of plotting (8.0, BA-8.0a-b, G14).

8.0: "When the Combat Phase is initiated each combat plotted by the player is resolved in
order of the actual plotting. The combat strengths for both sides are added up and modified by
various factors to determine the battle odds. Losses are then determined and distributed among
the participating units. Retreats and advances are executed by the computer for eligible
units." Plots "may not be rescinded" (7.9), so :func:`resolve_phase` takes the phase's plots
and a sequence of percentage draws and returns the new positions and one
:class:`CombatReport` a combat: nobody decides anything inside the batch.

G14 reading: all plots of the phase against one hex make one combat, resolved at the place of
the first plot against that hex, with its attackers in plotted order; a unit plots at most one
attack a phase; every enemy unit in the hex defends. Each combat sees the results of the
ones before it. The draws of a combat, in order: a surrender draw for each isolated defender
(id order), the attacker's loss draw, the defender's loss draw, a retreat draw for each
surviving defender (id order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec
import msgspec.structs

from rules.breakthrough import losses
from rules.breakthrough.retreat import Ground, Moved, advance, must_retreat, new_owner, retreat
from rules.breakthrough.strength import Odds, attack_artillery, combat_odds, defence_fort
from rules.breakthrough.units import Draws, Side, Unit
from rules.hexgrid import HexId, adjacent, hexside

DEFEND_OP: Final = 3
"""13.5 "Defend in Combat 3 3": a defending unit spends 3 operation points, down to zero
(BA-13.5o, BA-7.9a; the attacker's 6 are spent when it plots, 13.5p)."""

APPROXIMATE_STEP: Final = 5
"""The display rounds the defender's unmodified strength to 5 points (BA-8.0c, G27)."""


class Plot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit's plotted attack on an adjacent hex (BA-7.9b)."""

    unit: str
    target: HexId


class UnitLoss(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit's losses in one combat (BA-8.3d) and its state after them."""

    unit: str
    loss: int
    strength: int
    efficiency: int
    artillery_lost: int


class CombatReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the combat display shows (BA-8.0c) and the record keeps, for one combat."""

    target: HexId
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    defender_strength: int
    """The defenders' unmodified strength before the combat; the display shows
    :attr:`approximate_defender_strength` (BA-8.0c, G27)."""
    surrendered: tuple[str, ...]
    odds: Odds | None
    attacker_loss: int
    defender_loss: int
    losses: tuple[UnitLoss, ...]
    retreats: tuple[Moved, ...]
    advances: tuple[Moved, ...]
    eliminated: tuple[str, ...]
    draws: tuple[int, ...]

    @property
    def approximate_defender_strength(self) -> int:
        """8.0: "the approximate, unmodified combat strength ... of the defender": to the
        nearest 5 points, halves up, and never 0 for a defender that has strength (G27)."""
        return approximate(self.defender_strength)


class PhaseResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The units and ownership after the phase, and its combats in plotted order."""

    units: tuple[Unit, ...]
    owner: dict[HexId, Side]
    reports: tuple[CombatReport, ...]
    draws_used: int


def approximate(strength: int) -> int:
    """``strength`` to the nearest multiple of :data:`APPROXIMATE_STEP`, at least one step.

    >>> approximate(44), approximate(43), approximate(2), approximate(0)
    (45, 45, 5, 0)
    """
    if strength <= 0:
        return 0
    return max(
        APPROXIMATE_STEP, (strength + APPROXIMATE_STEP // 2) // APPROXIMATE_STEP * APPROXIMATE_STEP
    )


def combats(plots: Sequence[Plot]) -> list[tuple[HexId, list[str]]]:
    """Group plots into combats (G14): one a target hex, in the order of each target's first
    plot, attackers in plotted order. A unit plotting twice is refused."""
    seen: set[str] = set()
    order: dict[HexId, list[str]] = {}
    for p in plots:
        if p.unit in seen:
            raise ValueError(f"{p.unit} plotted more than one attack this phase (G14)")
        seen.add(p.unit)
        order.setdefault(p.target, []).append(p.unit)
    return list(order.items())


def _fight(
    target: HexId,
    attackers: Sequence[Unit],
    defenders: Sequence[Unit],
    ground: Ground,
    draws: Draws,
    board: dict[str, Unit],
) -> tuple[Odds, int, int, list[UnitLoss]]:
    """Odds, the two loss draws, artillery, distribution (BA-8.2, BA-8.3); updates ``board``."""
    pairs = [(a, hexside(a.hex, target) in ground.rivers) for a in attackers]
    terrain = ground.terrain.get(target, "clear")
    found = combat_odds(pairs, defenders, terrain)
    a_h = losses.attacker_loss_hundredths(sum(a.strength for a in attackers), draws.next())
    d_h = losses.defender_loss_hundredths(a_h, found.ratio, draws.next())
    att_art = attack_artillery(
        sum(a.artillery for a in attackers), terrain == "town", defence_fort(defenders)
    )
    def_art = 100 * sum(d.artillery for d in defenders)
    a_total = losses.half_up(a_h) + losses.artillery_loss(
        def_art, losses.DEFENCE_ARTILLERY_PER_LOSS
    )
    d_total = losses.half_up(d_h) + losses.artillery_loss(att_art, losses.ATTACK_ARTILLERY_PER_LOSS)
    a_total = min(a_total, sum(a.strength for a in attackers))
    d_total = min(d_total, sum(d.strength for d in defenders))
    rows: list[UnitLoss] = []
    for group, total, attacking in ((attackers, a_total, True), (defenders, d_total, False)):
        shares = losses.distribute(total, [u.strength for u in group])
        for u, share in zip(group, shares, strict=True):
            after = losses.take_losses(u, share, attacking)
            if not attacking and after.strength > 0:
                after = msgspec.structs.replace(after, op=max(0, after.op - DEFEND_OP))
            board[u.id] = after
            lost_art = u.artillery - after.artillery
            rows.append(UnitLoss(u.id, share, after.strength, after.efficiency, lost_art))
    return found, a_total, d_total, rows


def _retreats(
    attackers: Sequence[Unit],
    defenders: Sequence[Unit],
    owner: dict[HexId, Side],
    ground: Ground,
    draws: Draws,
    board: dict[str, Unit],
) -> tuple[dict[HexId, Side], list[Moved]]:
    """A retreat draw for each surviving defender, id order (BA-8.4a-d); updates ``board``."""
    attacker_hexes = list(dict.fromkeys(a.hex for a in attackers))
    moves: list[Moved] = []
    for d in defenders:
        now = board[d.id]
        if now.strength == 0:
            continue
        casualty = 100 * (d.strength - now.strength) // d.strength
        if not must_retreat(casualty, now.efficiency, now.fort, draws.next()):
            continue
        after, move = retreat(now, attacker_hexes, list(board.values()), owner, ground)
        board[d.id] = after
        moves.append(move)
        if move.to is not None:
            owner = new_owner(owner, move.to, after.side)
    return owner, moves


def resolve_combat(
    target: HexId,
    attacker_ids: Sequence[str],
    units: Sequence[Unit],
    owner: Mapping[HexId, Side],
    ground: Ground,
    draws: Draws,
) -> tuple[list[Unit], dict[HexId, Side], CombatReport]:
    """One combat (BA-8.0b, BA-8.2, BA-8.3, BA-8.4): the units and ownership after it.

    Raises ValueError for a plot no rule allows (an unknown unit, units of both sides, an
    attacker not adjacent to the target): plotting (7.9) refuses those before.
    """
    first = draws.used
    board = {u.id: u for u in units}
    unknown = [i for i in attacker_ids if i not in board]
    if unknown or not attacker_ids:
        raise ValueError(f"no such attacking unit on the map: {unknown}")
    attackers = [board[i] for i in attacker_ids]
    side = attackers[0].side
    for a in attackers:
        if a.side != side or not adjacent(a.hex, target):
            raise ValueError(f"{a.id} cannot attack {target} (BA-7.9b)")
    defenders = sorted(
        (u for u in units if u.hex == target and u.side != side and u.strength > 0),
        key=lambda u: u.id,
    )
    shown = sum(u.strength for u in defenders)
    surrendered = [
        u.id for u in defenders if u.supply == "isolated" and losses.surrenders(u, draws.next())
    ]
    for uid in surrendered:
        board[uid] = msgspec.structs.replace(board[uid], strength=0)
    fighting = [d for d in defenders if d.id not in surrendered]
    found: Odds | None = None
    rows: list[UnitLoss] = []
    a_total = d_total = 0
    retreats: list[Moved] = []
    new = dict(owner)
    if fighting:
        found, a_total, d_total, rows = _fight(target, attackers, fighting, ground, draws, board)
        new, retreats = _retreats(attackers, fighting, new, ground, draws, board)
    current = list(board.values())
    advances: list[Moved] = []
    if not any(u.hex == target and u.side != side and u.strength > 0 for u in current):
        current, advances = advance([board[a.id] for a in attackers], target, current, ground)
        if advances:
            new = new_owner(new, target, side)
    report = CombatReport(
        target=target,
        attackers=tuple(a.id for a in attackers),
        defenders=tuple(d.id for d in defenders),
        defender_strength=shown,
        surrendered=tuple(surrendered),
        odds=found,
        attacker_loss=a_total,
        defender_loss=d_total,
        losses=tuple(rows),
        retreats=tuple(retreats),
        advances=tuple(advances),
        eliminated=tuple(sorted(u.id for u in current if u.strength == 0)),
        draws=tuple(draws.values[first : draws.used]),
    )
    return [u for u in current if u.strength > 0], new, report


def resolve_phase(
    plots: Sequence[Plot],
    units: Sequence[Unit],
    owner: Mapping[HexId, Side],
    ground: Ground,
    draws: Sequence[int],
) -> PhaseResult:
    """Resolve a Combat Phase's plots in plotted order (BA-8.0a, BA-2.3b, G14).

    Eliminated units (strength 0, surrendered included) leave ``units``. Raises
    :class:`~rules.breakthrough.units.DrawsExhaustedError` when ``draws`` runs short.
    """
    cursor = Draws(draws)
    current = list(units)
    own = dict(owner)
    reports: list[CombatReport] = []
    for target, attacker_ids in combats(plots):
        current, own, report = resolve_combat(target, attacker_ids, current, own, ground, cursor)
        reports.append(report)
    return PhaseResult(tuple(current), own, tuple(reports), cursor.used)
