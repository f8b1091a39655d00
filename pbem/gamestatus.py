"""Where a game by email stands, as the command line and the app show it (:class:`Status`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import rules.ao
from pbem.aoplay import ao_side
from pbem.core import dicemodes
from pbem.core.packets import DiceMode, PacketKind
from pbem.core.protocol import EmailGame
from pbem.exchange import STOPPED, fingerprint_of, next_move, phase_words
from pbem.store import GameMeta

__all__ = ["Status", "status_of"]

_SIDES: tuple[rules.ao.Side, ...] = ("german", "allied")


@dataclass(frozen=True)
class Status:
    """Where one game stands, as ``ardennes status`` and the app show it."""

    game_id: str
    scenario: int
    mode: DiceMode
    our_side: rules.ao.Side
    keys: Mapping[rules.ao.Side, str]
    """The pinned keys' fingerprints (the Allied one missing until the acceptance)."""
    labels: Mapping[rules.ao.Side, str]
    turn: int
    phase: str
    packets: int
    to_move: rules.ao.Side | None
    """Who writes the next packet (None once the game is over)."""
    expects: PacketKind | None
    """Which kind of packet comes next."""
    ours: bool
    """The next packet is ours to write."""
    waiting_for: str
    """Who we wait for (the opponent's label or side), empty when it is our move or over."""
    since: str
    """The last activity (ISO 8601 UTC): since when we wait."""
    next: str
    """Who moves next, in words (:func:`pbem.exchange.next_move`)."""
    verdict: rules.ao.Verdict | None
    state: str
    """``meta.json``'s status (``equivocation`` for a stopped game)."""
    evidence: int

    @property
    def warning(self) -> str:
        """What the players must know about the dice mode (:data:`pbem.core.dicemodes.ALLOWS`)."""
        return dicemodes.ALLOWS[self.mode]

    def lines(self) -> list[str]:
        """The status as text, one fact a line."""
        out = [
            f"game {self.game_id}: scenario {self.scenario}, {self.mode} dice, "
            f"you play the {self.our_side.capitalize()}",
        ]
        for side in _SIDES:
            label = self.labels.get(side, "")
            fp = self.keys.get(side, "(not yet accepted)")
            named = f" ({label})" if label and label != fp else ""
            out.append(f"{side.capitalize()}: {fp}{named}")
        out.append(f"GT{self.turn} {phase_words(self.phase)}, {self.packets} packets")
        if self.state == STOPPED:
            out.append(
                f"STOPPED: equivocation, two different packets signed for one place "
                f"({self.evidence} evidence files)"
            )
        elif self.waiting_for:
            out.append(f"{self.next} (since {self.since})")
        else:
            out.append(self.next)
        if self.warning:
            out.append(self.warning)
        return out


def status_of(game_id: str, game: EmailGame, meta: GameMeta, evidence: int) -> Status:
    """The :class:`Status` of ``game`` (``meta`` its ``meta.json``, ``evidence`` how many
    files its ``evidence/`` holds)."""
    label: dict[rules.ao.Side, str] = {"german": meta.german, "allied": meta.allied}
    want = game.expects()
    side, kind = want if want is not None else (None, None)
    ours = side is not None and (game.mode == "local" or side == meta.our_side)
    waiting = ""
    if side is not None and not ours:
        waiting = label[ao_side(side)] or f"the {side} player"
    state = game.game.state if game.game is not None else None
    return Status(
        game_id=game_id,
        scenario=game.scenario,
        mode=game.mode,
        our_side=meta.our_side,
        keys={ao_side(s): fingerprint_of(p.key) for s, p in game.parties.items()},
        labels=label,
        turn=state.turn if state is not None else 1,
        phase=state.phase if state is not None else "setup_allied",
        packets=len(game.packets),
        to_move=ao_side(side) if side is not None else None,
        expects=kind,
        ours=ours,
        waiting_for=waiting,
        since=meta.last_activity,
        next=next_move(game, meta.our_side, label[ao_side(side)] if side else ""),
        verdict=game.verdict,
        state=meta.status,
        evidence=evidence,
    )
