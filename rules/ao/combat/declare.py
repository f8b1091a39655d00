"""Declaring attacks: the checks of a ``DeclareAttack``, attackable hexes, odds previews (AO-9.1,
AO-9.2D, AO-9.4L, AO-11.k, AO-12.6, AO-5.3M, AO-11.f*, AO-4.2h*, AO-14.3C)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules import hexgrid
from rules.ao import reinforcements
from rules.ao.combat.gt1 import gt1_declaration_check
from rules.ao.combat.immunity import immune_hexes
from rules.ao.combat.protocol import busy, defending_units, reserved, set_combat, side_of
from rules.ao.commands import DeclareAttack
from rules.ao.crt import ODDS_COLUMNS, crt_for
from rules.ao.events import AttackDeclared, Event
from rules.ao.interdiction import interdiction_at_combat
from rules.ao.odds import attack_strength_in, defence_strength_in, odds_column, reduce_odds
from rules.ao.state import Attack, Board, Crt, GameState, Supply, UnitState
from rules.ao.supply import supply_judgment
from rules.ao.units import Side
from rules.hexgrid import HexId, HexIdError
from rules.rejection import Rejection


def defender_supply(board: Board, state: GameState, side: Side) -> dict[str, Supply]:
    """Every ``side`` unit's supply at the moment of combat (AO-12.0, AO-12.4K), with the
    bridges the attacker interdicts now (AO-13.c*); GT1 Germans supplied (AO-4.2b).

    The judgment reads only the unit rows and the Game-Turn, so it is kept for the last rows
    judged: the states of one batch (declared attacks, standing orders) share one judgment.
    Each call gets a fresh copy."""
    key = f"combat.defender_supply.{side}"
    last = board.cache.get(key)
    if isinstance(last, _Judged) and last.turn == state.turn and last.units == state.units:
        return dict(last.supply)
    supply = supply_judgment(
        board, state, side, interdicted=interdiction_at_combat(board, state, side)
    )
    board.cache[key] = _Judged(state.units, state.turn, supply)
    return dict(supply)


class _Judged:
    """The last defender judgment: the unit rows and Game-Turn it was made for."""

    __slots__ = ("supply", "turn", "units")

    def __init__(self, units: tuple[UnitState, ...], turn: int, supply: dict[str, Supply]) -> None:
        self.units = units
        self.turn = turn
        self.supply = supply


def defender_strength(
    board: Board, state: GameState, units: Sequence[str], hexes: Sequence[HexId]
) -> int:
    """The defence strength of ``units`` in ``hexes``, their supply judged now (AO-12.4K);
    units retreated into a defending stack this phase add nothing (AO-9.2F*)."""
    supply = defender_supply(board, state, side_of(board, units[0]))
    supply = {uid: supply.get(uid, "supplied") for uid in units}
    return defence_strength_in(board, state, hexes, supply=supply, retreated=state.combat.retreated)


class Preview(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The odds of an attack as they stand now (what the UI shows before rolling)."""

    attack: int
    defence: int
    column: str
    table: Crt


def preview_attack(
    board: Board, state: GameState, attackers: Sequence[str], defenders: Sequence[HexId]
) -> Preview | Rejection:
    """Attack and defence strength, real odds column and CRT of attacking the units in
    ``defenders`` with ``attackers`` now (defender supply judged now, AO-12.4K; units retreated
    into a defending stack this phase add nothing, AO-9.2F*). Legality: :func:`check_attack`."""
    units = defending_units(state, defenders)
    if not units:
        return Rejection("AO-9.1A", f"no enemy unit in {', '.join(sorted(defenders))}")
    att = attack_strength_in(board, state, attackers)
    dfn = defender_strength(board, state, units, defenders)
    col = odds_column(att, dfn)
    if isinstance(col, Rejection):
        return col
    return Preview(attack=att, defence=dfn, column=col, table=crt_for(state))


def _check_attackers(board: Board, state: GameState, attack: Attack) -> Rejection | None:
    m = board.game_map
    busy_units, _ = reserved(state)
    for uid in attack.attackers:
        d = board.defs.get(uid)
        u = state.find(uid)
        if d is None or u is None:
            return Rejection("AO-9.1A", f"there is no unit {uid!r} in this game")
        if d.side != state.side:
            return Rejection(
                "AO-9.1A", f"{uid} is {d.side}: only the phasing player attacks ({state.side})"
            )
        if u.status == "dormant":
            return Rejection("AO-5.3M", f"{uid} is dormant on {u.hex} and may not attack")
        if not u.in_play or u.hex is None:
            return Rejection("AO-9.1A", f"{uid} is not on the map ({u.status})")
        if m.is_allied_edge(u.hex):
            return Rejection("AO-11.k", f"{uid} is on the Allied Map Edge hex {u.hex}: no combat")
        if u.attacked or uid in busy_units:
            return Rejection("AO-9.1C", f"{uid} has already attacked in this Combat Phase")
        if u.supply == "isolated":
            return Rejection(
                "AO-12.6", f"{uid} is isolated: its attack strength is zero, it may not attack"
            )
    return None


