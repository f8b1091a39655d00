"""The Allied counterattack (``rules.ao.bots.planner.counter``, planner v2): the strikes it plans,
their values worked out by hand from the printed CRTs (AO-10.0a), the German reply it weighs
(one ply), what clearing an exit or a town is worth, and the whole Allied player-turn through
the engine: the strike's units move first, then attack, and the German unit is gone.

Map ``OPEN`` (7 x 7 clear, no supply sources): the German g (a 3-4) in 0404. 0404 is in an
even row: its neighbours are NE 0503, E 0504, SE 0505, SW 0405, W 0304, NW 0403.
"""

from __future__ import annotations

import pytest

import rules.ao
from rules.ao import DeclareAttack, Move, ResolveAttacks, apply, legal_moves
from rules.ao.bots import BotRng
from rules.ao.bots.fields import Fields
from rules.ao.bots.planner import PlannerBot
from rules.ao.bots.planner.allied import AlliedPlan
from rules.ao.bots.planner.bot import ALLIED_WEIGHTS
from rules.ao.bots.planner.counter import (
    EXIT_CLEAR,
    TOWN_CLEAR,
    Counter,
    Reply,
    Strike,
    clear_value,
)
from rules.ao.bots.planner.moves import friends_of
from rules.ao.events import UnitEliminated
from rules.dice import ScriptedDice
from tests.kit.engine import board, make_map, position, unit
from tests.kit.realmap import needs_real_map

OPEN = "\n".join([". . . . . . ."] * 7)
RING = {"0503", "0504", "0505", "0405", "0304", "0403"}


def _open(*extra: rules.ao.UnitDef) -> rules.ao.Board:
    return board(
        make_map(OPEN),
        [
            unit("g", strength=3),
            unit("a1", "allied"),
            unit("a2", "allied"),
            unit("a3", "allied"),
            *extra,
        ],
    )


def _counter(b: rules.ao.Board, s: rules.ao.GameState) -> Counter:
    movers = [u.id for u in s.units if b.defs[u.id].side == "allied"]
    reach = {uid: legal_moves(b, s, uid, road_mode=False) for uid in movers}
    return Counter(b, s, Fields(b), ALLIED_WEIGHTS, reach)


ALLIED_GT3 = {"a1": "0402", "a2": "0206", "a3": "0606"}
"""Three US 4-8 infantry two or three hexes from g, Allied Initial Movement Phase of GT3."""


def _lone() -> tuple[rules.ao.Board, rules.ao.GameState]:
    s = position({"g": "0404", **ALLIED_GT3}, turn=3, side="allied", phase="initial_movement")
    return _open(), s


@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-7.3D")
def test_a_lone_german_in_the_open_is_surrounded_and_struck_at_four_to_one() -> None:
    # The three units can each reach any hex of the ring. Placed to close g's ways out: a1 to
    # 0304 (W; its zone covers 0403 and 0405), a2 to 0504 (E; covers 0503 and 0505): every
    # neighbour of g is then Allied-held or -controlled, so g has no retreat of 1, 2 or 3
    # hexes (AO-7.3D, AO-10.2b); a3 joins at 0403 (first of the ring hexes in id order).
    # 12 against 3 (g unsupplied: no source on this map; only isolation halves a defence,
    # AO-12.6) is 4-1; the Standard CRT's 4-1 column is Dr3 Dr3 Dr2 Dr2 Dr2 Dr1: six Dr, each
    # eliminating g: 1 VP, 1000 thousandths. No German is left to reply: risk 0.
    b, s = _lone()
    plan = _counter(b, s).plan()
    assert plan == [
        Strike(
            target="0404",
            units=("a1", "a2", "a3"),
            dest=(("a1", "0304"), ("a2", "0504"), ("a3", "0403")),
            column="4-1",
            gain=1000,
            risk=0,
        )
    ]


