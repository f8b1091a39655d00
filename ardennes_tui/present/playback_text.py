"""A game played back step by step, in words and lit hexes; no Textual.

Step ``k`` of a :class:`rules.ao.Game` (``1 <= k <= len(game.history)``) is its command
``game.history[k - 1]``: the state before it is ``game.state_at(k - 1)``, after it
``game.state_at(k)`` (whose hash is ``game.history[k - 1].hash``). Step 0 is the start. These
functions say what a step did and which hexes it touched, from the engine's command and events
only (:mod:`ardennes_tui.present.combat_text`, :func:`ardennes_tui.present.effects.effect_notes`)::

    step_lines(game, 7)   # ['German: resolve the declared attacks', 'de-15-pt + de-352-i (36)
                          #   vs us-109-i (5) at 7-1 on the Initial CRT: die 5 -> Dr3', ...]
    step_hexes(game, 7)   # frozenset({'3432', '3531', ...}): attackers, defenders, retreats
    units_at(game, 7)     # hex -> stack after step 7 (the map of the playback)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import rules.ao
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import TABLE_NAMES, combat_log, side_name
from ardennes_tui.present.effects import effect_notes
from ardennes_tui.present.render import UnitsByHex
from rules.hexgrid import HexId

__all__ = [
    "Names",
    "focus_hex",
    "headline",
    "position_line",
    "step_hexes",
    "step_lines",
    "turn_starts",
    "units_at",
]

ROLL_NAMES: Final = {"paradrop": "the paradrop die (AO-15.b)", "crt_switch": "the CRT switch die"}


def units_at(game: rules.ao.Game, k: int) -> UnitsByHex:
    """The counters on the map after step ``k`` (dormant ones too): hex -> stack by unit id."""
    out: dict[HexId, list[rules.ao.UnitDef]] = {}
    for u in game.state_at(k).units:
        if u.hex is not None and u.status in ("on_map", "dormant"):
            out.setdefault(u.hex, []).append(game.board.defs[u.id])
    return {h: sorted(stack, key=lambda d: d.id) for h, stack in out.items()}


def position_line(game: rules.ao.Game, k: int) -> str:
    """Where the game stands after step ``k``, as the play screen's position line (ASCII):
    ``GT1 16 Dec | German | Combat | VP German 0, Allied 0``."""
    s = game.state_at(k)
    return (
        f"GT{s.turn} {game_view.turn_date(s.turn)} | {s.side.capitalize()} | "
        f"{game_view.PHASE_NAMES[s.phase]} | VP German {s.vp.german}, Allied {s.vp.allied}"
    )


def turn_starts(game: rules.ao.Game) -> list[int]:
    """The steps after which a new phase began (a ``PhaseBegan`` event): where ``[`` and
    ``]`` jump."""
    return [
        k
        for k, step in enumerate(game.history, start=1)
        if any(isinstance(e, rules.ao.PhaseBegan) for e in step.events)
    ]


def _hex_of(state: rules.ao.GameState, unit: str) -> HexId | None:
    try:
        return state.unit(unit).hex
    except (KeyError, ValueError):  # pragma: no cover - a unit of the board is always there
        return None


def step_hexes(game: rules.ao.Game, k: int) -> frozenset[HexId]:
    """The hexes step ``k`` touched: a move's path, placements, the attackers' and defenders'
    hexes of a declared or resolved attack, retreat paths, advances, eliminations, the drop
    hex, a pending decision's hex. Empty for step 0 and for steps that touch no hex."""
    if k <= 0:
        return frozenset()
    step = game.history[k - 1]
    before = game.state_at(k - 1)
    out: set[HexId] = set()
    cmd = step.command
    if isinstance(cmd, rules.ao.DeclareAttack):
        out.update(cmd.defenders)
        out.update(h for u in cmd.attackers if (h := _hex_of(before, u)) is not None)
    elif isinstance(cmd, rules.ao.Drop | rules.ao.Place):
        out.add(cmd.hex)
    for e in step.events:
        if isinstance(e, rules.ao.UnitMoved):
            out.update((e.start, *e.path, e.end))
        elif isinstance(e, rules.ao.UnitRetreated):
            out.update((e.start, *e.path))
        elif isinstance(e, rules.ao.UnitAdvanced):
            out.update((e.start, e.end))
        elif isinstance(e, rules.ao.CombatResolved):
            units = (*e.attackers, *e.defenders)
            out.update(h for u in units if (h := _hex_of(before, u)) is not None)
        elif isinstance(e, rules.ao.AttackDeclared):
            out.update(e.defenders)
            out.update(h for u in e.attackers if (h := _hex_of(before, u)) is not None)
        elif isinstance(
            e,
            rules.ao.UnitPlaced
            | rules.ao.RoadModeChanged
            | rules.ao.DormantReactivated
            | rules.ao.ReinforcementWithdrawn
            | rules.ao.RoadColumnContact
            | rules.ao.ResultIgnored,
        ):
            out.add(e.hex)
        elif isinstance(
            e, rules.ao.UnitEliminated | rules.ao.DecisionPending | rules.ao.AdvanceDeclined
        ):
            if e.hex is not None:
                out.add(e.hex)
        elif isinstance(e, rules.ao.RollRequired) and e.hex is not None:
            out.add(e.hex)
    return frozenset(h for h in out if h in game.board.game_map)


