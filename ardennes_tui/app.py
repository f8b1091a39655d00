"""The Textual app: a thin shell that opens the map viewer.

It uses the ``ansi-dark`` theme, so the UI is drawn in the terminal's own 16 ANSI colours
(right over SSH and on any terminal); ``NO_COLOR`` is honoured by Textual itself.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import BindingType

from ardennes_tui.render import UnitsByHex
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.widgets.map_view import Zoom
from rules.gamemap import GameMap
from rules.hexgrid import HexId

THEME = "ansi-dark"


class ArdennesApp(App[None]):
    """The map viewer. ``units`` (hex -> stack) is optional: counters are drawn when given."""

    TITLE = "The Ardennes Offensive"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(
        self,
        game_map: GameMap,
        units: UnitsByHex | None = None,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
    ) -> None:
        # Native ANSI colours from the start: with NO_COLOR, Textual then strips colours
        # (NoColor) instead of mapping them to greys, which a 16-colour TERM shows as black.
        super().__init__(ansi_color=True)
        self.game_map = game_map
        self.units = units
        self._cursor = cursor
        self._zoom: Zoom = zoom

    def on_mount(self) -> None:
        self.theme = THEME
        self.push_screen(MapScreen(self.game_map, self.units, cursor=self._cursor, zoom=self._zoom))


def default_cursor(game_map: GameMap) -> HexId:
    """Start on Bastogne when the map has it, else on the first hex."""
    return game_map.towns().get("Bastogne", next(iter(game_map)))


def run_app(scenario: int = 1) -> int:
    """Open the viewer on the shipped map with the set-up of ``scenario`` (``ardennes``)."""
    from ardennes_tui.commands.map import get_map
    from ardennes_tui.scenario_view import scenario_or_error, setup_units

    units = setup_units(scenario_or_error(scenario))
    game_map = get_map(None)
    ArdennesApp(game_map, units, cursor=default_cursor(game_map)).run()
    return 0
