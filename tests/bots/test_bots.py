"""The self-play bots (``rules.ao.bots``): their random stream, their decisions, and what they do
in a real game (GT1 obligations met, reinforcements placed, the drop made, attacks only at
their odds)."""

from __future__ import annotations

from functools import cache

import pytest

import rules.ao
from rules.ao.bots import BotRng, HeuristicBot
from rules.ao.bots.attack import attack_value, ex_losses
from rules.ao.bots.combat import ALLIED_ODDS, MIN_VALUE, best_attack, min_odds
from rules.ao.bots.decisions import decide
from rules.ao.bots.fields import Fields
from rules.ao.bots.plan import Targets
from rules.ao.bots.retreats import trapped
from rules.ao.bots.selfplay import SelfPlayGame, play
from rules.ao.combat import gt1_unmet, preview_attack
from rules.ao.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    DeclareAttack,
    Drop,
    EndPhase,
    Place,
    WaiveImmunity,
)
from rules.ao.decisions import typed
from rules.ao.engine import Applied, apply
from rules.ao.odds import column_rank
from rules.ao.state import Board, Decision, GameState
from rules.dice import SeededDice
from rules.rejection import Rejection
from scenarios import load_board
from tests.kit.engine import board, line_map, make_map, position, scenario_start, unit


@cache
def game() -> SelfPlayGame:
    return play(load_board(1), 3, turns=3)


def states(r: SelfPlayGame):
    """(state before, command, state after) along a record."""
    b, s = scenario_start(r.scenario)
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


def _bot_and_board() -> tuple[HeuristicBot, object, GameState]:
    b, s = scenario_start(1)
    return HeuristicBot("german", BotRng(b"t")), b, s


def _decide(bot: HeuristicBot, b: Board, s: GameState, d: Decision) -> rules.ao.Command:
    """What ``bot`` answers to ``d`` in ``s`` (:func:`rules.ao.bots.decisions.decide`, on the
    decision typed by kind)."""
    return decide(bot.ctx, b, s, typed(d))


def _choose(bot: HeuristicBot, b: object, s: GameState) -> rules.ao.Command:
    assert isinstance(b, Board)
    return bot.choose(rules.ao.Game(b, s))


def test_decisions() -> None:
    bot, b, s = _bot_and_board()
    assert isinstance(b, Board)
    f = Fields(b)
    w = Decision(side="allied", kind="waive_immunity", case="AO-11.f*", choices=(("3217",),))
    assert _decide(bot, b, s, w) == WaiveImmunity(())
    weak = min(b.defs, key=lambda u: (b.defs[u].strength, u))
    strong = max(b.defs, key=lambda u: (b.defs[u].strength, u))
    loss = Decision(
        side="german", kind="losses", case="AO-10.1b", choices=((strong,), (weak,)), need=1
    )
    assert _decide(bot, b, s, loss) == ChooseLosses((weak,))
    paths = (("3310", "3210"), ("3311", "3211"))
    ret = Decision(side="german", kind="retreat", case="AO-10.2a", choices=paths, unit=weak)
    r = _decide(bot, b, s, ret)
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
    a = _decide(bot, b, s, adv)
    assert isinstance(a, Advance) and a.unit is not None and b.defs[a.unit].strength == top
    clear = next(h for h in b.game_map if h not in f.towns and f.objective.get(h, 0) > 3)
    adv = Decision(side="german", kind="advance", case="AO-9.6N", choices=((mech[0],),), hex=clear)
    assert _decide(bot, b, s, adv) == Advance(clear)  # mech[0] is not on the map
    # the German advances a unit that gets nearer its objectives (the front moves) ...
    import msgspec

    obj, towns = f.objective, f.towns
    far = max((h for h in b.game_map if h in obj and h not in towns), key=lambda h: (obj[h], h))
    near = min(
        (h for h in b.game_map.neighbours(far) if h in obj and h not in towns),
        key=lambda h: (obj[h], h),
    )
    assert obj[near] < obj[far]

    def at(h: str) -> GameState:
        return msgspec.structs.replace(
            s,
            units=tuple(
                msgspec.structs.replace(u, hex=h) if u.id == mech[0] else u for u in s.units
            ),
        )

    fwd = Decision(side="german", kind="advance", case="AO-9.6N", choices=((mech[0],),), hex=near)
    assert _decide(bot, b, at(far), fwd) == Advance(near, mech[0])
    # ... and not one that would get farther
    back = Decision(side="german", kind="advance", case="AO-9.6N", choices=((mech[0],),), hex=far)
    assert _decide(bot, b, at(near), back) == Advance(far)


