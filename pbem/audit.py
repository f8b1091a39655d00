"""``ardennes verify`` and ``ardennes audit``: check a whole game from its first packet, and
account for every die it rolled.

:func:`verify` replays a :class:`pbem.core.verify.Source` from the invitation on, every check of
``docs/pbem-protocol.md`` section 5 (signatures against the pinned keys, the chain, the
revealed links, every command through the rules, every state hash), or a game record through
the rules (:meth:`rules.game.Game.replay`), and answers in one line: the summary, or the first
failure.

:func:`rolls` lists every die of a verified game (each :class:`rules.DieRoll` event of its
history) with where it was rolled (packet, Game-Turn, phase), what for, the inputs its seed
was derived from (protocol section 4: a sealed batch, the sealed CRT switch, an open or a local
packet), who could have computed it from which packet on, its value and the event it led to.
:func:`statistics` counts the faces of each player's rolls (combat: the attacker's; the CRT
switch and the paradrop: the German's) and of all of them, with Pearson's chi-square against a
fair die and its p-value (:mod:`pbem.core.stats`). :func:`format_audit` is the text of
``ardennes audit`` (fits 100 columns), :func:`audit_json` its ``--json``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from pbem import kits
from pbem.core import stats
from pbem.core import verify as checking
from pbem.core.packets import DEFAULT_RULESET
from pbem.core.protocol import fingerprint_of
from pbem.core.rolls import SHORT, DiceStats, Roll, rolls, statistics
from pbem.core.turn import AnyGame
from pbem.core.verify import BoardFor, Source, Verified, standing
from rules import registry

__all__ = [
    "WIDTH",
    "Audit",
    "DiceStats",
    "Roll",
    "Verified",
    "audit",
    "audit_json",
    "format_audit",
    "rolls",
    "statistics",
    "verify",
]

WIDTH: Final = 100
"""Columns of :func:`format_audit`'s text."""


# -- the audit ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Audit:
    """A verified game's rolls and their statistics (``verified.ok`` is True)."""

    verified: Verified
    rolls: tuple[Roll, ...]
    stats: tuple[DiceStats, ...]


def verify(source: Source, board_for: BoardFor | None = None) -> Verified:
    """:func:`pbem.core.verify.verify` with the boards of the ruleset ``source`` names (its
    invitation, its record's header), from that ruleset's email kit (:mod:`pbem.kits`; a
    ruleset without one fails to verify, naming it) unless ``board_for`` gives them: every
    check of protocol section 5 over ``source``, from its first packet (or its record's
    first command)."""
    if board_for is None:
        board_for = _kit_boards(_source_ruleset(source))
    return checking.verify(source, board_for)


def _source_ruleset(source: Source) -> str:
    """The ruleset the game of ``source`` names (the AO's when it names none)."""
    if source.record is not None:
        return source.record.header.ruleset
    if source.packets and source.packets[0].body.seq == 0:
        return kits.ruleset_id(source.packets[0])
    return DEFAULT_RULESET


def _kit_boards(ruleset: str) -> BoardFor:
    def board(scenario: int) -> Any:
        return kits.get(ruleset).board(scenario)

    return board


def audit(verified: Verified) -> Audit:
    """The rolls and statistics of a game :func:`verify` accepted (a game that failed has
    no audit: ``ValueError``)."""
    if not verified.ok:
        raise ValueError("only a verified game is audited")
    assert verified.game is not None or verified.email is not None
    found = rolls(verified.email if verified.email is not None else _game(verified))
    return Audit(verified, tuple(found), tuple(statistics(found, _sides(verified))))


def _game(verified: Verified) -> AnyGame:
    assert verified.game is not None
    return verified.game


def _sides(verified: Verified) -> tuple[str, str]:
    """The game's two sides (its ruleset's)."""
    if verified.email is not None:
        return verified.email.ruleset.sides
    return _game(verified).ruleset.sides


def _ruleset_id(verified: Verified) -> str:
    if verified.email is not None:
        return verified.email.ruleset.id
    return _game(verified).ruleset.id if verified.game is not None else "ao"


