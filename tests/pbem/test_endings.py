"""Resigning and drawing (issue 20: listed as packet kinds, refused as "not supported yet"):
signed and checked like any packet, in both players' stores and in ``verify``, the verdict in
the game record's footer; ``ardennes resign`` and ``ardennes draw`` from the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

import rules.ao
import scenarios
from pbem import audit, endings, sources
from pbem.aoplay import ao_other
from pbem.core import authoring, packets, protocol
from pbem.games import Service
from pbem.store import Store
from tests.kit.email_players import Player, start
from tests.kit.players import PlayerKey, board, played
from tests.kit.realmap import needs_real_map
from tests.pbem import stores

pytestmark = needs_real_map

KEYS = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}


def _game(upto: int = 6) -> tuple[protocol.EmailGame, tuple[packets.Packet, ...]]:
    sent = played("sealed")
    return protocol.EmailGame.replay(sent[:upto], board), tuple(sent)


def test_a_resignation_ends_the_game_for_the_other_side() -> None:
    g, sent = _game()
    want = g.expects()
    assert want is not None
    waiting = ao_other(want[0])  # the player not to move resigns
    p = authoring.ending(g, KEYS[waiting], waiting, "resign", comment="enough")
    assert p.body.kind == "resign" and not p.body.commands and p.body.dice == ""
    v = g.verdict
    assert v is not None and (v.winner, v.kind) == (want[0], "resignation")
    assert v.reason == f"the {waiting.capitalize()} player resigned"
    assert g.expects() is None
    with pytest.raises(protocol.Refused, match=f"packet {p.body.seq + 1}: the game is over"):
        authoring.ending(g, KEYS[want[0]], want[0], "draw_offer")
    # the other side's copy reads it as any packet; verify says how it ended
    other = protocol.EmailGame.replay([*sent[:6], p], board)
    assert other.verdict == v
    line = audit.verify(sources.Source("packets", "x", packets=(*sent[:6], p))).line
    assert f"game over, {want[0].capitalize()} wins (resignation, VP" in line


def test_a_draw_offer_declined_then_accepted() -> None:
    g, _ = _game()
    want = g.expects()
    assert want is not None
    mover, other = want[0], ao_other(want[0])
    authoring.ending(g, KEYS[other], other, "draw_offer")
    assert g.expects() == (mover, "draw_answer")
    with pytest.raises(protocol.Refused, match="answer the draw offer first"):
        authoring.draft(g, KEYS[mover], mover)
    with pytest.raises(protocol.Refused, match="a draw offer already waits for its answer"):
        authoring.ending(g, KEYS[mover], mover, "draw_offer")
    with pytest.raises(protocol.Refused, match="there is no draw offer of the other player"):
        authoring.ending(g, KEYS[other], other, "draw_answer", accept=True)
    authoring.ending(g, KEYS[mover], mover, "draw_answer", accept=False)
    assert g.expects() == want and g.verdict is None  # the game goes on where it was
    d = authoring.draft(g, KEYS[mover], mover)
    assert d.body.kind == want[1]
    authoring.ending(g, KEYS[mover], mover, "draw_offer", comment="let us stop here")
    p = authoring.ending(g, KEYS[other], other, "draw_answer", accept=True)
    assert g.verdict is not None and (g.verdict.winner, g.verdict.kind) == (None, "agreement")
    assert protocol.EmailGame.replay(g.packets, board).verdict == g.verdict
    assert p.body.accept is True


def test_an_ending_before_the_acceptance_is_refused() -> None:
    g, sent = _game(upto=1)
    with pytest.raises(protocol.Refused, match="the game has not begun"):
        authoring.ending(g, KEYS["german"], "german", "resign")
    body = msgspec.structs.replace(
        sent[2].body, kind="resign", commands=(), dice="", seq=1, prev=g.hashes[0], author="german"
    )
    with pytest.raises(
        protocol.Refused, match="a german resign packet, but the next is the allied"
    ):
        g.receive(packets.sign(body, KEYS["german"].sign))


def test_the_record_keeps_the_verdict_and_replays() -> None:
    g, _ = _game()
    authoring.ending(g, KEYS["german"], "german", "resign")
    from pbem.exchange import game_record

    data = game_record(g, "hans", "joe")
    record = rules.record.decode(data)
    assert record.footer is not None and record.footer.verdict == g.verdict
    r = rules.ao.Game.replay(record, scenarios.load_board(1))
    assert r.ok, r.error
    # only the players' verdicts may end a record the rules did not end (a record is not
    # signed: the packets are what proves a resignation)
    ruled = data.replace(b'"resignation"', b'"cumulative"')
    r = rules.ao.Game.replay(rules.record.decode(ruled), scenarios.load_board(1))
    assert r.error == "the end line's turn, phase or verdict differ from the replay"


@pytest.mark.parametrize("how", ["resign", "draw"])
def test_in_both_stores_and_in_verify(how: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    game, root = stores.played(tmp_path_factory)
    home = tmp_path_factory.mktemp(f"both-{how}")
    for side in ("german", "allied"):
        shutil.copytree(root / side, home / side)
    svc = {s: Service(Store(home / s)) for s in ("german", "allied")}
    me = {s: stores.key(s) for s in ("german", "allied")}
    gid = game.game_id
    if how == "resign":
        sent = endings.resign(svc["allied"], gid, me["allied"], "I give up")
        assert [i.outcome for i in svc["german"].import_text(sent.text).items][-1] == "accepted"
        want = ("german", "resignation")
    else:
        sent = endings.draw(svc["german"], gid, me["german"], "offer")
        with pytest.raises(Exception, match="your draw offer waits for the allied's answer"):
            svc["german"].draft(gid, me["german"])
        svc["allied"].import_text(sent.text)
        declined = endings.draw(svc["allied"], gid, me["allied"], "decline")
        svc["german"].import_text(declined.text)
        assert svc["german"].load(gid).verdict is None
        again = endings.draw(svc["allied"], gid, me["allied"], "offer")
        svc["german"].import_text(again.text)
        yes = endings.draw(svc["german"], gid, me["german"], "accept")
        assert [i.outcome for i in svc["allied"].import_text(yes.text).items][-1] == "accepted"
        want = (None, "agreement")  # type: ignore[assignment]
    for side in ("german", "allied"):
        g = svc[side].load(gid)
        assert g.verdict is not None and (g.verdict.winner, g.verdict.kind) == want
        st = svc[side].status(gid)
        assert st.to_move is None and st.next.startswith("game over: ")
        assert svc[side].store.meta(gid).to_move == "over"
        v = audit.verify(sources.load_source(gid, svc[side].store))
        assert v.ok and "game over, " in v.line, v.line
    assert svc["german"].store.packets(gid) == svc["allied"].store.packets(gid)


def test_resign_and_draw_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = {
        "german": Player("hans", tmp_path, monkeypatch, capsys),
        "allied": Player("joe", tmp_path, monkeypatch, capsys),
    }
    hans, joe = players["german"], players["allied"]
    gid = start(players, "sealed")
    offer = hans.ok("draw", gid[:8], "--offer")
    assert "Kind: draw_offer" in offer
    code, out, err = hans.run("draw", gid[:8], "--accept")
    assert code == 1 and err.startswith(f"ardennes: game {gid[:8]}: packet 3: there is no draw")
    imported = joe.ok("import", joe.file(offer)).splitlines()[-1]
    head = f"game {gid[:8]} packet 2 (german draw_offer): accepted"
    assert imported == f"{head}; your move (Allied answer to the draw offer)"
    answer = joe.ok("draw", gid[:8], "--decline", "--comment", "not yet")
    assert "Kind: draw_answer" in answer
    hans.ok("import", hans.file(answer))
    resigned = joe.ok("resign", gid[:8])
    code, out, err = hans.run("import", hans.file(resigned))
    assert code == 0 and out.splitlines()[-1].endswith(
        "accepted; game over: German wins (resignation), VP 0-0 (German-Allied): "
        "the Allied player resigned"
    )
    code, out, err = joe.run("resign", gid[:8])
    assert code == 1 and err.startswith(f"ardennes: game {gid[:8]} is over: German wins")
    with pytest.raises(SystemExit) as exit_:
        hans.run("draw", gid[:8])
    assert exit_.value.code == 2
    assert "one of the arguments --offer --accept --decline is required" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["batch", "switch"])
def test_a_draw_offered_and_declined_changes_no_die(kind: str) -> None:
    """A mover who knows his batch's dice from the reply, or the German who knows the CRT
    switch die from the Allied packet, offers a draw, which is declined: the die is the same
    (draw and resign packets count for nothing in a seed, protocol section 4)."""
    sent = played("sealed", 6)  # the CRT switch rolls from Game-Turn 6
    want = "resolution" if kind == "batch" else "orders"
    i = next(
        k
        for k, p in enumerate(sent)
        if p.body.kind == want and p.body.dice and (kind == "batch" or p.body.reveal)
    )
    mover = sent[i].body.author
    other = ao_other(mover)
    direct = protocol.EmailGame.replay(sent[:i], board)
    detour = protocol.EmailGame.replay(sent[:i], board)
    authoring.ending(detour, KEYS[mover], mover, "draw_offer", comment="shall we stop?")
    authoring.ending(detour, KEYS[other], other, "draw_answer", accept=False, comment="no")
    dice = []
    for g in (direct, detour):
        d = authoring.draft(g, KEYS[mover], mover)
        for step in sent[i].body.commands:
            assert not isinstance(d.push(step.command), str)
        dice.append(d.seal().body.dice)
    assert dice[0] == dice[1] == sent[i].body.dice != ""