def _check_defenders(board: Board, state: GameState, attack: Attack) -> Rejection | None:
    m = board.game_map
    _, busy_hexes = reserved(state)
    for h in attack.defenders:
        try:
            hexgrid.parse(h)
        except HexIdError as exc:
            return Rejection("AO-9.1A", str(exc))
        if h not in m:
            return Rejection("AO-9.1A", f"{h} is not on the map")
        if m.is_allied_edge(h):
            return Rejection("AO-11.k", f"{h} is an Allied Map Edge hex: no combat there")
        enemies = [u for u in state.at(h) if side_of(board, u.id) != state.side]
        if not enemies:
            return Rejection("AO-9.1A", f"there is no enemy unit in play in {h}")
        if h in busy_hexes:
            return Rejection("AO-9.1C", f"{h} is already attacked in this batch")
        # A unit retreated into a stack suffers that stack's results (AO-9.2F*), so it may be
        # attacked again with it; alone, or with units attacked already, it may not (AO-9.1C).
        fresh = any(not u.was_attacked for u in enemies)
        for u in enemies:
            if u.was_attacked and not (u.id in state.combat.retreated and fresh):
                return Rejection(
                    "AO-9.1C", f"{u.id} in {h} has already been attacked in this Combat Phase"
                )
    return None


def _check_adjacency(state: GameState, attack: Attack) -> Rejection | None:
    multi = len(attack.defenders) > 1
    for uid in attack.attackers:
        here = state.unit(uid).hex
        assert here is not None
        for h in attack.defenders:
            if not hexgrid.adjacent(here, h):
                case = "AO-9.2D" if multi else "AO-9.1A"
                what = "every defending hex" if multi else "the defending hex"
                return Rejection(case, f"{uid} in {here} is not adjacent to {h} ({what})")
    return None


def _check_west_bank(board: Board, state: GameState, attack: Attack) -> Rejection | None:
    """West-bank attackers only on enemy units across the Meuse or next to it (AO-14.3C)."""
    for uid in attack.attackers:
        for h in attack.defenders:
            bad = reinforcements.west_bank_target_refused(board, state, uid, h)
            if bad is not None:
                return bad
    return None


def check_attack(
    board: Board, state: GameState, attack: Attack | DeclareAttack
) -> Preview | Rejection:
    """Whether ``attack`` may be declared now (the checks of ``DeclareAttack``); its preview if
    so. Each refusal names its case."""
    if isinstance(attack, DeclareAttack):
        attack = Attack(attack.attackers, attack.defenders, attack.odds, attack.waive)
    if state.phase != "combat":
        return Rejection(
            "AO-4.1b", f"attacks are declared in the Combat Phase (now: {state.phase})"
        )
    refused = busy(state)
    if refused is not None:
        return refused
    if not attack.attackers:
        return Rejection("AO-9.1A", "an attack needs at least one attacking unit")
    if not attack.defenders:
        return Rejection("AO-9.1A", "an attack needs at least one defending hex")
    if len(set(attack.attackers)) != len(attack.attackers):
        return Rejection("AO-9.1C", "an attacking unit is named twice")
    if len(set(attack.defenders)) != len(attack.defenders):
        return Rejection("AO-9.1C", "a defending hex is named twice")
    refused = (
        _check_attackers(board, state, attack)
        or _check_defenders(board, state, attack)
        or _check_adjacency(state, attack)
        or _check_west_bank(board, state, attack)
    )
    if refused is not None:
        return refused
    own = set(immune_hexes(board, state, attack.attackers))
    for h in attack.waive:
        if h not in own:
            return Rejection("AO-11.f*", f"no attacking unit has an immunity to waive in {h}")
    p = preview_attack(board, state, attack.attackers, attack.defenders)
    if isinstance(p, Rejection):
        return p
    gt1 = gt1_declaration_check(board, state, attack)
    if gt1 is not None:
        return gt1
    if attack.odds is not None:
        if attack.odds not in ODDS_COLUMNS:
            return Rejection("AO-9.4L", f"unknown odds column {attack.odds!r}")
        r = reduce_odds(p.column, attack.odds, state.side)
        if isinstance(r, Rejection):
            return r
    return p


def attackable_hexes(board: Board, state: GameState, attackers: Sequence[str]) -> tuple[HexId, ...]:
    """The hexes ``attackers`` may attack together now, one hex per attack (for the UI: the
    targets to light up); multi-hex attacks are any subset whose union
    :func:`check_attack` accepts."""
    first = state.find(attackers[0]) if attackers else None
    if first is None or first.hex is None:
        return ()
    out = []
    for n in sorted(board.game_map.neighbours(first.hex)):
        p = check_attack(board, state, Attack(attackers=tuple(attackers), defenders=(n,)))
        if not isinstance(p, Rejection):
            out.append(n)
    return tuple(out)


def declare(board: Board, state: GameState, attack: Attack) -> tuple[GameState, Event] | Rejection:
    """Add ``attack`` to the batch (all checks at declaration)."""
    attack = Attack(
        attackers=tuple(sorted(attack.attackers)),
        defenders=tuple(sorted(attack.defenders)),
        odds=attack.odds,
        waive=tuple(sorted(attack.waive)),
    )
    p = check_attack(board, state, attack)
    if isinstance(p, Rejection):
        return p
    ev = AttackDeclared(
        attackers=attack.attackers,
        defenders=attack.defenders,
        odds=attack.odds,
        attack=p.attack,
        defence=p.defence,
        column=p.column,
    )
    return set_combat(state, declared=(*state.combat.declared, attack)), ev
