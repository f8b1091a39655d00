"""The email game service (``pbem.games.Service``): two players with their own stores play by
exchanging armoured text only, and every attack of ``docs/pbem-protocol.md`` arriving through
``import_text`` is refused with a precise message and nothing stored."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import msgspec
import pytest

import rules.ao
import scenarios
from pbem import drafts, keys
from pbem.aoplay import ao_game, ao_other
from pbem.core import armor, dicemodes, packets
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DiceMode, Packet, Step
from pbem.exchange import armor_headers, armor_packets
from pbem.games import STOPPED, Service
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.email_players import bot_commands, state_hash
from tests.kit.realmap import needs_real_map

# one worker: the module's tests share what it builds once
pytestmark = [needs_real_map, pytest.mark.xdist_group("games")]


def identity(home: Path, name: str) -> KeyIdentity:
    """A new key saved in ``home``'s key store, loaded back as the CLI does."""
    keys.save(keys.generate(), name, home=home)
    return KeyIdentity(keys.load_key(name, home=home))


@dataclass
class Match:
    """Two players' stores, keys and services, and every armoured text exchanged."""

    root: Path
    game_id: str
    homes: dict[str, Path]
    me: dict[str, KeyIdentity]
    texts: list[str]
    allied_after_accept: Path
    """A copy of the Allied store holding packets 0-1 only."""

    def service(self, side: str, home: Path | None = None) -> Service:
        return Service(Store(home if home is not None else self.homes[side]))

    @property
    def sent(self) -> list[Packet]:
        return list(self.service("german").load(self.game_id).packets)


def play_match(root: Path, mode: DiceMode, turns: int) -> Match:
    homes = {s: root / s for s in ("german", "allied")}
    me = {s: identity(homes[s], s) for s in homes}
    svc = {s: Service(Store(homes[s])) for s in homes}
    inv = svc["german"].invite(me["german"], scenario=1, side="german", mode=mode, opponent="joe")
    acc = svc["allied"].accept(me["allied"], inv.text, opponent="hans")
    assert acc.game_id == inv.game_id
    snapshot = root / "allied-after-accept"
    shutil.copytree(homes["allied"], snapshot)
    report = svc["german"].import_text(acc.text)
    assert report.ok, report.lines()
    texts = [inv.text, acc.text]
    bots = bots_for(BotRng(b"games-test"))
    gid = inv.game_id
    while True:
        g = svc["german"].load(gid)
        want = g.expects()
        assert g.game is not None
        if want is None or g.game.state.turn > turns:
            break
        side = want[0]
        other = ao_other(side)
        done = svc[side].orders(gid, me[side], bot_commands(svc[side], gid, me[side], bots))
        texts.append(done.text)
        report = svc[other].import_text(done.text)
        assert report.ok, report.lines()
    return Match(root, gid, homes, me, texts, snapshot)


@cache
def _match(mode: DiceMode, turns: int, root: str) -> Match:
    return play_match(Path(root), mode, turns)


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Match:
    return _match("sealed", 1, str(tmp_path_factory.mktemp("sealed")))


def test_a_sealed_game_ends_the_same_in_both_stores(sealed: Match) -> None:
    stores = {s: Store(h) for s, h in sealed.homes.items()}
    assert stores["german"].packets(sealed.game_id) == stores["allied"].packets(sealed.game_id)
    hashes = {s: state_hash(sealed.service(s), sealed.game_id) for s in stores}
    assert hashes["german"] == hashes["allied"]
    g = sealed.service("german").load(sealed.game_id)
    assert g.game is not None and g.game.state.turn == 2
    kinds = {p.body.kind for p in g.packets}
    assert {"invitation", "acceptance", "orders", "reply", "resolution"} <= kinds
    meta = stores["allied"].meta(sealed.game_id)
    assert (meta.our_side, meta.german, meta.dice_mode) == ("allied", "hans", "sealed")


def test_status_says_whose_move_and_the_pinned_keys(sealed: Match) -> None:
    st = {s: sealed.service(s).status(sealed.game_id) for s in sealed.homes}
    assert st["german"].keys == st["allied"].keys
    assert st["german"].keys["german"] == sealed.me["german"].fingerprint
    assert st["german"].to_move == st["allied"].to_move
    mover = st["german"].to_move
    assert mover is not None
    assert st[mover].ours and not st[rules.ao.other_side(mover)].ours
    waiting = st[rules.ao.other_side(mover)]
    assert waiting.next.startswith(f"waiting for the {mover} player")
    assert any("since" in line for line in waiting.lines())
    assert st[mover].next.startswith("your move (")
    assert st["german"].warning == dicemodes.ALLOWS["sealed"]


