"""The email game protocol (``pbem.core.protocol``, ``pbem.core.turn``): bot games in each dice
mode, and every attack of ``docs/pbem-protocol.md`` refused with a precise message and nothing
changed."""

from __future__ import annotations

import itertools
from functools import cache

import msgspec
import pytest

import rules.ao
from pbem.aoplay import ao_other, ao_side
from pbem.core import authoring, chain, packets, protocol
from pbem.core.identity import KeyIdentity
from pbem.core.packets import DiceMode, Packet, Step
from tests.kit.players import GAME_ID, PlayerKey, board, play
from tests.kit.realmap import needs_real_map

# one worker: the module's tests share what it builds once
pytestmark = [needs_real_map, pytest.mark.xdist_group("protocol")]


@cache
def game(mode: DiceMode) -> tuple[protocol.EmailGame, tuple[Packet, ...]]:
    g, sent = play(mode, turns=2)
    return g, tuple(sent)


def fresh(packets_: tuple[Packet, ...], upto: int) -> protocol.EmailGame:
    return protocol.EmailGame.replay(packets_[:upto], board)


def signed_again(p: Packet, key: KeyIdentity, **changes: object) -> Packet:
    return packets.sign(msgspec.structs.replace(p.body, **changes), key.sign)


KEYS = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}


@pytest.mark.parametrize("mode", ["sealed", "open", "local"])
def test_a_bot_game_by_email_replays_on_both_sides(mode: DiceMode) -> None:
    g, sent = game(mode)
    assert g.game is not None and g.game.state.turn == 3
    again = protocol.EmailGame.replay(sent, board)
    assert again.game is not None and again.game.state_hash() == g.game.state_hash()
    kinds = [p.body.kind for p in sent]
    assert kinds[:2] == ["invitation", "acceptance"]
    if mode == "sealed":
        assert {"orders", "reply", "resolution"} <= set(kinds)
        # every resolution follows a reply, every reply follows a declaration
        for i, k in enumerate(kinds):
            if k == "resolution":
                assert kinds[i - 1] == "reply"
            if k == "reply":
                assert kinds[i - 1] in ("orders", "resolution")
    else:
        assert set(kinds[2:]) == {"orders"}
    # the commands concatenate to the game's history
    cmds = [s.command for p in sent for s in p.body.commands]
    assert tuple(cmds) == g.game.commands


def test_sealed_links_are_revealed_in_order_and_only_when_due() -> None:
    g, sent = game("sealed")
    for p in sent[2:]:
        b = p.body
        assert (b.reveal is not None) == (b.kind in ("reply", "resolution"))
    for side, party in g.parties.items():
        links = [party.commitment, *party.revealed]
        assert all(chain.verify_link(a, b) for a, b in itertools.pairwise(links))
        mine = [p.body.reveal for p in sent if p.body.author == side and p.body.reveal]
        assert [bytes.fromhex(x) for x in mine] == party.revealed


def test_sealed_no_roll_is_computable_before_the_decisions_it_can_influence() -> None:
    """By construction: a batch's dice (declared attacks, the paradrop) need the mover's link,
    first published in the resolution packet, and the opponent's, first published in the
    reply, which is signed after the orders that declared the batch. The CRT switch die opens
    the German's orders packet and needs the link published there and the hash of the Allied
    packet before it. Every other packet rolls nothing (it has no dice at all)."""
    g, sent = game("sealed")
    assert g.game is not None
    published: dict[bytes, int] = {}
    for p in sent:
        if p.body.reveal:
            published.setdefault(bytes.fromhex(p.body.reveal), p.body.seq)
    bounds = [*g.first_command, len(g.game.history)]
    kinds = set()
    for n, d in enumerate(g.derivations):
        p = sent[d.seq]
        steps = g.game.history[bounds[n] : bounds[n + 1]]
        rolled = [e for st in steps for e in st.events if isinstance(e, rules.DieRoll)]
        kinds.add(d.kind)
        if d.kind == "none":
            assert not rolled and d.seed == b""
            assert (p.body.reveal is None) == (p.body.kind != "reply")  # a reply's is the batch's
            continue
        assert rolled
        if d.kind == "switch":
            assert p.body.kind == "orders" and isinstance(steps[0].command, rules.ao.Roll)
            assert [r.purpose for r in rolled] == ["crt_switch"]
            assert published[d.author_link] == d.seq  # nobody saw it before this packet
            assert sent[d.seq - 1].body.author != p.body.author
            assert d.reply.hex() == g.hashes[d.seq - 1]
            continue
        assert d.kind == "batch" and p.body.kind == "resolution"
        reply = sent[d.seq - 1]
        assert published[d.author_link] == d.seq  # nobody saw it before this packet
        assert published[d.other_link] == reply.body.seq  # published after the declaration
        assert reply.body.kind == "reply" and not reply.body.commands[1:]
        declared = [
            st
            for st in sent[d.seq - 2].body.commands
            if isinstance(st.command, (rules.ao.DeclareAttack, rules.ao.Drop))
        ]
        assert declared, "the batch was declared in the packet before the reply"
    assert kinds == {"none", "batch", "switch"} or kinds == {"none", "batch"}