_HEAD: Final = (
    f"{'PKT':>4} {'GT':>2} {'SIDE':<6} {'PHASE':<19} {'PURPOSE':<18} {'DRAW':>4} "
    f"{'D':>1}  {'OF':<6} EFFECT"
)


def _fit(line: str) -> list[str]:
    """``line`` cut to :data:`WIDTH` columns, the rest on indented lines."""
    out = []
    indent = " " * 8
    while len(line) > WIDTH:
        cut = line.rfind(" ", len(indent) + 1, WIDTH)
        if cut <= len(indent):
            cut = WIDTH
        out.append(line[:cut].rstrip())
        line = indent + line[cut:].lstrip()
    out.append(line)
    return out


def _group_line(r: Roll) -> list[str]:
    """The lines above a packet's rolls: where its seed came from, who knew it when."""
    if r.packet is None or r.author is None:
        return [f"record: its header lists the dice ({r.seed[:40]})"]
    me, them = r.author.capitalize(), (r.other or "").capitalize()
    links = f"{me} {r.author_link}, {them} {r.other_link}"
    if r.derivation == "batch":
        what = f"batch {r.batch}: {links}, reply {r.reply}"
    elif r.derivation == "switch":
        what = f"CRT switch: {links}, previous packet {r.reply}"
    elif r.derivation == "local":
        what = f"local seed {r.seed[:SHORT]} (the invitation's)"
    else:
        what = f"{r.derivation}: {links}"
    head = f"#{r.packet} {me} {r.packet_kind}, {what}"
    return [*_fit(head), *_fit(f"    known: {r.known}")]


def _row(r: Roll) -> str:
    pkt = "-" if r.packet is None else str(r.packet)
    line = (
        f"{pkt:>4} {r.turn:>2} {r.side.capitalize():<6} {r.phase:<19} {r.purpose:<18} "
        f"{r.index:>4} {r.value:>1}  {r.of.capitalize():<6} {r.effect}"
    )
    return "\n".join(_fit(line))


def _stats_lines(all_stats: Sequence[DiceStats], ruleset: str) -> list[str]:
    """The statistics, a block per kind of die (a d6's as before; a d100's in deciles)."""
    out: list[str] = []
    for faces in sorted({s.faces for s in all_stats}):
        block = [s for s in all_stats if s.faces == faces]
        out.extend([""] * bool(out) + _stats_block(block, ruleset, faces))
    return out


def _stats_block(all_stats: Sequence[DiceStats], ruleset: str, faces: int) -> list[str]:
    df = all_stats[0].df
    few = 5 * (df + 1)
    owners = registry.get(ruleset).roll_owners if ruleset in registry.ids() else ""
    if faces == 6 and owners:  # the AO's: rules.ao.AO.roll_place
        whose = textwrap.wrap(
            f"Dice statistics: each player's rolls ({owners}) against a fair die; Pearson's "
            "chi-square, 5 degrees of freedom.",
            width=88,
        )
    elif faces == 6:
        whose = [
            "Dice statistics: each player's rolls against a fair die; Pearson's chi-square,",
            "5 degrees of freedom.",
        ]
    else:
        grouped = "" if faces <= stats.MAX_SINGLE else " counted in groups of faces"
        whose = [
            f"Dice statistics, d{faces}{grouped}: each player's rolls against a fair d{faces};",
            f"Pearson's chi-square, {df} degrees of freedom.",
        ]
    width = max(5, *(len(x) for x in all_stats[0].labels))
    w = 7 if width == 5 else 6  # ten groups of 6 and the p-value still fit in 100 columns
    out = [
        *whose,
        f"{'ROLLS OF':<8} {'N':>5} "
        + " ".join(f"{f:>{width}}" for f in all_stats[0].labels)
        + f" {'CHI2':>{w}} {'P':>{w}}",
    ]
    for s in all_stats:
        name = "All" if s.who == "all" else s.who.capitalize()
        counts = " ".join(f"{c:>{width}}" for c in s.counts)
        mark = " *" if s.rough and s.n else ""
        chi2 = f"{s.chi2:>{w}.2f} {s.p:>{w}.4f}" if s.n else f"{'-':>{w}} {'-':>{w}}"
        out.append(f"{name:<8} {s.n:>5} {counts} {chi2}{mark}")
    if any(s.rough and s.n for s in all_stats):
        per = "face" if faces <= stats.MAX_SINGLE else "group"
        out.append(f"* under {few} rolls (5 expected per {per}): the p-value is only a guide")
    return out