def test_draft_when_it_is_not_our_move(sealed: Match) -> None:
    st = sealed.service("german").status(sealed.game_id)
    idle = rules.ao.other_side(st.to_move or "german")
    with pytest.raises(PbemError, match=f"not your move: waiting for the {st.to_move} player"):
        sealed.service(idle).draft(sealed.game_id, sealed.me[idle])


def test_a_wrong_key_is_refused_naming_both_fingerprints(sealed: Match, tmp_path: Path) -> None:
    st = sealed.service("german").status(sealed.game_id)
    mover = st.to_move or "german"
    mallory = identity(tmp_path, "mallory")
    with pytest.raises(PbemError) as exc:
        sealed.service(mover).draft(sealed.game_id, mallory)
    assert str(exc.value) == (
        f"key {mallory.fingerprint} is not the {mover} key of game {sealed.game_id[:8]}, "
        f"{sealed.me[mover].fingerprint}"
    )


def test_export_is_what_the_opponent_has_not_seen(sealed: Match) -> None:
    for side in sealed.homes:
        svc = sealed.service(side)
        packets_ = svc.unseen(sealed.game_id)
        assert all(p.body.author == side for p in packets_)
        all_ = svc.load(sealed.game_id).packets
        theirs = [p.body.seq for p in all_ if p.body.author != side]
        assert [p.body.seq for p in packets_] == list(range(max(theirs) + 1, len(all_)))
    blocks = armor.dearmor_all(sealed.texts[-1])
    assert list(blocks[0].headers) == ["Game", "Seq", "Side", "Turn", "Phase", "Kind"]


def test_the_record_replays_on_its_own(sealed: Match) -> None:
    svc = sealed.service("allied")
    data = svc.export_record(sealed.game_id)
    rec = rules.record.decode(data)
    assert rec.header.dice.kind == "listed"
    assert rec.header.meta == {"game": sealed.game_id, "mode": "sealed"}
    assert rec.header.players["german"].name == "hans"
    replayed = rules.ao.Game.replay(rec, scenarios.load_board(1))
    assert replayed.error is None
    assert replayed.game.state_hash() == state_hash(svc, sealed.game_id)


# -- attacks through import_text ---------------------------------------------------------------


def receiver(match: Match, tmp_path: Path, upto: int) -> Service:
    """A copy of the Allied store holding packets 0 to ``upto - 1``."""
    home = tmp_path / "receiver"
    shutil.copytree(match.allied_after_accept, home)
    svc = Service(Store(home))
    if upto > 2:
        report = svc.import_text(armor_packets(match.sent[2:upto]))
        assert report.ok, report.lines()
    assert svc.store.count(match.game_id) == upto
    return svc


def refused(svc: Service, gid: str, text: str | bytes, message: str) -> str:
    store = svc.store
    before = (store.packets(gid), store.meta(gid))
    report = svc.import_text(text)
    assert len(report.items) == 1, report.lines()
    line = report.lines()[0]
    assert report.items[0].outcome == "refused", line
    assert message in line, line
    assert (store.packets(gid), store.meta(gid)) == before
    return line


def resign(p: Packet, key: KeyIdentity, **changes: object) -> Packet:
    return packets.sign(msgspec.structs.replace(p.body, **changes), key.sign)


def _author_key(match: Match, p: Packet) -> KeyIdentity:
    return match.me[p.body.author]