def test_setup_is_accepted_and_the_acting_side_answers_decisions() -> None:
    _bot, b, s = _bot_and_board()
    assert s.phase == "setup_allied"
    assert _choose(HeuristicBot("allied", BotRng(b"t")), b, s) == EndPhase()
    assert rules.ao.acting_side(s) == "allied"


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


def test_attacks_after_game_turn_1_are_worth_making() -> None:
    """The Allies attack at their odds (3-1 or better); the German never at 1-2 (only Ar
    results on both CRTs: a negative expected value) and makes attacks."""
    n = {"german": 0, "allied": 0}
    f: Fields | None = None
    for b, s, cmd, _after in states(game()):
        if not isinstance(cmd, DeclareAttack) or (s.turn == 1 and s.side == "german"):
            continue
        f = f or Fields(b)
        p = preview_attack(b, s, cmd.attackers, cmd.defenders)
        assert not isinstance(p, Rejection)
        if s.side == "allied":
            assert min_odds(f, b, s, cmd.defenders[0]) == ALLIED_ODDS
            assert column_rank(p.column) >= column_rank(ALLIED_ODDS), (cmd, p)
        else:
            assert p.column != "1-2", (cmd, p)
        n[s.side] += 1
    assert n["german"] > 0


# -- the German attack evaluation (rules.ao.bots.attack), worked by hand --------------------------
#
# Map 3 rows x 6, all clear. The German "g" (8) in 0202 attacks the American "a" (2) in 0302:
# 8-2 is 4-1; German Initial CRT 4-1 reads Ex Ex Dr3 Dr2 Dr2 Dr1. On an Ex the German loses g
# (the only attacker: printed 8 >= 2), one unit. 0302's neighbours: 0401, 0402, 0403 (0301 and
# 0303 are g's zone of control); Germans in 0501 and 0503 control all three, so "a" has no
# retreat and every Dr eliminates it (value (6 - 0.6 x 2) / 6 = 4.8/6 at 4-1). On the map the
# surrounded "a" is also out of supply (defence 1): 8-1, De De De De Ex Ex, again 4.8/6.
#   free:    kills 2/6, losses 2/6, value (2 - 0.6 x 2 + 0.25 x (3 + 2 + 2 + 1)) / 6 = 2.8/6


def _small(trap: bool) -> tuple[object, GameState]:
    grid = "\n".join([". . . . . ."] * 3)
    units = [unit("g", strength=8), unit("h1"), unit("h2"), unit("a", "allied", strength=2)]
    where = {"g": "0202", "a": "0302"}
    if trap:
        where |= {"h1": "0501", "h2": "0503"}
    return board(make_map(grid), units), position(where, phase="combat")


def test_attack_value_is_the_expectation_over_the_six_rolls() -> None:
    g, a = unit("g", strength=8), unit("a", "allied", strength=2)
    v = attack_value("initial", "4-1", [g], [a])
    assert (v.kills, v.losses) == pytest.approx((2 / 6, 2 / 6))
    assert v.value == pytest.approx(2.8 / 6)
    v = attack_value("initial", "4-1", [g], [a], trapped=(1, 1, 1))
    assert (v.kills, v.losses, v.value) == pytest.approx((1, 2 / 6, 4.8 / 6))
    # in a town Dr does nothing (AO-11.f): only the two Ex count
    assert attack_value("initial", "4-1", [g], [a], immune=True).value == pytest.approx(0.8 / 6)
    # Standard 2-1: Dr1 Dr1 Dr1 Ar1 Ar2 Ar2 - worthless unless the defender cannot retreat
    assert attack_value("standard", "2-1", [g], [a]).value == pytest.approx(0.0)
    assert attack_value("standard", "2-1", [g], [a], trapped=(1, 1, 1)).value == pytest.approx(
        (3 - 0.15 * 5) / 6
    )
    assert attack_value("initial", "1-2", [g], [a]).value < 0  # Ar only
    # Ex: the least-strength minimal set (two 4s or the 8 both reach 5: the 8 alone is fewer)
    assert ex_losses([unit("x"), unit("y"), g], 5) == 1
    assert ex_losses([unit("x"), unit("y"), g], 9) == 2


