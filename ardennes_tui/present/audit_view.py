"""A game checked and its dice accounted for, as the audit and playback screens show it; no
Textual.

:func:`load` reads what ``ardennes verify``/``audit`` read (a file of armoured packets, a game
record, a game by email of the store: :func:`pbem.sources.load_source`) and also a hot-seat
game of the store by its name, then checks it from its first packet or command
(:func:`pbem.audit.verify`). :func:`view` arranges the answer for the audit screen: the
verdict of the check, the pinned keys (and which of them are the player's), every roll as a
table row (Game-Turn, phase, purpose, value, effect, who could have known it when), each
player's face counts as a small bar chart and the chi-square with its p-value::

    v = view(load("game.txt"), mine={"SHA256:...": "hans"})
    v.ok, v.check                      # True, 'Verified: every signature with the pinned ...'
    roll_row(v.rolls[0])               # ('0', '5', '1', 'German combat', 'combat:3432', ...)
    bar_chart(v.stats[0], height=4)    # ['      #   ', ...]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import rules.ao
from ardennes_tui.games import hotseat
from pbem import audit, sources
from pbem.aoplay import ao_game
from pbem.audit import DiceStats, Roll, Verified
from pbem.core import stats
from pbem.core.errors import PbemError
from pbem.core.protocol import EmailGame, fingerprint_of
from pbem.core.rolls import FEW_ROLLS
from pbem.games import comments
from pbem.store import Store

__all__ = [
    "ROLL_COLUMNS",
    "AuditView",
    "bar_chart",
    "comment_line",
    "comment_steps",
    "effect_short",
    "known_short",
    "load",
    "roll_detail",
    "roll_row",
    "stats_line",
    "view",
]

ROLL_COLUMNS: Final = ("PKT", "GT", "PHASE", "PURPOSE", "D", "EFFECT", "KNOWN FROM")
"""The audit table's columns (``PKT``: the packet that rolled; ``PHASE``: the player-turn's
side and phase; ``D``: the value; ``KNOWN FROM``: the packet from which the author, then both
players, could have known the roll)."""

PHASES: Final = {
    "setup_allied": "set-up",
    "setup_german": "set-up",
    "reinforcement": "reinf.",
    "supply_judgment": "supply",
    "initial_movement": "init.mv",
    "combat": "combat",
    "mechanized_movement": "mech.mv",
    "game_over": "over",
}
"""Phase names short enough for the table."""


def load(arg: str, store: Store | None = None) -> Verified:
    """Read and check ``arg``: a file of armoured packets or a game record, a game by email
    of ``store`` (its id or a unique start), or a hot-seat game of ``store`` (its name or a
    unique start). ``ValueError`` (one line) when there is nothing to read."""
    store = store if store is not None else Store()
    try:
        source = sources.load_source(arg, store)
    except sources.SourceError as exc:
        path = _hot_seat(arg, store)
        if path is None:
            raise ValueError(str(exc)) from None
        try:
            source = sources.load_source(str(path), store)
        except sources.SourceError as again:
            raise ValueError(str(again)) from None
    return audit.verify(source)


def _hot_seat(arg: str, store: Store) -> Path | None:
    """The record file of the hot-seat game ``arg`` names, if there is one."""
    try:
        name = hotseat.find_local(store, arg)
    except (ValueError, PbemError, OSError):
        return None
    return store.local_dir / f"{name}.jsonl"


@dataclass(frozen=True)
class AuditView:
    """What the audit screen shows of one checked game."""

    title: str
    """``Game 3e18a929: scenario 1, sealed dice, 13 packets, 108 commands``."""
    ok: bool
    check: str
    """The verdict of the check in one line: what verified, or the first failure."""
    keys: tuple[str, ...]
    """One line per side: the pinned fingerprint, ``(yours: NAME)`` when it is the player's."""
    rolls: tuple[Roll, ...]
    stats: tuple[DiceStats, ...]
    """The German's, the Allied's, all (:func:`pbem.audit.statistics`)."""
    game: rules.ao.Game | None
    """The game as far as it verified (for a playback)."""
    comments: tuple[str, ...] = ()
    """What the players wrote to each other, one line per packet (:func:`comment_line`)."""
    notes: Mapping[int, tuple[str, ...]] | None = None
    """The comments by the playback's step where their packet begins (:func:`comment_steps`)."""


