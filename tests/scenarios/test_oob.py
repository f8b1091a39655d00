"""The order of battle: every counter, its size, type and values (scenarios/ardennes/oob.toml)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.ao.scenario import MECHANIZED_TYPES
from rules.ao.units import STACK_LIMIT
from scenarios.loader import load_oob, oob_entries

OOB = load_oob()

# Printed sizes in the errata schedules, written out by hand: (XX), (III), (x)/(X), (II).
PRINTED_SIZES = {
    "de-79-i": "XX", "de-167-i": "XX", "de-246-i": "XX", "de-9-i": "XX", "de-340-i": "XX",
    "de-2ss-a": "III", "de-3ss-ai": "III", "de-4ss-ai": "III", "de-9ss-a": "III",
    "de-19ss-ai": "III", "de-20ss-ai": "III", "de-8-ai": "III", "de-29-ai": "III",
    "de-1130-i": "III", "de-33-a": "III", "de-10-ai": "III", "de-11-ai": "III",
    "de-104-ai": "III", "de-115-ai": "III", "de-10ss-a": "III", "de-21ss-ai": "III",
    "de-22ss-ai": "III", "de-15-a": "III", "de-110-ai": "III", "de-111-ai": "III",
    "de-fe": "X", "de-fg": "X", "de-1-a": "X", "de-2-a": "X", "de-3-a": "X", "de-4-a": "X",
    "de-5-a": "X", "de-6-a": "X", "de-7-a": "X", "de-8-a": "X",
    "uk-129-i": "X", "uk-130-i": "X", "uk-214-i": "X", "uk-152-i": "X", "uk-153-i": "X",
    "uk-154-i": "X", "uk-71-i": "X", "uk-158-i": "X", "uk-160-i": "X", "uk-33-a": "X",
    "uk-29-a": "X", "uk-34-a": "X", "uk-68-i": "X", "uk-151-i": "X", "uk-231-i": "X",
    "fr-lt": "X", "us-401-g": "II",
}  # fmt: skip


def test_unit_counts() -> None:
    sides = Counter(u.side for u in OOB.values())
    # 25 Allied units on the map on 16 Dec + 94 in the historical schedule (the slowed one is a
    # subset); 39 German units on the map + 36 in the accelerated schedule (historical: 30).
    assert sides == {"allied": 119, "german": 75}


def test_ids_unique_and_sorted() -> None:
    ids = [e.id for e in oob_entries()]
    assert len(ids) == len(set(ids))
    assert list(OOB) == sorted(ids)


@pytest.mark.rule("AO-8.0")
@pytest.mark.rule("AO-8.2C")
def test_only_german_infantry_divisions_are_divisions() -> None:
    """German Volksgrenadier/infantry divisions are XX and stack alone; the rest are III/X/II."""
    for u in OOB.values():
        if u.size == "XX":
            assert u.side == "german" and u.type == "infantry", u.id
            assert u.stacking_points == STACK_LIMIT
        else:
            assert u.size in ("X", "III", "II"), u.id
            assert u.stacking_points == 1
    xx = sorted(u.designation for u in OOB.values() if u.size == "XX")
    reinforcing = ["79 i", "167 i", "246 i", "9 i", "340 i"]
    on_map = ["272 i", "326 i", "277 i", "62 i", "352 i", "276 i", "212 i"]
    assert xx == sorted([*on_map, *reinforcing])


@pytest.mark.rule("AO-8.0")
def test_sizes_as_printed_in_the_schedules() -> None:
    for uid, size in PRINTED_SIZES.items():
        assert OOB[uid].size == size, uid


def test_mechanized_follows_type() -> None:
    for u in OOB.values():
        assert u.mechanized == (u.type in MECHANIZED_TYPES), u.id


@pytest.mark.rule("AO-7.4E")
def test_sample_counters_exist() -> None:
    """The rules' own examples: a German 6-10 and an Allied 4-4."""
    values = {(u.side, u.strength, u.movement) for u in OOB.values()}
    assert ("german", 6, 10) in values
    assert ("allied", 4, 4) in values


