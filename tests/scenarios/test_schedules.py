"""The four reinforcement schedules are exactly the errata's lists (AO-17.d).

The expected lists are written out here by hand from the errata text at the end of
../shared/seeds/000_e8386048347b0f4f.txt, one (turn, section) group per printed line, not
derived from the data. Where the text is garbled the comment gives the printed form and the
reading (docs/rules-notes.md, "Order of battle and scenarios").
"""

from __future__ import annotations

import pytest

from scenarios.loader import arrivals, load_oob, schedules

ALLIED_HISTORICAL = {
    (2, "NE"): "us-cca7 us-ccb7 us-ccr7 us-39-i us-47-i us-26-i us-517-pi",
    (2, "SE"): "us-cca10 us-ccb10 us-ccr10",  # printed "caa10"
    (3, "NE"): "us-117-i us-119-i us-120-i",
    (3, "W"): "us-504-pi us-506-pi us-325-g us-401-pi us-327-g us-502-pi us-505-pi us-501-pi",
    (4, "NE"): "us-16-i us-18-i",
    (5, "NE"): "us-32-a us-33-a us-36-ai",
    (5, "SE"): "us-cca4 us-ccr4 us-ccb4",
    (5, "WB"): "uk-56-gds uk-32-gds uk-129-i uk-130-i uk-214-i uk-152-i uk-153-i uk-154-i "
    "uk-71-i uk-158-i uk-160-i uk-33-a uk-29-a",
    (6, "NE"): "us-ccr5 us-333-i us-334-i us-335-i",
    # printed "238 i" and "391 i": the 26th and 80th Divisions' 328th and 319th
    (6, "SE"): "us-2-i us-10-i us-11-i us-101-i us-104-i us-328-i us-317-i us-318-i us-319-i",
    (7, "NE"): "us-24-i us-60-i us-66-a us-67-a us-41-ai",
    (7, "SE"): "us-6-ac",
    (8, "NE"): "us-289-i us-290-i us-291-i",
    (8, "WB"): "fr-lt us-1102-e us-1107-e us-1111-e us-1128-e us-354-e us-342-e",
    (11, "NE"): "us-329-i us-330-i us-331-i us-401-g",
    (11, "SE"): "us-134-i us-137-i us-320-i",
    (11, "WB"): "us-508-pt us-551-pt",
    (12, "SE"): "us-cca6 us-ccb6 us-ccr6",
    (12, "WB"): "uk-34-a",
    (14, "SE"): "us-cca11 us-ccb11 us-ccr11",
    (16, "W"): "uk-68-i uk-151-i uk-231-i",
    (17, "W"): "us-513-pi us-507-pi us-193-g us-194-g",
}

ALLIED_SLOWED = {
    (2, "NE"): "us-cca7 us-ccb7 us-ccr7",
    (2, "SE"): "us-cca10 us-ccb10 us-ccr10",
    (3, "NE"): "us-39-i us-47-i us-16-i us-18-i us-26-i us-517-pi",
    (4, "NE"): "us-117-i us-119-i us-120-i",
    (5, "W"): "us-327-g us-401-pi us-502-pi us-501-pi us-506-pi us-504-pi us-505-pi us-325-g",
    (8, "NE"): "us-32-a us-33-a us-36-ai",
    (8, "SE"): "us-cca4 us-ccb4 us-ccr4",
    # printed "(W)"; West-bank units keep WB. "154 +" is 154 i.
    (9, "WB"): "uk-129-i uk-130-i uk-214-i uk-152-i uk-153-i uk-154-i uk-56-gds uk-32-gds",
    # printed "(W): 34 a, 29 a, ...": the first is the 33rd Armoured Brigade (34 a is GT16)
    (10, "WB"): "uk-33-a uk-29-a uk-71-i uk-158-i uk-160-i",
    (11, "NE"): "us-289-i us-290-i us-291-i",
    (11, "SE"): "us-6-ac",  # printed "6 a cav"
    (12, "SE"): "us-2-i us-10-i us-11-i us-101-i us-104-i us-328-i",
    (12, "NE"): "us-66-a us-67-a us-41-ai",
    (13, "SE"): "us-317-i us-318-i us-319-i",
    (13, "NE"): "us-329-i us-330-i us-331-i",
    # printed "(W): 354 e, 342 e, 392 e, 366 e, 1308 e, 1313 e, Fr. Lt. i. (Brig)": the four
    # odd numbers are the historical list's 1102e, 1107e, 1111e, 1128e, in that order
    (14, "WB"): "us-354-e us-342-e us-1102-e us-1107-e us-1111-e us-1128-e fr-lt",
    (15, "SE"): "us-134-i us-137-i us-320-i",
    (15, "NE"): "us-24-i us-60-i us-401-g",
    (16, "WB"): "uk-34-a",  # printed "(W): 34 a"
    (16, "SE"): "us-cca6 us-ccb6 us-ccr6",
    (17, "SE"): "us-513-pi us-193-g us-507-pi us-194-g",
    # printed after "German Historical Reinforcements", before "Game-Turn 18:"
    (17, "W"): "uk-68-i uk-151-i uk-231-i",
    (18, "SE"): "us-cca11 us-ccb11 us-ccr11",
}

