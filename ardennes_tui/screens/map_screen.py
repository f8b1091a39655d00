"""The map viewer screen: map, side panel, status line, and a "terminal too small" notice.

The screen holds what its widgets show as reactive attributes and binds them down with
``data_bind`` (the counters, the cursor hex, the zoom; in play also the lit hexes, the unit
notes, the panel's header and the status lines); the widgets send typed messages up
(:class:`MapView.CursorMoved`, :class:`MapView.ZoomChanged`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import ClassVar, Final

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ardennes_tui.games import settings
from ardennes_tui.present.help_text import HelpContext
from ardennes_tui.present.render import UnitsByHex
from ardennes_tui.screens.palette import PaletteCommand, town_commands, view_commands
from ardennes_tui.widgets.bindings import bindings
from ardennes_tui.widgets.map_view import MapView, Zoom
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from rules.ao import GameMap
from rules.hexgrid import HexId


def keep_numbers(numbers: bool) -> str | None:
    """Keep the hex numbers' setting (:mod:`ardennes_tui.games.settings`); None, or why not."""
    return settings.save(dataclasses.replace(settings.load(), hex_numbers=numbers))


MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
PANEL_WIDTH: Final = 28
"""Width of the side panel (``app.tcss``); the overview hides it when the map would not fit."""