@pytest.mark.rule("AO-9.1A")
@pytest.mark.rule("AO-10.2b")
def test_the_allied_planner_moves_the_strike_first_then_attacks_and_kills() -> None:
    """Through the engine: the Allied planner's Initial Movement Phase moves the strike's
    units to their hexes first (then nothing else moves); in the Combat Phase g, surrounded
    and more than three hexes from any German unit, is isolated (AO-12.3H) and defends at 2
    (halved, AO-12.6), so a1 and a2 (8) are already at 4-1 and the planner declares the
    smallest group of the best value; any die eliminates g (die 6: Dr1 into Allied
    control, AO-7.3D)."""
    b, s = _lone()
    bot = PlannerBot("allied", BotRng(b"counter"))
    game = rules.ao.Game(b, s)
    moves = []
    while game.state.phase == "initial_movement":
        cmd = bot.choose(game)
        if isinstance(cmd, Move):
            moves.append((cmd.unit, cmd.path[-1]))
        assert isinstance(game.push(cmd), rules.ao.Applied)
    assert moves == [("a1", "0304"), ("a2", "0504"), ("a3", "0403")]
    assert game.state.phase == "combat"
    declare = bot.choose(game)
    assert declare == DeclareAttack(("a1", "a2"), ("0404",), odds=None)
    s2 = game.push(declare)
    assert isinstance(s2, rules.ao.Applied)
    assert bot.choose(game) == ResolveAttacks()
    r = apply(b, game.state, ResolveAttacks(), ScriptedDice([6], start=game.state.dice_drawn))
    assert isinstance(r, rules.ao.Applied)
    assert UnitEliminated(unit="g", hex="0404", case="AO-7.3D") in r.events


PANZERS = {"p1": "0707", "p2": "0706"}
"""Two German 20-strength mechanized units three hexes from 0504 and 0505 (the east side of
g's ring), five from 0304 and 0403 and from the Allied units' hexes (0402, 0206, 0606 is
next to them: :data:`ALLIED_WEST` keeps away). Without a supply source on ``OPEN`` every
German unit is unsupplied: attack halved, rounding up (AO-12.6): g 2, each panzer 10."""

ALLIED_WEST = {"a1": "0402", "a2": "0206", "a3": "0206"}


def _with_panzers(g: int, panzers: bool) -> tuple[rules.ao.Board, rules.ao.GameState]:
    b = board(
        make_map(OPEN),
        [
            unit("g", strength=g),
            unit("a1", "allied"),
            unit("a2", "allied"),
            unit("a3", "allied"),
            unit("p1", strength=20, mech=True),
            unit("p2", strength=20, mech=True),
        ],
    )
    where = {"g": "0404", **ALLIED_WEST, **(PANZERS if panzers else {})}
    return b, position(where, turn=3, side="allied", phase="initial_movement")


@pytest.mark.rule("AO-10.0a")
@pytest.mark.rule("AO-12.6")
def test_the_german_reply_read_off_his_crt_at_his_supply() -> None:
    """:class:`Reply`: the strongest six German units that can reach a hex (mechanized four
    hexes, the others two), at their supply, against a stack's printed strength, on the
    German CRT in use (here the Initial CRT); De and Ex kill the stack, Dr only one with no
    escape."""
    b, s = _with_panzers(3, True)
    unsupplied: dict[str, rules.ao.Supply] = {
        "g": "unsupplied",
        "p1": "unsupplied",
        "p2": "unsupplied",
    }
    reply = Reply(b, s, unsupplied)
    # 0504: g (1 hex away) 2, p1 and p2 (3 hexes) 10 each
    assert reply.strength("0504") == 2 + 10 + 10
    # 22 against a 4 is 5-1: Ex Ex Dr3 Dr3 Dr2 Dr2; a unit in 0504 can retreat north-east
    # (0603, 0702...), so only the two Ex kill it: 2 x 1000 / 6 = 333
    assert reply.loss("0504", 4, 1) == 333
    # against a stack of two 4s (8): 2-1, Dr2 Dr1 Dr1 Dr1 Dr1 Dr1: nothing lost
    assert reply.loss("0504", 8, 2) == 0
    # without p1: 12 against 4 is 3-1, Dr3 Dr2 Dr2 Dr1 Dr1 Dr1: nothing lost
    assert reply.loss("0504", 4, 1, without={"p1"}) == 0
    # p1 supplied: 2 + 20 + 10 = 32 against 4 is 8-1, De De De De Ex Ex: every face
    reply = Reply(b, s, {**unsupplied, "p1": "supplied"})
    assert reply.loss("0504", 4, 1) == 1000
    # 0304 is five hexes from both panzers: g alone, 2 against 4 is 1-2 (all Ar)
    assert reply.strength("0304") == 2 and reply.loss("0304", 4, 1) == 0


