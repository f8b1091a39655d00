"""The draft kept across a quit (``pbem/drafts.py``) and the opponent's address
(``pbem/addresses.py``): what is saved, what is refused on reading, what is set aside (never
deleted, never overwritten), and a sealed packet discarding its draft."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import rules.ao
from pbem import addresses, drafts
from pbem.addresses import AddressError, check_address
from pbem.drafts import SavedDraft
from pbem.games import Service
from pbem.store import Store, StoreError
from tests.kit.players import PlayerKey, board
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def local_game(tmp_path: Path) -> tuple[Service, str]:
    """A local game of scenario 1 (accepted at once): packet 2, the Allied set-up, is next."""
    service = Service(Store(tmp_path), board_for=board)
    sent = service.invite(PlayerKey("hans"), scenario=1, side="german", mode="local")
    return service, sent.game_id


def draft_file(service: Service, game_id: str) -> Path:
    return service.store.game_dir(game_id) / drafts.DRAFT_FILE


def saved_with(service: Service, game_id: str, **changes: object) -> SavedDraft:
    """The draft of packet 2 with one order, ``changes`` made to it, saved."""
    d = service.draft(game_id, PlayerKey("hans"), "a note")
    assert not isinstance(d.push(rules.ao.StandingOrders(side="allied")), str)
    saved = msgspec.structs.replace(SavedDraft.of(d), **changes)
    drafts.save(service.store, game_id, saved)
    return saved


def test_a_draft_is_saved_and_read_back(tmp_path: Path) -> None:
    service, gid = local_game(tmp_path)
    assert drafts.load(service.store, gid) is None
    saved = saved_with(service, gid)
    assert saved.seq == 2 and saved.author == "allied" and saved.comment == "a note"
    assert saved.commands == (rules.ao.StandingOrders(side="allied"),)
    assert drafts.load(service.store, gid) == saved
    fresh = service.draft(gid, PlayerKey("hans"))
    assert saved.stale_for(fresh) == ""
    # Another packet stored meanwhile: the seq differs; the same seq after another packet:
    # the prev hash differs.
    assert "written for packet 1" in msgspec.structs.replace(saved, seq=1).stale_for(fresh)
    moved = msgspec.structs.replace(saved, prev="ab" * 32)
    assert moved.stale_for(fresh) == "packet 1 is not the one it followed"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"not json", "is damaged"),
        (b"\xff\xfe", "is damaged"),
        (b"[" * 10_000, "is damaged"),
        (b"x" * (drafts.MAX_DRAFT_BYTES + 1), "is over"),
    ],
    ids=["text", "binary", "deep", "big"],
)
def test_a_damaged_draft_is_one_line(tmp_path: Path, data: bytes, said: str) -> None:
    service, gid = local_game(tmp_path)
    draft_file(service, gid).write_bytes(data)
    with pytest.raises(StoreError, match=said) as info:
        drafts.load(service.store, gid)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"extra": 1}, "unknown field"),
        ({"format": "ardennes-packet"}, "is not ardennes-draft"),
        ({"game": "ab" * 16}, "it is for game"),
        ({"prev": "xyz"}, "prev hash"),
        ({"seq": -1}, "not a packet number"),
        ({"comment": "x" * 501}, "comment is over"),
        ({"commands": [{"type": "teleport"}]}, "is damaged"),
    ],
)
def test_a_draft_is_decoded_strictly(tmp_path: Path, change: dict, said: str) -> None:
    service, gid = local_game(tmp_path)
    saved_with(service, gid)
    doc = json.loads(draft_file(service, gid).read_bytes())
    draft_file(service, gid).write_text(json.dumps({**doc, **change}))
    with pytest.raises(StoreError, match=said):
        drafts.load(service.store, gid)


def test_set_aside_keeps_every_draft_and_overwrites_none(tmp_path: Path) -> None:
    service, gid = local_game(tmp_path)
    assert drafts.set_aside(service.store, gid) == ""
    path = draft_file(service, gid)
    kept = []
    for data in (b"first", b"second", b"first"):
        path.write_bytes(data)
        kept.append(drafts.set_aside(service.store, gid))
        assert not path.exists()
    assert kept[0] == kept[2] != kept[1]
    assert kept[0].startswith("draft-stale.") and kept[0].endswith(".json")
    directory = service.store.game_dir(gid)
    assert (directory / kept[0]).read_bytes() == b"first"
    assert (directory / kept[1]).read_bytes() == b"second"
    assert service.store.count(gid) == 2  # the game is as it was
    assert service.status(gid).evidence == 0


def test_sealing_discards_its_own_draft_only(tmp_path: Path) -> None:
    service, gid = local_game(tmp_path / "a")
    d = service.draft(gid, PlayerKey("hans"))
    assert not isinstance(d.push(rules.ao.EndPhase()), str)
    mine = SavedDraft.of(d)
    drafts.save(service.store, gid, mine)
    service.seal(gid, d)
    assert service.store.count(gid) == 3
    assert drafts.load(service.store, gid) is None  # its own draft goes with the packet
    # A damaged draft is never discarded.
    draft_file(service, gid).write_bytes(b"junk")
    assert not drafts.discard(service.store, gid, mine)
    assert draft_file(service, gid).read_bytes() == b"junk"

    # Other orders saved for the packet sealed: left for set_aside.
    service, gid = local_game(tmp_path / "b")
    d = service.draft(gid, PlayerKey("hans"))
    assert not isinstance(d.push(rules.ao.EndPhase()), str)
    other = saved_with(service, gid)
    service.seal(gid, d)
    assert drafts.load(service.store, gid) == other


# -- the opponent's address -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["joe@example.org", " joe+ardennes@mail.example.org\n"])
def test_an_address_is_one_plain_address(text: str) -> None:
    assert check_address(text) == text.strip()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "no address"),
        ("joe", "not an address"),
        ("joe@", "not an address"),
        ("@example.org", "not an address"),
        ("a@b@example.org", "not an address"),
        ("joe @example.org", "without a space"),
        ("joe@example.org, ann@example.org", "one address only"),
        ("joe@example.org;ann@example.org", "one address only"),
        ("Joe <joe@example.org>", "one address only"),
        ("joe@example.org\nBcc: eve@example.org", "one address only"),
        ("j" * 250 + "@x.org", "at most 254"),
    ],
)
def test_what_is_not_an_address(text: str, said: str) -> None:
    with pytest.raises(AddressError, match=said) as info:
        check_address(text)
    assert "\n" not in str(info.value)


def test_an_address_is_kept_once_and_never_replaced(tmp_path: Path) -> None:
    store = Store(tmp_path)
    service = Service(store, board_for=board)
    gid = service.invite(PlayerKey("hans"), scenario=1, side="german", mode="sealed").game_id
    assert addresses.opponent_address(store, gid) is None  # no label at all
    when = store.meta(gid).last_activity
    assert addresses.remember(store, gid, "joe@example.org")
    assert not addresses.remember(store, gid, "eve@example.org")
    assert addresses.opponent_address(store, gid) == "joe@example.org"
    assert store.meta(gid).last_activity == when  # no move of the game
    assert service.status(gid).waiting_for == "the allied player"  # the label is unchanged
    with pytest.raises(AddressError):
        addresses.remember(store, gid, "not an address")

    # A label that is an address is where mail goes: nothing more is kept.
    other = service.invite(
        PlayerKey("hans"), scenario=1, side="german", mode="sealed", opponent="ann@example.org"
    ).game_id
    assert addresses.opponent_address(store, other) == "ann@example.org"
    assert not addresses.remember(store, other, "joe@example.org")
    assert store.meta(other).address == ""


def test_a_meta_json_from_before_the_address_field_reads(tmp_path: Path) -> None:
    service, gid = local_game(tmp_path)
    path = service.store.game_dir(gid) / "meta.json"
    doc = json.loads(path.read_bytes())
    del doc["address"]
    path.write_text(json.dumps(doc))
    assert service.store.meta(gid).address == ""
    assert addresses.opponent_address(service.store, gid) is None