def view(v: Verified, mine: Mapping[str, str] | None = None) -> AuditView:
    """The audit of ``v`` (``mine``: the player's key fingerprints -> key names). A game that
    failed its check shows its rolls as far as it verified, and says so."""
    mine = mine or {}
    email, game = v.email, v.game
    found = audit.rolls(email if email is not None else game) if game is not None else []
    commands = len(game.history) if game is not None else 0
    key_lines: list[str] = []
    if email is not None:
        title = (
            f"Game {email.game_id[:8]}: scenario {email.scenario}, {email.mode} dice, "
            f"{len(email.packets)} packets, {commands} commands"
        )
        for side in ("german", "allied"):
            party = email.parties.get(side)
            if party is None:
                key_lines.append(f"{side.capitalize():<7}(not yet accepted)")
                continue
            fp = fingerprint_of(party.key)
            yours = f"  (yours: {mine[fp]})" if fp in mine else ""
            key_lines.append(f"{side.capitalize():<7}{fp}{yours}")
        what = (
            f"the chain, the dice, every command, and {len(email.packets)} signatures by these keys"
        )
    else:
        rec = v.source.record
        scenario = rec.header.scenario if rec is not None else "?"
        dice = rec.header.dice.kind if rec is not None else "?"
        name = Path(v.source.name).name
        title = f"Record {name}: scenario {scenario}, {dice} dice, {commands} commands"
        key_lines.append("A game record: no signatures, no keys (every command and hash replayed)")
        what = "every command through the rules, every state hash"
    if v.ok:
        check = f"Verified: {what}."
    else:
        failure = v.line.removeprefix("FAILED: ")
        check = f"FAILED: {failure} (the rolls below: as far as it verified)"
    said = comments(email) if email is not None else []
    return AuditView(
        title=title,
        ok=v.ok,
        check=check,
        keys=tuple(key_lines),
        rolls=tuple(found),
        stats=tuple(audit.statistics(found)),
        game=ao_game(game) if game is not None else None,
        comments=tuple(comment_line(seq, side, text) for seq, side, text in said),
        notes=comment_steps(email) if email is not None else None,
    )


def comment_line(seq: int, author: rules.ao.Side, text: str) -> str:
    """``Comment from the German player (packet 7): "GT3: the SS go in"``."""
    return f'Comment from the {author.capitalize()} player (packet {seq}): "{text}"'


def comment_steps(email: EmailGame) -> dict[int, tuple[str, ...]]:
    """The comments of ``email``'s packets by the playback step where each packet's commands
    begin (the step after its first command; the invitation's and the acceptance's: 0)."""
    first = {d.seq: k for d, k in zip(email.derivations, email.first_command, strict=True)}
    out: dict[int, list[str]] = {}
    for seq, side, text in comments(email):
        step = first[seq] + 1 if seq in first else 0
        out.setdefault(step, []).append(comment_line(seq, side, text))
    return {k: tuple(v) for k, v in out.items()}


def known_short(r: Roll) -> str:
    """Who could have known roll ``r`` from which packet: ``G 4, both 5`` (the author from
    packet 4, both players from packet 5), ``both 0`` (local dice), ``record``."""
    if r.packet is None or r.author is None or r.all_from is None:
        return "record"
    if r.derivation == "local":
        return f"both {r.all_from}"
    author = r.author[:1].upper()
    if r.author_from is None or r.author_from == r.all_from:
        return f"both {r.all_from}"
    return f"{author} {r.author_from}, both {r.all_from}"


