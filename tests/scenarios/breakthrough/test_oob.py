"""The Breakthrough order of battle (13.2), artillery pools (13.4), allowances (7.4), limits (5.2).

Counts and values are worked out from the manual's text (``../shared/seeds/002_...txt`` 13.2,
13.4, 7.4, 5.2; the checklist's "The order of battle" gives the same counts)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from scenarios.breakthrough.oob import OOB_PATH, OobDataError, OrderOfBattle, decode_oob, load_oob

MANUAL = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "002_bd5da86e631fbb1f.txt"


@pytest.fixture(scope="module")
def oob() -> OrderOfBattle:
    return load_oob()


@pytest.mark.rule("BA-13.2a", "BA-13.2b")
def test_85_american_and_79_german_units_by_day(oob: OrderOfBattle) -> None:
    us, de = oob.side("american"), oob.side("german")
    assert (len(us), len(de)) == (85, 79)
    assert Counter(u.day for u in us) == {
        16: 27,
        17: 5,
        18: 8,
        19: 12,
        20: 4,
        21: 4,
        22: 15,
        23: 4,
        25: 6,
    }
    assert Counter(u.day for u in de) == {16: 59, 17: 1, 19: 10, 22: 1, 23: 8}
    assert sum(u.combat for u in us) == 3165
    assert sum(u.combat for u in us if u.at_start) == 750
    assert sum(u.combat for u in de) == 2965
    assert sum(u.combat for u in de if u.at_start) == 1961


@pytest.mark.rule("BA-1.5b", "BA-1.5d")
def test_types_and_mobility(oob: OrderOfBattle) -> None:
    us, de = oob.side("american"), oob.side("german")
    assert Counter(u.type for u in us) == {"INF": 44, "ARM": 22, "AB": 9, "ENG": 7, "CAV": 3}
    assert Counter(u.type for u in de) == {
        "VG": 28,
        "PZGR": 22,
        "PZ": 17,
        "ENG": 6,
        "FJ": 5,
        "CAV": 1,
    }
    # "Module units are those such as tank or mechanized infantry": every ARM and CAV unit is
    # mobile once "CCA/4/III ARM 45 22nd 0,14 N" is corrected (O8); INF, AB, ENG are not.
    for u in us:
        assert u.mobile == (u.type in ("ARM", "CAV")), u.id
    for u in de:
        assert u.mobile == (u.type in ("PZ", "PZGR", "ENG", "CAV")), u.id


@pytest.mark.rule("BA-13.2a")
def test_spot_values_from_the_chart(oob: OrderOfBattle) -> None:
    def row(uid: str) -> tuple[object, ...]:
        u = oob.unit(uid)
        return (u.designation, u.type, u.combat, u.day, u.hex, u.mobile, u.corridor)

    assert row("us-422-106") == ("422/106/XVII", "INF", 40, 16, "19,28", False, False)
    assert row("us-424-106") == ("424/106/XVII", "INF", 40, 16, "16,25", False, True)
    assert row("us-ccb-9a") == ("CCB/9/VIII", "ARM", 55, 16, "21,24", True, False)
    assert row("us-60-9") == ("60/9/V", "INF", 45, 22, "30,16", False, False)
    assert row("us-506-101") == ("506/101/VIII", "AB", 40, 19, "3,0", False, False)
    assert row("de-piper-1ss") == ("Piper/1SS/ISS", "PZ", 85, 16, "23,31", True, False)
    assert row("de-fb") == ("FB/-/-", "PZ", 99, 19, "23,31", True, False)
    assert row("de-115-15pzgr") == ("115/15/XLVII", "PZGR", 45, 23, "16,31", True, False)
    assert [u.id for u in oob.units if u.division == "28" and not u.unit] == [
        f"us-28-{k}" for k in range(1, 7)
    ]


@pytest.mark.rule("BA-13.2d")
def test_the_thirteen_corridor_units(oob: OrderOfBattle) -> None:
    assert sorted(u.id for u in oob.units if u.corridor) == sorted(
        [
            "us-424-106",
            "us-112-28",
            "us-1102",
            "us-1128",
            "us-1111",
            "us-1107",
            "us-354",
            "us-1313",
            "us-1308",
            "us-td-a",
            "us-td-b",
            "us-td-c",
            "us-517",
        ]
    )
    assert not oob.unit("us-td-d").corridor


@pytest.mark.rule("BA-13.2c")
def test_two_player_engineers_are_5_and_tank_destroyers_15(oob: OrderOfBattle) -> None:
    changed = {u.id: u for u in oob.units if u.combat_two_player is not None}
    assert len(changed) == 7 + 4
    for u in changed.values():
        assert u.side == "american"
        assert (u.combat, u.combat_value(True)) == ((10, 5) if u.type == "ENG" else (25, 15))
        assert u.combat_value(False) == u.combat
    assert oob.unit("de-eng-iss").combat_value(True) == 10  # German engineers keep 10


def test_no_start_hex_holds_more_than_three_units(oob: OrderOfBattle) -> None:
    per_hex = Counter(u.hex for u in oob.units if u.at_start)
    assert max(per_hex.values()) == 3
    assert per_hex["23,31"] == 3  # 1/1SS, 2/1SS, Piper: JPZ (17th) must enter elsewhere


@pytest.mark.rule("BA-13.4a", "BA-13.4b", "BA-13.4c")
def test_the_artillery_corps_pools(oob: OrderOfBattle) -> None:
    got = {(p.side, p.corps): (p.points, p.reinforcement, p.reinforcement_day) for p in oob.pools}
    assert got == {
        ("american", "V"): (115, 30, 18),
        ("american", "VII"): (0, 60, 18),
        ("american", "XVII"): (0, 90, 18),
        ("american", "III"): (0, 60, 21),
        ("american", "VIII"): (40, 45, 19),
        ("american", "XII"): (0, 30, 22),
        ("german", "LXVII"): (65, 0, 0),
        ("german", "ISS"): (130, 0, 0),
        ("german", "IISS"): (0, 15, 19),
        ("german", "LXVI"): (25, 0, 0),
        ("german", "XLVII"): (75, 0, 0),
        ("german", "LVIII"): (65, 0, 0),
        ("german", "LXXXV"): (55, 0, 0),
    }
    # Each unit of a division draws on its corps' pool, whose composite list names the
    # division; the one exception left is the 10th Armored in XII Corps (O7, kept as printed).
    outside = set()
    for u in oob.units:
        p = oob.pool(u)
        if not u.division:
            assert p is None, u.id
            continue
        assert p is not None, u.id
        if u.division not in p.divisions:
            outside.add(u.division)
    assert outside == {"10A"}
    corps = {uid: getattr(oob.pool(oob.unit(uid)), "corps", None) for uid in SLIPS}
    assert corps == {
        "us-112-28": "VIII",
        "us-cca-2a": "VII",
        "us-ccb-2a": "VII",
        "us-ccr-2a": "VII",
        **dict.fromkeys(["us-317-80", "us-318-80", "us-319-80"], "XII"),
        "us-cca-4a": "III",
        "us-325g-82": "XVII",
        "us-120-30": "XVII",
        "us-320-35": "III",
        "us-32-14c": "XVII",
        **dict.fromkeys(["de-16-116pz", "de-60-116pz", "de-156-116pz"], "LVIII"),
        **dict.fromkeys(["de-915-352", "de-916-352"], "LXXXV"),
        **dict.fromkeys(["de-8-3pzgr", "de-29-3pzgr"], "ISS"),
        "de-753-326": "LXVII",
        "de-150": None,  # an independent brigade holds no artillery
        "de-989-277": "ISS",
        "de-130-lehr": "XLVII",
    }
    assert oob.pool(oob.unit("de-150")) is None  # an independent brigade holds no artillery


@pytest.mark.rule("BA-7.4c", "BA-7.4d")
def test_allowances_and_limits(oob: OrderOfBattle) -> None:
    table = {a.id: (a.first, a.second) for a in oob.allowances}
    assert table == {
        "de-pz": (24, 10),
        "de-pz-brigade-pzgr": (20, 10),
        "de-piper": (32, 10),
        "de-rcn": (28, 10),
        "de-eng": (20, 10),
        "de-vg-fj": (12, 6),
        "us-armored": (15, 20),
        "us-cavalry": (20, 20),
        "us-infantry": (9, 9),
    }
    classes = Counter(u.allowance for u in oob.units)
    assert classes == {
        "de-pz": 7,
        "de-pz-brigade-pzgr": 31,
        "de-piper": 1,
        "de-rcn": 1,
        "de-eng": 6,
        "de-vg-fj": 33,
        "us-armored": 22,
        "us-cavalry": 3,
        "us-infantry": 60,
    }
    assert [u.id for u in oob.units if u.allowance == "de-piper"] == ["de-piper-1ss"]
    assert oob.allowance(oob.unit("de-130-lehr")).first == 24  # a division's PZ regiment
    assert oob.allowance(oob.unit("de-150")).first == 20  # "The 150th German Panzer Brigade"
    assert oob.allowance(oob.unit("de-rec-lehr")).first == 28  # CAV: RCN
    lim = oob.limits
    assert (oob.unit_limit("american"), oob.unit_limit("german")) == (57, 70)
    assert (
        lim.second_phase_max_american_mobile,
        lim.second_phase_max_german_mobile,
        lim.second_phase_max_non_mobile,
    ) == (24, 20, 12)


SLIPS = {
    "us-112-28": "O2",
    "us-317-80": "O4",
    "us-318-80": "O4",
    "us-319-80": "O4",
    "us-cca-2a": "O5",
    "us-ccb-2a": "O5",
    "us-ccr-2a": "O5",
    "us-cca-4a": "O8",
    "us-325g-82": "O12",
    "us-120-30": "O13",
    "us-320-35": "O14",
    "us-32-14c": "O17",
    "de-16-116pz": "O1",
    "de-60-116pz": "O1",
    "de-156-116pz": "O1",
    "de-915-352": "O3",
    "de-916-352": "O3",
    "de-8-3pzgr": "O6",
    "de-29-3pzgr": "O6 O17",
    "de-753-326": "O9",
    "de-150": "O11",
    "de-989-277": "O15",
    "de-130-lehr": "O16",
}


def test_exactly_the_documented_slips_are_corrected(oob: OrderOfBattle) -> None:
    assert {u.id: u.slip for u in oob.units if u.slip} == SLIPS
    assert oob.unit("de-753-326").printed == "753/326/LXVII VG 20 16th 28,22 N"
    assert oob.unit("de-753-326").hex == "28,29"
    notes_path = Path(__file__).resolve().parents[3] / "docs" / "rules-notes-breakthrough.md"
    notes = " ".join(notes_path.read_text(encoding="utf-8").split())
    for uid in SLIPS:
        assert oob.unit(uid).printed in notes, uid  # each corrected line is quoted


@pytest.mark.skipif(not MANUAL.exists(), reason="the manual is not beside the checkout")
def test_the_printed_lines_are_the_manuals_chart_in_order(oob: OrderOfBattle) -> None:
    text = MANUAL.read_text(encoding="utf-8")
    chart = text[text.index("13.2 Order of Battle Chart") : text.index("Note: All American")]
    chart = re.sub(
        r"Com- Start- Start- 11,111/XX/XXX Type bat Date Loc\. Mob -+ (American|German) ", "", chart
    )
    body = chart[chart.index("422/106/XVII") :].strip()
    assert body == " ".join(u.printed for u in oob.units)


def test_the_loader_refuses_unmarked_changes_and_bad_files(tmp_path: Path) -> None:
    raw = OOB_PATH.read_bytes()
    decode_oob(raw)
    line = b'printed = "422/106/XVII INF 40 16th 19,28 N"'
    assert line in raw
    bad = raw.replace(b'hex = "19,28"', b'hex = "19,27"', 1)
    with pytest.raises(OobDataError, match="us-422-106: differs from the manual"):
        decode_oob(bad)
    with pytest.raises(OobDataError, match="names slip O2 but says what the manual says"):
        decode_oob(raw.replace(b'designation = "112/28/VIII"', b'designation = "112/28/VII"'))
    with pytest.raises(OobDataError, match="not a Breakthrough order of battle"):
        decode_oob(raw.replace(b"[limits]", b"[limits]\nextra = 1", 1))
    with pytest.raises(OobDataError, match="duplicate id"):
        decode_oob(raw.replace(b'id = "us-423-106"', b'id = "us-422-106"', 1))
    with pytest.raises(OobDataError, match="off the grid"):
        decode_oob(raw.replace(b'hex = "30,2"', b'hex = "31,2"', 1))
    with pytest.raises(OobDataError, match="over"):
        decode_oob(b"#" * (512 * 1024 + 1))
    with pytest.raises(OobDataError, match="cannot read"):
        load_oob(tmp_path / "missing.toml")