@pytest.mark.parametrize(
    ("trap", "column", "expected"), [(False, "4-1", 2.8 / 6), (True, "8-1", 4.8 / 6)]
)
def test_best_attack_on_a_small_map(trap: bool, column: str, expected: float) -> None:
    b, s = _small(trap)
    assert isinstance(b, Board)
    assert preview_attack(b, s, ["g"], ["0302"]).column == column  # type: ignore[union-attr]
    assert trapped(b, s, "0302") == ((1, 1, 1) if trap else (0, 0, 0))
    best = best_attack(Fields(b), b, s, "0302", ["g"])
    assert best is not None
    assert best[0] == pytest.approx(expected) and best[1] == ("g",)
    assert best[0] >= MIN_VALUE


def test_moves_end_in_normal_mode_near_the_enemy() -> None:
    from rules.ao.bots.fields import distance_field
    from rules.ao.bots.movement import ROAD_MODE_SAFE
    from rules.ao.commands import Move

    for b, s, cmd, after in states(game()):
        if not isinstance(cmd, Move):
            continue
        u = after.unit(cmd.unit)
        if not u.road_mode:
            continue
        enemy = {x.hex for x in s.units if x.in_play and x.hex and b.defs[x.id].side != s.side}
        d = distance_field(b.game_map, enemy)
        assert u.hex is not None and d.get(u.hex, 99) >= ROAD_MODE_SAFE, cmd


# -- bots v3: the fast retreat check, the German plan, free set-ups ----------------------------


def test_has_retreat_agrees_with_the_engine() -> None:
    """``rules.ao.bots.retreats.has_retreat`` is ``retreat_options(...).paths`` without ranking:
    on positions of a real game, every unit, 1-3 hexes; and on the trapped small map."""
    from rules.ao.bots.retreats import RetreatContext, has_retreat
    from rules.ao.combat import retreat_options

    n = 0
    for i, (b, _s, _cmd, after) in enumerate(states(game())):
        if i % 40 or after.combat.pending is not None:
            continue
        for side in ("allied", "german"):
            ctx = RetreatContext(b, after, side)
            for u in after.units:
                if u.status != "on_map" or b.defs[u.id].side != side:
                    continue
                for k in (1, 2, 3):
                    want = bool(retreat_options(b, after, u.id, k).paths)
                    assert has_retreat(b, after, u.id, k, ctx) == want, (i, u.id, k)
                    n += 1
    assert n > 500
    b, s = _small(True)
    assert isinstance(b, Board)
    assert not has_retreat(b, s, "a", 1) and not has_retreat(b, s, "a", 3)
    b, s = _small(False)
    assert isinstance(b, Board)
    assert has_retreat(b, s, "a", 1) and has_retreat(b, s, "a", 3)


# Map 4 rows x 10, all clear, east edge in column 10, a road along row 2 from the east edge to
# Bastogne (0202). A German armoured unit "m" (strength 6, MA 10) in 0902; an American "a"
# (strength 2) in 0704, off the road. v2 would stop next to "a" and past it (BEHIND: +100 in
# 0604 or 0703); with a plan the unit exploits the open road to Bastogne (7 hexes, a gap of
# at least GAP), its town target.


