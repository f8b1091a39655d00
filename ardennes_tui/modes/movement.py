"""A movement phase (AO-5): Enter selects a unit, the hexes it can reach are lit, the cursor
shows the cost of the cheapest path, Enter on a lit hex moves it; ``r`` toggles Road Mode."""

from __future__ import annotations

import rules.ao
from ardennes_tui.modes.base import Mode
from ardennes_tui.present import game_view

_ROAD_STEPS = (rules.ao.ENTER_ROAD_MODE, rules.ao.LEAVE_ROAD_MODE)


class MovementMode(Mode):
    """The Initial or Mechanized Movement Phase."""

    def hint(self) -> str:
        n = len(self.options.movable)
        units = "unit may" if n == 1 else "units may"
        return f"{n} {units} move: . selects the next, Enter selects, e ends the phase, ? help"

    def actors(self) -> list[str]:
        """The units that may still move (``options().movable``)."""
        return list(self.options.movable)

    def highlight(self) -> frozenset[rules.HexId]:
        """Where the selected unit can go (``game.legal_moves``)."""
        if self.selected is None:
            return frozenset()
        here = self.game.state.unit(self.selected).hex
        return frozenset(h for h in self.game.legal_moves(self.selected) if h != here)

    def hover(self, hex_id: rules.HexId) -> str:
        if self.selected is not None:
            return self._preview(self.selected, hex_id)
        movable = [u for u in game_view.own_units(self.game, hex_id) if u in self.options.movable]
        if movable:
            more = f" (Tab: {len(movable)} may move here)" if len(movable) > 1 else ""
            return f"Enter selects {movable[0]}{more}"
        return self.hint()

    def _preview(self, unit: str, hex_id: rules.HexId) -> str:
        """What a move of ``unit`` to ``hex_id`` would cost, or why it cannot go."""
        us = self.game.state.unit(unit)
        if hex_id == us.hex:
            return f"{unit} is here ({us.hex})"
        reach = self.game.legal_moves(unit).get(hex_id)
        if reach is None:
            return game_view.why_not(self.game, unit, hex_id).message
        steps = sum(1 for s in reach.path if s not in _ROAD_STEPS)
        mode = ", in Road Mode" if reach.road_mode else ""
        hexes = "1 hex" if steps == 1 else f"{steps} hexes"
        return f"{unit} to {hex_id}: {reach.cost} MP, {hexes}{mode}. Enter moves"

    def select(self) -> None:
        """Move the selected unit to a lit hex, else select a unit here."""
        hex_id = self.host.cursor
        if self.selected is not None and hex_id in self.highlight():
            self._move(self.selected, hex_id)
            return
        own = game_view.own_units(self.game, hex_id)
        if own:
            if self.selected in own:
                self.cycle()
                return
            movable = [u for u in own if u in self.options.movable]
            self.choose(movable[0] if movable else own[0])
            return
        if self.selected is not None:
            self.host.say(game_view.why_not(self.game, self.selected, hex_id).message)
            return
        stack = game_view.stack(self.game, hex_id)
        if stack:
            bad = rules.ao.may_move(self.game.board, self.game.state, stack[0])
            self.host.say(bad.message if bad else f"{stack[0]}: Enter again to select it")
        else:
            self.host.say(f"No unit of yours in {hex_id}")

    def choose(self, unit: str | None) -> None:
        super().choose(unit)
        if unit is None:
            return
        bad = rules.ao.may_move(self.game.board, self.game.state, unit)
        if bad is not None:
            self.host.say(f"{unit}: {bad.message}")
            return
        us = self.game.state.unit(unit)
        left = rules.ao.movement_allowance(self.game.board.defs[unit], us) - us.mp_spent
        n = len(self.highlight())
        self.host.say(f"{unit}: {left} MP, {n} hexes lit. Enter on one moves it, r road mode")

    def _move(self, unit: str, hex_id: rules.HexId) -> None:
        start = self.game.state.unit(unit).hex
        if self.host.play(rules.ao.Move(unit, game_view.path_to(self.game, unit, hex_id))) is None:
            return
        cost = self.game.state.unit(unit).mp_spent
        self.host.say(f"{unit} moved {start} -> {hex_id} ({cost} MP). Backspace/U undoes")