@pytest.mark.rule("AO-10.0a")
@pytest.mark.rule("AO-10.2b")
def test_the_strike_weighs_the_german_reply_on_the_hexes_it_fills() -> None:
    # As the lone German test, from the west (a2 and a3 stacked in 0206): a1 to 0304, a2 to
    # 0504 (the east side of the ring: closing g's ways out needs a hex on each side), a3 to
    # 0403. With the panzers, a2 in 0504 is in their reach: 333 lost there (the test above),
    # whether g dies or not (the panzers stay); 0304, 0403 and the units' own hexes are out
    # of it (0 before). g (a 3) is still struck: 1000 - 333.
    b, s = _with_panzers(3, True)
    assert [(x.target, x.column, x.gain, x.risk) for x in _counter(b, s).plan()] == [
        ("0404", "4-1", 1000, 333)
    ]
    # A 6 in g's place: 12 against 6 is 2-1 on the Standard CRT, Dr1 Dr1 Dr1 Ar1 Ar2 Ar2. g
    # trapped, each Dr1 kills it (3 x 1000); each Ar pushes the three attackers back (100 a
    # hex each: 300, 600, 600; they can retreat): (3000 - 1500) / 6 = 250. Worth making with
    # no panzers near; with them the reply (333) costs more than the attack is worth.
    b, s = _with_panzers(6, False)
    assert [(x.target, x.column, x.gain, x.risk) for x in _counter(b, s).plan()] == [
        ("0404", "2-1", 250, 0)
    ]
    b, s = _with_panzers(6, True)
    assert _counter(b, s).plan() == []


@needs_real_map
@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-16.D")
def test_clearing_lieges_german_is_worth_the_town_and_its_two_exits() -> None:
    """A German unit in Liège (1902) holds the exits 1901 (NW, 6 VP) and 2001 (NW, 8 VP) next
    to it by its zone of control (AO-16.C): clearing it is worth the objective town and 14 exit
    VP; with another German unit next to 2001, only 1901's 6; with an Allied unit in 1901, no
    exit at all."""
    from tests.kit.engine import scenario_start

    b0, _ = scenario_start(1)
    g = [u for u, d in sorted(b0.defs.items()) if d.side == "german"][:2]
    us = next(u for u, d in sorted(b0.defs.items()) if d.side == "allied")
    b = rules.ao.Board(b0.game_map, [b0.defs[g[0]], b0.defs[g[1]], b0.defs[us]])
    m = b.game_map
    assert m.town_hex("Liège") == "1902"
    assert (m.hex("1901").exit_vp, m.hex("2001").exit_vp) == (6, 8)
    f = Fields(b)
    s = position({g[0]: "1902"}, turn=5)
    assert clear_value(b, s, f, "1902") == TOWN_CLEAR + EXIT_CLEAR * (6 + 8)
    s = position({g[0]: "1902", g[1]: "2002"}, turn=5)  # 2002 is next to 2001, not to 1901
    assert clear_value(b, s, f, "1902") == TOWN_CLEAR + EXIT_CLEAR * 6
    s = position({g[0]: "1902", us: "1901"}, turn=5)
    assert clear_value(b, s, f, "1902") == TOWN_CLEAR + EXIT_CLEAR * 8


@needs_real_map
@pytest.mark.rule("AO-16.C")
@pytest.mark.rule("AO-5.3L")
def test_the_strike_retakes_an_exit_before_killing_elsewhere() -> None:
    """Two German 3s the same three US 4s can reach: g1 in the West exit 0110 (6 VP, held by
    it alone), g2 in the open at 0414. Each is struck at 4-1 (12 against 3, Dr on every face
    of the Standard CRT's 4-1 column) with no way out, so each strike kills on every face:
    1000. g1's has no way out because its only live neighbours are 0209, 0210 and 0211 (0109
    and 0111 are Allied Map Edge hexes, closed to German units, AO-5.3L), and clearing it
    frees the exit: + 6 x 200. The units go to g1."""
    from tests.kit.engine import scenario_start

    b0, _ = scenario_start(1)
    defs = [unit("g1", strength=3), unit("g2", strength=3)]
    defs += [unit(a, "allied") for a in ("a1", "a2", "a3")]
    b = rules.ao.Board(b0.game_map, defs)
    allied = {"a1": "0411", "a2": "0412", "a3": "0312"}
    s = position({"g1": "0110", "g2": "0414", **allied}, turn=5, side="allied")
    assert _counter(b, s).plan() == [
        Strike(
            "0110",
            ("a1", "a2", "a3"),
            (("a1", "0210"), ("a2", "0209"), ("a3", "0211")),
            "4-1",
            1000 + EXIT_CLEAR * 6,
            0,
        )
    ]
    alone = position({"g2": "0414", **allied}, turn=5, side="allied")
    assert [(x.target, x.column, x.gain) for x in _counter(b, alone).plan()] == [
        ("0414", "4-1", 1000)
    ]


