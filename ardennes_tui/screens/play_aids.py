"""The aids of the play screen (issue 21, item 15), a mixin of :class:`PlayScreen`: the ZOC
overlay (``Z``), the turn record track with the reinforcement schedule (``T``), the victory
points and where they came from (``V``), and the setting that passes the phases with nothing
to decide (``S``: an empty Reinforcement Phase, the Supply Judgment Phase)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import rules.ao
from ardennes_tui.games import settings
from ardennes_tui.modes.base import SupplyMode
from ardennes_tui.present import aids, game_view

if TYPE_CHECKING:
    from textual.app import App

    from ardennes_tui.modes import Mode


class PlayAids:
    """What :class:`PlayScreen` gives the aids (its game, mode, settings, message line)."""

    game: rules.ao.Game
    mode: Mode
    settings: settings.Settings
    zoc_side: rules.ao.Side | None
    highlight: frozenset[rules.HexId]

    if TYPE_CHECKING:
        app: App[object]

        def _key(self) -> Mode: ...
        def say(self, message: str) -> None: ...
        def redraw(self) -> None: ...
        def play(self, command: rules.ao.Command) -> rules.ao.Applied | None: ...

    def may_skip(self) -> bool:
        """Whether a phase with nothing to decide may be passed now (by email: while the
        packet is being written)."""
        return True

    def _skip_empty(self) -> None:
        """The setting ``skip_empty``: a Supply Judgment Phase, or a Reinforcement Phase that
        began with no unit due, is ended at once (``EndPhase`` like ``e`` ``e``), and said (a
        Reinforcement Phase whose units were placed waits for ``e``: they may be taken back)."""
        options = self.mode.options
        empty = isinstance(self.mode, SupplyMode) or (
            options.mode == "reinforcement" and not options.reinforcements
        )
        if not empty or options.end_phase is not None or not self.may_skip():
            return
        state = self.game.state
        phase = f"{state.side.capitalize()} {game_view.PHASE_NAMES[state.phase]}"
        r = self.play(rules.ao.EndPhase())
        if r is not None:
            self.say(f"{phase} Phase passed: nothing to decide (S: ask again). {self.mode.hint()}")

    # -- the aids -------------------------------------------------------------------------------

    def action_zoc(self) -> None:
        """Z: the zones of control lit: the enemy's of the side to act, then its own, then
        off (the mode's hexes again)."""
        self._key()
        acting = self.game.options().acting or self.game.state.side
        order: list[rules.ao.Side | None] = [rules.ao.other_side(acting), acting, None]
        self.zoc_side = order[(order.index(self.zoc_side) + 1) % 3]
        self.redraw()
        if self.zoc_side is None:
            self.say(f"ZOC overlay off. {self.mode.hint()}")
            return
        n = len(self.highlight)
        side = self.zoc_side.capitalize()
        self.say(
            f"ZOC overlay: the {n} hexes the {side} units control (AO-7; negated ones not lit). "
            "Z: the other side's, then off"
        )

    def action_turn_track(self) -> None:
        """T: the turn record track and the reinforcement schedule (a dialog)."""
        from ardennes_tui.screens.start_dialogs import TextDialog

        self._key()
        lines = aids.turn_track(self.game)
        self.app.push_screen(TextDialog("Turn record and reinforcements", "\n".join(lines)))

    def action_victory_points(self) -> None:
        """V: the VP and where they came from (a dialog)."""
        from ardennes_tui.screens.start_dialogs import TextDialog

        self._key()
        lines = aids.vp_lines(self.game)
        self.app.push_screen(TextDialog("Victory points", "\n".join(lines)))

    def action_skip_empty(self) -> None:
        """S: pass the phases with nothing to decide by themselves, or not (kept)."""
        self._key()
        on = not self.settings.skip_empty
        self.settings = dataclasses.replace(self.settings, skip_empty=on)
        trouble = settings.save(self.settings)
        said = (
            "Phases with nothing to decide (an empty Reinforcement Phase, Supply Judgment) "
            "pass by themselves"
            if on
            else "Every phase waits for e e"
        )
        self.say(f"{said} (S toggles).{f' {trouble}' if trouble else ''}")
        if on and self.may_skip() and isinstance(self.mode, SupplyMode):
            self._skip_empty()  # (a Reinforcement Phase may have had placements: it waits)