GERMAN_HISTORICAL = {
    (1, "east"): "de-1-a",
    (2, "east"): "de-2-a",
    (2, "drop"): "de-vdh",  # printed "Von Der Hedyte"
    (3, "east"): "de-3-a",
    (4, "east"): "de-4-a de-2ss-a de-3ss-ai de-4ss-ai de-9ss-a de-19ss-ai de-20ss-ai de-8-ai "
    "de-29-ai de-fe",
    (5, "east"): "de-5-a de-1130-i",  # printed "1130 +"
    (6, "east"): "de-6-a",
    (7, "east"): "de-7-a",
    (8, "east"): "de-8-a de-33-a de-10-ai de-11-ai de-104-ai de-115-ai de-fg de-79-i",
    (10, "east"): "de-167-i",
    (12, "east"): "de-246-i",
    (13, "east"): "de-9-i",
    (18, "east"): "de-340-i",
}

GERMAN_ACCELERATED = {
    (1, "east"): "de-1-a",
    (2, "east"): "de-2-a de-2ss-a de-3ss-ai de-fe",
    (2, "drop"): "de-vdh",
    # printed "ar" for "ai" throughout this line
    (3, "east"): "de-3-a de-4ss-ai de-9ss-a de-19ss-ai de-20ss-ai de-8-ai de-29-ai de-10ss-a "
    "de-21ss-ai de-22ss-ai de-15-a de-110-ai de-111-ai de-fg",
    (4, "east"): "de-4-a",
    (5, "east"): "de-5-a de-33-a de-10-ai de-11-ai de-104-ai de-115-ai de-1130-i",
    (6, "east"): "de-6-a de-79-i",
    (7, "east"): "de-7-a",
    (8, "east"): "de-8-a de-167-i",
    (9, "east"): "de-246-i",
    (11, "east"): "de-9-i",
    (13, "east"): "de-340-i",
}

EXPECTED = {
    "allied_historical": ALLIED_HISTORICAL,
    "allied_slowed": ALLIED_SLOWED,
    "german_historical": GERMAN_HISTORICAL,
    "german_accelerated": GERMAN_ACCELERATED,
}


def flat(expected: dict[tuple[int, str], str]) -> list[tuple[int, str, str]]:
    return sorted((t, s, u) for (t, s), units in expected.items() for u in units.split())


@pytest.mark.rule("AO-17.d")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_schedule_is_the_errata_list(name: str) -> None:
    got = [(a.turn, a.section, a.unit) for a in arrivals(name)]  # type: ignore[arg-type]
    assert got == flat(EXPECTED[name])


@pytest.mark.rule("AO-17.d")
def test_schedule_sizes() -> None:
    counts = {name: len(arrivals(name)) for name in EXPECTED}  # type: ignore[arg-type]
    assert counts == {
        "allied_historical": 94,
        "allied_slowed": 88,
        "german_historical": 30,
        "german_accelerated": 36,
    }


@pytest.mark.rule("AO-17.d")
def test_slowed_and_accelerated_differ_from_historical_as_printed() -> None:
    """The slowed list omits six historical units; the accelerated list adds the 10th SS and
    11th Panzer Divisions' six regiments."""
    ids = {n: {a.unit for a in arrivals(n)} for n in EXPECTED}  # type: ignore[arg-type]
    assert ids["allied_historical"] - ids["allied_slowed"] == {
        "us-ccr5", "us-333-i", "us-334-i", "us-335-i", "us-508-pt", "us-551-pt",
    }  # fmt: skip
    assert ids["allied_slowed"] <= ids["allied_historical"]
    assert ids["german_accelerated"] - ids["german_historical"] == {
        "de-10ss-a", "de-21ss-ai", "de-22ss-ai", "de-15-a", "de-110-ai", "de-111-ai",
    }  # fmt: skip
    assert ids["german_historical"] <= ids["german_accelerated"]


@pytest.mark.rule("AO-4.2g")
def test_no_allied_reinforcements_on_game_turn_one() -> None:
    for name in ("allied_historical", "allied_slowed"):
        assert min(a.turn for a in arrivals(name)) == 2


@pytest.mark.rule("AO-15.a")
@pytest.mark.rule("AO-15.b")
def test_von_der_heydte_drops_on_game_turn_two_and_nothing_else_drops() -> None:
    for name in ("german_historical", "german_accelerated"):
        drops = [a for a in arrivals(name) if a.section == "drop"]
        assert [(a.unit, a.turn) for a in drops] == [("de-vdh", 2)]
    assert load_oob()["de-vdh"].type == "paratroop"


@pytest.mark.rule("AO-14.3C")
def test_west_bank_units_are_the_british_french_and_rear_engineers() -> None:
    wb = {a.unit for a in arrivals("allied_historical") if a.section == "WB"}
    oob = load_oob()
    assert {oob[u].nationality for u in wb} == {"British", "French", "US"}
    assert {u for u in wb if oob[u].nationality == "US"} == {
        "us-1102-e", "us-1107-e", "us-1111-e", "us-1128-e", "us-354-e", "us-342-e",
        "us-508-pt", "us-551-pt",
    }  # fmt: skip
    # a unit restricted to the west bank in one Allied schedule is restricted in both
    slowed_wb = {a.unit for a in arrivals("allied_slowed") if a.section == "WB"}
    assert slowed_wb <= wb


def test_printed_text_is_kept() -> None:
    """Every group keeps the errata text it was read from."""
    for sched in schedules().values():
        for g in sched.group:
            assert g.printed and len(g.units) >= 1