@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.6")
def test_an_isolated_german_is_struck_first_at_its_halved_defence() -> None:
    """On a 10 x 7 clear map (no supply source), g1 (a 4) in 0304 has US units on both sides,
    b1 in 0204 (controls 0303 and 0305) and b2 in 0404 (controls 0403 and 0405): surrounded
    on all six sides and five hexes from g2, g1 is isolated (AO-12.3H) and defends at 2
    (AO-12.6). b1 and b2 stay and strike it: 8 against 2 is 4-1, every Dr kills (1000). Then
    a1-a3 strike g2 (a 4, unsupplied, full defence) in 0804: 12 against 4 is 3-1 on the
    Standard CRT (Dr2 Dr1 Dr1 Dr1 Ar1 Ar1), placed round it to close its ways out (0704,
    0904, 0803): four Dr kill (4000), each Ar1 pushes the three back (300): 3400 / 6 = 566."""
    grid = "\n".join([". . . . . . . . . ."] * 7)
    b = board(
        make_map(grid),
        [unit("g1", strength=4), unit("g2", strength=4)]
        + [unit(a, "allied") for a in ("a1", "a2", "a3", "b1", "b2")],
    )
    where = {"g1": "0304", "b1": "0204", "b2": "0404", "g2": "0804"}
    where |= {"a1": "0602", "a2": "0606", "a3": "0504"}
    s = position(where, turn=3, side="allied", phase="initial_movement")
    assert rules.ao.defender_supply(b, s, "german") == {"g1": "isolated", "g2": "unsupplied"}
    assert _counter(b, s).plan() == [
        Strike("0304", ("b1", "b2"), (("b1", "0204"), ("b2", "0404")), "4-1", 1000, 0),
        Strike(
            "0804",
            ("a1", "a2", "a3"),
            (("a1", "0704"), ("a2", "0904"), ("a3", "0803")),
            "3-1",
            566,
            0,
        ),
    ]


def test_a_reserve_marches_on_the_counterattacks_places_not_on_the_nearest_german() -> None:
    """The reinforcements concentrate (:data:`rules.ao.bots.planner.allied.FOCUS`). A 20 x 5 clear
    map with Bastogne in 0103 and the German supply road 1603-2003 from the east-edge hex
    2003: four German units west (0302, 0303, 0304, 0403: nearest Bastogne, the spearheads,
    and out of supply, more than three hexes from the road), three east (1702-1704, supplied).
    The US unit r in 1203 is five hexes from the nearest German (east), a reserve. The
    heuristic pulls a unit 3 points a hex toward the nearest German beyond two hexes; a
    reserve is pulled toward the nearest focus hex instead: staying (1203: 8 from 0403)
    -3 x 6 = -18, west to 1103 (7) -15, east to 1303 (9) -21. It goes west; the nearest
    German alone would have sent it east (1303 is 4 from 1702: -6, 1103 is 6: -12)."""
    row = ". " * 19 + "."
    grid = "\n".join([row, row, row[:-1] + "E", row, row])
    m = make_map(grid, roads=["1603-1703-1803-1903-2003"], towns={"Bastogne": "0103"})
    west = {"w1": "0302", "w2": "0303", "w3": "0304", "w4": "0403"}
    east = {"e1": "1702", "e2": "1703", "e3": "1704"}
    b = board(m, [unit(u) for u in (*west, *east)] + [unit("r", "allied")])
    s = position({**west, **east, "r": "1203"}, turn=4, side="allied")
    bot = PlannerBot("allied", BotRng(b"focus"))
    bot.ctx.start_phase(b, s)
    plan = AlliedPlan(bot.ctx, b, s)
    assert plan.focus == frozenset(west.values())
    fr = friends_of(rules.ao.Game(b, s), "allied")
    scores = {h: plan.score("r", h, False, fr, h == "1203") for h in ("1103", "1203", "1303")}
    assert scores == {"1103": -15, "1203": -18, "1303": -21}
    assert [bot.ctx.enemy_dist[h] for h in ("1103", "1203", "1303")] == [6, 5, 4]