def focus_hex(game: rules.ao.Game, k: int) -> HexId | None:
    """The hex the map should show for step ``k``: where a moved or placed unit ended, the
    hex attacked, the first other hex it touched; for the end of a phase only a unit it took
    off the map (withdrawn, eliminated); None when there is nothing to show."""
    if k <= 0:
        return None
    step = game.history[k - 1]
    for e in step.events:
        if isinstance(e, rules.ao.CombatResolved) and e.defenders:
            h = _hex_of(game.state_at(k - 1), e.defenders[0])
            if h is not None:
                return h
    for e in step.events:
        if isinstance(e, rules.ao.UnitMoved | rules.ao.UnitAdvanced):
            return e.end
        if isinstance(e, rules.ao.UnitPlaced):
            return e.hex
        if isinstance(e, rules.ao.UnitRetreated):
            return e.path[-1] if e.path else e.start
    cmd = step.command
    if isinstance(cmd, rules.ao.DeclareAttack) and cmd.defenders:
        return cmd.defenders[0]
    if isinstance(cmd, rules.ao.EndPhase):
        # the end of a phase acts far away (dormant units reactivated on the map's edge):
        # the cursor goes only to what it took from the player, else stays
        for e in step.events:
            if isinstance(e, rules.ao.ReinforcementWithdrawn | rules.ao.UnitEliminated) and e.hex:
                return e.hex
        return None
    hexes = sorted(step_hexes(game, k))
    return hexes[0] if hexes else None


def _path(hexes: Sequence[str]) -> str:
    return "-".join(h for h in hexes if h[:1].isdigit())


def _order(cmd: rules.ao.Command, who: str, events: Sequence[rules.ao.Event]) -> str:
    """The command in words (the events add what followed)."""
    if isinstance(cmd, rules.ao.Move):
        moved = next((e for e in events if isinstance(e, rules.ao.UnitMoved)), None)
        road = [e for e in events if isinstance(e, rules.ao.RoadModeChanged)]
        mode = "; ".join(
            f"{'enters' if e.road_mode else 'leaves'} Road Mode in {e.hex}" for e in road
        )
        if moved is None:
            return f"{who}: {cmd.unit} {mode or 'stays'}"
        how = f", {mode}" if mode else ""
        return f"{who}: {cmd.unit} moves {moved.start}-{_path(moved.path)} ({moved.cost} MP{how})"
    if isinstance(cmd, rules.ao.Place):
        placed = next((e for e in events if isinstance(e, rules.ao.UnitPlaced)), None)
        if placed is not None and placed.case is not None:
            return f"{who}: {cmd.unit} enters at {cmd.hex}"
        return f"{who}: {cmd.unit} placed in {cmd.hex}"
    if isinstance(cmd, rules.ao.Drop):
        return f"{who}: the paradrop aims at {cmd.hex} (AO-15.a)"
    if isinstance(cmd, rules.ao.Roll):
        rolled = next((e for e in events if isinstance(e, rules.DieRoll)), None)
        what = ROLL_NAMES.get(rolled.purpose, rolled.purpose) if rolled else "the die"
        return f"{who}: rolls {what}"
    if isinstance(cmd, rules.ao.EndPhase):
        return f"{who}: ends the phase"
    if isinstance(cmd, rules.ao.DeclareAttack):
        odds = f" at {cmd.odds} (asked)" if cmd.odds else ""
        waive = f", waiving immunity in {' '.join(cmd.waive)}" if cmd.waive else ""
        return f"{who}: declares an attack on {' '.join(cmd.defenders)}{odds}{waive}"
    if isinstance(cmd, rules.ao.ResolveAttacks):
        return f"{who}: resolves the declared attacks"
    if isinstance(cmd, rules.ao.ChooseRetreat):
        return f"{who} decides: {cmd.unit} retreats by {_path(cmd.path)}"
    if isinstance(cmd, rules.ao.Advance):
        if cmd.unit is None:
            return f"{who} decides: no advance into {cmd.hex}"
        return f"{who} decides: {cmd.unit} advances into {cmd.hex}"
    if isinstance(cmd, rules.ao.ChooseLosses):
        return f"{who} decides: Ex losses {' + '.join(cmd.units) or 'none'}"
    if isinstance(cmd, rules.ao.WaiveImmunity):
        if cmd.hexes:
            return f"{who} decides: waives the Ar/Dr immunity in {' '.join(cmd.hexes)}"
        return f"{who} decides: keeps the Ar/Dr immunity"
    if isinstance(cmd, rules.ao.StandingOrders):
        side = side_name(cmd.side)
        if cmd.clear:
            return f"{who}: clears the {side} standing orders (every decision is asked)"
        waive = f"waive {' '.join(cmd.waive)}" if cmd.waive else "keep immunity"
        return (
            f"{who}: {side} standing orders: {waive}; retreat {cmd.retreat}, losses "
            f"{cmd.losses}, advance {cmd.advance}"
        )
    return f"{who}: {type(cmd).__name__}"  # pragma: no cover - a new command


