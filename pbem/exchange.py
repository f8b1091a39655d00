"""Packets in and out of armoured text, and what an import did (``docs/pbem-protocol.md``,
sections 5 and 7).

:func:`armor_packets` writes packets as armour blocks with the readable headers (``Game``,
``Seq``, ``Side``, ``Turn``, ``Phase``, ``Kind``); :func:`read_blocks` decodes the blocks that
:func:`pbem.mail.read_armored` found, each to a packet or a one-line reason, and refuses a
block whose headers say something else than its packet. :class:`ImportReport` is what
:meth:`pbem.games.Service.import_text` did with each packet; :func:`next_move` says in words
who writes the next packet of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import msgspec

import rules.ao
from pbem import keys
from pbem.core import packets
from pbem.core.errors import PbemError, one_line
from pbem.core.headers import armor_headers, armor_packets
from pbem.core.packets import Packet, PacketError
from pbem.core.protocol import EmailGame
from pbem.mail import Received
from pbem.store_types import STOPPED

__all__ = [
    "STOPPED",
    "Block",
    "ImportItem",
    "ImportReport",
    "Outcome",
    "armor_headers",
    "armor_packets",
    "fingerprint_of",
    "game_record",
    "next_move",
    "next_packet",
    "phase_words",
    "read_blocks",
    "verdict_text",
]


Outcome = Literal["accepted", "duplicate", "refused", "invitation", "equivocation", "skipped"]
"""What became of one packet of an import: ``accepted`` (checked and stored), ``duplicate``
(already stored, nothing changed), ``refused`` (a check failed, nothing stored),
``invitation`` (a new game to accept with ``ardennes accept``), ``equivocation`` (a second
packet signed for a place already taken: both kept as evidence, the game stops), ``skipped``
(not read: the game had stopped)."""


def fingerprint_of(public_line: str) -> str:
    """The OpenSSH fingerprint of a public key line (``SHA256:...``)."""
    return keys.fingerprint(keys.parse_public_line(public_line)[0])


@dataclass(frozen=True)
class Block:
    """One armour block read back: its packet, or why it is not one."""

    number: int
    origin: str
    packet: Packet | None
    error: str = ""


def _header_mismatch(headers: Mapping[str, str], packet: Packet) -> str | None:
    for key, value in armor_headers(packet).items():
        said = headers.get(key)
        if said is not None and said != value:
            return f"the armour's {key} header says {said[:40]!r}, its packet {value!r}"
    return None


def read_blocks(received: Received) -> list[Block]:
    """The packets of the blocks ``received`` holds, in the order found; a block that does not
    decode (:func:`pbem.core.packets.decode`) or whose headers contradict its packet has an
    ``error`` instead."""
    out = []
    for number, found in enumerate(received.found, start=1):
        where = f"{found.origin}: block {number}"
        try:
            packet = packets.decode(found.block.payload)
        except PacketError as exc:
            out.append(Block(number, found.origin, None, f"{where}: {exc}"))
            continue
        except Exception as exc:  # hostile input: never a traceback, never the others lost
            why = f"{where}: could not be read ({type(exc).__name__})"
            out.append(Block(number, found.origin, None, why))
            continue
        mismatch = _header_mismatch(found.block.headers, packet)
        if mismatch is not None:
            out.append(Block(number, found.origin, None, f"{where}: {mismatch}"))
            continue
        out.append(Block(number, found.origin, packet))
    return out


# -- where a game stands, in words ----------------------------------------------------------


def phase_words(phase: str) -> str:
    """A phase as players say it: ``mechanized movement``, ``set-up``."""
    return "set-up" if phase.startswith("setup_") else phase.replace("_", " ")


def verdict_text(verdict: rules.ao.Verdict | None) -> str:
    """``German wins (immediate), VP 12-3: ...`` or ``draw ...``."""
    if verdict is None:
        return "game over"
    who = f"{verdict.winner.capitalize()} wins" if verdict.winner else "draw"
    return (
        f"{who} ({verdict.kind}), VP {verdict.german_vp}-{verdict.allied_vp} "
        f"(German-Allied): {verdict.reason}"
    )


def next_packet(game: EmailGame) -> str:
    """The next packet in a few words: ``Allied reply``, ``German combat``, ``over``."""
    want = game.expects()
    if want is None:
        return "over"
    side, kind = want
    name = side.capitalize()
    if kind == "acceptance":
        return f"{name} acceptance"
    if kind in ("reply", "resolution"):
        return f"{name} {batch_words(game, kind)}"
    if kind == "draw_answer":
        return f"{name} answer to the draw offer"
    assert game.game is not None
    return f"{name} {phase_words(game.game.state.phase)}"


def batch_words(game: EmailGame, kind: str) -> str:
    """A sealed batch's packet named by what the batch is (protocol section 4): ``reply to
    the paratroop drop`` / ``paratroop drop (its survival die)`` while the drop's die waits
    (AO-15.b, Initial Movement), else ``reply to the declared attacks`` / ``combat
    resolution``."""
    s = game.game.state if game.game is not None else None
    drop = s is not None and s.roll is not None and s.roll.purpose == "paradrop"
    if kind == "reply":
        return "reply to the paratroop drop" if drop else "reply to the declared attacks"
    return "paratroop drop (its survival die)" if drop else "combat resolution"


def next_move(game: EmailGame, our_side: rules.ao.Side, label: str = "") -> str:
    """Who writes the next packet, as we read it: ``your move (German combat)``, ``waiting
    for the allied player (joe): Allied reply to the declared attacks`` or ``game over:
    ...``. In a local game every move is ours."""
    want = game.expects()
    if want is None:
        return f"game over: {verdict_text(game.verdict)}"
    side = want[0]
    what = next_packet(game)
    if game.mode == "local" or side == our_side:
        return f"your move ({what})"
    who = f"the {side} player ({label})" if label else f"the {side} player"
    return f"waiting for {who}: {what}"


def game_record(game: EmailGame, german: str, allied: str) -> bytes:
    """``game`` as a :mod:`rules.record` that replays on its own (``ardennes selfplay
    --replay``): every command, the dice listed in order (each packet's draws recomputed from
    its seed), the players (humans labelled ``german`` and ``allied``), the game id and dice
    mode in the header's meta."""
    if game.game is None:
        raise PbemError(f"game {game.game_id[:8]} has not been accepted yet: no record")
    if game.partial:
        raise PbemError(f"game {game.game_id[:8]}: a record needs the game replayed whole")
    g = game.game
    values: list[str] = []
    starts = [*game.first_command, len(g.history)]
    for k, derived in enumerate(game.derivations):
        dice = rules.SeededDice(derived.seed)
        first = g.state_at(starts[k]).dice_drawn
        last = g.state_at(starts[k + 1]).dice_drawn
        values.extend(str(dice.d6(i)) for i in range(first, last))
    spec = rules.DiceSpec(kind="listed", detail={"values": "".join(values)})
    players: rules.record.Players = {
        "german": rules.record.Player(kind="human", name=german),
        "allied": rules.record.Player(kind="human", name=allied),
    }
    rec = rules.record.make_record(
        scenario=game.scenario,
        dice=spec,
        players=players,
        steps=g.history,
        final=g.state,
        meta={"game": game.game_id, "mode": game.mode},
        ruleset=g.ruleset,
    )
    if game.ending is not None and rec.footer is not None:  # a resignation, a draw agreed
        footer = msgspec.structs.replace(rec.footer, verdict=game.ending)
        rec = msgspec.structs.replace(rec, footer=footer)
    return rules.record.encode(rec)