def test_a_resolve_in_the_orders_packet_is_refused() -> None:
    _, sent = game("sealed")
    i = next(
        k
        for k, p in enumerate(sent)
        if p.body.kind == "orders"
        and any(isinstance(s.command, rules.ao.DeclareAttack) for s in p.body.commands)
    )
    p = sent[i]
    d = authoring.draft(fresh(sent, i), KEYS[p.body.author], p.body.author)
    for s in p.body.commands:
        assert not isinstance(d.push(s.command), str)
    assert d.push(rules.ao.ResolveAttacks()) == (
        "a batch is resolved only after the opponent's reply: send the packet now"
    )
    assert d.complete() and not d.ended()  # more attacks may be declared, or it is sent


# -- attacks: each refused with a precise message, nothing changed ------------------------------


def _at(mode: DiceMode = "sealed", index: int = 4) -> tuple[protocol.EmailGame, Packet, str]:
    """A copy of the game before packet ``index``, that packet, and the copy's hash."""
    _, sent = game(mode)
    g = fresh(sent, index)
    assert g.game is not None
    return g, sent[index], g.game.state_hash()


def _refused(g: protocol.EmailGame, p: Packet, before: str, message: str) -> None:
    n = len(g.packets)
    with pytest.raises(protocol.Refused) as exc:
        g.receive(p)
    assert message in str(exc.value), str(exc.value)
    assert len(g.packets) == n and g.game is not None and g.game.state_hash() == before


def test_a_packet_signed_by_a_third_key_is_refused() -> None:
    g, p, h = _at()
    forged = signed_again(p, PlayerKey("mallory"))
    _refused(g, forged, h, f"packet {p.body.seq}: signed by SHA256:")
    _refused(g, forged, h, f"but the {p.body.author} player's key is SHA256:")


def test_a_changed_command_breaks_the_signature() -> None:
    _, p, _ = _at()
    changed = p.signed.replace(b'"kind":"', b'"comment":"changed after signing","kind":"')
    with pytest.raises(packets.PacketError, match=r"^bad signature .bad signature by SHA256:"):
        packets.decode(changed + b"\n" + p.signature)


def test_an_out_of_order_and_a_replayed_packet() -> None:
    _, sent = game("sealed")
    g, _, h = _at(index=4)
    _refused(g, sent[5], h, "packet 5 is out of order: packet 4 comes next")
    g.receive(sent[3])  # the same packet again: nothing happens
    assert len(g.packets) == 4 and g.game is not None and g.game.state_hash() == h


def test_a_packet_for_another_game_is_refused() -> None:
    g, p, h = _at()
    other = signed_again(p, KEYS[p.body.author], game="ab" * 16)
    _refused(g, other, h, f"packet {p.body.seq} is for game abababab, not {GAME_ID[:8]}")


def test_a_wrong_prev_hash_is_refused() -> None:
    g, p, h = _at()
    _refused(g, signed_again(p, KEYS[p.body.author], prev="cd" * 32), h, "prev hash differs")


def _first(mode: DiceMode, kind: str) -> int:
    _, sent = game(mode)
    return next(i for i, p in enumerate(sent) if p.body.kind == kind)


def test_a_reveal_that_does_not_match_the_commitment_is_refused() -> None:
    g, p, h = _at(index=_first("sealed", "reply"))
    bad = signed_again(p, KEYS[p.body.author], reveal="ee" * 32)
    _refused(g, bad, h, "the revealed link does not match the")


def test_an_illegal_move_with_a_valid_signature_is_refused_with_its_rule() -> None:
    g, p, h = _at(index=2)  # the Allied set-up: historical, no Place allowed (AO-17.a)
    illegal = Step(command=rules.ao.Place("us-106-i", "2020"), hash="00" * 16)
    bad = signed_again(p, KEYS[p.body.author], commands=(illegal, *p.body.commands))
    _refused(g, bad, h, "packet 2, command 0 (place): refused: AO-")


