"""What a mail of packets says before its armoured text: who sent what, and what to do.

The subject and the first line of a mail (``ardennes invite|accept|orders|export --mailto``,
the app's send screen) speak to the reader, not to the program::

    Ardennes 1a2b3c4d: hans (German) sent his Game-Turn 2 orders: your reply is due
    hans (German) sent his Game-Turn 2 orders (packet 5): your reply is due (your standing
    orders for the declared attacks). Import it with `ardennes import` or `i` in the app.

The armoured block stays as it was, after this note in the body and alone in the attachment
(:func:`pbem.mail.build_message`). :func:`cover` does no I/O; :func:`mail_cover` reads the
store: the packets the opponent has not seen (what ``export`` sends).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import NamedTuple

import rules.ao
from pbem.aoplay import ao_other, ao_side
from pbem.core.packets import Packet
from pbem.core.protocol import EmailGame
from pbem.exchange import batch_words, next_packet, verdict_text
from pbem.games import Service

__all__ = ["Cover", "cover", "invitation_cover", "mail_cover"]

IMPORT_HINT = "Import it with `ardennes import` or `i` in the app."
WIDTH = 72
"""The width of the note in the body: no line over 78, so the mail goes as plain 7bit."""


class Cover(NamedTuple):
    """A mail's ``subject`` and the ``note`` that opens its body (wrapped lines)."""

    subject: str
    note: str


def who(side: rules.ao.Side, label: str) -> str:
    """``hans (German)``, or ``The German player`` without a label."""
    return f"{label} ({side.capitalize()})" if label else f"The {side.capitalize()} player"


def _what(packets: Sequence[Packet]) -> str:
    """What ``packets`` (one author's, in order) are, in a few words."""
    kinds = [p.body.kind for p in packets]
    first = packets[0].body
    if "resign" in kinds:
        return "a resignation"
    if "draw_offer" in kinds:
        return "a draw offer"
    if "draw_answer" in kinds:
        answer = next(p.body.accept for p in packets if p.body.kind == "draw_answer")
        return "an acceptance of your draw offer" if answer else "a refusal of your draw offer"
    if kinds[0] == "acceptance":
        more = f" and the {first.author.capitalize()} set-up" if len(kinds) > 1 else ""
        return f"the acceptance of your invitation{more}"
    if kinds == ["reply"]:
        return "a reply to your sealed batch"
    if first.phase.startswith("setup"):
        return "the set-up"
    turn = f"Game-Turn {first.turn}"
    if kinds[0] == "resolution" and len(kinds) == 1:
        return f"the {turn} resolution of the {first.author.capitalize()} batch"
    return f"the {turn} orders"


def _todo(game: EmailGame, reader: rules.ao.Side) -> str:
    """What the reader of the mail does next: ``your reply is due (...)``, ``your move
    (Allied reinforcement)``, ``wait for ...``, or the verdict."""
    want = game.expects()
    if want is None:
        return f"the game is over: {verdict_text(game.verdict)}"
    side, kind = want
    if side != reader:
        return f"nothing for you to do yet ({next_packet(game)} next)"
    if kind == "reply":
        what = batch_words(game, "reply").removeprefix("reply to ")
        return f"your reply is due (your standing orders for {what})"
    if kind == "draw_answer":
        return "your answer to the draw offer is due"
    return f"your move ({next_packet(game)})"


def cover(game: EmailGame, packets: Sequence[Packet], labels: dict[rules.ao.Side, str]) -> Cover:
    """The cover of a mail holding ``packets`` (the sender's, the last ones of ``game`` as
    stored after them); ``labels``: the players' names as the store knows them ("" for
    none). An invitation alone: :func:`invitation_cover`."""
    if not packets:
        raise ValueError("a mail with no packet")
    first = packets[0].body
    if first.kind == "invitation":
        return invitation_cover(packets[0], labels.get(ao_side(first.author), ""))
    sender = first.author
    reader = ao_other(sender)
    what = _what(packets)
    todo = _todo(game, reader)
    seqs = packets[0].body.seq, packets[-1].body.seq
    where = f"packet {seqs[0]}" if seqs[0] == seqs[1] else f"packets {seqs[0]}-{seqs[1]}"
    name = who(ao_side(sender), labels.get(ao_side(sender), ""))
    subject = f"Ardennes {first.game[:8]}: {name} sent {what}: {todo.split(' (')[0]}"
    line = f"{name} sent {what} ({where} of game {first.game[:8]}): {todo}. {IMPORT_HINT}"
    return Cover(subject, textwrap.fill(line, WIDTH))


def invitation_cover(invitation: Packet, label: str = "") -> Cover:
    """The cover of an invitation: what it offers and how to accept it."""
    b = invitation.body
    name = who(ao_side(b.author), label)
    other = ao_other(b.author).capitalize()
    offer = f"scenario {b.scenario}, {b.mode} dice, you play the {other}"
    subject = f"Ardennes {b.game[:8]}: {name} invites you to a game by email ({offer})"
    line = (
        f"{name} sent an invitation to a game of The Ardennes Offensive by email ({offer}). "
        "To accept it, save this mail or its attachment and run `ardennes accept FILE`, or "
        "import it (`ardennes import`, `i` in the app) and accept it there: `ardennes accept "
        f"{b.game[:8]}`."
    )
    return Cover(subject, textwrap.fill(line, WIDTH))


def mail_cover(service: Service, game_id: str, name: str = "") -> Cover:
    """The cover of the mail that sends what the opponent of ``game_id`` has not seen;
    ``name``: the sender's (the display name of the config's ``from`` address), else the
    store's label for our side when it is a name (not a key fingerprint)."""
    meta = service.store.meta(game_id)
    ours = meta.our_side
    label = name or (meta.german if ours == "german" else meta.allied)
    if label.startswith("SHA256:"):
        label = ""
    unseen = service.unseen(game_id)
    if not unseen:
        return Cover(f"Ardennes {game_id[:8]}", "")
    game = service.load(game_id)
    return cover(game, unseen, {ours: label})
