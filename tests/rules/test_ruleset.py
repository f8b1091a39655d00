"""The generic core of the ruleset seam (issue 23): dice as ``uniform(index, n)``, the record's
ruleset field, the registry, and the AO's answers to the hooks email play needs (its dice
waits, standing orders, roll names, typed decisions)."""

from __future__ import annotations

import msgspec
import pytest

import rules
import rules.ao as ao
from rules import record, registry
from rules.ao.state import Decision, RollDue
from rules.dice import DiceError, DieRoll, ScriptedDice, SeededDice
from rules.ruleset import DiceWait
from tests.kit import records, tiny
from tests.kit.engine import board, line_map, position, unit

# -- dice ----------------------------------------------------------------------------------------
# SHA-256(b"ardennes-d6/1" + b"x" + index as 8 bytes) begins, for index 0: 228 45 ...;
# index 1: 254 182 248 202 98 ...; index 2: 253 154 ...


def test_uniform_draws_by_hand() -> None:
    dice = SeededDice(b"x")
    # d6: bytes >= 252 rejected, b % 6 + 1: 228 -> 1; (254) 182 -> 3; (253) 154 -> 5
    assert [dice.uniform(i, 6) for i in range(3)] == [1, 3, 5]
    # percent: bytes >= 200 rejected, b % 100 + 1: (228) 45 -> 46; (254 182? no: 254 248 202
    # rejected, 182 < 200) 182 -> 83; (253) 154 -> 55
    assert [dice.uniform(i, 100) for i in range(3)] == [46, 83, 55]
    # two faces: every byte accepted, 228 -> 1, 254 -> 1, 253 -> 2
    assert [dice.uniform(i, 2) for i in range(3)] == [1, 1, 2]


def test_the_d6_draws_are_unchanged() -> None:
    """``d6`` (every AO game so far) is ``uniform(index, 6)``, draw for draw."""
    dice = SeededDice(b"ardennes")
    assert [dice.d6(i) for i in range(500)] == [dice.uniform(i, 6) for i in range(500)]


def test_a_draw_has_one_to_256_faces() -> None:
    with pytest.raises(DiceError, match="a die has 1 to 256 faces, not 0"):
        SeededDice(b"x").uniform(0, 0)
    with pytest.raises(DiceError, match="not 257"):
        SeededDice(b"x").uniform(0, 257)
    assert SeededDice(b"x").uniform(0, 256) == 229


def test_scripted_dice_of_more_faces() -> None:
    pct = ScriptedDice([100, 7], faces=100)
    assert pct.uniform(0, 100) == 100 and pct.uniform(1, 10) == 7
    with pytest.raises(DiceError, match="scripted die 0 is 100: a 6-sided draw was asked"):
        pct.uniform(0, 6)
    with pytest.raises(DiceError, match="a d6 shows 1 to 6"):
        ScriptedDice([7])
    with pytest.raises(DiceError, match="the dice show 1 to 100"):
        ScriptedDice([101], faces=100)


# -- the record names its ruleset ------------------------------------------------------------


def test_an_ao_record_names_no_ruleset_and_reads_as_ao() -> None:
    data = records.record_bytes(1, 1)
    assert b'"ruleset"' not in data.split(b"\n", 1)[0]
    rec = record.decode(data)
    assert rec.ruleset == "ao"
    assert isinstance(rec.commands[0], ao.EndPhase)
    assert record.encode(rec) == data  # written back byte for byte


def test_a_record_of_an_unknown_ruleset_is_one_clear_error() -> None:
    # "irontide" (the fourth rule system, not built): "breakthrough" is registered now
    data = records.record_bytes(1, 1).replace(
        b'"kind":"header",', b'"kind":"header","ruleset":"irontide",', 1
    )
    with pytest.raises(record.RecordError, match="ruleset 'irontide', which this program"):
        record.decode(data)
    bad = data.replace(b'"irontide"', b'"Bad Id"', 1)
    with pytest.raises(record.RecordError, match="is not a ruleset id"):
        record.decode(bad)


def test_a_header_is_refused_before_its_ruleset_is_looked_up() -> None:
    """The ruleset is read from a header whose other fields are known (an unknown field, even
    deeply nested, is one line naming it, whatever the ruleset)."""
    deep = b'{"kind":"header","ruleset":"tiny","zz":' + b"[" * 60_000
    with pytest.raises(record.RecordError, match=r"the header is not a record line: .*`zz`"):
        record.decode(deep)
    with pytest.raises(record.RecordError, match="the header is not a record line: Expected `str`"):
        record.decode(b'{"kind":"header","ruleset":7}')


