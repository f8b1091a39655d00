"""Set-up (AO-4.2a, AO-17): a historical set-up is accepted with ``e`` ``e``; a free one is
rearranged the way units move (Enter selects a unit, its open hexes are lit, Enter on one sends
``Place``)."""

from __future__ import annotations

from rich.text import Text

import rules.ao
from ardennes_tui.modes.base import Mode
from ardennes_tui.present import game_view


class SetupMode(Mode):
    """A set-up step of the deploying side."""

    @property
    def free(self) -> bool:
        return self.options.setup == "free"

    @property
    def case(self) -> str:
        return rules.ao.FREE_SETUP_CASE[self.game.state.side]

    def hint(self) -> str:
        if self.free:
            return (
                f"{self.side} free set-up ({self.case}): Enter selects a unit, Enter on a lit "
                "hex moves it, e accepts the set-up"
            )
        return f"{self.side} set-up placed (historical): e accepts it"

    def actors(self) -> list[str]:
        """A free set-up: the units that may be rearranged (``options().placeable``)."""
        return list(self.options.placeable) if self.free else []

    def highlight(self) -> frozenset[rules.HexId]:
        """The hexes the selected unit may be placed in (the engine's own check)."""
        if self.selected is None or not self.free:
            return frozenset()
        return rules.ao.setup_hexes(self.game.board, self.game.state, self.selected)

    def header(self) -> Text | None:
        if not self.free:
            return None  # a historical set-up (AO-17.a): nothing to choose
        text = Text()
        text.append(f"Free set-up ({self.case})", "bold")
        text.append("\nfront line: along it\nrear: behind it\none unit a hex\n")
        return text

    def note(self, unit: str) -> str:
        if not self.free:
            return ""
        line = game_view.front_line_unit(self.game, unit)
        if line is None or self.game.board.defs[unit].side != self.game.state.side:
            return ""
        return "front line" if line else "rear"

    def hover(self, hex_id: rules.HexId) -> str:
        unit = self.selected
        if unit is not None:
            if hex_id == self.game.state.unit(unit).hex:
                return f"{unit} is here ({hex_id})"
            bad = game_view.why_not_place(self.game, unit, hex_id)
            return bad.message if bad is not None else f"Enter places {unit} in {hex_id}"
        if self.free:
            own = game_view.own_units(self.game, hex_id)
            if own:
                return f"Enter selects {own[0]}"
        return self.hint()

    def select(self) -> None:
        """Place the selected unit on a lit hex, else select a unit here (a historical side
        only hears the hint)."""
        if not self.free:
            self.host.say(self.hint())
            return
        hex_id = self.host.cursor
        if self.selected is not None and hex_id in self.highlight():
            self._place(self.selected, hex_id)
            return
        own = game_view.own_units(self.game, hex_id)
        if own:
            if self.selected in own:
                self.cycle()
            else:
                self.choose(own[0])
            return
        if self.selected is not None:
            bad = game_view.why_not_place(self.game, self.selected, hex_id)
            self.host.say(bad.message if bad is not None else self.hint())
            return
        self.host.say(f"No unit of yours in {hex_id}")

    def choose(self, unit: str | None) -> None:
        super().choose(unit)
        if unit is None:
            return
        n = len(self.highlight())
        front = game_view.front_line_unit(self.game, unit)
        where = "along the front line" if front else "behind the front line"
        self.host.say(f"{unit}: {n} hexes lit ({where}). Enter on one places it")

    def _place(self, unit: str, hex_id: rules.HexId) -> None:
        start = self.game.state.unit(unit).hex
        if self.host.play(rules.ao.Place(unit, hex_id)) is None:
            return
        self.host.say(
            f"{unit} placed {start} -> {hex_id}. Backspace/U undoes, e accepts the set-up"
        )
