"""``ardennes verify``: a whole game checked from its first packet (``docs/pbem-protocol.md``,
section 6): every check of section 5 over a :class:`pbem.core.verify.Source` (signatures against
the pinned keys, the chain, the revealed links, every command through the rules, every state
hash), or a game record through the rules (:meth:`rules.ao.Game.replay`); one line: the summary,
or the first failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pbem.core.errors import PbemError, one_line
from pbem.core.packets import Packet
from pbem.core.protocol import BoardFor, EmailGame, fingerprint_of
from pbem.core.turn import AnyGame
from rules import registry
from rules.game import Game
from rules.record import Players, Record, RecordError, player

__all__ = ["BoardFor", "Source", "Verified", "standing", "verify"]


# -- verify ------------------------------------------------------------------------------------


SourceKind = Literal["packets", "record", "store"]


@dataclass(frozen=True)
class Source:
    """A game to check: its packets (a file of armoured packets, a game in the store) or its
    record; ``problem`` is the first damage found while reading (the game then fails to
    verify, naming it)."""

    kind: SourceKind
    name: str
    """What the user named: the file's path, ``-``, or ``game <id>``."""
    packets: tuple[Packet, ...] = ()
    """Sorted by ``seq`` (a file may hold them in any order)."""
    record: Record | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Verified:
    """What :func:`verify` found: ``line`` is the one-line summary when ``ok``, else the first
    failure. ``email`` is the email game as far as it verified (packets), ``game`` the rules'
    game as far as it verified (both kinds of source)."""

    source: Source
    ok: bool
    line: str
    email: EmailGame | None = None
    game: AnyGame | None = None


def standing(game: AnyGame | None, verdict: Any = None) -> str:
    """Where ``game`` stands, or how it ended (``verdict``: an email game's, which may be a
    resignation or a draw by agreement; else the rules'), in its ruleset's words
    (:meth:`rules.ruleset.Ruleset.standing`)."""
    if game is None:
        return "not yet accepted"
    text: str = game.ruleset.standing(game.state, verdict)
    return text


def _keys(sides: tuple[str, str], keys: dict[str, str]) -> str:
    """``German key X, Allied key Y``: each side's key, the second side first."""
    return ", ".join(f"{s.capitalize()} key {keys.get(s, '-')}" for s in reversed(sides))


def _players(players: Players, sides: Sequence[str]) -> str:
    """Who played each of ``sides``, as a record's header says."""
    return ", ".join(f"{s.capitalize()} {player(players, s).label}" for s in sides)


def _replay_packets(source: Source, board_for: BoardFor) -> tuple[EmailGame | None, str | None]:
    """The email game as far as the packets verify, and the first failure (None: all good).
    The same checks as :meth:`EmailGame.replay`, keeping the part that verified."""
    chain = source.packets
    if not chain:
        return None, source.problem or f"{source.name}: no packets"
    first = chain[0].body.seq
    if first != 0:
        return None, (
            f"{source.name} starts at packet {first}: a game is verified from its first "
            "packet, the invitation"
        )
    game: EmailGame | None = None
    where = "packet 0"
    try:
        game = EmailGame.start(chain[0], board_for)
        for p in chain[1:]:
            where = f"packet {p.body.seq}"
            game.receive(p)
    except PbemError as exc:
        return game, str(exc)
    except Exception as exc:  # hostile input must not end in a traceback
        return game, f"{where} could not be checked: {type(exc).__name__}: {exc}"
    return game, source.problem


def _replay_record(source: Source, board_for: BoardFor) -> tuple[AnyGame | None, str | None]:
    record = source.record
    if record is None:
        return None, source.problem or f"{source.name}: no game record"
    try:
        game_class = registry.game_class(record.header.ruleset) or Game
        board = board_for(record.header.scenario)
        r = game_class.replay(record, board, ruleset=registry.get(record.header.ruleset))
    except KeyError:
        return None, f"{source.name}: this program does not have the ruleset {record.ruleset!r}"
    except (RecordError, PbemError) as exc:
        return None, f"{source.name}: {exc}"
    except Exception as exc:
        return None, f"{source.name} could not be replayed: {type(exc).__name__}: {exc}"
    if not r.ok:
        return r.game, f"{source.name}: {r.error}"
    return r.game, None


def verify(source: Source, board_for: BoardFor) -> Verified:
    """Check the whole game of ``source`` from its first packet (or its record's first
    command): every check of protocol section 5, every command through the rules."""
    if source.kind == "record":
        played, failure = _replay_record(source, board_for)
        if failure is not None:
            return Verified(source, False, one_line(f"FAILED: {failure}", 500), game=played)
        assert played is not None and source.record is not None
        head = source.record.header
        who = _players(head.players, played.ruleset.sides[::-1])  # the AO: German, Allied
        line = (
            f"OK: record {source.name}, scenario {head.scenario}, {head.dice.kind} dice, "
            f"{len(played.history)} commands, {standing(played)}; {who}; "
            f"final state {played.state_hash()}"
        )
        return Verified(source, True, line, game=played)
    email, failure = _replay_packets(source, board_for)
    game: AnyGame | None = email.game if email is not None else None
    if failure is not None:
        gid = f"game {email.game_id[:8]}: " if email is not None else ""
        return Verified(
            source, False, one_line(f"FAILED: {gid}{failure}", 500), email=email, game=game
        )
    assert email is not None
    fps = {side: fingerprint_of(p.key) for side, p in email.parties.items()}
    commands = len(game.history) if game is not None else 0
    final = game.state_hash() if game is not None else "-"
    line = (
        f"OK: game {email.game_id}, scenario {email.scenario}, {email.mode} dice, "
        f"{len(email.packets)} packets, {commands} commands, {standing(game, email.verdict)}; "
        f"{_keys(email.ruleset.sides, fps)}; final state {final}"
    )
    return Verified(source, True, line, email=email, game=game)
