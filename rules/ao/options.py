"""What may be done now: one answer for the app, the bots and the command line.

:func:`options` reads a state once and says who must act and with what: the phase's *mode*
(the kind of input it waits for), the pending combat decision with its choices, the units that
may move, the units that may still attack and the hexes they can attack, the reinforcements due
with their open entry hexes, the paratroop drop, and whether ``EndPhase`` is accepted (or the
rule that refuses it). Everything here is what :func:`rules.ao.engine.apply` would accept: each
field is computed by the engine's own checks.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.ao import combat, decisions, paradrop, sequence, setup_rules
from rules.ao.commands import DeclareAttack
from rules.ao.engine import pending_reinforcements
from rules.ao.movement import may_move
from rules.ao.state import Attack, Board, Decision, GameState, Phase, RollDue, Verdict
from rules.ao.units import Side
from rules.hexgrid import HexId
from rules.rejection import Rejection

Mode = Literal[
    "setup",
    "reinforcement",
    "supply",
    "drop",
    "roll",
    "movement",
    "combat",
    "decision",
    "game_over",
]
"""The kind of input a state waits for: a set-up step (AO-4.2a, AO-17), placing reinforcements
(AO-14), the Supply Judgment Phase (nothing to choose, AO-12.0), the paratroop drop (AO-15.a),
a die the German must roll (``Roll``: the CRT switch, AO-10.3a, or the drop's survival,
AO-15.b), a movement phase, combat orders, a pending combat decision, or nothing (the game is
over)."""

SetupKind = Literal["historical", "free"]


class Due(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A reinforcement that may enter now and the entry hexes open to it (AO-14.1A/b)."""

    unit: str
    hexes: tuple[HexId, ...]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What may be done in one state (``hash`` is that state's hash).

    ``acting`` is the side that must give the next command: the side of a pending decision,
    else the phasing side (None once the game is over). ``end_phase`` is the refusal an
    ``EndPhase`` would get now (None: it is accepted). ``roll`` is the die due (mode
    ``roll``).
    ``targets`` are the enemy hexes that ``attackers`` adjacent to them may attack now (alone
    or all together); multi-hex attacks are any set of them that
    :func:`rules.ao.combat.check_attack` accepts.
    """

    hash: str
    turn: int
    side: Side
    phase: Phase
    mode: Mode
    acting: Side | None
    decision: Decision | None = None
    setup: SetupKind | None = None
    placeable: tuple[str, ...] = ()
    reinforcements: tuple[Due, ...] = ()
    roll: RollDue | None = None
    drop_unit: str | None = None
    drop_hexes: tuple[HexId, ...] = ()
    movable: tuple[str, ...] = ()
    attackers: tuple[str, ...] = ()
    targets: tuple[HexId, ...] = ()
    declared: tuple[DeclareAttack, ...] = ()
    """The attacks declared so far in this Combat Phase (the batch), in order."""
    must_be_attacked: tuple[str, ...] = ()
    """Game-Turn 1, German Combat Phase: American units still to be attacked (AO-4.2h*)."""
    must_attack: tuple[str, ...] = ()
    """Game-Turn 1, German Combat Phase: German units that still have to attack (AO-4.2h*)."""
    end_phase: Rejection | None = None
    verdict: Verdict | None = None

    @property
    def pending(self) -> decisions.PendingDecision | None:
        """The pending decision typed by kind, with the command that answers it
        (:mod:`rules.ao.decisions`)."""
        return decisions.typed(self.decision) if self.decision is not None else None

    @property
    def may_end_phase(self) -> bool:
        """``EndPhase`` is accepted now."""
        return self.end_phase is None


def acting_side(state: GameState) -> Side | None:
    """Who must give the next command: the side of a pending decision, else the phasing side;
    None once the game is over."""
    if state.phase == "game_over":
        return None
    d = state.combat.pending
    return d.side if d is not None else state.side


def mode_of(board: Board, state: GameState) -> Mode:
    """The kind of input ``state`` waits for (see :data:`Mode`)."""
    if state.phase == "game_over":
        return "game_over"
    if state.combat.pending is not None:
        return "decision"
    if state.roll is not None:
        return "roll"
    if state.phase in ("setup_allied", "setup_german"):
        return "setup"
    if state.phase == "reinforcement":
        return "reinforcement"
    if state.phase == "supply_judgment":
        return "supply"
    if state.phase == "combat":
        return "combat"
    if paradrop.drop_required(board, state):
        return "drop"
    return "movement"


def options(board: Board, state: GameState, state_hash: str) -> Options:
    """What may be done in ``state`` (``state_hash`` is its hash, carried in the answer)."""
    mode = mode_of(board, state)
    base = Options(
        hash=state_hash,
        turn=state.turn,
        side=state.side,
        phase=state.phase,
        mode=mode,
        acting=acting_side(state),
        end_phase=_end_refusal(board, state),
        verdict=state.result,
    )
    if mode == "decision":
        return msgspec.structs.replace(base, decision=state.combat.pending, end_phase=_busy())
    if mode == "setup":
        kind = setup_rules.setup_kind(board, state, state.side)
        free = kind == "free"
        return msgspec.structs.replace(
            base,
            setup="free" if free else "historical" if kind is not None else None,
            placeable=_own_in_play(board, state) if free else (),
        )
    if mode == "reinforcement":
        due = tuple(Due(unit=u, hexes=h) for u, h in pending_reinforcements(board, state))
        return msgspec.structs.replace(base, reinforcements=due)
    if mode == "roll":
        return msgspec.structs.replace(base, roll=state.roll)
    if mode == "drop":
        return msgspec.structs.replace(
            base,
            drop_unit=paradrop.drop_unit(board),
            drop_hexes=paradrop.drop_hexes(board, state),
        )
    if mode == "movement":
        movable = tuple(u for u in _own_in_play(board, state) if may_move(board, state, u) is None)
        return msgspec.structs.replace(base, movable=movable)
    if mode == "combat":
        attackers, targets = _attack_options(board, state)
        obliged_us: tuple[str, ...] = ()
        obliged_de: tuple[str, ...] = ()
        if state.turn == 1 and state.side == "german":
            us, de = combat.gt1_unmet(board, state)
            obliged_us, obliged_de = tuple(us), tuple(de)
        return msgspec.structs.replace(
            base,
            attackers=attackers,
            targets=targets,
            declared=tuple(
                DeclareAttack(a.attackers, a.defenders, a.odds, a.waive)
                for a in state.combat.declared
            ),
            must_be_attacked=obliged_us,
            must_attack=obliged_de,
        )
    return base


def _busy() -> Rejection:
    return Rejection(combat.PENDING, "a combat decision is pending: answer it first")


def _end_refusal(board: Board, state: GameState) -> Rejection | None:
    if state.combat.pending is not None:
        return _busy()
    return sequence.end_phase_check(board, state)


def _own_in_play(board: Board, state: GameState) -> tuple[str, ...]:
    return tuple(u.id for u in state.units if u.in_play and board.defs[u.id].side == state.side)


def _attack_options(board: Board, state: GameState) -> tuple[tuple[str, ...], tuple[HexId, ...]]:
    """Units of the phasing side that may still attack, and the enemy hexes they can attack:
    each enemy hex next to one of them is checked with all of them that are adjacent, then
    with each alone (:func:`rules.ao.combat.check_attack`, every rule of the declaration)."""
    m = board.game_map
    busy = {u for a in state.combat.declared for u in a.attackers}
    enemy_hexes: dict[HexId, list[str]] = {}
    for u in state.units:
        if not u.in_play or u.hex is None or u.attacked or u.id in busy:
            continue
        if board.defs[u.id].side != state.side:
            continue
        for n in m.neighbours(u.hex):
            if any(board.defs[e.id].side != state.side for e in state.at(n)):
                enemy_hexes.setdefault(n, []).append(u.id)
    attackers: set[str] = set()
    targets: list[HexId] = []
    for h in sorted(enemy_hexes):
        near = sorted(enemy_hexes[h])
        tries = [tuple(near)] + ([(u,) for u in near] if len(near) > 1 else [])
        ok = False
        for group in tries:
            r = combat.check_attack(board, state, Attack(attackers=group, defenders=(h,)))
            if not isinstance(r, Rejection):
                attackers.update(group)
                ok = True
                if len(group) == len(near):
                    break
        if ok:
            targets.append(h)
    return tuple(sorted(attackers)), tuple(targets)
