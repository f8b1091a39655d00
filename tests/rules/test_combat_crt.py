"""The Combat Results Tables (``rules.ao.crt``), cell by cell against [10.0] as printed."""

from __future__ import annotations

import msgspec
import pytest

from rules.ao.commands import EndPhase, Roll
from rules.ao.crt import (
    ODDS_COLUMNS,
    Result,
    crt_for,
    crt_switch_roll_due,
    german_crt_after_roll,
    resolve,
)
from rules.ao.odds import odds_column
from rules.ao.state import RollDue
from tests.kit.engine import LINE8, board, ok, position, unit

# Copied by hand from "[10.0] ARDENNES COMBAT RESULTS TABLE" of the rules text: (column, die).
INITIAL = {
    "1-2": ["Ar1", "Ar1", "Ar1", "Ar2", "Ar2", "Ar2"],
    "1-1": ["Dr1", "Dr1", "Dr1", "Ar1", "Ar2", "Ar2"],
    "2-1": ["Dr2", "Dr1", "Dr1", "Dr1", "Dr1", "Dr1"],
    "3-1": ["Dr3", "Dr2", "Dr2", "Dr1", "Dr1", "Dr1"],
    "4-1": ["Ex", "Ex", "Dr3", "Dr2", "Dr2", "Dr1"],
    "5-1": ["Ex", "Ex", "Dr3", "Dr3", "Dr2", "Dr2"],
    "6-1": ["De", "Ex", "Ex", "Dr3", "Dr3", "Dr3"],
    "7-1": ["De", "De", "De", "Ex", "Dr3", "Dr3"],
    "8-1": ["De", "De", "De", "De", "Ex", "Ex"],
    "9-1": ["De", "De", "De", "De", "De", "De"],
}
STANDARD = {
    "1-2": ["Ar1", "Ar2", "Ar2", "Ar3", "Ar3", "Ar3"],
    "1-1": ["Dr1", "Dr1", "Ar1", "Ar2", "Ar2", "Ar3"],
    "2-1": ["Dr1", "Dr1", "Dr1", "Ar1", "Ar2", "Ar2"],
    "3-1": ["Dr2", "Dr1", "Dr1", "Dr1", "Ar1", "Ar1"],
    "4-1": ["Dr3", "Dr3", "Dr2", "Dr2", "Dr2", "Dr1"],
    "5-1": ["Ex", "Dr3", "Dr2", "Dr2", "Dr2", "Dr1"],
    "6-1": ["Ex", "Ex", "Dr3", "Dr2", "Dr2", "Dr1"],
    "7-1": ["Ex", "Ex", "Ex", "Dr3", "Dr3", "Dr2"],
    "8-1": ["De", "Ex", "Ex", "Ex", "Dr3", "Dr3"],
    "9-1": ["De", "De", "De", "De", "Ex", "Ex"],
}


def cells(table: str, printed: dict[str, list[str]]) -> list[tuple[str, str, int, str]]:
    return [(table, col, die, printed[col][die - 1]) for col in printed for die in range(1, 7)]


@pytest.mark.rule("AO-10.0a")
@pytest.mark.parametrize(
    ("table", "column", "die", "cell"), cells("initial", INITIAL) + cells("standard", STANDARD)
)
def test_every_cell_as_printed(table: str, column: str, die: int, cell: str) -> None:
    r = resolve(table, column, die)  # type: ignore[arg-type]
    assert str(r) == cell
    if cell in ("Ex", "De"):
        assert r == Result(kind=cell)  # type: ignore[arg-type]
    else:
        assert r == Result(kind=cell[:2], hexes=int(cell[2:]))  # type: ignore[arg-type]


@pytest.mark.rule("AO-10.0a")
def test_columns_as_printed() -> None:
    assert ODDS_COLUMNS == tuple(INITIAL) == tuple(STANDARD)
    assert len(cells("initial", INITIAL) + cells("standard", STANDARD)) == 120


@pytest.mark.rule("AO-10.0a")
def test_odds_beyond_the_table_use_its_end_columns() -> None:
    # 1-3 is treated as 1-2; 12-1 as 9-1.
    assert odds_column(3, 9) == "1-2"
    assert odds_column(1, 10) == "1-2"
    assert odds_column(36, 3) == "9-1"
    assert resolve("standard", "1-2", 6) == Result(kind="Ar", hexes=3)
    assert resolve("initial", "9-1", 6) == Result(kind="De")


def test_resolve_refuses_unknown_columns_and_dice() -> None:
    with pytest.raises(ValueError):
        resolve("initial", "10-1", 1)
    with pytest.raises(ValueError):
        resolve("initial", "1-3", 1)
    with pytest.raises(ValueError):
        resolve("standard", "2-1", 7)
    with pytest.raises(ValueError):
        resolve("standard", "2-1", 0)


@pytest.mark.rule("AO-10.3a")
def test_german_attacks_use_the_switch_allied_always_standard() -> None:
    s = position({}, side="german", phase="combat")
    assert crt_for(s) == "initial"
    assert crt_for(msgspec.structs.replace(s, german_crt="standard")) == "standard"
    a = position({}, side="allied", phase="combat")
    assert a.german_crt == "initial"
    assert crt_for(a) == "standard"


@pytest.mark.rule("AO-10.3a")
def test_switch_roll_from_game_turn_six_until_a_one() -> None:
    assert [crt_switch_roll_due(t, "initial") for t in (1, 5, 6, 7, 18)] == [
        False,
        False,
        True,
        True,
        True,
    ]
    assert not crt_switch_roll_due(9, "standard")
    assert german_crt_after_roll("initial", 1) == "standard"
    assert [german_crt_after_roll("initial", d) for d in range(2, 7)] == ["initial"] * 5
    assert german_crt_after_roll("standard", 4) == "standard"
    with pytest.raises(ValueError):
        german_crt_after_roll("initial", 0)


# == found by the rule audit: the CRT switch through the engine (AO-10.3a) ========================


@pytest.mark.audit
@pytest.mark.rule("AO-10.3a")
def test_the_switch_roll_goes_on_each_turn_until_a_one() -> None:
    b = board(LINE8, [unit("g"), unit("a", "allied", strength=4)])
    s = position({"g": "0101", "a": "0801"}, turn=6, side="allied", phase="mechanized_movement")
    gt7 = ok(b, s, EndPhase()).state  # GT7 begins: still Initial, the die is due again
    assert gt7.roll == RollDue(purpose="crt_switch")
    r = ok(b, gt7, Roll(), [4])
    assert (r.state.turn, r.state.german_crt, r.state.dice_drawn, r.state.roll) == (
        7,
        "initial",
        1,
        None,
    )
    r2 = ok(b, gt7, Roll(), [1])
    assert r2.state.german_crt == "standard"
