"""Combat on the real map: the Game-Turn 1 German attacks of scenario 1 (AO-4.2h*), declared
as one batch, resolved by standing orders with seeded dice, and replayed."""

from __future__ import annotations

import pytest

from rules.ao.combat import gt1_unmet
from rules.ao.commands import (
    Command,
    DeclareAttack,
    EndPhase,
    Place,
    ResolveAttacks,
    StandingOrders,
)
from rules.ao.engine import Applied, apply, pending_reinforcements, replay_hashes
from rules.ao.stacking import over_limit
from rules.ao.state import GameState, state_hash
from rules.dice import SeededDice
from tests.kit.engine import attack, scenario_start
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@pytest.mark.rule("AO-4.2h*")
@pytest.mark.rule("AO-4.2d")
def test_the_gt1_german_attacks_resolve_as_one_batch_and_replay() -> None:
    b, s0 = scenario_start(1)
    dice = SeededDice(b"gt1")
    log: list[Command] = []
    s = s0

    def step(cmd: Command) -> None:
        nonlocal s
        r = apply(b, s, cmd, dice)
        assert isinstance(r, Applied), r
        s = r.state
        log.append(cmd)

    while not (s.side == "german" and s.phase == "combat"):
        for uid, hexes in pending_reinforcements(b, s):  # placed, all of them (AO-4.2b)
            step(Place(unit=uid, hex=hexes[0]))
        step(EndPhase())
    step(StandingOrders(side="german", advance="strongest"))
    step(StandingOrders(side="allied"))
    us_left, de_left = gt1_unmet(b, s)
    assert us_left and de_left
    m = b.game_map
    for uid in us_left:  # every American unit, with every German neighbour not yet used
        h = s.unit(uid).hex
        assert h is not None
        if any(h in a.defenders for a in s.combat.declared):
            continue
        used = {x for a in s.combat.declared for x in a.attackers}
        att = sorted(
            {
                o.id
                for n in m.neighbours(h)
                for o in s.at(n)
                if b.defs[o.id].side == "german" and o.id not in used
            }
        )
        if att:
            step(DeclareAttack(attackers=tuple(att), defenders=(h,)))
    assert gt1_unmet(b, s) == (us_left, de_left)  # declared, not yet resolved
    step(ResolveAttacks())
    assert s.combat.pending is None and s.combat.declared == ()
    assert gt1_unmet(b, s) == ([], [])
    assert not over_limit(b, s)
    step(EndPhase())
    end: GameState = s  # (``step`` rebinds ``s``: read it afresh)
    assert end.phase == "mechanized_movement" and s.vp.german + s.vp.allied > 0
    assert replay_hashes(b, s0, log, SeededDice(b"gt1"))[-1] == state_hash(s)


# == found by the rule audit: replay on the real map ==============================================


@pytest.mark.audit
def test_real_map_gt1_attack_replays_to_the_same_hash() -> None:
    from rules.ao.combat import attackable_hexes
    from rules.dice import SeededDice
    from tests.kit.engine import scenario_gt1_german_combat

    b, s0 = scenario_gt1_german_combat()
    pick = None
    for u in s0.units:
        if b.defs[u.id].side == "german" and u.in_play:
            targets = attackable_hexes(b, s0, [u.id])
            if targets:
                pick = (u.id, targets[0])
                break
    assert pick is not None
    log: list[Command] = [
        StandingOrders(side="german", advance="strongest"),
        StandingOrders(side="allied"),
        attack([pick[0]], [pick[1]]),
        ResolveAttacks(),
    ]
    h1 = replay_hashes(b, s0, log, SeededDice(b"audit"))
    h2 = replay_hashes(b, s0, log, SeededDice(b"audit"))
    assert h1 == h2 and len(h1) == 4