def effect_short(r: Roll) -> str:
    """The effect of roll ``r`` in a few words: ``7-1 Initial: Dr3``, ``-> Standard CRT``,
    ``de-vdh lands 3119``."""
    e = r.event
    if isinstance(e, rules.ao.CombatResolved):
        return f"{e.column} {e.table.capitalize()}: {e.result}"
    if isinstance(e, rules.ao.CrtSwitchRolled):
        verb = "keeps" if r.effect.startswith("keeps") else "->"
        return f"{verb} {e.crt.capitalize()} CRT"
    if isinstance(e, rules.ao.UnitPlaced):
        return f"{e.unit} lands {e.hex}"
    if isinstance(e, rules.ao.UnitEliminated):
        return f"{e.unit} eliminated"
    return r.effect


def roll_row(r: Roll) -> tuple[str, ...]:
    """The table row of roll ``r`` (:data:`ROLL_COLUMNS`)."""
    return (
        "-" if r.packet is None else str(r.packet),
        str(r.turn),
        f"{r.side[:1].upper()} {PHASES.get(r.phase, r.phase)}",
        r.purpose,
        str(r.value),
        effect_short(r),
        known_short(r),
    )


def roll_detail(r: Roll) -> str:
    """The whole story of roll ``r`` in three lines of at most 78 columns: the die, for whom,
    where and what for, its effect; where its seed came from; who could have known it when."""
    turn = f"{r.side.capitalize()} " if r.side != r.of else ""
    head = (
        f"Die {r.index} = {r.value} for the {r.of.capitalize()}: GT{r.turn} {turn}"
        f"{r.phase.replace('_', ' ')}, {r.purpose} -> {effect_short(r)}"
    )
    if r.packet is None:
        return f"{head}\nSeed: the record's dice, {r.seed[:16]}\nKnown: recorded."
    a, o, rep = r.author_link[:8], r.other_link[:8], r.reply[:8]
    if r.derivation == "batch":
        src = f"(batch {r.batch}): links {a} + {o}, reply {rep}"
    elif r.derivation == "switch":
        src = f"(CRT switch): links {a} + {o}, previous packet {rep}"
    elif r.derivation == "local":
        src = f": the local seed {r.seed[:8]} (the invitation's)"
    else:
        src = f"({r.derivation} dice): links {a} + {o}"
    return f"{head}\nSeed of packet {r.packet} {src}\nKnown: {r.known}.".replace(" :", ":")


def stats_line(s: DiceStats) -> str:
    """``chi2 4.60 p 0.467*`` (``*``: under :data:`pbem.core.rolls.FEW_ROLLS` rolls, the p-value
    is only a guide); ``no rolls``."""
    if not s.n:
        return "no rolls"
    few = "*" if s.n < FEW_ROLLS else ""
    return f"chi2 {s.chi2:.2f} p {s.p:.3f}{few}"


def bar_chart(s: DiceStats, height: int = 3, width: int = 4) -> list[str]:
    """The face counts of ``s`` as a small vertical bar chart in ASCII: a title (whose rolls,
    how many), ``height`` rows of ``##`` bars scaled to the largest count (a count above zero
    shows at least one), the faces, the counts, then the chi-square and p-value; each face
    ``width`` columns wide."""
    name = "All" if s.who == "all" else s.who.capitalize()
    top = max(s.counts) if s.n else 0
    bars = [0 if not top else max(1 if c else 0, round(c * height / top)) for c in s.counts]
    out = [f"{name}: {s.n} roll{'s' if s.n != 1 else ''}"]
    for level in range(height, 0, -1):
        out.append("".join(("##" if b >= level else "").center(width) for b in bars).rstrip())
    out.append("".join(str(f).center(width) for f in stats.FACES).rstrip())
    out.append("".join(str(c).center(width) for c in s.counts).rstrip())
    out.append(stats_line(s))
    return out
