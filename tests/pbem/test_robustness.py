"""No input crashes anything and one bad mail blocks nothing (issue 20): every message, block
and packet is read and checked on its own, a refused one is one line and the others go on;
evidence is capped per game; the store's index never says other than its packets."""

from __future__ import annotations

import base64
import mailbox
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from ardennes_tui.present.game_list import rows
from pbem.core import armor, packets
from pbem.exchange import armor_headers, armor_packets
from pbem.games import Service
from pbem.mail import build_message
from pbem.store import Store
from pbem.store_types import MAX_REFUSED_EVIDENCE
from tests.kit.realmap import needs_real_map
from tests.pbem import stores

pytestmark = needs_real_map


def write_mbox(path: Path, texts: list[str]) -> Path:
    box = mailbox.mbox(path, create=True)
    try:
        for n, text in enumerate(texts):
            box.add(build_message("joe@y.org", f"Ardennes {n}", text, from_addr="hans@x.org"))
        box.flush()
    finally:
        box.close()
    return path


def non_ascii_signature(p: packets.Packet) -> str:
    """``p``'s body in a version 2 envelope whose signature holds a non-ASCII character,
    armoured with a valid checksum (anyone can send it: no key needed)."""
    body = msgspec.to_builtins(msgspec.structs.replace(p.body, version=2, dice=""))
    text = base64.b64encode(p.signature).decode()
    data = msgspec.json.encode({"body": body, "signature": "é" + text[1:]})
    return armor.armor(data, armor_headers(p))


def garbage_signature(p: packets.Packet) -> str:
    """``p``'s signed bytes with junk for a signature, armoured with a valid checksum."""
    return armor.armor(p.signed + b"\n\xff\x00junk", armor_headers(p))


@pytest.mark.parametrize("bad", [non_ascii_signature, garbage_signature])
def test_a_bad_mail_in_the_mailbox_keeps_no_genuine_packet_out(
    bad: object, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 20: one such mail crashed the import with a traceback, and the genuine packet in
    the same mailbox stayed out."""
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 1
    svc, home = stores.cut_back(tmp_path_factory, n)
    box = write_mbox(home / "inbox", [bad(sent[n]), armor_packets([sent[n]])])  # type: ignore[operator]
    report = svc.import_source(box)
    bad_line, good_line = report.lines()
    assert good_line.startswith(f"game {sent[n].body.game[:8]} packet {n} (")
    assert good_line.split("): ", 1)[1].startswith("accepted")
    assert bad_line.startswith(f"refused: {box} message 1")
    assert ": bad signature (" in bad_line or "the signature is not base64" in bad_line
    assert "\n" not in bad_line and svc.store.count(sent[0].body.game) == n + 1


def test_each_block_of_one_text_is_read_on_its_own(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A damaged block is one line and hides no other: refused when nothing else carries its
    packet, a note when an intact copy came too."""
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 2
    svc, _ = stores.cut_back(tmp_path_factory, n)
    damaged = armor_packets([sent[n + 1]]).replace("\nTurn: ", "\nTurn: 1")
    cut = armor_packets([sent[n]]).rsplit("=", 1)[0]  # a block without its end
    report = svc.import_text("\n".join([damaged, cut, armor_packets([sent[n]])]))
    [lost, stored] = report.items
    assert lost.outcome == "refused" and stored.outcome == "accepted", report.lines()
    assert (
        lost.line() == "refused: <stdin>: block 1 (line 1): checksum mismatch: damaged in transit"
    )
    [note] = report.notes
    assert "block 2 (line " in note and "no END line before the next BEGIN" in note
    assert svc.store.count(sent[0].body.game) == n + 1


def test_a_local_invitation_is_refused_not_offered(tmp_path: Path) -> None:
    from tests.kit.players import start

    _, [inv, _], _ = start("local")
    [item] = Service(Store(tmp_path)).import_text(armor_packets([inv])).items
    assert item.outcome == "refused"
    assert item.reason.endswith("is a local game: it is played where it began, not accepted")


def test_evidence_is_capped_per_game(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A refused packet signed by a pinned key is kept as proof, up to the cap; the packets of
    an equivocation are kept whatever the count."""
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 1
    svc, _ = stores.cut_back(tmp_path_factory, n)
    gid = sent[0].body.game
    author = stores.key(sent[n].body.author)
    lines = []
    for k in range(MAX_REFUSED_EVIDENCE + 2):
        steps = list(sent[n].body.commands)
        steps[-1] = packets.Step(command=steps[-1].command, hash=f"{k:032x}")
        body = msgspec.structs.replace(sent[n].body, commands=tuple(steps))
        [item] = svc.import_text(armor_packets([packets.sign(body, author.sign)])).items
        assert item.outcome == "refused"
        lines.append(item.line())
    assert all("(kept as evidence: refused-" in x for x in lines[:MAX_REFUSED_EVIDENCE])
    assert lines[-1].endswith(
        f"(not kept as evidence: the game keeps {MAX_REFUSED_EVIDENCE} refused packets)"
    )
    assert len(svc.store.evidence(gid)) == MAX_REFUSED_EVIDENCE
    k = max(i for i in range(n) if sent[i].body.author == sent[n].body.author)
    twin = packets.sign(msgspec.structs.replace(sent[k].body, comment="twin"), author.sign)
    [item] = svc.import_text(armor_packets([twin])).items
    assert item.outcome == "equivocation"
    assert len(svc.store.evidence(gid)) == MAX_REFUSED_EVIDENCE + 2


def test_a_crash_between_the_packet_and_the_index_leaves_no_false_index(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 1
    svc, home = stores.cut_back(tmp_path_factory, n)
    gid = sent[0].body.game
    svc.index(gid)  # the cut-back store's index, written again from its packets
    before = svc.store.meta(gid)
    assert before.packets == n

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies after the packet, before the index

    monkeypatch.setattr(Service, "write_meta", crash)
    with pytest.raises(KeyboardInterrupt):
        svc.import_text(armor_packets([sent[n]]))
    monkeypatch.undo()
    assert svc.store.count(gid) == n + 1 and svc.store.meta(gid).packets == n
    [info] = Store(home).games()
    assert info.stale and info.to_move == ""  # says nothing rather than something false
    [row] = rows(Store(home))  # the listing writes the index again from the packets
    fresh = Service(Store(home)).load(gid).expects()
    want = "over" if fresh is None else fresh[0]
    assert row["to_move"] == want and Store(home).meta(gid).packets == n + 1


@pytest.mark.parametrize("command", ["verify", "audit"])
@pytest.mark.parametrize("bad", [non_ascii_signature, garbage_signature])
def test_verify_and_audit_say_one_line_of_a_bad_packet(
    command: str, bad: object, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 20: a non-ASCII signature ended ``verify`` and ``audit`` in a traceback."""
    sent = stores.packets_of(tmp_path_factory)
    path = tmp_path_factory.mktemp("bad") / "game.txt"
    path.write_text(armor_packets(sent[:5]) + bad(sent[5]))  # type: ignore[operator]
    out = subprocess.run(
        [sys.executable, "-m", "ardennes_tui", command, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 1 and out.stderr == ""
    assert out.stdout.startswith("FAILED: game ") and out.stdout.count("\n") == 1
    assert "block 6 (Seq 5): " in out.stdout
