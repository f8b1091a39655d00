"""``rules.ao.Game``: push/pop/undo, options agreeing with ``apply``, outcome, state hashes."""

from __future__ import annotations

import msgspec
import pytest

import rules.ao
import scenarios
from tests.kit.realmap import needs_real_map
from tests.kit.selfplay import bot_game, seeded_game

pytestmark = needs_real_map


def step(g: rules.ao.Game) -> rules.ao.Command:
    """Push what moves the game on without a choice of play: the first due reinforcement on
    its first open entry hex (they must all be placed, AO-4.1b), else ``EndPhase``; the
    command pushed."""
    due = g.options().reinforcements
    cmd: rules.ao.Command = (
        rules.ao.Place(due[0].unit, due[0].hexes[0]) if due else rules.ao.EndPhase()
    )
    r = g.push(cmd)
    assert not isinstance(r, rules.Rejection), r
    return cmd


def _hex(s: rules.ao.GameState, uid: str) -> str:
    """The hex of ``uid``, which must be on the map."""
    h = s.unit(uid).hex
    assert h is not None, uid
    return h


def test_push_rejection_changes_nothing() -> None:
    g = seeded_game()
    h = g.state_hash()
    r = g.push(rules.ao.Move("de-12ss-a", ("3908", "3909")))
    assert isinstance(r, rules.Rejection)
    assert g.history == [] and g.state_hash() == h


def test_state_hash_after_each_push_is_recorded() -> None:
    g = seeded_game()
    for _ in range(5):  # the set-ups, de-1-a placed, the German Reinforcement Phase ended
        step(g)
        assert g.history[-1].hash == rules.ao.state_hash(g.state) == g.state_hash()
    assert len(g.commands) == 5
    assert g.state_at(0) == g.start


def test_end_phase_is_never_undone() -> None:
    g = seeded_game()
    g.push(rules.ao.EndPhase())
    assert not g.can_undo()
    assert g.undo_refusal() == "Nothing to undo in this phase"
    assert g.pop() is None
    assert g.state.phase == "setup_german"


def test_pop_undoes_a_move_inside_its_phase() -> None:
    g = bot_game(1, 2)
    g = rules.ao.Game.from_commands(g.board, g.commands, dice=g.dice, dice_spec=g.dice_spec)
    while g.options().mode != "movement" or not g.options().movable:
        step(g)
    before = g.state_hash()
    unit, dest, how = next(
        (u, h, r)
        for u in g.options().movable
        for h, r in sorted(g.legal_moves(u).items())
        if h != g.state.unit(u).hex
    )
    move = rules.ao.Move(unit, how.path)
    assert not isinstance(g.push(move), rules.Rejection)
    assert g.state.unit(unit).hex == dest
    assert g.can_undo()
    assert g.pop() == move
    assert g.state_hash() == before


def test_pop_never_undoes_a_die_roll() -> None:
    g = seeded_game(1)
    for _ in range(5):  # set-ups, de-1-a, German reinforcement, supply: to the GT1 combat
        step(g)
    o = g.options()
    assert o.mode == "combat"
    target = o.targets[0]
    near = [u for u in o.attackers if target in g.board.game_map.neighbours(_hex(g.state, u))]
    r = g.push(rules.ao.DeclareAttack(tuple(near), (target,)))
    assert not isinstance(r, rules.Rejection), r
    assert g.can_undo()  # a declaration rolls nothing
    r = g.push(rules.ao.ResolveAttacks())
    assert not isinstance(r, rules.Rejection), r
    assert any(isinstance(e, rules.DieRoll) for e in r.events)
    assert g.undo_refusal() == "The dice have rolled: that cannot be undone"
    assert g.pop() is None


def test_options_new_game() -> None:
    o = seeded_game(1).options()
    assert (o.mode, o.acting, o.side, o.phase, o.turn) == (
        "setup",
        "allied",
        "allied",
        "setup_allied",
        1,
    )
    assert o.setup == "historical" and o.placeable == () and o.may_end_phase


def test_options_free_setup_lists_the_deploying_units() -> None:
    free = next(n for n, s in scenarios.scenario_specs().items() if s.allied_setup == "free")
    g = seeded_game(free)
    o = g.options()
    assert o.setup == "free"
    own = {u.id for u in g.state.units if u.in_play and g.board.defs[u.id].side == "allied"}
    assert set(o.placeable) == own


def _agree(g: rules.ao.Game) -> None:
    """Every option offered is accepted by ``apply``, and ``end_phase`` is its verdict."""
    b, s, o = g.board, g.state, g.options()
    r = rules.ao.apply(b, s, rules.ao.EndPhase(), g.dice)
    assert isinstance(r, rules.Rejection) == (o.end_phase is not None), (o.phase, o.end_phase, r)
    if o.end_phase is not None:
        assert isinstance(r, rules.Rejection) and r.case == o.end_phase.case
    for due in o.reinforcements:
        for h in due.hexes:
            assert not isinstance(
                rules.ao.apply(b, s, rules.ao.Place(due.unit, h)), rules.Rejection
            )
    for h in o.drop_hexes:
        assert not isinstance(rules.ao.apply(b, s, rules.ao.Drop(h), g.dice), rules.Rejection)
    for u in {x.id for x in s.units}:
        assert (u in o.movable) == (o.mode == "movement" and rules.ao.may_move(b, s, u) is None)
    m = b.game_map
    for h in o.targets:
        near = tuple(u for u in o.attackers if h in m.neighbours(_hex(s, u)))
        alone = [rules.ao.check_attack(b, s, rules.ao.DeclareAttack((u,), (h,))) for u in near]
        together = rules.ao.check_attack(b, s, rules.ao.DeclareAttack(near, (h,)))
        assert not isinstance(together, rules.Rejection) or any(
            not isinstance(x, rules.Rejection) for x in alone
        )
    if o.decision is not None:
        assert o.mode == "decision" and o.acting == o.decision.side


@pytest.mark.parametrize("scenario", [1, 7])
def test_options_agree_with_apply_along_a_bot_game(scenario: int) -> None:
    played = bot_game(scenario, 3)
    g = seeded_game(scenario)
    modes = set()
    for i, cmd in enumerate(played.commands):
        if i % 7 == 0 or g.options().mode in ("drop", "decision", "reinforcement", "supply"):
            _agree(g)
            modes.add(g.options().mode)
        assert not isinstance(g.push(cmd), rules.Rejection)
    assert {"setup", "reinforcement", "supply", "movement", "combat"} <= modes


def test_options_is_cached_per_state_and_encodes() -> None:
    g = seeded_game()
    assert g.options() is g.options()
    raw = msgspec.json.encode(g.options())
    assert b'"mode":"setup"' in raw
    g.push(rules.ao.EndPhase())
    assert g.options().acting == "german"


def test_outcome_and_replay_of_a_finished_game() -> None:
    g = bot_game(3, 6)  # scenario 3 seed: a German immediate win on GT6 or a running game
    rec = g.record({"note": "test"})
    back = rules.ao.Game.replay(rules.record.decode(rules.record.encode(rec)), g.board)
    assert back.ok, back.error
    assert back.game.state_hash() == g.state_hash()
    assert back.game.outcome() == g.outcome() == g.state.result