@pytest.mark.rule("AO-5.2H")
def test_no_unit_can_stack_and_unstack_in_one_phase() -> None:
    """AO-5.2H: no unit has the MP to stack (+6/+2, AO-8.1A) and unstack again, entering
    and leaving at 1 MP each: MA < 2 x stacking cost + 2."""
    for u in OOB.values():
        stack_cost = 6 if u.mechanized else 2
        assert u.movement < 2 * stack_cost + 2, u.id


@pytest.mark.rule("AO-6.7L*")
@pytest.mark.rule("AO-6.3C")
def test_only_ma_twelve_can_leave_road_mode_unsupplied() -> None:
    """Errata 6.7L: a unit with MA under 12 cannot leave Road Mode unsupplied (MA halved,
    fractions dropped, AO-12.6; leaving costs 6 mech / 3 non-mech, AO-6.3C). So the best
    mechanized units have MA 12 and nothing more, and no non-mechanized unit can afford it."""
    for u in OOB.values():
        cost = 6 if u.mechanized else 3
        assert (u.movement // 2 >= cost) == (u.movement >= 12), u.id
        assert u.movement <= 12
    assert max(u.movement for u in OOB.values() if u.mechanized) == 12
    assert max(u.movement for u in OOB.values() if not u.mechanized) <= 5


@pytest.mark.rule("AO-6.7L*")
def test_an_engineer_regiment_is_weak_and_the_strongest_panzer_unit_is_german() -> None:
    """The errata's example pits 'the strongest German Panzer unit' against 'an American
    engineer regiment': engineers are the weakest counters, the strongest counter German armor."""
    engineers = [u for u in OOB.values() if u.type == "engineer"]
    assert engineers and all(u.strength == 1 for u in engineers)
    strongest = max(OOB.values(), key=lambda u: (u.strength, u.id))
    assert strongest.side == "german" and strongest.mechanized


def test_relative_values() -> None:
    """Relative strengths as in Breakthrough in the Ardennes: panzer regiments outweigh
    Volksgrenadier regiments; US regiments sit between; the SS spearheads are strongest."""

    def mean(pred: object) -> float:
        vals = [u.strength for u in OOB.values() if pred(u)]  # type: ignore[operator]
        return sum(vals) / len(vals)

    pz = mean(lambda u: u.side == "german" and u.mechanized and u.size == "III")
    vg = mean(lambda u: u.side == "german" and u.type == "infantry" and u.size == "III")
    us = mean(lambda u: u.nationality == "US" and u.type == "infantry")
    assert vg < us < pz
    assert OOB["de-1ss-a"].strength == 9  # Kampfgruppe Peiper, BitA 85


def test_oob_md_lists_every_counter() -> None:
    """scenarios/ardennes/oob.md documents every counter with its values."""
    import importlib.resources

    md = importlib.resources.files("scenarios").joinpath("ardennes", "oob.md").read_text("utf-8")
    for u in OOB.values():
        assert f"| `{u.id}` | {u.designation} |" in md, u.id
        row = md.split(f"| `{u.id}` |", 1)[1].split("\n", 1)[0]
        assert f"| {u.strength}-{u.movement} |" in row, u.id


def test_strengths_follow_the_bita_method() -> None:
    """Strength = Breakthrough in the Ardennes combat value / 10, rounded half up, summed over a
    division's regiments (oob.md, Method), wherever `basis` quotes BitA values."""
    import re

    checked = 0
    for e in oob_entries():
        m = re.search(r"BitA[^=]*= ([\d][\d +x]*)", e.basis)
        if m is None or "each" in e.basis or "; as " in e.basis:  # analogues, not BitA values
            continue
        expr = m.group(1).strip()
        if " x " in expr:
            value, times = (int(t) for t in expr.split(" x "))
            total = value * times
        else:
            total = sum(int(t) for t in expr.split("+"))
        assert e.strength == (total + 5) // 10, (e.id, expr)
        checked += 1
    assert checked > 120
