"""What the rules did for a player, in words: every effect the engine applies by itself, and the
game's log with Game-Turn headers; no Textual.

An order's own result is said by the mode that gave it (a move, a declaration, a combat); the
engine also acts by itself on the way: a reinforcement that never left the entry hex it shares
goes back off the map (AO-6.5G), one due on a blocked section is delayed (AO-14.1b), a unit
forced out of Road Mode or eliminated for it (AO-6.7L*), a dormant unit reactivated (AO-5.3M),
units out of supply (AO-12.3), the bridges interdicted (AO-13), the CRT switch (AO-10.3a), the
paradrop's die (AO-15.b), a phase lost (AO-4.2c), the VP tabulation (AO-16.E), the end of the
game. :func:`effect_notes` says each of them in one sentence (the play screen's notice line,
the playback, the computer's turn); :func:`event_log` is the whole game's combats and effects,
under a header for each player-turn (``c``)::

    effect_notes(applied.events)   # ['de-2-a goes back off the map from 4215: it never left
                                   #   the entry hex it shared (AO-6.5G); due again next
                                   #   Reinforcement Phase.']
    event_log(game)                # ['== GT1 16 Dec: German player-turn ==', 'de-1-a enters
                                   #   at 4237 in Road Mode.', 'de-15-pt + ... -> Dr3; ...']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import rules.ao
from ardennes_tui.present.combat_text import TABLE_NAMES, combat_log, side_name
from ardennes_tui.present.game_view import PHASE_NAMES, turn_date

__all__ = ["effect_notes", "event_log", "log_of", "player_turn_header"]

_SUPPLY_WORDS: Final = {"unsupplied": "out of supply", "isolated": "isolated"}


def player_turn_header(turn: int, side: rules.ao.Side) -> str:
    """``== GT2 17 Dec: German player-turn ==``: a header of the log."""
    return f"== GT{turn} {turn_date(turn)}: {side_name(side)} player-turn =="


def _units(units: Sequence[str]) -> str:
    return ", ".join(units)


BRIEF_BRIDGES: Final = 4
"""A notice names this many interdicted bridges at most (the log names them all)."""


def _effect(e: rules.ao.Event, brief: bool = True) -> str | None:
    """One effect in one sentence, or None for an event that is no effect of its own (a move,
    a combat: their orders say them); ``brief``: a long list of bridges is counted only."""
    if isinstance(e, rules.ao.ReinforcementWithdrawn):
        return (
            f"{e.unit} goes back off the map from {e.hex}: it never left the entry hex it "
            f"shared ({e.case}); due again next Reinforcement Phase."
        )
    if isinstance(e, rules.ao.ReinforcementDelayed):
        return (
            f"{e.unit} delayed to GT{e.turn}: every entry hex of the {e.section} section is "
            "held by the enemy (AO-14.1b)."
        )
    if isinstance(e, rules.ao.PhaseSkipped):
        return f"{PHASE_NAMES[e.phase]} Phase lost ({e.case})."
    if isinstance(e, rules.ao.UnitPlaced) and e.case == "AO-15.b":
        return f"{e.unit} lands in {e.hex} (AO-15.b)."
    if isinstance(e, rules.ao.UnitPlaced) and e.case is not None:
        staging = f", staging -{e.staging} road hexes (AO-14.2B)" if e.staging else ""
        return f"{e.unit} enters at {e.hex} in Road Mode{staging}."
    if isinstance(e, rules.ao.RoadModeChanged) and e.forced:
        return f"{e.unit} forced out of Road Mode in {e.hex} ({e.cost} MP, AO-6.7L*)."
    if isinstance(e, rules.ao.UnitEliminated) and e.case == "AO-6.7L*":
        where = f" in {e.hex}" if e.hex else ""
        return (
            f"{e.unit} eliminated{where}: it could not leave Road Mode, out of supply or short "
            "of MP (AO-6.7L*)."
        )
    if isinstance(e, rules.ao.UnitEliminated) and e.case == "AO-15.b":
        return f"{e.unit} lost in the drop (AO-15.b)."
    if isinstance(e, rules.ao.DormantReactivated):
        return f"{e.unit} reactivated in {e.hex} (AO-5.3M)."
    if isinstance(e, rules.ao.InterdictionSet):
        who = side_name(e.side)
        if not e.bridges:
            return f"No bridge interdicted for the {who} now ({e.case})."
        n = len(e.bridges)
        bridges = " ".join("/".join(b) for b in e.bridges)
        many = f"{n} bridge{'s' if n != 1 else ''} interdicted for the {who}"
        if brief and n > BRIEF_BRIDGES:
            return f"{many} ({e.case}; c: the log lists them)."
        return f"{many}: {bridges} ({e.case})."
    if isinstance(e, rules.ao.CrtSwitchRolled):
        table = TABLE_NAMES.get(e.crt, e.crt)
        return f"GT{e.turn} CRT roll: die {e.die}, the German uses the {table} CRT (AO-10.3a)."
    if isinstance(e, rules.DieRoll) and e.purpose == "paradrop":
        return f"Drop die {e.value}."
    if isinstance(e, rules.ao.VictoryPointsTabulated):
        return f"GT{e.turn} VP: German {e.german}, Allied {e.allied}."
    if isinstance(e, rules.ao.GameEnded):
        return "The game is over."
    return None


def _supply(events: Iterable[rules.ao.Event]) -> list[str]:
    """Units that lost their supply, one sentence per kind: ``Out of supply (AO-12.3G):
    us-1, us-2.``."""
    lost: dict[tuple[str, str], list[str]] = {}
    for e in events:
        if isinstance(e, rules.ao.SupplyChanged) and e.supply in _SUPPLY_WORDS:
            lost.setdefault((e.supply, e.case), []).append(e.unit)
    return [
        f"{_SUPPLY_WORDS[supply].capitalize()} ({case}): {_units(units)}."
        for (supply, case), units in lost.items()
    ]


def effect_notes(events: Iterable[rules.ao.Event]) -> list[str]:
    """Every effect the rules applied by themselves among ``events``, one sentence each (supply
    grouped), in order; a combat's own results are not here (:func:`combat_log`)."""
    events = list(events)
    out = [note for e in events if (note := _effect(e)) is not None]
    return out + _supply(events)