def _exploit(mech_phase: bool = True) -> tuple[object, GameState]:
    grid = "\n".join([". . . . . . . . . E"] * 4)
    road = "-".join(f"{c:02d}02" for c in range(10, 1, -1))
    m = make_map(grid, roads=[road], towns={"Bastogne": "0202"})
    units = [unit("m", mech=True, ma=10, strength=6), unit("a", "allied", strength=2)]
    phase = "mechanized_movement" if mech_phase else "initial_movement"
    return board(m, units), position({"m": "0902", "a": "0704"}, phase=phase)  # type: ignore[arg-type]


def test_the_plan_sends_a_mechanized_unit_through_a_gap_to_its_town() -> None:
    from rules.ao.bots.plan import make_plan, supply_zone
    from rules.ao.commands import Move

    b, s = _exploit()
    assert isinstance(b, Board)
    plan = make_plan(Targets(b), b, s)
    assert not plan.hold and plan.targets == {"m": "0202"}
    assert {"0202", "0902", "0704"} - {"0704"} <= supply_zone(b, s)
    cmd = _choose(HeuristicBot("german", BotRng(b"t")), b, s)
    assert isinstance(cmd, Move) and cmd.unit == "m" and cmd.path[-1] == "0202"
    # without a target (no town on the map) the v2 scoring stops past the American
    m2 = make_map("\n".join([". . . . . . . . . E"] * 4), roads=["1002-0902-0802-0702-0602"])
    b2 = board(m2, [unit("m", mech=True, ma=10, strength=6), unit("a", "allied", strength=2)])
    cmd = _choose(HeuristicBot("german", BotRng(b"t")), b2, s)
    assert isinstance(cmd, Move) and cmd.path[-1] in b2.game_map.neighbours("0704")


def _exit_map(vp: int = 6, edge: str = "W") -> object:
    """One row: ``e . . . . . . E``, 0101 an Allied Map Edge exit hex worth ``vp`` exit VP, a
    road from the east edge (0801) to 0201."""
    import msgspec

    from rules.ao.gamemap import GameMap

    m = line_map("e . . . . . . E", roads=["0801-0701-0601-0501-0401-0301-0201-0101"])
    data = m.data
    hexes = [
        msgspec.structs.replace(h, exit_vp=vp, edge=edge) if h.id == "0101" else h
        for h in data.hexes
    ]
    return GameMap(msgspec.structs.replace(data, hexes=hexes))


def test_holding_mode_goes_for_the_exit_and_counts_each_exit_once() -> None:
    """GT12: every unit plays for the exits it can hold in supply; a unit next to the exit
    (0201) holds its 6 VP unless another German already does, or an American stands in it,
    or the unit is in Road Mode (a Road Mode unit controls only its own hex)."""
    from rules.ao.bots.plan import Plan, exit_values, hold_gain, hold_mode, holders, make_plan
    from rules.ao.commands import Move
    from rules.ao.gamemap import GameMap
    from rules.ao.state import UnitState

    m = _exit_map()
    assert isinstance(m, GameMap)
    b = board(m, [unit("g", ma=4), unit("h", ma=4), unit("a", "allied")])
    s = position({"g": "0501", "h": "0701"}, turn=12)
    assert hold_mode(b, s) and not hold_mode(b, position({"g": "0501"}, turn=11))
    plan = make_plan(Targets(b), b, s)
    assert plan.hold and plan.exits == {"0101": 6} and plan.targets == {"g": "0101"}
    cmd = _choose(HeuristicBot("german", BotRng(b"t")), b, s)
    assert cmd == Move("g", ("0401", "0301", "0201"))
    zone = frozenset(b.game_map)
    p = Plan({}, True, zone, {"0101": 6})
    s2 = position({"g": "0501", "h": "0201"}, turn=12)
    assert hold_gain(b, s2, p, holders(b, s2, p.exits), "h", "0201", False) == 6
    assert hold_gain(b, s2, p, holders(b, s2, p.exits), "g", "0201", False) == 0  # h holds it
    assert hold_gain(b, s2, p, holders(b, s2, p.exits), "h", "0201", True) == 0  # Road Mode
    s3 = position({"h": "0201", "a": UnitState(id="a", hex="0101", status="dormant")}, turn=12)
    assert hold_gain(b, s3, p, holders(b, s3, p.exits), "h", "0201", False) == 0
    assert hold_gain(b, s2, Plan({}, True, frozenset(), {"0101": 6}), {}, "h", "0201", False) == 0
    # an SE/SW exit counts only with a German unit in Bastogne (AO-16.D)
    se = _exit_map(3, "SE")
    assert isinstance(se, GameMap)
    assert exit_values(Targets(board(se, [])), bastogne=False) == {}
    assert exit_values(Targets(board(se, [])), bastogne=True) == {"0101": 3}