def test_every_changed_byte_of_a_block_is_refused(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    text = armor_packets([sealed.sent[4]])
    lines = text.splitlines(keepends=True)
    body_start = len("".join(lines[:8]))  # BEGIN, six headers, the blank line
    end = len(text) - len(lines[-1])
    positions = [*range(body_start, end, 37), text.index("Seq: ") + 5]
    for pos in positions:
        c = text[pos]
        if c == "\n":
            continue
        new = "B" if c != "B" else "C"
        damaged = text[:pos] + new + text[pos + 1 :]
        line = refused(svc, sealed.game_id, damaged, "damaged in transit")
        assert line.startswith("refused: <stdin>: block 1 (line 1): "), line
    line = refused(svc, sealed.game_id, text.replace("Seq: 4", "Seq: 5"), "checksum mismatch")
    assert line.endswith("checksum mismatch: damaged in transit")


def test_a_truncated_block_is_refused(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    text = armor_packets([sealed.sent[4]])
    refused(svc, sealed.game_id, text[: len(text) // 2], "no END line (truncated?)")


def test_a_quoted_block_with_a_bom_is_accepted(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    text = armor_packets([sealed.sent[4]])
    quoted = "\ufeffOn Monday, hans wrote:\r\n" + "".join(f"> {x}\r\n" for x in text.splitlines())
    report = svc.import_text(quoted.encode("utf-8"))
    assert report.ok and [i.outcome for i in report.items] == ["accepted"], report.lines()
    assert svc.store.count(sealed.game_id) == 5
    p = sealed.sent[4].body
    assert report.lines()[0].startswith(
        f"game {sealed.game_id[:8]} packet 4 ({p.author} {p.kind}): accepted; "
    )


def test_a_packet_signed_by_a_third_key(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    mallory = identity(tmp_path, "mallory")
    p = sealed.sent[4]
    forged = armor_packets([resign(p, mallory)])
    line = refused(svc, sealed.game_id, forged, f"signed by {mallory.fingerprint}")
    assert f"but the {p.body.author} player's key is {_author_key(sealed, p).fingerprint}" in line
    assert svc.store.evidence(sealed.game_id) == {}  # no pinned key signed it: no proof of anything


def test_a_replayed_packet_is_a_duplicate(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 5)
    before = (svc.store.packets(sealed.game_id), svc.store.meta(sealed.game_id))
    report = svc.import_text(armor_packets(sealed.sent[2:4]))
    assert [i.outcome for i in report.items] == ["duplicate", "duplicate"]
    assert report.lines()[0].endswith(": duplicate (already stored; nothing changed)")
    assert (svc.store.packets(sealed.game_id), svc.store.meta(sealed.game_id)) == before


def test_a_packet_out_of_order(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    refused(
        svc,
        sealed.game_id,
        armor_packets([sealed.sent[5]]),
        "refused: packet 5 is out of order: packet 4 comes next",
    )


def test_a_packet_for_another_game(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 4)
    p = sealed.sent[4]
    other = resign(p, _author_key(sealed, p), game="ab" * 16)
    line = refused(svc, sealed.game_id, armor_packets([other]), "game abababab is not in the store")
    assert line.startswith("game abababab packet 4")
    # the same packet under the armour headers of this game: the headers contradict it
    lying = armor.armor(packets.encode(other), armor_headers(p))
    refused(svc, sealed.game_id, lying, f"the armour's Game header says '{sealed.game_id}'")


def test_a_false_state_hash_is_refused_and_kept(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 2)
    p = sealed.sent[2]
    steps = list(p.body.commands)
    steps[0] = Step(command=steps[0].command, hash="0" * 32)
    bad = resign(p, _author_key(sealed, p), commands=tuple(steps))
    tag = rules.record.tag(steps[0].command)
    refused(svc, sealed.game_id, armor_packets([bad]), f"packet 2, command 0 ({tag}): state hash")
    kept = svc.store.evidence(sealed.game_id)
    assert list(kept) == [f"refused-000002.{_sha(packets.encode(bad))}.bin"]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def test_equivocation_is_kept_and_stops_the_game(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 5)
    gid = sealed.game_id
    p = sealed.sent[4]
    twin = resign(p, _author_key(sealed, p), comment="another version")
    n = svc.store.count(gid)
    report = svc.import_text(armor_packets([twin, sealed.sent[5]]))
    assert [i.outcome for i in report.items] == ["equivocation", "skipped"], report.lines()
    assert f"the {p.body.author} player signed two different packets 4" in report.lines()[0]
    assert "both kept as evidence" in report.lines()[0]
    assert svc.store.count(gid) == n
    assert svc.store.packets(gid)[4] == packets.encode(p)  # the first stays
    assert len(svc.store.evidence(gid)) == 2
    assert svc.store.meta(gid).status == STOPPED
    assert svc.status(gid).state == STOPPED
    with pytest.raises(PbemError, match="is stopped: equivocation"):
        svc.draft(gid, sealed.me["allied"])


def test_an_invitation_for_a_new_game_is_offered(sealed: Match, tmp_path: Path) -> None:
    hans = sealed.service("german")
    inv = hans.invite(sealed.me["german"], scenario=2, side="german", mode="open")
    other = Service(Store(tmp_path / "other"))
    report = other.import_text(inv.text)
    assert [i.outcome for i in report.items] == ["invitation"]
    line = report.lines()[0]
    assert "scenario 2, open dice" in line
    assert f"kept in the store: accept it with: ardennes accept {inv.game_id[:8]}" in line
    assert dicemodes.ALLOWS["open"] in line
    assert other.store.game_ids() == []


# -- scripting with orders --------------------------------------------------------------------


def test_orders_refuses_a_bad_command_and_stores_nothing(sealed: Match, tmp_path: Path) -> None:
    svc = receiver(sealed, tmp_path, 2)  # the Allied set-up is next, and it is ours
    gid = sealed.game_id
    with pytest.raises(PbemError) as exc:
        svc.orders(gid, sealed.me["allied"], [rules.ao.Place("us-106-i", "2020")])
    assert str(exc.value).startswith("command 0 (place) in packet 2 (allied orders): refused: AO-")
    assert svc.store.count(gid) == 2
    good = sealed.sent[2].body.commands
    cmds = [s.command for s in good if not isinstance(s.command, rules.ao.StandingOrders)]
    with pytest.raises(PbemError, match=r"1 command\(s\) left over: the turn passes to the german"):
        svc.orders(gid, sealed.me["allied"], [*cmds, rules.ao.EndPhase()])
    assert svc.store.count(gid) == 2 and drafts.load(svc.store, gid) is None
    assert cmds == [rules.ao.EndPhase()]  # the Allied set-up as placed: accepted at once
    with pytest.raises(PbemError, match=r"no command for packet 2 \(allied orders\)"):
        svc.orders(gid, sealed.me["allied"], [])
    assert svc.store.count(gid) == 2 and drafts.load(svc.store, gid) is None
    done = svc.orders(gid, sealed.me["allied"], cmds)
    assert (done.sealed, done.draft, done.rest, done.kept) == (1, -1, 0, "")
    assert svc.store.packets(gid)[2] == packets.encode(sealed.sent[2])
    assert done.text == armor_packets(sealed.sent[1:3])  # the German never answered 1


# -- the other dice modes --------------------------------------------------------------------


def test_an_open_game_for_one_game_turn(tmp_path: Path) -> None:
    m = play_match(tmp_path, "open", 1)
    stores = {s: Store(h) for s, h in m.homes.items()}
    assert stores["german"].packets(m.game_id) == stores["allied"].packets(m.game_id)
    st = m.service("allied").status(m.game_id)
    assert st.turn == 2 and st.warning == dicemodes.ALLOWS["open"] == (
        "open dice: the mover sees his dice before he orders, so he can choose which attacks "
        "to make and in which order"
    )
    assert st.warning in st.lines()
    assert {p.body.kind for p in m.sent[2:]} == {"orders"}


def test_a_local_game(tmp_path: Path) -> None:
    me = identity(tmp_path, "solo")
    svc = Service(Store(tmp_path))
    sent = svc.invite(me, scenario=1, side="allied", mode="local")
    gid = sent.game_id
    g = svc.load(gid)
    assert [p.body.kind for p in g.packets] == ["invitation", "acceptance"]
    assert g.local_seed is not None and len(g.local_seed) == 32
    bots = bots_for(BotRng(b"local"))
    while (g := svc.load(gid)).game is not None and g.game.state.turn == 1:
        svc.orders(gid, me, bot_commands(svc, gid, me, bots))
    st = svc.status(gid)
    assert st.ours and st.next.startswith("your move")
    assert st.keys["german"] != st.keys["allied"]  # the second side's key is derived from ours
    rec = rules.record.decode(svc.export_record(gid))
    replayed = rules.ao.Game.replay(rec, scenarios.load_board(1))
    assert replayed.error is None and replayed.game.state_hash() == state_hash(svc, gid)
    # the same player's key plays both sides; another key plays neither
    with pytest.raises(PbemError, match="is not the allied key of game"):
        svc.draft(gid, identity(tmp_path, "other"))


# -- draft and seal, as the app uses them -----------------------------------------------------


def test_draft_and_seal(tmp_path: Path) -> None:
    m = play_match(tmp_path, "sealed", 0)  # stops after the acceptance
    gid = m.game_id
    joe, hans = m.service("allied"), m.service("german")
    d = joe.draft(gid, m.me["allied"], comment="my set-up")
    stale = joe.draft(gid, m.me["allied"])
    bots = bots_for(BotRng(b"seal"))
    assert not isinstance(d.push(rules.ao.StandingOrders(side="allied", advance="strongest")), str)
    while not d.ended():
        assert not isinstance(
            d.push(bots["allied"].choose(ao_game(d.scratch))), str
        )  # no attacks yet
    assert joe.store.count(gid) == 2  # a draft stores nothing
    sent = joe.seal(gid, d)
    assert [b.headers["Seq"] for b in armor.dearmor_all(sent.text)] == ["1", "2"]
    assert joe.store.meta(gid).to_move == "german"
    assert joe.status(gid).next == "waiting for the german player (hans): German set-up"
    report = hans.import_text(sent.text)
    assert [i.outcome for i in report.items] == ["duplicate", "accepted"]
    assert report.lines()[1] == (
        f"game {gid[:8]} packet 2 (allied orders): accepted; your move (German set-up)"
    )
    assert hans.load(gid).packets[2].body.comment == "my set-up"
    with pytest.raises(PbemError, match=f"game {gid[:8]} has moved on since this draft"):
        joe.seal(gid, stale)
    assert joe.store.count(gid) == 3