class MapScreen(Screen[None]):
    """Attributes down (cursor hex to panel and status line), messages up from the map."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("app")  # type: ignore[assignment]

    units: var[UnitsByHex | None] = var(None, init=False)
    """The counters on the map: hex -> stack, top counter first (map and panel)."""
    hex_id: var[HexId | None] = var(None, init=False)
    """The hex under the cursor (panel and status line), from :class:`MapView.CursorMoved`."""
    zoom: var[Zoom] = var("detail", init=False)
    """The map's zoom (status line), from :class:`MapView.ZoomChanged`."""
    highlight: var[frozenset[HexId]] = var(frozenset(), init=False)
    """The lit hexes (play)."""
    road: var[frozenset[str]] = var(frozenset(), init=False)
    """The units in Road Mode (play), marked on the map."""
    notes: var[Mapping[str, str] | None] = var(None, init=False)
    """Unit id -> status words in the panel (play)."""
    selected: var[str | None] = var(None, init=False)
    """The unit marked ``>`` in the panel (play)."""
    header: var[Text | None] = var(None, init=False)
    """The panel's lines above the hex (play)."""
    summary: var[str] = var("", init=False)
    """The game position, first status line (play)."""
    message: var[str] = var("", init=False)
    """The message line (play)."""
    prompt: var[str] = var("", init=False)
    """A pending decision, its own status line (play)."""
    notice: var[str] = var("", init=False)
    """What the rules did by themselves after the last order, its own lines (play)."""

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
        self.set_reactive(MapScreen.units, units)
        self.set_reactive(MapScreen.zoom, zoom)
        self._start_cursor = cursor
        self._start_zoom: Zoom = zoom
        self._panel_wanted = True
        self._focus_before_small: Widget | None = None
        """What had the focus when the terminal became too small (hiding the map drops
        it): given back when the terminal is large enough again."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield MapView(
                self.game_map, self.units, cursor=self._start_cursor, zoom=self._start_zoom
            ).data_bind(MapScreen.units, MapScreen.highlight, MapScreen.road)
            yield SidePanel(self.game_map, self.units, id="panel").data_bind(
                MapScreen.hex_id,
                MapScreen.units,
                MapScreen.notes,
                MapScreen.selected,
                MapScreen.header,
            )
        yield StatusLine(self.game_map, id="status").data_bind(
            MapScreen.hex_id,
            MapScreen.zoom,
            MapScreen.summary,
            MapScreen.message,
            MapScreen.prompt,
            MapScreen.notice,
        )
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
        view.set_reactive(MapView.numbers, settings.load().hex_numbers)
        view.focus()
        self.hex_id = view.cursor
        self.zoom = view.zoom
        self._layout()

    def on_resize(self, event: events.Resize) -> None:
        # The event's size, not ``app.size``: the screen may hear of a resize before the app
        # has stored the new size (seen in tmux: the notice never came at 79x24).
        self._layout(event.size)

    def _layout(self, size: Size | None = None) -> None:
        width, height = size if size is not None else self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = bool(self.query_one("#too-small").display)
        if small and not was_small:
            self._focus_before_small = self.focused
        self.query_one("#too-small").display = small
        self.query_one("#main").display = not small
        self.query_one("#status").display = not small
        view = self.map_view
        wide_enough = view.zoom == "detail" or width - PANEL_WIDTH >= view.picture.width
        self.query_one(SidePanel).display = self._panel_wanted and wide_enough
        if was_small and not small:
            # Hidden widgets lose the focus, and nothing gives it back by itself: without
            # this the cursor keys did nothing after the terminal was briefly too small.
            before, self._focus_before_small = self._focus_before_small, None
            target = before if before is not None and before.is_attached else view
            self.set_focus(target)

    def set_units(self, units: UnitsByHex | None) -> None:
        """Show other units (hex -> stack, top counter first) on the map and in the panel."""
        self.units = units

    @on(MapView.CursorMoved)
    def _cursor_moved(self, message: MapView.CursorMoved) -> None:
        self.hex_id = message.hex_id

    @on(MapView.NumbersToggled)
    def _numbers_toggled(self, message: MapView.NumbersToggled) -> None:
        self.notify_numbers(message.numbers)

    def notify_numbers(self, numbers: bool) -> None:
        """The hex numbers on or off: kept in the settings, and said."""
        trouble = keep_numbers(numbers)
        said = "Hex numbers in the margins" if numbers else "No hex numbers in the margins"
        self.say_view(f"{said} (# toggles).{f' {trouble}' if trouble else ''}")

    def say_view(self, text: str) -> None:
        """A word on the view (the play screen: the message line; here: a notification)."""
        self.notify(text, timeout=3)

    @on(MapView.ZoomChanged)
    def _zoom_changed(self, message: MapView.ZoomChanged) -> None:
        self.zoom = message.zoom
        self._layout()

    def action_toggle_panel(self) -> None:
        self._panel_wanted = not self._panel_wanted
        if self._panel_wanted and self.map_view.zoom == "overview":
            self.query_one(SidePanel).display = True
        else:
            self._layout()

    def action_scroll_panel(self, step: int) -> None:
        """``(`` ``)``: the side panel a line up or down (the mouse wheel does the same)."""
        self.query_one(SidePanel).scroll_relative(y=step, animate=False)

    def action_scroll_message(self, step: int) -> None:
        """``{`` ``}``: a long message a line up or down (the mouse wheel does the same)."""
        self.query_one(StatusLine).scroll_message(step)

    def action_help(self) -> None:
        self.open_help()

    def open_help(self, section: str | None = None) -> None:
        """The help screen, at ``section`` (``counters``, ``sequence``, ``crt``, ``terrain``,
        ``keys``; None: where the moment suggests)."""
        from ardennes_tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.help_context(), section=section))

    def help_context(self) -> HelpContext:
        """What the help marks: nothing on the bare map (the play screen: the phase, the CRT,
        the odds of the attack being built)."""
        return HelpContext()

    def selection_hex(self) -> HexId:
        """The hex ``C`` centres on: the cursor's here (the play screen: the selection)."""
        return self.map_view.cursor

    def action_center(self) -> None:
        """C: centre the view on the selection."""
        self.map_view.center_on(self.selection_hex())

    def action_goto(self) -> None:
        """g: go to a hex or a town (a small dialog with completion)."""
        from ardennes_tui.screens.goto import GotoDialog

        self.app.push_screen(GotoDialog(self.game_map), self._went_to)

    def palette_commands(self) -> list[PaletteCommand]:
        """The command palette's commands valid now (Ctrl+P)."""
        return view_commands(self)

    def town_commands(self) -> list[PaletteCommand]:
        """``Go to <town>``: what typed text in the palette also finds."""
        return town_commands(self)

    def _went_to(self, hex_id: HexId | None) -> None:
        if hex_id is not None:
            self.map_view.center_on(hex_id)
