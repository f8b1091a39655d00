"""The self-play bots (``rules.bots``): their random stream, their decisions, and what they do
in a real game (GT1 obligations met, reinforcements placed, the drop made, attacks only at
their odds)."""

from __future__ import annotations

from functools import cache

import pytest

from rules.bots import Bot, BotRng, acting_side
from rules.bots.heuristic import (
    ALLIED_ODDS,
    GERMAN_ODDS,
    GERMAN_ODDS_GOOD_TERRAIN,
    fields,
    min_odds,
)
from rules.combat import gt1_unmet, preview_attack
from rules.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    DeclareAttack,
    Drop,
    EndPhase,
    Place,
    WaiveImmunity,
)
from rules.dice import SeededDice
from rules.engine import Applied, apply
from rules.odds import column_rank
from rules.rejection import Rejection
from rules.selfplay import GameRecord, play, start
from rules.state import Decision, GameState


@cache
def game() -> GameRecord:
    return play(1, 3, turns=3)


def states(r: GameRecord):  # type: ignore[no-untyped-def]
    """(state before, command, state after) along a record."""
    b, s = start(r.scenario)
    dice = SeededDice(bytes.fromhex(r.dice_seed))
    for cmd in r.commands:
        res = apply(b, s, cmd, dice)
        assert isinstance(res, Applied)
        yield b, s, cmd, res.state
        s = res.state


def test_the_stream_is_deterministic_and_in_range() -> None:
    a, b = BotRng(b"x"), BotRng(b"x")
    xs = [a.below(7) for _ in range(200)]
    assert xs == [b.below(7) for _ in range(200)]
    assert set(xs) == set(range(7))
    assert BotRng(b"y").derive("german").seed != BotRng(b"y").derive("allied").seed
    c = BotRng(b"z")
    assert c.below(1) == 0 and c.count == 0  # no draw for a single choice
    with pytest.raises(ValueError):
        c.below(0)


def _bot_and_board() -> tuple[Bot, object, GameState]:
    b, s = start(1)
    return Bot("german", BotRng(b"t")), b, s


def test_decisions() -> None:
    bot, b, s = _bot_and_board()
    from rules.state import Board

    assert isinstance(b, Board)
    w = Decision(side="allied", kind="waive_immunity", case="AO-11.f*", choices=(("3217",),))
    assert bot.decide(b, s, w) == WaiveImmunity(())
    weak = min(b.defs, key=lambda u: (b.defs[u].strength, u))
    strong = max(b.defs, key=lambda u: (b.defs[u].strength, u))
    loss = Decision(
        side="german", kind="losses", case="AO-10.1b", choices=((strong,), (weak,)), need=1
    )
    assert bot.decide(b, s, loss) == ChooseLosses((weak,))
    paths = (("3310", "3210"), ("3311", "3211"))
    r = bot.decide(
        b, s, Decision(side="german", kind="retreat", case="AO-10.2a", choices=paths, unit=weak)
    )
    assert isinstance(r, ChooseRetreat) and r.unit == weak and r.path in paths
    town = b.game_map.town_hex("St. Vith")
    mech = sorted(u for u, d in b.defs.items() if d.side == "german" and d.mechanized)
    top = max(b.defs[u].strength for u in mech[:5])
    adv = Decision(
        side="german",
        kind="advance",
        case="AO-9.6N",
        choices=tuple((u,) for u in mech[:5]),
        hex=town,
    )
    a = bot.decide(b, s, adv)
    assert isinstance(a, Advance) and a.unit is not None and b.defs[a.unit].strength == top
    clear = next(
        h for h in b.game_map if h not in fields(b).towns and fields(b).objective.get(h, 0) > 3
    )
    adv = Decision(side="german", kind="advance", case="AO-9.6N", choices=((mech[0],),), hex=clear)
    assert bot.decide(b, s, adv) == Advance(clear)


def test_setup_is_accepted_and_the_acting_side_answers_decisions() -> None:
    _bot, b, s = _bot_and_board()
    assert s.phase == "setup_allied"
    assert Bot("allied", BotRng(b"t")).next_command(b, s) == EndPhase()  # type: ignore[arg-type]
    assert acting_side(s) == "allied"


def test_gt1_obligations_are_met() -> None:
    seen = False
    for b, s, cmd, _after in states(game()):
        if s.turn == 1 and s.side == "german" and s.phase == "combat" and isinstance(cmd, EndPhase):
            assert gt1_unmet(b, s) == ([], [])
            seen = True
    assert seen


def test_reinforcements_are_placed_and_the_drop_is_made() -> None:
    places = {"german": 0, "allied": 0}
    drops = 0
    for b, s, cmd, _after in states(game()):
        if isinstance(cmd, Place) and s.phase == "reinforcement":
            places[b.defs[cmd.unit].side] += 1
        if isinstance(cmd, Drop):
            drops += 1
            assert s.turn == 2 and s.phase == "initial_movement"
    assert places["allied"] > 0 and places["german"] > 0
    assert drops == 1


def test_attacks_are_made_only_at_good_odds_after_game_turn_1() -> None:
    n = 0
    for b, s, cmd, _after in states(game()):
        if not isinstance(cmd, DeclareAttack) or (s.turn == 1 and s.side == "german"):
            continue
        p = preview_attack(b, s, cmd.attackers, cmd.defenders)
        assert not isinstance(p, Rejection)
        h = cmd.defenders[0]
        need = min_odds(b, s, h)
        if s.side == "german" and s.german_crt == "standard":
            good = h in fields(b).towns or b.game_map.hex(h).terrain == "rough"
            assert need == (GERMAN_ODDS_GOOD_TERRAIN if good else GERMAN_ODDS)
        elif s.side == "allied":
            assert need == ALLIED_ODDS
        assert column_rank(p.column) >= column_rank(need), (cmd, p)
        n += 1
    assert n > 0


def test_moves_end_in_normal_mode_near_the_enemy() -> None:
    from rules.bots.heuristic import ROAD_MODE_SAFE, distance_field
    from rules.commands import Move

    for b, s, cmd, after in states(game()):
        if not isinstance(cmd, Move):
            continue
        u = after.unit(cmd.unit)
        if not u.road_mode:
            continue
        enemy = {x.hex for x in s.units if x.in_play and x.hex and b.defs[x.id].side != s.side}
        d = distance_field(b.game_map, enemy)
        assert u.hex is not None and d.get(u.hex, 99) >= ROAD_MODE_SAFE, cmd
