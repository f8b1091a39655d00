"""The game is over (AO-16): the verdict modal opens; the map stays to look at."""

from __future__ import annotations

from ardennes_tui.rulesets.ao.modes.base import Mode


class GameOverMode(Mode):
    """Nothing more to order: every key says so."""

    def enter(self) -> None:
        self.host.show_verdict()

    def hint(self) -> str:
        return "The game is over"

    def end_refusal(self) -> str:
        return self.hint()

    def road_mode(self) -> None:
        self.host.say(self.hint())

    def cycle(self) -> None:
        self.host.say(self.hint())