def test_a_false_state_hash_is_refused() -> None:
    g, p, h = _at(index=2)
    steps = list(p.body.commands)
    steps[0] = Step(command=steps[0].command, hash="0" * 32)
    bad = signed_again(p, KEYS[p.body.author], commands=tuple(steps))
    _refused(g, bad, h, f"packet 2, command 0 ({rules.record.tag(steps[0].command)}): state hash ")


def test_a_command_for_the_other_side_is_refused() -> None:
    g, p, h = _at(index=_first("sealed", "reply"))
    mover = ao_other(p.body.author)
    orders = Step(command=rules.ao.StandingOrders(side=mover), hash="0" * 32)
    bad = signed_again(p, KEYS[p.body.author], commands=(orders,))
    _refused(g, bad, h, f"gives standing orders for the {mover}")


def test_equivocation_is_kept_as_proof() -> None:
    _, sent = game("sealed")
    g = fresh(sent, 5)
    p = sent[4]
    twin = signed_again(p, KEYS[p.body.author], comment="another version")
    with pytest.raises(protocol.Equivocation) as exc:
        g.receive(twin)
    assert exc.value.kept == p and exc.value.other == twin
    assert "signed two different packets 4" in str(exc.value)


# -- found by the security review ---------------------------------------------------------------


def _resolution_draft() -> authoring.Draft:
    _, sent = game("sealed")
    i = _first("sealed", "resolution")
    p = sent[i]
    return authoring.draft(fresh(sent, i), KEYS[p.body.author], p.body.author)


def test_a_resolution_resolves_its_batch_before_anything_else() -> None:
    """The mover knows the batch's dice once the reply is in: he may not add attacks to the
    batch, nor change his standing orders, before it is resolved to its end."""
    d = _resolution_draft()
    side = d.body.author
    target = rules.ao.DeclareAttack(("x",), ("0101",))
    assert (
        d.push(target)
        == "a resolution resolves its batch first, by standing orders, and nothing else"
    )
    assert d.push(rules.ao.StandingOrders(side=ao_side(side), advance="decline")) == (
        "standing orders are set before the batch, not while it resolves"
    )
    assert not isinstance(d.push(rules.ao.ResolveAttacks()), str)
    assert d.play.batch_done()


def test_standing_orders_are_never_cleared_and_a_reply_gives_them() -> None:
    _, sent = game("sealed")
    i = _first("sealed", "reply")
    p = sent[i]
    d = authoring.draft(fresh(sent, i), KEYS[p.body.author], p.body.author)
    clear = rules.ao.StandingOrders(side=ao_side(p.body.author), clear=True)
    assert (
        d.push(clear) == "email games need standing orders that never ask (and are never cleared)"
    )


def test_a_refused_acceptance_pins_no_key() -> None:
    _, sent = game("sealed")
    g = protocol.EmailGame.start(sent[0], board)
    acc = sent[1]
    mallory = PlayerKey("mallory")
    body = msgspec.structs.replace(acc.body, key=mallory.public_line, turn=2)
    bogus = packets.sign(body, mallory.sign)
    with pytest.raises(protocol.Refused, match="an acceptance stands at Game-Turn 1"):
        g.receive(bogus)
    g.receive(acc)  # the real acceptance still goes in
    assert g.parties["allied"].key == KEYS["allied"].public_line


def test_the_invitees_chain_depends_on_the_invitation() -> None:
    """An inviter who reuses a game id gets a different chain from the invitee."""
    _, sent = game("sealed")
    g1 = protocol.EmailGame.start(sent[0], board)
    other = signed_again(sent[0], KEYS["german"], comment="the same game id, another invitation")
    _, acc1 = authoring.accept(KEYS["allied"], sent[0], board)
    _, acc2 = authoring.accept(KEYS["allied"], other, board)
    assert acc1.body.commitment != acc2.body.commitment
    assert g1.game_id == other.body.game


def test_a_false_turn_or_phase_in_the_header_is_refused() -> None:
    g, p, h = _at(index=2)
    _refused(g, signed_again(p, KEYS[p.body.author], phase="combat"), h, "the game is at Game-Turn")


def test_a_different_packet_of_the_other_player_is_no_equivocation() -> None:
    _, sent = game("sealed")
    g = fresh(sent, 5)
    p = sent[4]
    other = ao_other(p.body.author)
    twin = signed_again(p, KEYS[other], author=other)
    with pytest.raises(protocol.Refused) as exc:
        g.receive(twin)
    assert not isinstance(exc.value, protocol.Equivocation)
    assert "is already in the game: this one is not its twin" in str(exc.value)