def _bot_setup(scenario: int) -> tuple[object, GameState, list[object]]:
    """Both bots' set-up steps of ``scenario``: (board, state after them, their commands)."""
    b, s = scenario_start(scenario)
    bots = {
        "allied": HeuristicBot("allied", BotRng(b"a")),
        "german": HeuristicBot("german", BotRng(b"g")),
    }
    g = rules.ao.Game(b, s)
    cmds: list[object] = []
    while g.state.phase in ("setup_allied", "setup_german"):
        cmd = bots[g.state.side].choose(g)
        r = g.push(cmd)
        assert isinstance(r, Applied), (cmd, r)
        cmds.append(cmd)
    return b, g.state, cmds


def test_free_setup_is_legal_and_rearranges() -> None:
    """Scenario 6 (both sides free, AO-17.b/c): every Place is accepted one at a time, the
    result passes ``validate_free_setup`` and differs from the historical set-up: the Allies
    hold Bastogne and St. Vith with their strongest rear units."""
    from rules.ao.setup_rules import validate_free_setup
    from scenarios import load_scenario

    b, s, cmds = _bot_setup(6)
    assert isinstance(b, Board)
    sc = load_scenario(6)
    assert sum(isinstance(c, Place) for c in cmds) > 40
    for side in ("allied", "german"):
        placed = {
            u.id: u.hex
            for u in s.units
            if u.hex is not None and u.id in sc.setup and b.defs[u.id].side == side
        }
        assert validate_free_setup(b, side, placed) == []
        assert placed != {u: sc.setup[u] for u in placed}
    towns = b.game_map.towns()
    assert [u.id for u in s.at(towns["Bastogne"])] == ["us-ccb9"]
    assert [u.id for u in s.at(towns["St. Vith"])] == ["us-23-i"]


def test_historical_setup_is_accepted_as_it_is() -> None:
    from scenarios import load_scenario

    _b, s, cmds = _bot_setup(1)
    assert cmds == [EndPhase(), EndPhase()]
    sc = load_scenario(1)
    assert {u.id: u.hex for u in s.units if u.id in sc.setup} == sc.setup


def test_game_turn_1_obligations_are_met_after_a_free_setup() -> None:
    """One unit a hex puts a German unit next to several American hexes: it attacks them
    all at once (multi-hex, AO-4.2h*)."""
    r = play(load_board(6), 1, turns=1)
    assert [v.turn for v in r.vp] == [1]
    multi = [c for c in r.commands if isinstance(c, DeclareAttack) and len(c.defenders) > 1]
    assert multi


# -- the bots above the engine: the Bot protocol, the public API only, no board caches ---------


def test_the_heuristic_bot_is_a_bot_and_keeps_nothing_on_the_board() -> None:
    from rules.ao.bots import Bot, bots_for

    bots: dict[rules.ao.Side, Bot] = dict(bots_for(BotRng(b"p")))
    assert {(b.name, b.version, b.side) for b in bots.values()} == {
        ("heuristic", "4", "german"),
        ("heuristic", "4", "allied"),
    }
    b, s = scenario_start(1)
    before = set(b.cache)
    g = rules.ao.Game(b, s, dice=SeededDice(b"p"))
    while g.state.turn == 1:
        side = rules.ao.acting_side(g.state)
        assert side is not None
        assert isinstance(g.push(bots[side].choose(g)), Applied)
    assert not any(k.startswith("bots") for k in set(b.cache) - before)
