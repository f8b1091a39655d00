"""Audit of the combat, supply and interdiction engine against the rule text (AO-4.2, AO-6.6-6.7,
AO-7.3, AO-9, AO-10, AO-11, AO-12, AO-13 and the errata), adversarial cases on small synthetic
maps with scripted dice, every outcome worked out by hand from the rules.

Maps carry no supply sources unless they have an ``E`` hex with a road, so a defender is
unsupplied at the moment of combat (defence normal) unless every on-map neighbour is closed to
its supply (enemy-occupied/-controlled, impassable) and no supplied friend is within three
hexes, when it is isolated (defence halved). Attackers keep their position markers.

German Initial CRT rows (1-2 1-1 2-1 3-1 4-1 5-1 6-1 7-1 8-1 9-1):
    1  Ar1 Dr1 Dr2 Dr3 Ex  Ex  De  De  De  De
    2  Ar1 Dr1 Dr1 Dr2 Ex  Ex  Ex  De  De  De
    4  Ar2 Ar1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De  De
    6  Ar2 Ar2 Dr1 Dr1 Dr1 Dr2 Dr3 Dr3 Ex  De
Standard CRT rows:
    1  Ar1 Dr1 Dr1 Dr2 Dr3 Ex  Ex  Ex  De  De
    4  Ar3 Ar2 Ar1 Dr1 Dr2 Dr2 Dr2 Dr3 Ex  De

Five tests here first failed and found engine defects, since fixed: an isolated unit joining an
attack (AO-12.6), a unit retreated alone attacked twice (AO-9.1C), "to a road" not ranked first
(AO-10.2a), and retreats through a full stack or a German infantry division (AO-8.0, AO-8.2C).
"""

from __future__ import annotations

import pytest

from rules.combat import preview_attack
from rules.commands import (
    Advance,
    ChooseLosses,
    Command,
    EndPhase,
    ResolveAttacks,
    StandingOrders,
    WaiveImmunity,
)
from rules.dice import ScriptedDice
from rules.engine import Applied, apply, pending_decision, replay_hashes
from rules.events import (
    ResultIgnored,
    UnitEliminated,
    UnitRetreated,
)
from rules.interdiction import interdiction_for, lift_interdiction
from rules.rejection import Rejection
from rules.state import GameState, UnitState, VictoryPoints, state_hash
from tests.enginekit import (
    attack,
    board,
    declared,
    ended,
    fight,
    line_map,
    make_map,
    ok,
    position,
    refused,
    resolved,
    unit,
)

# -- helpers ------------------------------------------------------------------------------------


def retreats(r: Applied) -> list[tuple[str, tuple[str, ...]]]:
    return [(e.unit, e.path) for e in r.events if isinstance(e, UnitRetreated)]


def cpos(units: dict[str, str | UnitState], **kw: object) -> GameState:
    kw.setdefault("phase", "combat")
    return position(units, **kw)  # type: ignore[arg-type]


LINE = line_map(". . . . . . . .")


def odds_of(att: int, dfn: int) -> str:
    b = board(LINE, [unit("g", strength=att), unit("a", "allied", strength=dfn)])
    p = preview_attack(b, cpos({"g": "0201", "a": "0301"}), ["g"], ["0301"])
    assert not isinstance(p, Rejection), p
    assert (p.attack, p.defence) == (att, dfn)  # a unsupplied (0401 open): defence normal
    return p.column


# -- AO-9.3K / AO-10.0a odds --------------------------------------------------------------------


@pytest.mark.rule("AO-9.3K")
@pytest.mark.rule("AO-10.0a")
def test_odds_round_down_for_the_defender_and_clamp_to_the_table() -> None:
    # 26-9 is 2-1 (the rule's own example); 17-9 is 1-1; 18-9 exactly 2-1
    assert odds_of(26, 9) == "2-1"
    assert odds_of(17, 9) == "1-1"
    assert odds_of(18, 9) == "2-1"
    assert odds_of(9, 9) == "1-1"
    # 8-9 lies between 1-2 and 1-1: rounded down, 1-2; 4-9 is below 1-2: treated as 1-2
    assert odds_of(8, 9) == "1-2"
    assert odds_of(4, 9) == "1-2"
    assert odds_of(1, 9) == "1-2"
    # 90-9 is 10-1, 200-9 is 22-1: treated as 9-1
    assert odds_of(89, 9) == "9-1"
    assert odds_of(90, 9) == "9-1"
    assert odds_of(200, 9) == "9-1"


@pytest.mark.rule("AO-10.0a")
@pytest.mark.rule("AO-10.1c")
def test_far_below_and_far_above_the_table_read_the_end_columns() -> None:
    # 1-9 on 1-2, Initial die 6: Ar2; g goes two hexes back west
    b = board(LINE, [unit("g", strength=1), unit("a", "allied", strength=9)])
    done = fight(b, cpos({"g": "0401", "a": "0501"}), ["g"], ["0501"], [6])
    assert (resolved(done).column, resolved(done).result) == ("1-2", "Ar2")
    assert done.state.unit("g").hex == "0201"
    # 40-1 on 9-1, Initial die 6: De
    b2 = board(LINE, [unit("g", strength=40), unit("a", "allied", strength=1)])
    done2 = fight(b2, cpos({"g": "0201", "a": "0301"}), ["g"], ["0301"], [6])
    assert (resolved(done2).column, resolved(done2).result) == ("9-1", "De")
    assert done2.state.unit("a").status == "eliminated"


# -- AO-9.3J / 9.5M / 6.6K / 12.6 strengths -----------------------------------------------------


