"""The map viewer screen: map, side panel, status line, and a "terminal too small" notice."""

from __future__ import annotations

from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from ardennes_tui import keymap
from ardennes_tui.render import UnitsByHex
from ardennes_tui.widgets.map_view import MapView, Zoom
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from rules.gamemap import GameMap
from rules.hexgrid import HexId

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
PANEL_WIDTH: Final = 28
"""Width of the side panel (``app.tcss``); the overview hides it when the map would not fit."""


class MapScreen(Screen[None]):
    """Attributes down (cursor hex to panel and status line), messages up from the map."""

    BINDINGS: ClassVar[list[BindingType]] = keymap.bindings("app")  # type: ignore[assignment]

    def __init__(
        self,
        game_map: GameMap,
        units: UnitsByHex | None = None,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
    ) -> None:
        super().__init__()
        self.game_map = game_map
        self.units = units
        self._start_cursor = cursor
        self._start_zoom: Zoom = zoom
        self._panel_wanted = True

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield MapView(
                self.game_map, self.units, cursor=self._start_cursor, zoom=self._start_zoom
            )
            yield SidePanel(self.game_map, self.units, id="panel")
        yield StatusLine(self.game_map, id="status")
        yield Static(
            f"Terminal too small: the map needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window, or press q to quit.",
            id="too-small",
        )

    @property
    def map_view(self) -> MapView:
        return self.query_one(MapView)

    def on_mount(self) -> None:
        view = self.map_view
        view.focus()
        self._show_hex(view.cursor)
        self.query_one(StatusLine).zoom = view.zoom
        self._layout()

    def on_resize(self) -> None:
        self._layout()

    def _layout(self) -> None:
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.query_one("#too-small").display = small
        self.query_one("#main").display = not small
        self.query_one("#status").display = not small
        view = self.map_view
        wide_enough = view.zoom == "detail" or width - PANEL_WIDTH >= view.picture.width
        self.query_one(SidePanel).display = self._panel_wanted and wide_enough

    def set_units(self, units: UnitsByHex | None) -> None:
        """Show other units (hex -> stack, top counter first) on the map and in the panel."""
        self.units = units
        panel = self.query_one(SidePanel)
        panel.units = units
        self.map_view.set_units(units)
        panel.refresh_hex()

    def _show_hex(self, hex_id: HexId) -> None:
        self.query_one(SidePanel).hex_id = hex_id
        self.query_one(StatusLine).hex_id = hex_id

    @on(MapView.CursorMoved)
    def _cursor_moved(self, message: MapView.CursorMoved) -> None:
        self._show_hex(message.hex_id)

    @on(MapView.ZoomChanged)
    def _zoom_changed(self, message: MapView.ZoomChanged) -> None:
        self.query_one(StatusLine).zoom = message.zoom
        self._layout()

    def action_toggle_panel(self) -> None:
        self._panel_wanted = not self._panel_wanted
        if self._panel_wanted and self.map_view.zoom == "overview":
            self.query_one(SidePanel).display = True
        else:
            self._layout()

    def action_help(self) -> None:
        from ardennes_tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
