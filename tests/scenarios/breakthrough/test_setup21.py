"""``setup21.toml``, the reconstructed 21 December set-up of Last Seven Days (BA-2.1g, BA-2.2a,
G25): decoded strictly and checked against the order of battle, one clear error a fault; the
front's ownership rule on small hand-made fronts."""

from __future__ import annotations

import pytest

from rules.breakthrough.units import Side
from scenarios.breakthrough.oob import load_oob
from scenarios.breakthrough.setup21 import (
    SETUP21_PATH,
    SetupDataError,
    decode_setup21,
    front_owner,
    load_setup21,
)

OOB = load_oob()
RAW = SETUP21_PATH.read_bytes()


def edited(old: str, new: str) -> bytes:
    text = RAW.decode()
    assert old in text
    return text.replace(old, new, 1).encode()


@pytest.mark.rule("BA-2.2a")
def test_every_unit_of_the_20th_is_placed_or_gone_once_with_a_source() -> None:
    s = load_setup21(OOB)
    placed = [p.id for p in s.unit] + [g.id for g in s.gone]
    due = sorted(u.id for u in OOB.units if u.day <= 20)
    assert sorted(placed) == due and len(placed) == 126
    assert all(p.source.strip() for p in s.unit) and all(g.source for g in s.gone)
    assert [h.day for h in s.held] == [16, 17, 18, 19, 20]
    assert len(s.blown) == 5


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('id = "us-102"\nhex = "30,26"', 'id = "us-102"\nhex = "31,26"', "us-102"),
        ('id = "us-102"', 'id = "us-9-2"', "listed twice"),
        ('id = "us-102"', 'id = "us-333-84"', "us-333-84 is dated 21 December"),
        ('id = "us-102"', 'id = "us-nobody"', "not in the order of battle"),
        ('[[gone]]\nid = "us-422-106"', '[[gone]]\nid = "us-423-106"', "us-423-106 is listed"),
        ('id = "de-272"\nhex = "30,28"', 'id = "de-272"\nhex = "0,28"', "x = 0"),
        ('id = "de-272"\nhex = "30,28"', 'id = "de-272"\nhex = "30,26"', "both sides in 30,26"),
        ('id = "us-102"\nhex = "30,26"', 'id = "us-102"\nhex = "7,13"', "more than 3 units"),
        (
            'id = "us-9-2"\nhex = "27,26"\nstrength = 40',
            'id = "us-9-2"\nhex = "27,26"\nstrength = 51',
            "not 1..50",
        ),
        ("efficiency = 70", "efficiency = 30", "efficiency 30"),
        ("fort = 2", "fort = 6", "fortification level 6"),
        ("[[held]]\nday = 16", "[[held]]\nday = 15", "each day 16-20"),
        ('id = "us-102"', 'id = "us-102"\ncolour = "red"', "not a Last Seven Days set-up"),
    ],
)
def test_a_faulty_set_up_is_refused_with_one_clear_line(old: str, new: str, message: str) -> None:
    with pytest.raises(SetupDataError) as err:
        decode_setup21(edited(old, new), OOB)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_unit_left_out_is_named() -> None:
    text = RAW.decode()
    start = text.index('[[unit]]\nid = "us-102"')
    end = text.index("[[unit]]", start + 1)
    with pytest.raises(SetupDataError, match=r"no placement for us-102$"):
        decode_setup21((text[:start] + text[end:]).encode(), OOB)


def test_an_oversized_set_up_is_refused_before_parsing() -> None:
    with pytest.raises(SetupDataError, match="larger than"):
        decode_setup21(b"#" * (256 * 1024 + 1), OOB)


@pytest.mark.rule("BA-1.4f")
def test_the_front_gives_each_hex_to_the_nearer_side_joined_to_its_ground() -> None:
    # hexrow x = 2, y = 0..8: German ground of the 16th at y >= 7; an American unit at y = 1,
    # a German one at y = 5: y <= 2 American (nearer), 3 a tie (American on the 16th), 4-8
    # German (nearer, joined to the 16th's ground)
    row = [(2, y) for y in range(9)]
    owner16: dict[tuple[int, int], Side] = {c: ("german" if c[1] >= 7 else "american") for c in row}
    got = front_owner(row, {(2, 1): "american", (2, 5): "german"}, owner16)
    assert [got[c][0] for c in row] == list("aaaaggggg")
    # a German pocket cut off from its ground (a unit at y = 1, Americans at 3) owns only its
    # hex (y = 0 is nearer to it but not joined to German ground); y = 7-8, German on the
    # 16th, are nearer to the Americans now
    got = front_owner(row, {(2, 1): "german", (2, 3): "american"}, owner16)
    assert [got[c][0] for c in row] == list("agaaaaaaa")
    # hexrow 0 keeps its owner of the 16th even next to a German unit (BA-1.4h)
    col = [(0, 4), (1, 4)]
    got = front_owner(col, {(1, 4): "german"}, {(0, 4): "american", (1, 4): "german"})
    assert got == {(0, 4): "american", (1, 4): "german"}
