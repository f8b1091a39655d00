"""*Breakthrough in the Ardennes*'s email kit (:class:`pbem.kits.EmailKit`): its boards
(:func:`scenarios.breakthrough.board.load_board`, the rules as written: level 3, the
historical option, two players), its bots (:mod:`rules.breakthrough.bots.planned` by default,
:mod:`~rules.breakthrough.bots.heuristic` on request; one command at a time through
:class:`PhaseBot`) and its words for a cover letter, ``ardennes show`` and ``ardennes status``
(``American dawn (the day's weather and fuel)``, ``17 December (turn 2)``, ``reply to the
plotted attacks``); registered by the program (:mod:`ardennes_tui.rulesets`). It imports no
other ruleset.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from pbem.kits import Bot, EmailKit
from rules.breakthrough import BREAKTHROUGH, weather
from rules.breakthrough.board import SCENARIO_TITLES, SCENARIOS, Board
from rules.breakthrough.bots import heuristic, planned
from rules.breakthrough.bots.selfplay import dice_seed
from rules.breakthrough.sequence import fuel_due
from rules.breakthrough.state import SIDES, EndPhase, GameEnded, State, Verdict
from scenarios.breakthrough.board import load_board

__all__ = ["BITA_EMAIL_KIT", "BreakthroughEmailKit", "PhaseBot", "batch_purpose"]

PLAYABLE: Final = (1, 2, 3)
"""BA-2.1g's scenarios: First Seven Days, Last Seven Days (from the reconstructed 21 December
set-up, G25) and Twelve Days."""

BATCHES: Final = {
    "combat": ("the plotted attacks", "combat resolution"),
    "air": ("the air missions", "air missions (their dice)"),
    "bridge": ("the bridge demolitions", "bridge demolitions (their dice)"),
}
"""What a sealed batch is (:meth:`rules.ruleset.Ruleset.dice_wait`'s purpose): the reply's
words, the resolution's."""

PHASES: Final = {
    "dawn": "dawn (the day's weather and fuel)",
    "air": "Air Phase",
    "organization": "Unit Organization Phase",
    "operation": "Operation Phase",
    "combat": "Combat Phase",
}


@functools.cache
def _board(scenario: int) -> Board:
    """A scenario's board at the rules as written (level 3, historical, two players: an email
    game has two humans, BA-13.2c's two-player values), built once per process."""
    return load_board(scenario, 3, True, True)


def batch_purpose(state: State) -> str:
    """What the acting side has declared that its ``EndPhase`` rolls for, as the ruleset's
    ``dice_wait`` names it: ``combat`` (plots, BA-8.0a), ``air`` (ground attacks or
    interdiction, BA-3.2), ``bridge`` (blowing attempts, BA-6.7d), else ``""``."""
    if state.phase == "game_over" or state.scenario not in PLAYABLE:
        return ""
    wait = BREAKTHROUGH.dice_wait(_board(state.scenario), state)
    return wait.purpose if wait.kind == "batch" else ""


class PhaseBot:
    """A :class:`pbem.kits.Bot` over a :class:`rules.breakthrough.bots.heuristic.Player` (the
    planned bots are ones), which
    plays a whole phase at once: asked for a command, it plays the phase on a copy of the game
    and gives the copy's commands one by one while the game follows them (each is given only
    when the state is the one it was planned from: anything else plans again). A copy that
    could not roll its ``EndPhase`` (a draft's scratch game has no dice yet) still ends with
    one: the draft resolves it or seals the batch there."""

    def __init__(self, player: heuristic.Player) -> None:
        self.player = player
        self._plan: list[tuple[str, Any]] = []

    def choose(self, game: Any) -> Any:
        now = game.state_hash()
        if not self._plan or self._plan[0][0] != now:
            self._plan = self._planned(game)
        return self._plan.pop(0)[1]

    def _planned(self, game: Any) -> list[tuple[str, Any]]:
        """The phase as the player plays it on a copy: (the state hash each command is given
        in, the command)."""
        g = game.copy()
        n = len(g.history)
        self.player.play_phase(g)
        plan: list[tuple[str, Any]] = []
        before = game.state_hash()
        for step in g.history[n:]:
            plan.append((before, step.command))
            before = step.hash
        if not plan or not isinstance(plan[-1][1], EndPhase):
            plan.append((before, EndPhase()))
        return plan


def _day(turn: int) -> str:
    """Turn n is 15+n December (BA-2.1g)."""
    return f"{15 + turn} December (turn {turn})"


class BreakthroughEmailKit:
    """*Breakthrough*'s :class:`pbem.kits.EmailKit`."""

    id: Final = "breakthrough"
    title: Final = "Breakthrough in the Ardennes"
    state_type: Final[Any] = State
    bot_kinds: Final = ("planned", "heuristic")
    default_bot: Final = "planned"

    def scenarios(self) -> Mapping[int, str]:
        return {n: SCENARIO_TITLES[SCENARIOS[n - 1]] for n in PLAYABLE}

    def board(self, scenario: int) -> Board:
        if scenario not in PLAYABLE:
            raise KeyError(scenario)
        return _board(scenario)

    def opponent_bot(self, kind: str, side: str, seed: bytes) -> Bot:
        if kind not in self.bot_kinds:
            raise ValueError(f"no bot {kind!r}: the bots are {', '.join(self.bot_kinds)}")
        if side not in SIDES:
            raise ValueError(f"no side {side!r}: american or german")
        rng = heuristic.BotRng(hashlib.sha256(b"bita-opponent/1" + side.encode() + seed).digest())
        if kind == "heuristic":
            return PhaseBot(heuristic.Player(SIDES[SIDES.index(side)], rng))
        return PhaseBot(planned.German(rng) if side == "german" else planned.American(rng))

    def selfplay_bots(self, seed: str) -> Mapping[str, Bot]:
        """The record self-play's bots (:func:`rules.breakthrough.bots.planned.players` of the
        seed's text, as ``ardennes selfplay --ruleset breakthrough`` plays them)."""
        return {side: PhaseBot(p) for side, p in planned.players(seed.encode()).items()}

    def selfplay_dice(self, seed: str) -> bytes:
        """The record self-play's dice seed (:func:`rules.breakthrough.bots.selfplay.dice_seed`)."""
        return dice_seed(seed.encode())

    def default_orders(self, side: str) -> None:
        return None  # no standing orders: nothing is decided inside a batch (8.4)

    def score(self, event: Any) -> tuple[int, int] | None:
        """The German score at the verdict (BA-10.0a), the American's side 0 (the game scores
        the German only)."""
        if isinstance(event, GameEnded) and event.score is not None:
            return event.score.total, 0
        return None

    # -- in words --------------------------------------------------------------------------

    def phase_words(self, phase: str) -> str:
        """``german_operation_second`` -> ``Operation Phase 2``; ``american_dawn`` -> ``dawn
        (the day's weather and fuel)``; the side goes before it (``German ...``)."""
        if phase == "game_over":
            return "game over"
        _, _, rest = phase.partition("_")
        stage = {"_first": " 1", "_second": " 2"}
        for tail, number in stage.items():
            if rest.endswith(tail):
                return PHASES.get(rest.removesuffix(tail), rest) + number
        return PHASES.get(rest, rest.replace("_", " "))

    def turn_words(self, turn: int) -> str:
        return _day(turn)

    def batch_words(self, state: Any, kind: str) -> str:
        """``reply to the plotted attacks`` / ``combat resolution``; the air missions', the
        bridge demolitions' likewise."""
        purpose = batch_purpose(state) if state is not None else ""
        reply, resolution = BATCHES.get(purpose or "combat", BATCHES["combat"])
        return f"reply to {reply}" if kind == "reply" else resolution

    def verdict_text(self, verdict: Any) -> str:
        """``American wins (american strategic), German score 90: ...`` or ``draw ...``."""
        if verdict is None:
            return "game over"
        v: Verdict = verdict
        who = f"{v.winner.capitalize()} wins" if v.winner else "draw"
        if v.kind == "points":
            return f"{who} ({v.level}), German score {v.score}: {v.reason}"
        return f"{who} ({v.kind}): {v.reason}"

    def verdict_data(self, verdict: Any) -> dict[str, Any]:
        v: Verdict = verdict
        return {
            "winner": v.winner,
            "kind": v.kind,
            "level": v.level,
            "score": v.score,
            "reason": v.reason,
            "text": self.verdict_text(v),
        }

    def position(self, state: Any) -> Any:
        """The state as JSON data (its canonical fields: units, owners, pools, plots ...)."""
        return msgspec.to_builtins(state)

    def batch_detail(self, game: Any) -> dict[str, Any]:
        """The plotted attacks in plotted order (BA-8.0a), the ground attacks and interdiction,
        or the bridge demolitions the batch rolls for."""
        s: State = game.state
        purpose = batch_purpose(s)
        if purpose == "combat":
            return {"plots": [{"unit": p.unit, "target": p.target} for p in s.plots]}
        if purpose == "air":
            mine = s.air[0 if s.side == "american" else 1]
            return {"strikes": list(s.strikes), "interdiction": mine.interdiction}
        if purpose == "bridge":
            return {"bridges": [{"unit": u, "site": list(site)} for u, site in s.blasts]}
        return {}

    def own_roll(self, state: Any) -> dict[str, Any] | None:
        """The day's weather and fuel (BA-9.0a, BA-4.4b): the American's own roll, the first
        command of his turn."""
        s: State = state
        if s.phase != "dawn":
            return None
        rolls = []
        if weather.needs_draw(s.turn):
            rolls.append("weather")
        if fuel_due(_board(s.scenario), s):
            rolls.append("fuel")
        return {"kind": "dawn", "side": s.side, "rolls": rolls} if rolls else None


BITA_EMAIL_KIT: Final = BreakthroughEmailKit()
_CONFORMS: Final[EmailKit] = BITA_EMAIL_KIT
