"""Packet versions (protocol section 3): a game begun in version 2 verifies as it is and goes
on in version 3; a copy of a packet spelled another way is refused or is a duplicate, never
equivocation, and the game goes on (issue 20)."""

from __future__ import annotations

import base64
import itertools
import shutil
import zlib
from functools import cache
from pathlib import Path

import msgspec
import pytest

from pbem import audit, selfplay, sources
from pbem.aoplay import ao_side
from pbem.core import armor, packets, protocol, zdict
from pbem.core.packets import DiceMode, Packet, Signer
from pbem.exchange import armor_headers, armor_packets
from pbem.games import Service
from pbem.store import Store
from rules.ao import Side
from tests.kit.legacy import in_version_2, sign_version_2, writing_version_2
from tests.kit.players import board, played
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


@cache
def _version_2(mode: DiceMode, root: str) -> selfplay.EmailSelfPlay:
    mp = pytest.MonkeyPatch()
    with writing_version_2(mp):
        return selfplay.play(1, "v2", mode, turns=1, root=Path(root))


def version_2(mode: DiceMode, tmp: pytest.TempPathFactory) -> tuple[selfplay.EmailSelfPlay, Path]:
    root = tmp.getbasetemp() / f"v2-{mode}"
    return _version_2(mode, str(root)), root


@pytest.mark.parametrize("mode", ["sealed", "open", "local"])
def test_a_version_2_game_verifies_and_audits_as_it_is(
    mode: DiceMode, tmp_path_factory: pytest.TempPathFactory
) -> None:
    game, _ = version_2(mode, tmp_path_factory)
    assert {p.version for p in game.packets} == {2}
    assert all(b"\n" not in p.wire and p.wire.startswith(b'{"body":') for p in game.packets)
    v = audit.verify(sources.Source("packets", "v2", packets=game.packets))
    assert v.ok, v.line
    assert v.game is not None and v.game.state_hash() == game.final_hash
    rolls = audit.audit(v).rolls
    drawn = [e for s in v.game.history for e in s.events if isinstance(e, type(rolls[0].event))]
    assert len(rolls) == v.game.state.dice_drawn > 0 and drawn


def test_a_version_2_game_goes_on_in_version_3(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Its players' dice chains stay those their version 2 commitments made (from the raw
    keys); each packet names the one before by that packet's own identity."""
    game, root = version_2("sealed", tmp_path_factory)
    home = tmp_path_factory.mktemp("goes-on")
    for side in ("german", "allied"):
        shutil.copytree(root / side, home / side)
    svc = {s: Service(Store(home / s)) for s in ("german", "allied")}
    me = {s: selfplay.player_key(s, "v2") for s in ("german", "allied")}
    bots = selfplay._Table(home / "unused", "sealed", "v2").bots
    gid = game.game_id
    for _ in range(6):
        want = svc["german"].load(gid).expects()
        assert want is not None
        side = want[0]
        d = svc[side].draft(gid, me[side])
        selfplay.bot_fill(d, bots[ao_side(side)])
        report = svc[rules_other(side)].import_text(svc[side].seal(gid, d).text)
        assert [i.outcome for i in report.items][-1] == "accepted", report.lines()
    chain = svc["allied"].load(gid).packets
    versions = [p.version for p in chain]
    assert versions == [2] * len(game.packets) + [3] * 6
    v = audit.verify(sources.load_source(gid, Store(home / "german")))
    assert v.ok, v.line
    assert chain[len(game.packets)].body.prev == chain[len(game.packets) - 1].hash


@cache
def _written_in(mode: DiceMode, root: str) -> selfplay.EmailSelfPlay:
    return selfplay.play(1, "again", mode, turns=2, root=Path(root))


