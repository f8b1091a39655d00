"""``docs/pbem-protocol.md`` against the code (issue 20: the field table listed a field the
packets do not have, an example decoded to version 1): every test it names exists, its field
table is the packets' fields and kinds, every armoured example is a real version 3 packet, and
every packet kind it lists is accepted in the flow it describes."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

import rules.ao
from ardennes_tui.rulesets.ao.narrow import ao_side
from pbem.core import armor, authoring, packets, protocol
from tests.kit.players import PlayerKey, board, played
from tests.kit.realmap import needs_real_map

DOCS = Path(__file__).parents[2] / "docs"
PROTOCOL = (DOCS / "pbem-protocol.md").read_text()
TESTS = Path(__file__).parent


def test_every_test_the_document_names_exists() -> None:
    named: list[tuple[str, str]] = []
    current = ""
    for m in re.finditer(
        r"(?:(?:tests/pbem/)?(test_\w+\.py))?::(test_\w+)|(test_\w+\.py)", PROTOCOL
    ):
        file, name, alone = m.groups()
        if alone:
            current = alone
            continue
        current = file or current
        named.append((current, name))
    assert len(named) > 50
    missing = [
        f"{file}::{name}"
        for file, name in named
        if not re.search(rf"^def {name}\(", (TESTS / file).read_text(), re.M)
    ]
    assert missing == []


def _table() -> dict[str, str]:
    """The field table of section 3: field -> the kinds column."""
    section = PROTOCOL.split("## 3. Packets")[1].split("## 4.")[0]
    out = {}
    for row in re.findall(r"^\| (`.*?) \| .*? \| (.*?) \|$", section, re.M):
        for field in re.findall(r"`(\w+)`", row[0]):
            out[field] = row[1]
    return out


def test_the_field_table_is_the_packets_fields_and_kinds() -> None:
    table = _table()
    assert list(table) == list(packets.Body.__struct_fields__)
    for field, kinds in table.items():
        if kinds == "all":
            continue
        listed = set(re.findall(r"[a-z_]+", kinds.split("(")[0]))
        if field == "comment":
            continue
        assert listed == {k for k, f in packets.FIELDS.items() if field in f}, field
    assert all(table[f] == "all" for f in ("format", "seq", "prev", "author", "kind", "comment"))


def _examples() -> list[tuple[str, str]]:
    out = []
    for doc in ("pbem-protocol.md", "pbem.md"):
        text = (DOCS / doc).read_text()
        blocks = re.findall(
            r"-----BEGIN ARDENNES PACKET-----.*?-----END ARDENNES PACKET-----", text, re.S
        )
        out += [(doc, b) for b in blocks]
    return out


@pytest.mark.parametrize(("doc", "example"), _examples())
def test_every_armoured_example_is_a_real_version_3_packet(doc: str, example: str) -> None:
    [block] = armor.dearmor_all(example)
    p = packets.decode(block.payload)
    assert p.version == packets.VERSION


def test_no_example_shows_the_uncompressed_json_of_an_old_version() -> None:
    for doc in ("pbem-protocol.md", "pbem.md"):
        assert "eyJ" not in (DOCS / doc).read_text(), doc  # base64 of '{"'


@needs_real_map
def test_every_kind_is_accepted_in_its_flow() -> None:
    """The kinds the table lists, each accepted where section 3 says: a sealed game's first
    Game-Turn (invitation, acceptance, orders, reply, resolution), then a draw offered and
    declined, offered again and accepted on the other side's copy, and a resignation."""
    listed = set(re.findall(r"`(\w+)`", _kinds_row().split("|")[2]))
    sent = played("sealed")
    g = protocol.EmailGame.replay(sent, board)
    keys = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}
    want = g.expects()
    assert want is not None
    mover = want[0]
    other = rules.ao.other_side(ao_side(mover))
    ends = [
        authoring.ending(g, keys[mover], mover, "draw_offer"),
        authoring.ending(g, keys[other], other, "draw_answer", accept=False),
    ]
    fork = protocol.EmailGame.replay([*sent, *ends], board)
    ends.append(authoring.ending(g, keys[other], other, "resign"))
    ends2 = [
        authoring.ending(fork, keys[other], other, "draw_offer"),
        authoring.ending(fork, keys[mover], mover, "draw_answer", accept=True),
    ]
    accepted = protocol.EmailGame.replay([*sent, *ends], board)  # the opponent's copy
    drawn = protocol.EmailGame.replay([*fork.packets], board)
    assert accepted.verdict is not None and accepted.verdict.kind == "resignation"
    assert drawn.verdict is not None and drawn.verdict.kind == "agreement"
    kinds = {p.body.kind for p in [*accepted.packets, *drawn.packets]}
    assert kinds == listed == set(packets.KINDS)
    assert msgspec.structs.asdict(ends2[1].body)["accept"] is True


def _kinds_row() -> str:
    section = PROTOCOL.split("## 3. Packets")[1]
    return next(line for line in section.splitlines() if line.startswith("| `kind` |"))