def event_log(game: rules.ao.Game, more: Sequence[Sequence[rules.ao.Event]] = ()) -> list[str]:
    """The game's log: for each player-turn with something to say, its header
    (:func:`player_turn_header`), then its combats (:func:`combat_log`: declarations, results,
    retreats, eliminations, advances, VP) and the effects of the rules
    (:func:`effect_notes`), in the order they happened; ``more``: the events of commands
    played after the game's (by email, the packet being written)."""
    return log_of([*game.events, *more], game.start)


def log_of(steps: Sequence[Sequence[rules.ao.Event]], start: rules.ao.GameState) -> list[str]:
    """:func:`event_log` of the commands whose events are ``steps``, played from ``start``."""
    out: list[str] = []
    segment: list[str] = []
    combat: list[rules.ao.Event] = []
    header = player_turn_header(start.turn, start.side)

    def flush_combat() -> None:
        segment.extend(line for line in combat_log(combat) if "CRT roll" not in line)
        combat.clear()

    def flush() -> None:
        flush_combat()
        if segment:
            out.append(header)
            out.extend(segment)
            segment.clear()

    for events in steps:
        for e in events:
            if isinstance(e, rules.ao.PhaseBegan):
                new = player_turn_header(e.turn, e.side)
                if new != header:
                    flush()
                    header = new
                else:
                    flush_combat()
                continue
            note = _effect(e, brief=False)
            if note is not None and not (
                isinstance(e, rules.ao.UnitEliminated) and e.case not in ("AO-6.7L*", "AO-15.b")
            ):
                flush_combat()
                segment.append(note)
            elif not isinstance(e, rules.ao.SupplyChanged):
                combat.append(e)
        flush_combat()
        segment.extend(_supply(events))
    flush()
    return out