# -- the report of an import ----------------------------------------------------------------


@dataclass(frozen=True)
class ImportItem:
    """What became of one packet (or of a block that is not one)."""

    outcome: Outcome
    game_id: str = ""
    """Empty for a block that could not be read."""
    seq: int = -1
    author: str = ""
    kind: str = ""
    reason: str = ""
    """Why it was refused, or what the invitation offers."""
    after: str = ""
    """Where the game stands after an accepted packet (:func:`next_move`)."""

    def line(self) -> str:
        """``game 3f9a0c2e packet 7 (allied orders): accepted; your move (German combat)``:
        one printable line, whatever the input put in the reason."""
        return one_line(self._line(), 500)

    def _line(self) -> str:
        if not self.game_id:
            return f"refused: {self.reason}"
        head = f"game {self.game_id[:8]} packet {self.seq} ({self.author} {self.kind})"
        if self.outcome == "accepted":
            return f"{head}: accepted; {self.after}" if self.after else f"{head}: accepted"
        if self.outcome == "duplicate":
            return f"{head}: duplicate (already stored; nothing changed)"
        if self.outcome == "invitation":
            return f"{head}: invitation: {self.reason}"
        return f"{head}: {self.outcome}: {self.reason}"


@dataclass
class ImportReport:
    """Every packet an import found, in order (unreadable blocks first, then by game and
    ``seq``), and notes on what the mail reader skipped."""

    items: list[ImportItem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per packet, then the notes."""
        return [i.line() for i in self.items] + [one_line(f"note: {n}", 500) for n in self.notes]

    def of(self, *outcomes: Outcome) -> list[ImportItem]:
        return [i for i in self.items if i.outcome in outcomes]

    @property
    def accepted(self) -> list[ImportItem]:
        return self.of("accepted")

    @property
    def refused(self) -> list[ImportItem]:
        """Refused, equivocating and skipped packets, and unreadable blocks."""
        return self.of("refused", "equivocation", "skipped")

    @property
    def invitations(self) -> list[ImportItem]:
        return self.of("invitation")

    @property
    def ok(self) -> bool:
        """Nothing was refused (and something was found)."""
        return bool(self.items) and not self.refused
