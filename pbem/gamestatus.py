"""Where a game by email stands, as the command line and the app show it (:class:`Status`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core import dicemodes
from pbem.core.packets import DiceMode, PacketKind
from pbem.core.protocol import EmailGame
from pbem.exchange import STOPPED, fingerprint_of, kit_of, next_move
from pbem.store import GameMeta

__all__ = ["Status", "status_of"]


@dataclass(frozen=True)
class Status:
    """Where one game stands, as ``ardennes status`` and the app show it."""

    game_id: str
    scenario: int
    mode: DiceMode
    our_side: str
    sides: tuple[str, str]
    """The game's two sides (its ruleset's; the AO's Allied, German)."""
    keys: Mapping[str, str]
    """The pinned keys' fingerprints (the accepting side's missing until the acceptance)."""
    labels: Mapping[str, str]
    turn: int
    phase: str
    """The phase (:meth:`rules.ruleset.Ruleset.where`)."""
    phase_words: str
    """The phase as players say it (the ruleset's email kit, ``mechanized movement``)."""
    packets: int
    to_move: str | None
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
    verdict: Any
    state: str
    """``meta.json``'s status (``equivocation`` for a stopped game)."""
    evidence: int

    @property
    def other_side(self) -> str:
        """The side we do not play."""
        return self.sides[1] if self.our_side == self.sides[0] else self.sides[0]

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
        for side in reversed(self.sides):
            label = self.labels.get(side, "")
            fp = self.keys.get(side, "(not yet accepted)")
            named = f" ({label})" if label and label != fp else ""
            out.append(f"{side.capitalize()}: {fp}{named}")
        out.append(f"GT{self.turn} {self.phase_words}, {self.packets} packets")
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
    label = meta.labels()
    want = game.expects()
    side, kind = want if want is not None else (None, None)
    ours = side is not None and (game.mode == "local" or side == meta.our_side)
    waiting = ""
    if side is not None and not ours:
        waiting = label.get(side, "") or f"the {side} player"
    turn, phase = game.start_where
    if game.game is not None:
        turn, phase = game.ruleset.where(game.game.state)
    return Status(
        game_id=game_id,
        scenario=game.scenario,
        mode=game.mode,
        our_side=meta.our_side,
        sides=game.ruleset.sides,
        keys={s: fingerprint_of(p.key) for s, p in game.parties.items()},
        labels=label,
        turn=turn,
        phase=phase,
        phase_words=kit_of(game).phase_words(phase),
        packets=len(game.packets),
        to_move=side,
        expects=kind,
        ours=ours,
        waiting_for=waiting,
        since=meta.last_activity,
        next=next_move(game, meta.our_side, label.get(side, "") if side else ""),
        verdict=game.verdict,
        state=meta.status,
        evidence=evidence,
    )
