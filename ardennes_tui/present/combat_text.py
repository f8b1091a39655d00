"""Combat in words, for the play screen: odds modifiers, decision prompts, the combat log.

No Textual here: plain functions of the board, a state and the engine's events, so the texts
are tested without an app::

    odds_notes(board, state, ["de-15-pt"], ["3432"])   # ['att: GT1 x3 (AO-4.2d)']
    combat_log(events)   # ['de-15-pt + de-352-i (36) vs us-109-i (4) at 9-1 on the Initial
                         #   CRT: die 3 -> De; us-109-i eliminated (AO-10.1), German +1 VP']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rules import DieRoll
from rules.ao import (
    AdvanceDeclined,
    AttackCancelled,
    AttackDeclared,
    Board,
    CombatResolved,
    CrtSwitchRolled,
    Decision,
    Event,
    GameState,
    ImmunityWaived,
    Orders,
    ResultIgnored,
    RoadColumnContact,
    Side,
    UnitAdvanced,
    UnitEliminated,
    UnitRetreated,
    VictoryPointsScored,
    attack_factor,
    crt,
    defence_factor,
    defender_supply,
    immunity_case,
)
from rules.hexgrid import HexId

TABLE_NAMES: Final = {"initial": "Initial", "standard": "Standard"}
"""How the two CRTs are named (AO-10.3a)."""


def side_name(side: Side) -> str:
    return "German" if side == "german" else "Allied"


def orders_text(orders: Orders) -> str:
    """A side's standing orders in words: ``waive 2328 3119; retreat engine, losses ask,
    advance decline`` (``keep immunity`` when no hex is waived)."""
    waive = f"waive {' '.join(orders.waive)}" if orders.waive else "keep immunity"
    return f"{waive}; retreat {orders.retreat}, losses {orders.losses}, advance {orders.advance}"


def orders_lines(state: GameState) -> list[str]:
    """The standing orders in force, for the panel in combat: one line a side that has
    some (``Allied: keep immunity; ...``), or one line saying there are none."""
    lines = [
        f"{side_name(side)}: {orders_text(o)}"
        for side in ("german", "allied")
        if (o := state.combat.orders(side)) is not None
    ]
    return lines or ["none: every decision is asked"]


def _attack_factor_reason(board: Board, hex_id: HexId, side: Side, turn: int) -> str:
    f = attack_factor(board.game_map, hex_id, side, turn)
    if f == 1:
        return ""
    if turn == 1 and f == 3:
        return "GT1 x3 (AO-4.2d)"
    return f"West Wall x{f} (AO-11.h)"


def _defence_factor_reason(board: Board, hex_id: HexId, side: Side, turn: int) -> str:
    f = defence_factor(board.game_map, hex_id, side, turn)
    if f == 1:
        return ""
    fort = board.game_map.hex(hex_id).fortification
    terrain = {"westwall": "West Wall x3 (AO-11.h)", "fortified": "fortified x2 (AO-11.i)"}
    parts = ([terrain[fort]] if fort in terrain else []) + (
        ["GT1 x3 (AO-4.2e)"] if turn == 1 else []
    )
    text = " x ".join(parts)
    return f"{text} = x{f}" if len(parts) > 1 else text


def odds_notes(
    board: Board, state: GameState, attackers: Sequence[str], defenders: Sequence[HexId]
) -> list[str]:
    """What changes the printed strengths of an attack now (supply, Road Mode, terrain,
    Game-Turn 1, immunity), one short note per hex: ``att 3531: GT1 x3 (AO-4.2d)``."""
    grouped: dict[tuple[str, str], list[HexId]] = {}

    def note(who: str, h: HexId, words: list[str]) -> None:
        if words:
            grouped.setdefault((who, ", ".join(words)), []).append(h)

    by_hex: dict[HexId, list[str]] = {}
    for uid in attackers:
        h = state.unit(uid).hex
        if h is not None:
            by_hex.setdefault(h, []).append(uid)
    for h, uids in sorted(by_hex.items()):
        words: list[str] = []
        for uid in uids:
            u = state.unit(uid)
            if u.supply == "unsupplied":
                words.append(f"{uid} unsupplied /2")
            elif u.supply == "isolated":
                words.append(f"{uid} isolated = 0")
            if u.road_mode:
                words.append(f"{uid} road mode /2")
        side = board.defs[uids[0]].side
        reason = _attack_factor_reason(board, h, side, state.turn)
        if reason:
            words.append(reason)
        note("att", h, words)
    units = [u for h in defenders for u in state.at(h) if board.defs[u.id].side != state.side]
    if units:
        dside = board.defs[units[0].id].side
        supply = defender_supply(board, state, dside)
        retreated = set(state.combat.retreated)
        for h in sorted(defenders):
            words = []
            here = [u for u in units if u.hex == h]
            for u in here:
                if supply.get(u.id) == "isolated":
                    words.append(f"{u.id} isolated /2")
                if u.road_mode:
                    words.append(f"{u.id} road mode /2")
                if u.id in retreated:
                    words.append(f"{u.id} retreated here: 0 (AO-9.2F*)")
            reason = _defence_factor_reason(board, h, dside, state.turn)
            if reason:
                words.append(reason)
            immune = {immunity_case(board, state, u.id) for u in here} - {None}
            if immune:
                words.append("immune to Ar/Dr (" + ", ".join(sorted(str(c) for c in immune)) + ")")
            note("def", h, words)
    return [f"{who} {' '.join(hexes)}: {words}" for (who, words), hexes in grouped.items()]


def odds_note(attack: int, defence: int, column: str) -> str:
    """What odds off the table count as: ``worse than 1-2 counts as 1-2`` (``4 vs 27``),
    ``better than 9-1 counts as 9-1`` (``50 vs 5``); ``""`` for odds on the table."""
    lowest, highest = crt.ODDS_COLUMNS[0], crt.ODDS_COLUMNS[-1]
    if not defence:
        return ""
    if column == lowest and 2 * attack < defence:
        return f"worse than {lowest} counts as {lowest}"
    if column == highest and attack >= 10 * defence:
        return f"better than {highest} counts as {highest}"
    return ""


def _keys(n: int) -> str:
    return "key 1" if n == 1 else f"keys 1-{n}"


def decision_prompt(d: Decision, chosen: Sequence[str] = ()) -> str:
    """The status-line question for decision ``d`` (whose it is, and the keys that answer)."""
    who = side_name(d.side)
    if d.kind == "waive_immunity":
        hexes = ", ".join(c[0] for c in d.choices)
        return f"{who} decision: waive the Ar/Dr immunity in {hexes} ({d.case})? y waives, n keeps"
    if d.kind == "losses":
        got = ", ".join(chosen) or "none"
        return (
            f"{who}: choose Ex losses (need {d.need}): 1-9 toggle (panel), Enter confirms [{got}]"
        )
    if d.kind == "retreat":
        return (
            f"{who} (victor) picks the retreat of {d.unit}: {_keys(len(d.choices))} "
            "(paths lit, in panel)"
        )
    if d.kind == "advance":
        return f"{who}: advance into {d.hex}: {_keys(len(d.choices))} (panel), 0 stays"
    return f"{who} decision: {d.kind} ({d.case})"  # pragma: no cover - a new kind


def decision_lines(d: Decision, chosen: Sequence[str] = ()) -> list[str]:
    """The choices of ``d`` numbered for the side panel."""
    if d.kind == "waive_immunity":
        return [f"{i}) {c[0]}" for i, c in enumerate(d.choices, 1)]
    if d.kind == "losses":
        units = sorted({u for c in d.choices for u in c})
        out = [f"{i}) {'[x]' if u in chosen else '[ ]'} {u}" for i, u in enumerate(units, 1)]
        return [*out, "minimal sets: " + "; ".join("+".join(c) for c in d.choices)]
    if d.kind == "retreat":
        return [f"{i}) " + "-".join(c) for i, c in enumerate(d.choices, 1)]
    if d.kind == "advance":
        return [f"{i}) {c[0]}" for i, c in enumerate(d.choices, 1)] + ["0) stay"]
    return []  # pragma: no cover


def loss_units(d: Decision) -> list[str]:
    """The attackers a ``losses`` decision may name, in panel order (keys 1-9)."""
    return sorted({u for c in d.choices for u in c})


def _names(units: Iterable[str]) -> str:
    return " + ".join(units)


def combat_log(events: Iterable[Event]) -> list[str]:
    """One line per resolved (or cancelled) attack, with what followed: the die, the result,
    retreats, eliminations, advances and VP; declarations and the CRT switch roll too."""
    lines: list[str] = []
    die: int | None = None
    current: list[str] | None = None

    def add(text: str) -> None:
        nonlocal current
        if current is None:
            current = [text]  # the rest of an attack resolved by an earlier command
        else:
            current.append(text)

    def flush() -> None:
        nonlocal current
        if current is not None:
            lines.append("; ".join(current))
            current = None

    for e in events:
        if isinstance(e, DieRoll):
            die = e.value
        elif isinstance(e, AttackDeclared):
            flush()
            odds = f", at {e.odds}" if e.odds and e.odds != e.column else ""
            lines.append(
                f"Declared: {_names(e.attackers)} ({e.attack}) vs {', '.join(e.defenders)} "
                f"({e.defence}): {e.column}{odds}"
            )
        elif isinstance(e, CombatResolved):
            flush()
            current = [
                f"{_names(e.attackers)} ({e.attack}) vs {_names(e.defenders)} ({e.defence}) "
                f"at {e.column} on the {TABLE_NAMES.get(e.table, e.table)} CRT: "
                f"die {die if die is not None else '?'} -> {e.result}"
            ]
            die = None
        elif isinstance(e, AttackCancelled):
            flush()
            lines.append(
                f"Cancelled: {_names(e.attackers)} vs {', '.join(e.defenders)}: {e.reason}"
            )
        elif isinstance(e, ImmunityWaived):
            what = ", ".join(e.hexes) if e.hexes else "none"
            lines.append(f"{side_name(e.side)} waives immunity in: {what}")
        elif isinstance(e, ResultIgnored):
            add(f"{e.unit} ignores it in {e.hex} ({e.case})")
        elif isinstance(e, UnitRetreated):
            dormant = " (dormant on the map edge)" if e.dormant else ""
            add(f"{e.unit} retreats {len(e.path)}: {e.start}-{'-'.join(e.path)}{dormant}")
        elif isinstance(e, RoadColumnContact):
            add(f"{e.unit} stops by {e.other} in {e.hex} (AO-6.7N)")
        elif isinstance(e, UnitEliminated):
            add(f"{e.unit} eliminated ({e.case})")
        elif isinstance(e, VictoryPointsScored):
            add(f"{side_name(e.side)} +{e.points} VP")
        elif isinstance(e, UnitAdvanced):
            add(f"{e.unit} advances {e.start}-{e.end}")
        elif isinstance(e, AdvanceDeclined):
            add(f"no advance into {e.hex}")
        elif isinstance(e, CrtSwitchRolled):
            flush()
            lines.append(
                f"GT{e.turn} CRT roll: die {e.die} -> German uses the "
                f"{TABLE_NAMES.get(e.crt, e.crt)} CRT (AO-10.3a)"
            )
    flush()
    return lines
