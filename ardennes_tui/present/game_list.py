"""The games of the store as the start screen and ``ardennes games`` list them; no Textual.

:func:`rows` gives one dict per game (``ardennes games --json``): the games by email of the
store (:meth:`pbem.store.Store.games`) and the hot-seat games (their scenario and where they
stand read from the record's first and last lines only; a game against the computer names it
as its ``opponent``). :func:`key_rows` lists the player's keys (:func:`my_fingerprints`: by
fingerprint, for the audit) and :func:`pinned_rows` the keys pinned in each game by email, for
the keys screen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from ardennes_tui.games.saves import bot_side
from ardennes_tui.present.game_view import PHASE_NAMES
from pbem import invitations, keys
from pbem.aoplay import ao_other
from pbem.core.errors import PbemError
from pbem.exchange import fingerprint_of
from pbem.games import Service
from pbem.store import LocalInfo, Store
from rules import record

__all__ = ["KeyRow", "PinnedRow", "key_rows", "pinned_rows", "rows", "when"]

_HEAD_BYTES: Final = 64 << 10
"""How much of a hot-seat record the listing reads at each end (a header, a footer)."""


def _local_standing(store: Store, info: LocalInfo) -> tuple[int | None, str, str]:
    """The scenario of a hot-seat record, where it stands (``GT3 Combat``) and, for a game
    against the computer, the computer (``bot heuristic/4 level 2 (German)``), from its
    header and end lines only; ``(None, "?", "")`` for a record that does not say."""
    path = store.local_dir / f"{info.name}.jsonl"
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD_BYTES)
            fh.seek(max(0, info.size - _HEAD_BYTES))
            tail = fh.read(_HEAD_BYTES)
    except OSError:
        return None, "?", ""
    lines = [x for x in head.splitlines()[:1] + tail.splitlines()[-1:] if x.strip()]
    try:
        header = msgspec.json.decode(lines[0], type=record.Header)
    except (IndexError, msgspec.DecodeError):
        return None, "?", ""
    side = bot_side(header.players)
    computer = ""
    if side is not None:
        bot = record.player(header.players, side)
        computer = f"{bot.label} ({side.capitalize()})"
    try:
        footer = msgspec.json.decode(lines[-1], type=record.Footer)
    except msgspec.DecodeError:
        return header.scenario, "?", computer
    if footer.phase == "game_over":
        return header.scenario, "over", computer
    names: dict[str, str] = {k: v for k, v in PHASE_NAMES.items()}
    phase = names.get(footer.phase, footer.phase)
    return header.scenario, f"GT{footer.turn} {phase}", computer


def rows(store: Store) -> list[dict[str, Any]]:
    """The games of ``store`` as ``ardennes games --json`` prints them: the games by email
    (the most recently active first), then the hot-seat games. Also ``dice`` (a game by
    email's dice mode, ``""`` for hot-seat), which the JSON listing leaves out."""
    out: list[dict[str, Any]] = []
    service = Service(store)
    for g in store.games():
        if g.stale:  # the index describes other packets than the game holds: write it again
            try:
                meta = service.index(g.game_id)
            except PbemError:  # locked, damaged: the listing says "?" until it is readable
                pass
            else:
                g = dataclasses.replace(g, to_move=meta.to_move, status=meta.status, stale=False)
        dice = ""
        if not g.problem:
            try:
                dice = store.meta(g.game_id).dice_mode
            except PbemError:
                dice = ""
        out.append(
            {
                "id": g.game_id,
                "kind": "pbem",
                "scenario": g.scenario or None,
                "side": g.our_side,
                "to_move": g.to_move,
                "last_activity": g.last_activity,
                "opponent": g.opponent,
                "status": g.problem or g.status,
                "packets": g.packets,
                "evidence": g.evidence,
                "dice": dice,
            }
        )
    for kept in invitations.kept(store):  # received by an import, not accepted yet
        b = kept.invitation.body
        out.append(
            {
                "id": kept.game_id,
                "kind": "invitation",
                "scenario": b.scenario,
                "side": ao_other(b.author),
                "to_move": "accept it",
                "last_activity": kept.kept_at,
                "opponent": fingerprint_of(b.key) if b.key else "",
                "status": f"invitation: ardennes accept {kept.game_id[:8]}",
                "packets": 1,
                "evidence": 0,
                "dice": b.mode or "",
            }
        )
    for info in store.list_local():
        scenario, standing, computer = _local_standing(store, info)
        out.append(
            {
                "id": info.name,
                "kind": "hot-seat",
                "scenario": scenario,
                "side": "both",
                "to_move": standing,
                "last_activity": info.last_activity,
                "opponent": computer,
                "status": "",
                "packets": None,
                "evidence": 0,
                "dice": "",
            }
        )
    return out


def when(iso: str) -> str:
    """``2024-12-16T05:31:00+00:00`` as ``2024-12-16 05:31 UTC``."""
    if len(iso) >= 16 and iso.endswith("+00:00"):
        return f"{iso[:10]} {iso[11:16]} UTC"
    return iso or "?"


# -- keys ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyRow:
    """One key of the player's key store: its name, fingerprint (None: unreadable, ``note``
    says why) and whether it is encrypted."""

    name: str
    fingerprint: str | None
    note: str


def key_rows() -> list[KeyRow]:
    """The player's keys (``ardennes keys``)."""
    out = []
    for k in keys.list_keys():
        if k.fingerprint is None:
            out.append(KeyRow(k.name, None, f"unreadable: {k.problem}"))
        else:
            out.append(
                KeyRow(k.name, k.fingerprint, "encrypted" if k.encrypted else "not encrypted")
            )
    return out


def my_fingerprints(rows: Iterable[KeyRow]) -> dict[str, str]:
    """The player's readable keys as fingerprint -> name (the audit marks them as his own)."""
    return {k.fingerprint: k.name for k in rows if k.fingerprint}


@dataclass(frozen=True)
class PinnedRow:
    """The keys pinned in one game by email (``ardennes status``): our side, the opponent's
    label, each side's fingerprint (``-`` before the acceptance), or why they cannot be read."""

    game_id: str
    our_side: str
    opponent: str
    german: str
    allied: str
    problem: str = ""


def pinned_rows(store: Store) -> list[PinnedRow]:
    """Each game by email of ``store`` with the fingerprints its invitation and acceptance
    pinned (every packet must be signed by its side's key)."""
    service = Service(store)
    out = []
    for g in store.games():
        if g.problem:
            out.append(PinnedRow(g.game_id, "", "", "-", "-", g.problem))
            continue
        try:
            st = service.status(g.game_id)
        except PbemError as exc:
            out.append(PinnedRow(g.game_id, g.our_side, g.opponent, "-", "-", str(exc)))
            continue
        label = st.labels.get("allied" if st.our_side == "german" else "german", "")
        out.append(
            PinnedRow(
                g.game_id,
                st.our_side,
                label,
                st.keys.get("german", "-"),
                st.keys.get("allied", "-"),
            )
        )
    return out