@pytest.mark.rule("AO-9.3J")
@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-12.6")
def test_supply_halving_first_then_the_west_wall_tripling() -> None:
    # g (5) in the West Wall 0201, ringed by 0101 impassable and the Allied 0301: isolated.
    # Supply first: 5 -> 3, then x3 = 9 (terrain first would give 15 -> 8). 18-9 is 2-1.
    m = make_map("x W . .")
    b = board(m, [unit("g", strength=5), unit("a", "allied", strength=18)])
    s = cpos({"g": "0201", "a": "0301"}, side="allied")
    r = ok(b, s, attack(["a"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (9, "2-1")


@pytest.mark.rule("AO-9.5M")
@pytest.mark.rule("AO-12.6")
@pytest.mark.rule("AO-9.2F")
def test_an_isolated_defending_stack_is_halved_as_a_total() -> None:
    # a1 (3) + a2 (3) in 0201, ringed by 0101 impassable and g in 0301: isolated.
    # The stack total 6 halved is 3 (unit by unit 2 + 2 = 4); 9-3 is 3-1 (9-4 would be 2-1)
    m = make_map("x . . .")
    b = board(
        m,
        [unit("g", strength=9), unit("a1", "allied", strength=3), unit("a2", "allied", strength=3)],
    )
    r = ok(b, cpos({"g": "0301", "a1": "0201", "a2": "0201"}), attack(["g"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (3, "3-1")


@pytest.mark.rule("AO-9.5M")
@pytest.mark.rule("AO-12.6")
def test_an_unsupplied_attacking_stack_is_halved_as_a_total_mixed_states_apart() -> None:
    b = board(
        LINE,
        [
            unit("u1", strength=3),
            unit("u2", strength=3),
            unit("u3", strength=3),
            unit("a", "allied", strength=1),
        ],
    )
    s = cpos(
        {
            "u1": UnitState(id="u1", hex="0201", supply="unsupplied"),
            "u2": UnitState(id="u2", hex="0201", supply="unsupplied"),
            "u3": UnitState(id="u3", hex="0201"),
            "a": "0301",
        }
    )
    # unsupplied u1 + u2: 6 -> 3 (not 2 + 2); supplied u3: 3; total 6
    assert declared(ok(b, s, attack(["u1", "u2", "u3"], ["0301"]))).attack == 6


@pytest.mark.rule("AO-6.6K")
def test_road_mode_halves_an_attacker_rounding_up() -> None:
    m = line_map(". . . .", roads=["0101-0201-0301-0401"])
    b = board(m, [unit("g", strength=7), unit("a", "allied", strength=2)])
    s = cpos({"g": UnitState(id="g", hex="0201", road_mode=True), "a": "0301"})
    r = ok(b, s, attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (4, "2-1")  # 7 -> 4 (3.5 up)


@pytest.mark.rule("AO-11.h")
def test_west_wall_rough_hex_triples_the_german_defender() -> None:
    b = board(make_map(". w . ."), [unit("g", strength=4), unit("a", "allied", strength=12)])
    r = ok(b, cpos({"a": "0101", "g": "0201"}, side="allied"), attack(["a"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (12, "1-1")


@pytest.mark.rule("AO-11.i")
def test_fortified_terrain_doubles_german_defence_only() -> None:
    m = make_map(". F . .")
    # a German attacking out of the fortified hex is not doubled (the chart: "on defense")
    b = board(m, [unit("g", strength=4), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (4, "1-1")
    # an Allied unit defending it gets nothing
    r2 = ok(b, cpos({"g": "0101", "a": "0201"}), attack(["g"], ["0201"]))
    assert declared(r2).defence == 4


@pytest.mark.rule("AO-4.2d")
@pytest.mark.rule("AO-11.h")
def test_gt1_german_attacking_out_of_the_west_wall_is_never_more_than_tripled() -> None:
    b = board(make_map(". W . ."), [unit("g", strength=4), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}, turn=1), attack(["g"], ["0301"]))
    assert (declared(r).attack, declared(r).column) == (12, "3-1")  # not 24 (x2 x3)


@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-11.h")
@pytest.mark.rule("AO-11.i")
def test_gt1_german_defending_the_west_wall_or_fortified_terrain_is_tripled_only() -> None:
    b = board(
        make_map(". W . F ."),
        [
            unit("g", strength=4),
            unit("g2", strength=4),
            unit("a", "allied", strength=12),
            unit("a2", "allied", strength=12),
        ],
    )
    s = cpos({"a": "0101", "g": "0201", "g2": "0401", "a2": "0501"}, turn=1, side="allied")
    assert declared(ok(b, s, attack(["a"], ["0201"]))).defence == 12  # not 36
    assert declared(ok(b, s, attack(["a2"], ["0401"]))).defence == 12  # not 24


@pytest.mark.rule("AO-4.2b")
@pytest.mark.rule("AO-4.2d")
def test_gt1_every_german_is_supplied_so_none_attacks_at_zero() -> None:
    # the Supply Judgment of GT1 marks g supplied although it is ringed in (AO-4.2b): its
    # attack is 4 x 3 = 12 (isolated would be 0: no attack)
    m = make_map("x . . .")
    b = board(m, [unit("g", strength=4), unit("a", "allied", strength=4)])
    s = position({"g": "0201", "a": "0301"}, turn=1, phase="supply_judgment")
    s = ended(b, s)  # Initial Movement lost (AO-4.2c): Combat
    assert s.phase == "combat" and s.unit("g").supply == "supplied"
    r = ok(b, s, attack(["g"], ["0301"]))
    assert declared(r).attack == 12


@pytest.mark.rule("AO-12.6")
def test_an_isolated_unit_may_not_join_an_attack() -> None:
    b = board(
        LINE,
        [unit("g", strength=8), unit("h", mech=True, strength=8), unit("a", "allied", strength=4)],
    )
    s = cpos({"g": "0201", "h": UnitState(id="h", hex="0201", supply="isolated"), "a": "0301"})
    assert refused(b, s, attack(["g", "h"], ["0301"])) == "AO-12.6"


# -- AO-9.4L voluntary reduction -----------------------------------------------------------------


@pytest.mark.rule("AO-9.4L")
@pytest.mark.rule("AO-9.4L*")
def test_voluntary_reduction_and_the_german_two_to_one_floor() -> None:
    b = board(LINE, [unit("g", strength=20), unit("a", "allied", strength=4)])
    s = cpos({"g": "0201", "a": "0301"})
    assert refused(b, s, attack(["g"], ["0301"], odds="1-1")) == "AO-9.4L*"  # 5-1 to 1-1
    assert refused(b, s, attack(["g"], ["0301"], odds="6-1")) == "AO-9.4L"  # above real odds
    done = fight(b, s, ["g"], ["0301"], [1], odds="2-1")  # Initial 2-1 die 1: Dr2 (5-1: Ex)
    assert (resolved(done).column, resolved(done).result) == ("2-1", "Dr2")
    assert done.state.unit("a").hex == "0501" and done.state.unit("g").status == "on_map"
    # the German at real odds of 1-1 may attack at 1-1, never reduce to 1-2
    b2 = board(LINE, [unit("g", strength=4), unit("a", "allied", strength=4)])
    s2 = cpos({"g": "0201", "a": "0301"})
    assert isinstance(apply(b2, s2, attack(["g"], ["0301"], odds="1-1")), Applied)
    assert refused(b2, s2, attack(["g"], ["0301"], odds="1-2")) == "AO-9.4L*"
    # the Allied player may go down to 1-2: 12-4 (3-1) on 1-2, Standard die 1: Ar1
    b3 = board(LINE, [unit("a", "allied", strength=12), unit("g", strength=4)])
    done3 = fight(b3, cpos({"a": "0201", "g": "0301"}, side="allied"), ["a"], ["0301"], [1], "1-2")
    assert (resolved(done3).column, resolved(done3).result) == ("1-2", "Ar1")
    assert done3.state.unit("a").hex == "0101"


# -- AO-9.1 / 9.2 who attacks whom ----------------------------------------------------------------


@pytest.mark.rule("AO-9.1C")
def test_a_unit_retreated_alone_may_not_be_attacked_again() -> None:
    # g2 in Road Mode controls only its own hex (AO-6.6J), so a may retreat next to it
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g1", strength=8), unit("g2", strength=4), unit("a", "allied")])
    s = cpos({"g1": "0101", "a": "0201", "g2": UnitState(id="g2", hex="0401", road_mode=True)})
    done = fight(b, s, ["g1"], ["0201"], [2])  # 8-4 2-1, Initial die 2: Dr1 -> 0301
    assert retreats(done) == [("a", ("0301",))]
    # a was attacked once already and is in no stack: a second attack breaks AO-9.1C
    assert refused(b, done.state, attack(["g2"], ["0301"])) == "AO-9.1C"


@pytest.mark.rule("AO-9.1C")
@pytest.mark.rule("AO-9.2D")
def test_a_multi_hex_attack_may_not_include_a_hex_already_attacked() -> None:
    grid = make_map(
        """
        . . . .
        . . . .
        """
    )
    # 0201 (odd row) is adjacent to 0301 (E) and 0202 (SE)
    b = board(
        grid,
        [
            unit("g", strength=16),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    s = cpos({"g": "0201", "g2": "0302", "a1": "0301", "a2": "0202"})
    s1 = ok(b, s, attack(["g2"], ["0202"])).state
    assert refused(b, s1, attack(["g"], ["0301", "0202"])) == "AO-9.1C"
    # both defending hexes count together: 16 against 4 + 4 is 2-1
    r = ok(b, s, attack(["g"], ["0301", "0202"]))
    assert (declared(r).defence, declared(r).column) == (8, "2-1")


# -- AO-10.1 results ------------------------------------------------------------------------------


@pytest.mark.rule("AO-10.1a")
@pytest.mark.rule("AO-10.0a")
def test_standard_ar3_retreats_the_attacker_three_hexes() -> None:
    # 2-4 is 1-2; Standard die 4: Ar3 - a from 0501 to 0201
    b = board(LINE, [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0501", "g": "0601"}, side="allied"), ["a"], ["0601"], [4])
    assert (resolved(done).table, resolved(done).result) == ("standard", "Ar3")
    assert retreats(done) == [("a", ("0401", "0301", "0201"))]


@pytest.mark.rule("AO-10.1b")
@pytest.mark.rule("AO-12.6")
def test_exchange_counts_the_defenders_face_value_not_their_halved_defence() -> None:
    # a (10) ringed in 0201 (0101 impassable, 0301 German): isolated, defends 5.
    # 6 + 5 + 12 = 23 against 5 is 4-1, Initial die 1: Ex. The attacker must lose at least 10
    # printed points: {g3} (12) or {g1, g2} (11) - not a single 5 or 6.
    m = make_map("x . . .")
    b = board(
        m,
        [
            unit("g1", strength=6),
            unit("g2", strength=5),
            unit("g3", strength=12),
            unit("a", "allied", strength=10),
        ],
    )
    s = cpos({"g1": "0301", "g2": "0301", "g3": "0301", "a": "0201"})
    done = fight(b, s, ["g1", "g2", "g3"], ["0201"], [1])
    assert (resolved(done).defence, resolved(done).result) == (5, "Ex")
    d = pending_decision(b, done.state)
    assert d is not None and d.kind == "losses" and d.need == 10
    assert set(d.choices) == {("g3",), ("g1", "g2")}
    assert refused(b, done.state, ChooseLosses(units=("g1",))) == "AO-10.1b"
    after = ok(b, done.state, ChooseLosses(units=("g1", "g2"))).state
    assert after.vp == VictoryPoints(german=1, allied=2)  # AO-16.A: one point per unit


@pytest.mark.rule("AO-10.1b")
def test_exchange_counts_an_unsupplied_attackers_face_value() -> None:
    # unsupplied Allied u (12), v (1), w (1) in one hex: 14 halved as a stack, 7; the German
    # g (2) ringed in 0201 (0101 impassable): isolated, 2 -> 1. The Ex needs 2 printed points:
    # {u} (printed 12, though it attacked at half) or {v, w}.
    m = make_map("x . . .")
    b = board(
        m,
        [
            unit("u", "allied", strength=12),
            unit("v", "allied", strength=1),
            unit("w", "allied", strength=1),
            unit("g", strength=2),
        ],
    )
    s = cpos(
        {
            "u": UnitState(id="u", hex="0301", supply="unsupplied"),
            "v": UnitState(id="v", hex="0301", supply="unsupplied"),
            "w": UnitState(id="w", hex="0301", supply="unsupplied"),
            "g": "0201",
        },
        side="allied",
    )
    done = fight(b, s, ["u", "v", "w"], ["0201"], [1])
    # 14 -> 7 against 1: 7-1, Standard die 1: Ex
    assert (resolved(done).attack, resolved(done).defence) == (7, 1)
    assert resolved(done).result == "Ex"
    d = pending_decision(b, done.state)
    assert d is not None and d.need == 2
    assert set(d.choices) == {("u",), ("v", "w")}


@pytest.mark.rule("AO-10.1c")
@pytest.mark.rule("AO-11.f")
@pytest.mark.rule("AO-16.A")
def test_de_eliminates_defenders_in_a_town_immunity_or_not() -> None:
    m = make_map(". . . . .", towns={"T": "0301"})
    b = board(m, [unit("g", strength=24), unit("a", "allied", strength=4)])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), StandingOrders(side="allied")).state
    done = fight(b, s, ["g"], ["0301"], [1])  # 24-4 6-1, Initial die 1: De
    assert resolved(done).result == "De"
    assert done.state.unit("a").status == "eliminated"
    assert done.state.vp == VictoryPoints(german=1, allied=0)


# -- AO-11.f* immunity and its waiver -------------------------------------------------------------


@pytest.mark.rule("AO-11.f*")
@pytest.mark.rule("AO-11.f")
def test_immunity_can_no_longer_be_waived_once_the_die_is_rolled() -> None:
    m = make_map(". . . . . .", towns={"T": "0301"})
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    s = ok(b, cpos({"g": "0201", "a": "0301"}), attack(["g"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [2]).state
    kept = ok(b, p, WaiveImmunity(), [2])  # 2-1 die 2: Dr1, ignored in the town
    assert ResultIgnored(unit="a", hex="0301", case="AO-11.f") in kept.events
    # the result is known: too late to waive (and nothing is pending)
    late = apply(b, kept.state, WaiveImmunity(hexes=("0301",)), ScriptedDice([1]))
    assert isinstance(late, Rejection)
    assert kept.state.unit("a").hex == "0301"


@pytest.mark.rule("AO-11.f*")
@pytest.mark.rule("AO-11.h")
def test_the_german_is_asked_to_waive_west_wall_immunity_before_the_die() -> None:
    b = board(make_map(". . W . . ."), [unit("a", "allied", strength=24), unit("g", strength=2)])
    s = ok(b, cpos({"a": "0201", "g": "0301"}, side="allied"), attack(["a"], ["0301"])).state
    p = ok(b, s, ResolveAttacks(), [1])
    d = p.state.combat.pending
    assert d is not None and (d.side, d.kind) == ("german", "waive_immunity")
    assert p.state.dice_drawn == 0
    # waived: 24-6 4-1, Standard die 1: Dr3 - g goes three hexes east
    done = ok(b, p.state, WaiveImmunity(hexes=("0301",)), [1])
    assert resolved(done).result == "Dr3" and done.state.unit("g").hex == "0601"


@pytest.mark.rule("AO-11.f")
def test_an_allied_attacker_in_a_town_ignores_ar() -> None:
    m = make_map(". . . . .", towns={"T": "0301"})
    b = board(m, [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0301", "g": "0401"}, side="allied"), ["a"], ["0401"], [4])
    assert resolved(done).result == "Ar3"  # Standard 1-2 die 4
    assert ResultIgnored(unit="a", hex="0301", case="AO-11.f") in done.events
    assert done.state.unit("a").hex == "0301"


# -- AO-10.2 retreats ----------------------------------------------------------------------------

G3 = """
. . . . . .
. . . . . .
. . . . . .
"""


@pytest.mark.rule("AO-10.2a")
def test_retreating_to_a_road_hex_ranks_first_even_off_the_road_hexside() -> None:
    # g in 0202 controls 0301 and 0303; a in 0302 may go to 0401, 0402 or 0403, all clear.
    # 0402 is a road hex (road 0402-0502) but the hexside 0302/0402 carries no road:
    # retreating "to a road" is the first priority, so 0402 is the only best path.
    m = make_map(G3, roads=["0402-0502"])
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    r = fight(b, cpos({"g": "0202", "a": "0302"}), ["g"], ["0302"], [2])  # 2-1 die 2: Dr1
    assert retreats(r) == [("a", ("0402",))]


@pytest.mark.rule("AO-7.3D")
@pytest.mark.rule("AO-7.2B")
@pytest.mark.rule("AO-10.2a")
def test_retreat_into_enemy_zoc_only_where_a_friend_negates_it() -> None:
    # a in 0302, attacked by g in 0202; 0301/0303 are in g's ZOC, 0401/0402/0403 free.
    # A friend in 0303 negates the ZOC there (AO-7.2B, the engine's reading of 7.3D).
    m = make_map(G3)
    b = board(m, [unit("g", strength=8), unit("a", "allied"), unit("f", "allied")])
    s = cpos({"g": "0202", "a": "0302", "f": "0303"})
    s = ok(b, s, StandingOrders(side="german", retreat="ask")).state
    r = fight(b, s, ["g"], ["0302"], [2])
    d = r.state.combat.pending
    assert d is not None and d.kind == "retreat"
    assert set(d.choices) == {("0401",), ("0402",), ("0403",)}  # fewest friends first
    assert ("0301",) not in d.choices


@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-11.g")
@pytest.mark.rule("AO-16.A")
def test_never_into_impassable_full_distance_or_eliminated() -> None:
    # a in 0201 ringed by g (0101) and the impassable 0301: isolated, defends 2.
    # 8-2 4-1, Initial die 4: Dr2 - no way out: eliminated, 1 VP to the German
    b = board(line_map(". . x . ."), [unit("g", strength=8), unit("a", "allied")])
    done = fight(b, cpos({"g": "0101", "a": "0201"}), ["g"], ["0201"], [4])
    assert (resolved(done).defence, resolved(done).result) == (2, "Dr2")
    assert UnitEliminated(unit="a", hex="0201", case="AO-10.2b") in done.events
    assert done.state.vp == VictoryPoints(german=1, allied=0)
    # two rows: 0201's neighbours are 0101 (g), 0301 (impassable), 0102 (g's ZOC), 0202.
    # Dr2 by the most direct path: 0202, then 0302 (0102 would come back to distance 1)
    m = make_map(
        """
        . . x . .
        . . . . .
        """
    )
    b2 = board(m, [unit("g", strength=8), unit("a", "allied")])
    done2 = fight(b2, cpos({"g": "0101", "a": "0201"}), ["g"], ["0201"], [1])
    assert (resolved(done2).defence, resolved(done2).result) == (4, "Dr2")
    assert retreats(done2) == [("a", ("0202", "0302"))]


@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_through_a_full_stack_eliminates() -> None:
    # a (0201), Dr2: the only direct path is 0301 (three Allied regiments) then 0401
    b = board(LINE, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)])
    s = cpos({"g": "0101", "a0": "0201", "a1": "0301", "a2": "0301", "a3": "0301"})
    done = fight(b, s, ["g"], ["0201"], [1])  # 8-4 2-1, Initial die 1: Dr2
    assert resolved(done).result == "Dr2"
    assert done.state.unit("a0").status == "eliminated"


@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-10.2b")
@pytest.mark.rule("AO-16.A")
def test_a_retreat_ending_overstacked_eliminates_with_vp() -> None:
    b = board(LINE, [unit("g", strength=8)] + [unit(f"a{i}", "allied") for i in range(4)])
    s = cpos({"g": "0101", "a0": "0201", "a1": "0401", "a2": "0401", "a3": "0401"})
    done = fight(b, s, ["g"], ["0201"], [1])  # Dr2: 0301 then 0401, which holds three
    assert UnitEliminated(unit="a0", hex="0201", case="AO-8.0") in done.events
    assert done.state.vp == VictoryPoints(german=1, allied=0)


@pytest.mark.rule("AO-8.2C")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_ending_on_a_german_infantry_division_eliminates() -> None:
    b = board(LINE, [unit("a", "allied", strength=8), unit("g", strength=2), unit("d", size="XX")])
    s = cpos({"a": "0101", "g": "0201", "d": "0301"}, side="allied")
    done = fight(b, s, ["a"], ["0201"], [6])  # 8-2 4-1, Standard die 6: Dr1 - onto d
    assert resolved(done).result == "Dr1"
    assert done.state.unit("g").status == "eliminated"
    assert done.state.vp == VictoryPoints(german=0, allied=1)


@pytest.mark.rule("AO-8.2C")
@pytest.mark.rule("AO-10.2b")
def test_a_retreat_through_a_german_infantry_division_eliminates() -> None:
    b = board(LINE, [unit("a", "allied", strength=8), unit("g", strength=2), unit("d", size="XX")])
    s = cpos({"a": "0101", "g": "0201", "d": "0301"}, side="allied")
    done = fight(b, s, ["a"], ["0201"], [1])  # 8-2 4-1, Standard die 1: Dr3 through d
    assert resolved(done).result == "Dr3"
    assert done.state.unit("g").status == "eliminated"


@pytest.mark.rule("AO-9.7P")
@pytest.mark.rule("AO-5.3M")
@pytest.mark.rule("AO-16.A")
def test_allied_dr2_onto_the_edge_stops_there_dormant_and_scores_nothing() -> None:
    m = line_map("e . . . .")
    b = board(m, [unit("g", strength=8), unit("a", "allied")])
    done = fight(b, cpos({"g": "0301", "a": "0201"}), ["g"], ["0201"], [1])  # 2-1 die 1: Dr2
    assert resolved(done).result == "Dr2"
    assert retreats(done) == [("a", ("0101",))]
    assert done.state.unit("a").status == "dormant" and done.state.vp == VictoryPoints()


@pytest.mark.rule("AO-5.3M")
def test_dormant_units_reactivate_at_the_allied_movement_phase_next_to_a_live_unit() -> None:
    m = line_map("e . . . .")
    b = board(m, [unit("a", "allied"), unit("f", "allied"), unit("g")])
    dormant = UnitState(id="a", hex="0101", status="dormant")
    s = position({"a": dormant, "f": "0201", "g": "0501"}, side="allied", phase="supply_judgment")
    assert ended(b, s).unit("a").status == "on_map"
    s2 = position({"a": dormant, "f": "0301", "g": "0501"}, side="allied", phase="supply_judgment")
    assert ended(b, s2).unit("a").status == "dormant"


@pytest.mark.rule("AO-5.3N")
@pytest.mark.rule("AO-16.A")
def test_a_german_with_a_live_path_is_not_eliminated_by_an_edge_next_to_it() -> None:
    m = make_map(
        """
        e . . .
        . . . .
        """
    )
    b = board(m, [unit("a", "allied", strength=8), unit("g")])
    # g in 0201: one away are 0101 (edge: never), 0102 and 0202 (0202 in a's ZOC from 0301)
    done = fight(b, cpos({"a": "0301", "g": "0201"}, side="allied"), ["a"], ["0201"], [2])
    assert resolved(done).result == "Dr1"  # Standard 2-1 die 2
    assert retreats(done) == [("g", ("0102",))]
    assert done.state.vp == VictoryPoints()


@pytest.mark.rule("AO-6.7M")
def test_a_road_mode_retreat_may_not_pass_a_friend_on_the_road() -> None:
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g", strength=4), unit("a", "allied"), unit("f", "allied")])
    s = cpos({"g": "0101", "a": UnitState(id="a", hex="0201", road_mode=True), "f": "0301"})
    done = fight(b, s, ["g"], ["0201"], [1])  # 4-2 2-1, Initial die 1: Dr2 through f
    assert resolved(done).result == "Dr2"
    assert UnitEliminated(unit="a", hex="0201", case="AO-6.7M") in done.events


@pytest.mark.rule("AO-9.2F*")
@pytest.mark.rule("AO-10.1a")
def test_a_unit_retreated_into_a_stack_retreats_with_it_on_a_later_dr() -> None:
    b = board(
        LINE,
        [
            unit("g1", strength=8),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    # g1 8-4 2-1 die 2: Dr1, a1 to 0301 (a2's hex)
    s = cpos({"g1": "0101", "a1": "0201", "a2": "0301", "g2": "0501"})
    s = fight(b, s, ["g1"], ["0201"], [2]).state
    assert s.unit("a1").hex == "0301"
    # g2 can't reach 0301 (0401 between); move nothing - attack from 0401 instead
    s = s.replace_units([UnitState(id="g2", hex="0401")])
    r = ok(b, s, attack(["g2"], ["0301"]))
    # a2 only counts; 0301 ringed by 0201 (g1's ZOC) and g2 in 0401: isolated, 4 -> 2
    assert (declared(r).defence, declared(r).column) == (2, "4-1")
    done = ok(b, r.state, ResolveAttacks(), [3])  # Initial 4-1 die 3: Dr3
    assert resolved(done).result == "Dr3"
    # both are eliminated: the only exits are German-held or German-controlled
    assert {done.state.unit(u).status for u in ("a1", "a2")} == {"eliminated"}


# -- AO-9.6N advance after combat -----------------------------------------------------------------


@pytest.mark.rule("AO-9.6N")
def test_only_a_mechanized_participant_advances_and_only_one() -> None:
    b = board(
        LINE,
        [
            unit("m", mech=True, strength=8),
            unit("n", mech=True, strength=4),
            unit("a", "allied"),
        ],
    )
    # n is in the attacker's hex but did not take part
    s = cpos({"m": "0201", "n": "0201", "a": "0301"})
    done = fight(b, s, ["m"], ["0301"], [2])  # 2-1 die 2: Dr1
    d = done.state.combat.pending
    assert d is not None and (d.kind, d.choices) == ("advance", (("m",),))
    assert refused(b, done.state, Advance(hex="0301", unit="n")) == "AO-9.6N"
    after = ok(b, done.state, Advance(hex="0301", unit="m")).state
    assert after.unit("m").hex == "0301" and after.combat.pending is None


# -- AO-10.3a CRT switch --------------------------------------------------------------------------


@pytest.mark.rule("AO-10.3a")
def test_the_switch_roll_goes_on_each_turn_until_a_one() -> None:
    b = board(LINE, [unit("g"), unit("a", "allied", strength=4)])
    s = position({"g": "0101", "a": "0801"}, turn=6, side="allied", phase="mechanized_movement")
    r = ok(b, s, EndPhase(), [4])  # GT7 begins: still Initial, rolled again
    assert (r.state.turn, r.state.german_crt, r.state.dice_drawn) == (7, "initial", 1)
    r2 = ok(b, s, EndPhase(), [1])
    assert r2.state.german_crt == "standard"


# -- AO-12 / AO-13 supply and interdiction in combat ----------------------------------------------


@pytest.mark.rule("AO-12.1A")
@pytest.mark.rule("AO-12.4K")
@pytest.mark.rule("AO-12.3H")
@pytest.mark.rule("AO-12.3J")
def test_defender_supply_is_traced_at_the_moment_of_combat() -> None:
    # Allied source: the road exit hexside 0101(edge)/0201; road 0101-0201-0301-0401.
    # a in 0601 reaches the road hex 0401 in two steps (0501, 0401): supplied, defends 4.
    m = make_map("e . . . . . . . .", roads=["0101-0201-0301-0401"])
    b = board(m, [unit("g", strength=8), unit("g2"), unit("a", "allied", strength=4)])
    r = ok(b, cpos({"a": "0601", "g": "0701"}), attack(["g"], ["0601"]))
    assert declared(r).defence == 4
    # g2 on the road in 0401: 0401 enemy-held, 0501 controlled - no path; a is ringed by
    # 0501 (ZOC) and 0701 (g), four hexes from the exit hexside: isolated, 4 -> 2
    r2 = ok(b, cpos({"a": "0601", "g": "0701", "g2": "0401"}), attack(["g"], ["0601"]))
    assert declared(r2).defence == 2
    # the same ring three hexes from the exit hexside (0501 to 0201): never isolated
    r3 = ok(b, cpos({"a": "0501", "g": "0601", "g2": "0301"}), attack(["g"], ["0501"]))
    assert declared(r3).defence == 4


@pytest.mark.rule("AO-13.4E")
@pytest.mark.rule("AO-13.1A")
def test_gt1_allied_units_spare_bridges_behind_the_german_side() -> None:
    # no start line on this map: every hex floods from the east edge, all German side
    m = make_map(". . . . E", bridges=["0201/0301"], roads=["0101-0201-0301-0401-0501"])
    b = board(m, [unit("g"), unit("a", "allied")])
    s = position({"a": "0101", "g": "0501"}, turn=1)
    assert interdiction_for(b, s, "german", 1) == ()
    assert interdiction_for(b, s, "german", 2) == (("0201", "0301"),)
    # German units interdict on GT1 as usual (for the Allied side)
    assert interdiction_for(b, s, "allied", 1) == (("0201", "0301"),)


@pytest.mark.rule("AO-13.1A")
@pytest.mark.rule("AO-13.3D")
@pytest.mark.rule("AO-13.2C")
def test_interdiction_range_road_mode_and_lifting() -> None:
    m = line_map(". . . . . . . . .", bridges=["0101/0201"])
    b = board(m, [unit("g"), unit("a", "allied")])
    # 0201 is three hexes from 0501, four from 0601
    near = position({"a": "0501", "g": "0901"})
    far = position({"a": "0601", "g": "0901"})
    assert interdiction_for(b, near, "german", 2) == (("0101", "0201"),)
    assert interdiction_for(b, far, "german", 2) == ()
    rm = position({"a": UnitState(id="a", hex="0501", road_mode=True), "g": "0901"})
    assert interdiction_for(b, rm, "german", 2) == ()
    # lifted at the end of the player-turn only when the enemy is out of range
    stored = position({"a": "0601", "g": "0901"}, interdicted_german=["0101/0201"])
    assert lift_interdiction(b, stored, "german") == ()
    stored2 = position({"a": "0501", "g": "0901"}, interdicted_german=["0101/0201"])
    assert lift_interdiction(b, stored2, "german") == (("0101", "0201"),)


# -- replay -------------------------------------------------------------------------------------


def test_same_log_and_dice_give_the_same_hashes() -> None:
    b = board(
        LINE,
        [unit("g", mech=True, strength=8), unit("h", strength=8), unit("a", "allied")],
    )
    s0 = cpos({"g": "0201", "a": "0301", "h": "0601"})
    log: list[Command] = [
        StandingOrders(side="german", advance="strongest"),
        attack(["g"], ["0301"]),
        ResolveAttacks(),
        EndPhase(),
    ]
    h1 = replay_hashes(b, s0, log, ScriptedDice([2, 5, 3]))
    h2 = replay_hashes(b, s0, log, ScriptedDice([2, 5, 3]))
    assert h1 == h2
    assert h1[-1] != state_hash(s0)
    h3 = replay_hashes(b, s0, log, ScriptedDice([1, 5, 3]))  # Dr2, not Dr1
    assert h3[2] != h1[2]


@pytest.mark.rule("AO-9.6N")
@pytest.mark.rule("AO-9.2G")
@pytest.mark.rule("AO-10.1a")
def test_ar_leaves_non_attacking_stack_mates_so_the_hex_is_not_cleared() -> None:
    # g (2) attacks from 0401 with h (not attacking) beside it; 2-4 1-2, Initial die 4: Ar2.
    # g goes back to 0201; h stays, so the defender's mech unit may not advance.
    b = board(LINE, [unit("g", strength=2), unit("h"), unit("a", "allied", mech=True)])
    done = fight(b, cpos({"g": "0401", "h": "0401", "a": "0501"}), ["g"], ["0501"], [4])
    assert resolved(done).result == "Ar2"
    assert done.state.unit("g").hex == "0201" and done.state.unit("h").hex == "0401"
    assert done.state.combat.pending is None and done.state.unit("a").hex == "0501"


@pytest.mark.rule("AO-9.6N")
@pytest.mark.rule("AO-10.1b")
def test_after_an_exchange_a_surviving_mechanized_attacker_may_advance() -> None:
    # m (mech 4) + i (12) against a (4, open hex: 0401 free): 16-4 4-1, Initial die 1: Ex.
    # The loss must reach 4 printed points: {m} or {i}; losing i leaves m to advance.
    b = board(LINE, [unit("m", mech=True, strength=4), unit("i", strength=12), unit("a", "allied")])
    done = fight(b, cpos({"m": "0201", "i": "0201", "a": "0301"}), ["m", "i"], ["0301"], [1])
    assert resolved(done).result == "Ex"
    d = pending_decision(b, done.state)
    assert d is not None and set(d.choices) == {("m",), ("i",)}
    after = ok(b, done.state, ChooseLosses(units=("i",))).state
    d2 = after.combat.pending
    assert d2 is not None and (d2.kind, d2.hex, d2.choices) == ("advance", "0301", (("m",),))
    assert ok(b, after, Advance(hex="0301", unit="m")).state.unit("m").hex == "0301"


@pytest.mark.rule("AO-4.2h*")
@pytest.mark.rule("AO-4.2d")
def test_gt1_a_german_next_to_two_americans_may_attack_either() -> None:
    # g1 0101 | a1 0201 | g2 0301 | a2 0401 | g3 0501: g2 joins the attack on a2
    b = board(
        line_map(". . . . . . ."),
        [unit("g1"), unit("g2"), unit("g3"), unit("a1", "allied"), unit("a2", "allied")],
    )
    s = position(
        {"g1": "0101", "a1": "0201", "g2": "0301", "a2": "0401", "g3": "0501"},
        turn=1,
        phase="supply_judgment",
    )
    s = ended(b, s)
    assert s.phase == "combat"
    # g1 alone on a1 (12 against a1 ringed in, isolated 2: 6-1; die 4: Dr3, no way out)
    s1 = fight(b, s, ["g1"], ["0201"], [4]).state
    assert s1.unit("a1").status == "eliminated"
    # g2 + g3 on a2 (24 against 2: 9-1; die 4: De)
    s2 = fight(b, s1, ["g2", "g3"], ["0401"], [4]).state
    assert s2.unit("a2").status == "eliminated"
    assert ended(b, s2).phase == "mechanized_movement"


@pytest.mark.rule("AO-13.2C")
@pytest.mark.rule("AO-13.5F")
def test_the_end_of_the_german_player_turn_lifts_only_his_own_interdiction() -> None:
    # bridge 0101/0201: the Allied a in 0601 is four hexes from 0201 (out of range), the
    # German g in 0401 two hexes (in range). At the end of the German player-turn the
    # bridges interdicted for the German are lifted; those interdicted for the Allies stay.
    m = line_map(". . . . . . . . .", bridges=["0101/0201"])
    b = board(m, [unit("g"), unit("a", "allied")])
    s = position(
        {"a": "0601", "g": "0401"},
        phase="mechanized_movement",
        interdicted_german=["0101/0201"],
        interdicted_allied=["0101/0201"],
    )
    after = ended(b, s)
    assert (after.side, after.phase) == ("allied", "reinforcement")
    assert after.interdicted.german == ()
    assert after.interdicted.allied == (("0101", "0201"),)
    # with the Allied unit in range (0501: three hexes) the German's interdiction stays
    s2 = position(
        {"a": "0501", "g": "0401"},
        phase="mechanized_movement",
        interdicted_german=["0101/0201"],
    )
    assert ended(b, s2).interdicted.german == (("0101", "0201"),)


@pytest.mark.rule("AO-6.6J")
@pytest.mark.rule("AO-7.3D")
def test_a_road_mode_enemy_does_not_block_a_retreat_next_to_it() -> None:
    # g2 in Road Mode in 0401 controls only 0401: a (Dr1 from 0201) may stop in 0301
    m = line_map(". . . . . .", roads=["0101-0201-0301-0401-0501-0601"])
    b = board(m, [unit("g1", strength=8), unit("g2"), unit("a", "allied")])
    s = cpos({"g1": "0101", "a": "0201", "g2": UnitState(id="g2", hex="0401", road_mode=True)})
    done = fight(b, s, ["g1"], ["0201"], [2])  # 8-4 2-1, Initial die 2: Dr1
    assert retreats(done) == [("a", ("0301",))]
    # g2 in normal mode controls 0301: a is ringed in (isolated, 2), 8-2 4-1, Initial
    # die 6: Dr1 - nowhere to go but the controlled 0301: eliminated (AO-7.3D)
    s2 = cpos({"g1": "0101", "a": "0201", "g2": "0401"})
    done2 = fight(b, s2, ["g1"], ["0201"], [6])
    assert resolved(done2).result == "Dr1"
    assert UnitEliminated(unit="a", hex="0201", case="AO-7.3D") in done2.events


@pytest.mark.rule("AO-11.h")
def test_an_allied_attacker_in_the_west_wall_gets_no_doubling_and_no_immunity() -> None:
    # a (2) in the West Wall 0201 attacks g (4) in the open: 2-4 1-2, Standard die 4: Ar3
    b = board(make_map(". . . W . . ."), [unit("a", "allied", strength=2), unit("g", strength=4)])
    done = fight(b, cpos({"a": "0401", "g": "0501"}, side="allied"), ["a"], ["0501"], [4])
    assert (resolved(done).attack, resolved(done).result) == (2, "Ar3")
    assert done.state.unit("a").hex == "0101"


@pytest.mark.rule("AO-12.3H")
def test_a_ringed_defender_near_a_supplied_friend_is_only_unsupplied() -> None:
    # road 0101(edge)-0201-0301-0401; a in 0601 ringed by g2 (0501) and g (0701), no path.
    # f in 0301 is on the road, supplied, three hexes from a: a is not isolated, defends 4.
    m = make_map("e . . . . . . . .", roads=["0101-0201-0301-0401"])
    b = board(
        m,
        [unit("g", strength=8), unit("g2"), unit("a", "allied", strength=4), unit("f", "allied")],
    )
    r = ok(b, cpos({"a": "0601", "g": "0701", "g2": "0501", "f": "0301"}), attack(["g"], ["0601"]))
    assert declared(r).defence == 4
    r2 = ok(b, cpos({"a": "0601", "g": "0701", "g2": "0501"}), attack(["g"], ["0601"]))
    assert declared(r2).defence == 2


@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-4.2b")
def test_gt1_a_ringed_german_defends_supplied_and_tripled() -> None:
    # g (4) ringed by the impassable 0101 and the Allied a: on GT1 every German is supplied
    # (AO-4.2b, the whole Game-Turn), so 4 x 3 = 12, not isolated (2 x 3 = 6)
    b = board(make_map("x . . ."), [unit("g", strength=4), unit("a", "allied", strength=12)])
    r = ok(b, cpos({"g": "0201", "a": "0301"}, turn=1, side="allied"), attack(["a"], ["0201"]))
    assert (declared(r).defence, declared(r).column) == (12, "1-1")


def test_real_map_gt1_attack_replays_to_the_same_hash() -> None:
    from rules.combat import attackable_hexes
    from rules.dice import SeededDice
    from tests.enginekit import scenario_gt1_german_combat

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