def _facts(v: Verified) -> list[str]:
    """The head of the audit: the game, where it stands, the keys, the final state."""
    g, email = v.game, v.email
    final = g.state_hash() if g is not None else "-"
    commands = len(g.history) if g is not None else 0
    if email is None:
        rec = v.source.record
        dice = rec.header.dice.kind if rec is not None else "?"
        return [
            f"Record {v.source.name}: scenario {rec.header.scenario if rec else '?'}, "
            f"{dice} dice, {commands} commands, verified",
            f"Standing:    {standing(g)}",
            f"Final state: {final}",
        ]
    fps = {side: fingerprint_of(p.key) for side, p in email.parties.items()}
    keys = [  # the second side first: the AO's German, then the Allied
        f"{(side.capitalize() + ' key:'):<12} {fps.get(side, '-')}"
        for side in reversed(email.ruleset.sides)
    ]
    return [
        f"Game {email.game_id}: scenario {email.scenario}, {email.mode} dice, "
        f"{len(email.packets)} packets, {commands} commands, verified",
        f"Standing:    {standing(g, email.verdict)}",
        *keys,
        f"Final state: {final}",
    ]


def format_audit(a: Audit) -> str:
    """The text of ``ardennes audit``: where the game stands, every roll grouped by packet
    (what its seed was derived from, who could know it when), then the statistics."""
    lines = [*_facts(a.verified), ""]
    if not a.rolls:
        lines.append("No die was rolled.")
    else:
        lines.append(f"{len(a.rolls)} dice rolled (draw: the game's die number; D: its value)")
        lines.append(_HEAD)
        last: int | None = -1
        for r in a.rolls:
            if r.packet != last:
                lines.extend(_group_line(r))
                last = r.packet
            lines.append(_row(r))
    lines.append("")
    lines.extend(_stats_lines(a.stats, _ruleset_id(a.verified)))
    return "\n".join(lines) + "\n"


def _roll_json(r: Roll) -> dict[str, Any]:
    return {
        "packet": r.packet,
        "author": r.author,
        "packet_kind": r.packet_kind,
        "command": r.command,
        "turn": r.turn,
        "side": r.side,
        "phase": r.phase,
        "purpose": r.purpose,
        "of": r.of,
        "draw": r.index,
        "faces": r.faces,
        "value": r.value,
        "derivation": {
            "kind": r.derivation,
            "batch": r.batch or None,
            "author_link": r.author_link or None,
            "other_link": r.other_link or None,
            "reply": r.reply or None,
            "seed": r.seed,
        },
        "known": {"author_from": r.author_from, "all_from": r.all_from, "text": r.known},
        "effect": r.effect,
        "event": msgspec.to_builtins(r.event) if r.event is not None else None,
    }


def audit_json(a: Audit) -> dict[str, Any]:
    """``ardennes audit --json``: the summary, every roll, the statistics."""
    v = a.verified
    email = v.email
    game: dict[str, Any] = {"summary": v.line, "source": v.source.name, "kind": v.source.kind}
    if email is not None:
        game |= {
            "id": email.game_id,
            "scenario": email.scenario,
            "mode": email.mode,
            "packets": len(email.packets),
            "keys": {side: fingerprint_of(p.key) for side, p in sorted(email.parties.items())},
        }
    if v.game is not None:
        game |= {"commands": len(v.game.history), "final_state": v.game.state_hash()}
    return {
        "game": game,
        "rolls": [_roll_json(r) for r in a.rolls],
        "stats": [
            {
                "of": s.who,
                "faces": s.faces,
                "n": s.n,
                "counts": dict(zip(s.labels, s.counts, strict=True)),
                "chi2": s.chi2,
                "p": s.p,
            }
            for s in a.stats
        ],
    }