def test_the_registry() -> None:
    assert registry.get("ao") is ao.AO and registry.get("tiny") is tiny.TINY
    assert {"ao", "tiny"} <= set(registry.ids())
    registry.register(ao.AO)  # again: nothing changes
    with pytest.raises(ValueError, match="a ruleset 'tiny' is registered already"):
        registry.register(tiny.TinyRuleset())
    with pytest.raises(KeyError):
        registry.get("nope")


def test_the_deprecated_rules_version_is_the_aos() -> None:
    assert record.RULES_VERSION == ao.RULES_VERSION == ao.AO.version


def test_a_bound_game_refuses_another_ruleset() -> None:
    with pytest.raises(TypeError, match="Game plays ao, not tiny"):
        ao.Game.new(tiny.Board(), ruleset=tiny.TINY)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Game needs a ruleset"):
        rules.game.Game.new(tiny.Board())


# -- the AO's hooks --------------------------------------------------------------------------


def test_the_dice_an_ao_state_waits_on() -> None:
    b = board(line_map(". ."), [unit("de-1")])
    s = position({"de-1": "0101"})
    assert ao.AO.dice_wait(b, s) == DiceWait()
    switch = msgspec.structs.replace(s, roll=RollDue(purpose="crt_switch"))
    assert ao.AO.dice_wait(b, switch) == DiceWait("own", ao.Roll(), "crt_switch")
    drop = msgspec.structs.replace(s, roll=RollDue(purpose="paradrop", hex="0102"))
    assert ao.AO.dice_wait(b, drop) == DiceWait("batch", ao.Roll(), "paradrop")
    attack = msgspec.structs.replace(
        s,
        phase="combat",
        combat=msgspec.structs.replace(
            s.combat, declared=(ao.state.Attack(attackers=("de-1",), defenders=("0102",)),)
        ),
    )
    assert ao.AO.dice_wait(b, attack) == DiceWait(
        "batch", ao.ResolveAttacks(), "combat", extendable=True
    )
    assert ao.AO.batch_open(attack) and not ao.AO.batch_open(s)


def test_the_aos_standing_orders_and_roll_names() -> None:
    assert ao.AO.orders_side(ao.StandingOrders(side="allied")) == "allied"
    assert ao.AO.orders_side(ao.EndPhase()) is None
    names = [
        ao.AO.describe_roll(DieRoll(index=0, value=1, purpose=p))
        for p in ("combat:3512,3513", "crt_switch", "paradrop")
    ]
    assert names == ["the attack on 3512,3513", "the CRT switch", "the paratroop unit's survival"]


def test_the_ao_hides_nothing() -> None:
    b = board(line_map(". ."), [unit("de-1")])
    s = position({"de-1": "0101"})
    assert ao.AO.public_view(b, s, "allied") is s and ao.AO.revealed(b, s, s) == ()
    assert ao.AO.seal(ao.Move("de-1", ("0102",))) == ao.Move("de-1", ("0102",))


def test_decisions_typed_per_kind_carry_their_command() -> None:
    waive = ao.decisions.typed(
        Decision(
            side="allied", kind="waive_immunity", case="AO-11.f*", choices=(("0101",), ("0102",))
        )
    )
    assert isinstance(waive, ao.WaiveDecision) and waive.hexes == ("0101", "0102")
    assert (
        waive.answer(("0102",)) == ao.WaiveImmunity(("0102",)) and waive.command is ao.WaiveImmunity
    )
    losses = ao.decisions.typed(
        Decision(
            side="german", kind="losses", case="AO-10.1b", choices=(("b", "a"), ("c",)), need=4
        )
    )
    assert isinstance(losses, ao.LossesDecision)
    assert (losses.need, losses.units) == (4, ("a", "b", "c"))
    assert losses.answer(("c",)) == ao.ChooseLosses(("c",))
    retreat = ao.decisions.typed(
        Decision(
            side="german", kind="retreat", case="AO-10.2a", unit="us-1", choices=(("0102", "0103"),)
        )
    )
    assert isinstance(retreat, ao.RetreatDecision)
    assert retreat.answer(("0102", "0103")) == ao.ChooseRetreat("us-1", ("0102", "0103"))
    advance = ao.decisions.typed(
        Decision(side="german", kind="advance", case="AO-9.6N", hex="0102", choices=(("de-1",),))
    )
    assert isinstance(advance, ao.AdvanceDecision) and advance.units == ("de-1",)
    assert advance.answer("de-1") == ao.Advance("0102", "de-1") and advance.answer() == ao.Advance(
        "0102"
    )
    assert {k: c.__name__ for k, c in ao.decisions.COMMANDS.items()} == {
        "waive_immunity": "WaiveImmunity",
        "losses": "ChooseLosses",
        "retreat": "ChooseRetreat",
        "advance": "Advance",
    }