@pytest.mark.parametrize("mode", ["open", "sealed"])
def test_a_version_3_game_written_again_in_version_2_is_read_as_version_2(
    mode: DiceMode, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The size benchmark's format 2 (``tests.kit.legacy.in_version_2``) is the real one: each
    packet is read back and verified as version 2; an open game verifies whole and ends where
    the version 3 game does. A sealed game verifies up to its first batch: a batch's seed
    hashes the reply's identity, another in version 2, so the same commands meet other dice."""
    game = _written_in(mode, str(tmp_path_factory.getbasetemp() / f"again-{mode}"))
    sides: tuple[Side, ...] = ("german", "allied")
    signers: dict[Side, Signer] = {s: selfplay.player_key(s, "again").sign for s in sides}
    old = in_version_2(game.packets, signers)
    assert [p.version for p in old] == [2] * len(game.packets)
    for new, p in zip(game.packets, old, strict=True):
        assert p.wire.startswith(b'{"body":{"format":"ardennes-packet","version":2,')
        again = msgspec.structs.replace(new.body, version=2, prev=p.body.prev, dice="")
        assert packets.canonical_bytes(p.body) == packets.canonical_bytes(again)
        assert packets.decode(p.wire) == p and p.signer == new.signer
    assert all(p.body.prev == q.hash for q, p in itertools.pairwise(old))
    if mode == "open":
        v = audit.verify(sources.Source("packets", "v2", packets=tuple(old)))
        assert v.ok, v.line
        assert v.game is not None and v.game.state_hash() == game.final_hash
        return
    first = next(p.body.seq for p in old if p.body.kind == "resolution" and p.body.commands)
    protocol.EmailGame.replay(old[:first], board)
    with pytest.raises(protocol.Refused, match=f"^packet {first}, command "):
        protocol.EmailGame.replay(old[: first + 1], board)


def rules_other(side: str) -> str:
    return "allied" if side == "german" else "german"


def test_a_version_2_packet_after_a_version_3_packet_is_refused() -> None:
    sent = played("sealed")
    g = protocol.EmailGame.replay(sent, board)
    again = protocol.EmailGame.replay(sent[:5], board)
    p = sent[5]
    key = {"german": "hans", "allied": "joe"}[p.body.author]
    from tests.kit.players import PlayerKey

    old = sign_version_2(p.body, PlayerKey(key).sign)
    with pytest.raises(protocol.Refused, match="packet 5 is version 2, after a version 3 packet"):
        again.receive(old)
    again.receive(p)
    assert g.hashes[:6] == again.hashes


def _respelled(p: Packet) -> bytes:
    """A version 2 packet with its signature's base64 spelled another way (the spare bits)."""
    raw = msgspec.json.decode(p.wire)
    text = raw["signature"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    i = alphabet.index(text[-3])
    raw["signature"] = text[:-3] + alphabet[i ^ 1] + "=="
    assert base64.b64decode(raw["signature"]) == base64.b64decode(text)
    return msgspec.json.Encoder(order="deterministic").encode(raw)


def test_a_re_spelled_version_2_signature_is_refused_and_the_game_goes_on(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Issue 20: this copy was taken for a second packet and stopped the game for good."""
    game, root = version_2("sealed", tmp_path_factory)
    home = tmp_path_factory.mktemp("respelled")
    shutil.copytree(root / "german", home, dirs_exist_ok=True)
    svc = Service(Store(home))
    gid = game.game_id
    last = game.packets[-1]
    copy = armor.armor(_respelled(last), armor_headers(last))
    report = svc.import_text(copy)
    [item] = report.items
    assert item.outcome == "refused"
    assert item.line().endswith(
        f"packet {last.body.seq}: the signature's base64 is not canonical"
    ), item.line()
    assert svc.store.meta(gid).status != "equivocation"
    assert svc.store.evidence(gid) == {}
    d = svc.draft(gid, selfplay.player_key("german", "v2"))  # the game goes on
    assert d.body.seq == len(game.packets)


@cache
def _version_3(root: str) -> selfplay.EmailSelfPlay:
    return selfplay.play(1, "v3", "sealed", turns=1, root=Path(root))


@pytest.mark.parametrize(
    "how", ["plain", "deflate", "level 1", "older dictionary", "quoted and rewrapped"]
)
def test_a_packet_armoured_another_way_is_a_duplicate(
    how: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The armour's base64 has one spelling, but the payload may travel deflated or not, at
    any level: whatever the armour, the signed bytes are the packet, and a copy of them is a
    duplicate, never a second packet; the game goes on."""
    root = tmp_path_factory.getbasetemp() / "v3"
    game = _version_3(str(root))
    home = tmp_path_factory.mktemp("armoured")
    shutil.copytree(root / "german", home, dirs_exist_ok=True)
    svc = Service(Store(home))
    p = game.packets[4]
    text = _armoured(p, how)
    assert text != armor_packets([p])
    [item] = svc.import_text(text).items
    assert item.outcome == "duplicate", item.line()
    assert svc.store.meta(game.game_id).status != "equivocation"
    d = svc.draft(game.game_id, selfplay.player_key("german", "v3"))
    assert d.body.seq == len(game.packets)


def _armoured(p: Packet, how: str) -> str:
    h = armor_headers(p)
    if how == "plain":
        return armor.armor(p.wire, h, compress=False)
    if how == "older dictionary":
        return armor.armor(p.wire, h, encoding=zdict.DICT1)
    if how in ("deflate", "level 1"):
        written = zdict.ENCODINGS[zdict.WRITTEN]
        z = zlib.compressobj(1, zdict=written) if how == "level 1" else zlib.compressobj()
        data = z.compress(p.wire) + z.flush()
        headers = {**h, armor.ENCODING: armor.DEFLATE if how == "deflate" else zdict.WRITTEN}
        lines = [armor.BEGIN, *(f"{k}: {v}" for k, v in headers.items()), ""]
        lines += [base64.b64encode(data).decode(), armor.checksum(headers, data), armor.END]
        return "\n".join(lines) + "\n"
    lines = armor.armor(p.wire, h).splitlines()
    blank = lines.index("")
    b64 = "".join(lines[blank + 1 : -2])
    wrapped = [b64[i : i + 50] for i in range(0, len(b64), 50)]
    return "".join(f"> {x}\n" for x in [*lines[: blank + 1], *wrapped, *lines[-2:]])