def _die_lines(events: Sequence[rules.ao.Event]) -> list[str]:
    """Each die of the step with the CRT cell it read: ``die 5: Initial CRT, column 7-1 ->
    Dr3``; the CRT switch and the paradrop with their effect."""
    out: list[str] = []
    for i, e in enumerate(events):
        if not isinstance(e, rules.DieRoll):
            continue
        after = events[i + 1] if i + 1 < len(events) else None
        if isinstance(after, rules.ao.CombatResolved):
            table = TABLE_NAMES.get(after.table, after.table)
            out.append(
                f"Die {e.value}: {table} CRT, column {after.column}, row {e.value} -> "
                f"{after.result}"
            )
        elif isinstance(after, rules.ao.CrtSwitchRolled):
            table = TABLE_NAMES.get(after.crt, after.crt)
            out.append(f"Die {e.value}: CRT switch (AO-10.3a) -> the {table} CRT")
        elif isinstance(after, rules.ao.UnitPlaced):
            out.append(f"Die {e.value}: paradrop -> {after.unit} lands in {after.hex}")
        elif isinstance(after, rules.ao.UnitEliminated):
            out.append(f"Die {e.value}: paradrop -> {after.unit} eliminated ({after.case})")
        else:
            out.append(f"Die {e.value}: {e.purpose}")
    return out


Names = dict[rules.ao.Side, str]
"""Who gives the orders of each side, as the texts name them (default: ``German``,
``Allied``; against the computer ``The computer (German)``)."""


def _who(side: rules.ao.Side | None, names: Names | None) -> str:
    if side is None:
        return "Nobody"
    return (names or {}).get(side) or side_name(side)


def _other_lines(
    events: Sequence[rules.ao.Event], said: str, names: Names | None = None
) -> list[str]:
    """What else the step's events say: phases begun, pending decisions, the end of the game,
    and every effect the rules applied by themselves (:func:`effect_notes`: arrivals, a
    reinforcement withdrawn or delayed, a phase lost, supply lost, a unit reactivated or forced
    out of Road Mode, the bridges interdicted, the VP) not already in ``said``."""
    out: list[str] = []
    for e in events:
        if isinstance(e, rules.ao.PhaseBegan):
            phase = game_view.PHASE_NAMES[e.phase]
            out.append(f"GT{e.turn} {side_name(e.side)} {phase} Phase begins.")
        elif isinstance(e, rules.ao.DecisionPending):
            where = " ".join(x for x in (e.unit, e.hex) if x)
            out.append(f"{_who(e.side, names)} to decide: {e.kind.replace('_', ' ')} {where}.")
        elif isinstance(e, rules.ao.GameEnded) and e.verdict is not None:
            v = e.verdict
            head = f"{side_name(v.winner)} victory" if v.winner else "A draw"
            out.append(f"{head} ({v.kind}), VP {v.german_vp}-{v.allied_vp}: {v.reason}")
    for note in effect_notes(events):
        if note.rstrip(".") not in said and "die" not in note.lower():
            out.append(note)
    return out


def step_lines(game: rules.ao.Game, k: int, names: Names | None = None) -> list[str]:
    """What step ``k`` did, in words: who gave which order (a decision says so; ``names``:
    who plays each side), every die with the CRT table, column and row it read and the
    result, each combat with its retreats, eliminations, advances and VP, then the phases
    begun and other news."""
    if k <= 0:
        s = game.start
        return [f"The start of scenario {s.scenario}: {len(game.history)} steps follow."]
    step = game.history[k - 1]
    before = game.state_at(k - 1)
    who = _who(rules.ao.acting_side(before), names)
    events = list(step.events)
    lines = [_order(step.command, who, events)]
    lines += _die_lines(events)
    fights = [
        line
        for line in combat_log(events)
        if not line.startswith("Declared") or isinstance(step.command, rules.ao.DeclareAttack)
    ]
    lines += [line for line in fights if "CRT roll" not in line]
    lines += _other_lines(events, " ".join(lines), names)
    return lines


def headline(game: rules.ao.Game, k: int, names: Names | None = None) -> str:
    """One line for step ``k``: its first combat result with the die (``German: de-15-pt +
    de-352-i (36) vs us-109-i (5) at 7-1 on the Initial CRT: die 6 -> Dr3``), else what the
    order did (the first line of :func:`step_lines`)."""
    lines = step_lines(game, k, names)
    fight = next((line for line in lines[1:] if " CRT: die " in line), None)
    if fight is None:
        return lines[0]
    who = lines[0].split(":", 1)[0]
    return f"{who}: {fight}"
