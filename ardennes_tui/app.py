"""The Textual app: a thin shell that opens the play screen (or the bare map viewer).

It uses the ``ansi-dark`` theme, so the UI is drawn in the terminal's own 16 ANSI colours
(right over SSH and on any terminal), and the map in 256 colours where the terminal has them
(:mod:`ardennes_tui.present.render.palette`); ``NO_COLOR`` is honoured by Textual itself. Every
glyph is ASCII: borders (``app.tcss``) and scroll bars (:mod:`ardennes_tui.widgets.ascii_scrollbar`)
included.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import BindingType
from textual.command import Provider
from textual.screen import Screen
from textual.scrollbar import ScrollBar

import rules.ao
from ardennes_tui import wire
from ardennes_tui.errors import UserError
from ardennes_tui.games import hotseat, saves
from ardennes_tui.games.email_session import EmailSession, Outgoing
from ardennes_tui.present.render import UnitsByHex
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.screens.palette import Palette, ScreenCommands
from ardennes_tui.screens.too_small import TooSmallScreen, too_small
from ardennes_tui.widgets.ascii_scrollbar import AsciiScrollBarRender
from ardennes_tui.widgets.map_view import Zoom
from pbem.store import GameLocked
from rules.hexgrid import HexId

THEME = "ansi-dark"


class ArdennesApp(App[None]):
    """The game. With ``screen``: the screen it makes (the start screen, a playback, an
    audit). With ``email``: that game by email (``EmailPlayScreen``). With a ``game`` against
    the computer (one side a bot, :func:`ardennes_tui.games.versus.opponent_of`): the player's side
    of it (``VersusPlayScreen``). With another ``game``:
    hot-seat play of it (:class:`PlayScreen`; ``loaded``: what ``--load`` or ``--resume``
    found; ``stored``: its place in the store, written after every command, None for a game
    kept nowhere); without, the map viewer, and ``units`` (hex -> stack) are drawn when
    given."""

    TITLE = "The Ardennes Offensive"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = []
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {ScreenCommands}
    """The command palette (Ctrl+P) offers the screen's commands valid now, nothing else."""

    def __init__(
        self,
        game_map: rules.ao.GameMap,
        units: UnitsByHex | None = None,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
        game: rules.ao.Game | None = None,
        loaded: saves.Loaded | None = None,
        save_path: Path | None = None,
        stored: hotseat.StoredGame | None = None,
        email: EmailSession | None = None,
        has_smtp: bool = False,
        outgoing: Outgoing | None = None,
        screen: Callable[[], Screen[Any]] | None = None,
        handover: bool = False,
    ) -> None:
        # Native ANSI colours from the start: with NO_COLOR, Textual then strips colours
        # (NoColor) instead of mapping them to greys, which a 16-colour TERM shows as black.
        super().__init__(ansi_color=True)
        # Every scroll bar in ASCII (Textual's draws its ends with Unicode blocks and its
        # track in colour only, which NO_COLOR erases).
        ScrollBar.renderer = AsciiScrollBarRender
        # Only the changed cells of a line reach the terminal (ardennes_tui/wire.py).
        wire.install()
        self.game_map = game_map
        self.units = units
        self._cursor = cursor
        self._zoom: Zoom = zoom
        self.game = game
        self.loaded = loaded
        self.save_path = save_path
        self.stored = stored
        self.email = email
        """A game by email (``ardennes --email GAME``), played instead of ``game``."""
        self.has_smtp = has_smtp
        self.outgoing = outgoing
        """With ``email``: text to send, shown at once on the send screen (an invitation, an
        acceptance)."""
        self.first_screen = screen
        """Makes the screen to open instead (the start screen, a playback, an audit)."""
        self.handover = handover
        """Hot-seat: the hand-over screen between the sides (:func:`play` turns it on)."""

    def action_command_palette(self) -> None:
        """Ctrl+P: the commands valid now (:mod:`ardennes_tui.screens.palette`)."""
        if self.use_command_palette and not isinstance(self.screen, Palette):
            self.push_screen(Palette(id="--command-palette"))

    def on_resize(self, event: events.Resize) -> None:
        """Below 80x24 a screen without a map gives way to the notice, and comes back as it
        was when the terminal is large enough again (the map screens see to their own). The
        terminal's shadow is forgotten (``wire.forget``)."""
        # A terminal that changes size may move or clear what it shows (tmux keeps the bottom
        # rows of a shorter pane): the next frame is written whole.
        wire.forget()
        small = too_small(event.size.width, event.size.height)
        top = self.screen
        if small and not isinstance(top, (MapScreen, TooSmallScreen)):
            self.push_screen(TooSmallScreen())
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()

    def on_mount(self) -> None:
        self.theme = THEME
        if wire.installed():  # the terminal was cleared while suspended: repaint it all
            self.app_resume_signal.subscribe(self, lambda _app: wire.forget(), immediate=True)
        if self.first_screen is not None:
            self.push_screen(self.first_screen())
            return
        if self.email is not None:
            from ardennes_tui.screens.email_play import EmailPlayScreen

            self.push_screen(
                EmailPlayScreen(
                    self.email,
                    cursor=self._cursor,
                    zoom=self._zoom,
                    has_smtp=self.has_smtp,
                    outgoing=self.outgoing,
                )
            )
            return
        if self.game is not None:
            from ardennes_tui.games.versus import opponent_of
            from ardennes_tui.screens.play_screen import PlayScreen

            vs = opponent_of(self.game)
            if vs is not None:
                from ardennes_tui.screens.versus_play import VersusPlayScreen

                self.push_screen(
                    VersusPlayScreen(
                        self.game,
                        vs,
                        cursor=self._cursor,
                        zoom=self._zoom,
                        loaded=self.loaded,
                        save_path=self.save_path,
                        stored=self.stored,
                    )
                )
                return
            self.push_screen(
                PlayScreen(
                    self.game,
                    cursor=self._cursor,
                    zoom=self._zoom,
                    loaded=self.loaded,
                    save_path=self.save_path,
                    stored=self.stored,
                    handover=self.handover,
                )
            )
            return
        self.push_screen(MapScreen(self.game_map, self.units, cursor=self._cursor, zoom=self._zoom))


def default_cursor(game_map: rules.ao.GameMap) -> HexId:
    """Start on Bastogne when the map has it, else on the first hex."""
    return game_map.towns().get("Bastogne", next(iter(game_map)))


def play(
    game: rules.ao.Game,
    loaded: saves.Loaded | None = None,
    stored: hotseat.StoredGame | None = None,
) -> int:
    """Hot-seat play of ``game`` (``loaded``: what :func:`ardennes_tui.games.saves.load_game` or
    :func:`ardennes_tui.games.hotseat.resume` found) until the players quit, the game in the store
    as ``stored`` (default: under a new name), its session held all along: a game open in
    another process is a :class:`UserError` (one line) and the app does not start."""
    stored = stored if stored is not None else hotseat.StoredGame.new()
    game_map = game.board.game_map
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(stored.session())
        except GameLocked:
            raise UserError(
                f"hot-seat game {stored.short} is open in another process: quit it there first",
                1,
            ) from None
        except hotseat.SAVE_ERRORS as exc:
            raise UserError(f"cannot open hot-seat game {stored.name}: {exc}", 1) from None
        ArdennesApp(
            game_map,
            cursor=default_cursor(game_map),
            game=game,
            loaded=loaded,
            stored=stored,
            handover=True,
        ).run()
    return 0


def play_email(
    session: EmailSession, *, has_smtp: bool = False, outgoing: Outgoing | None = None
) -> int:
    """Play game ``session`` by email (``ardennes --email GAME``) until the player quits;
    ``has_smtp``: the config file has an ``[smtp]`` table (the send screen can mail);
    ``outgoing``: text to send first (the send screen opens on it: ``--email new|accept``)."""
    game_map = session.game.board.game_map
    ArdennesApp(
        game_map,
        cursor=default_cursor(game_map),
        email=session,
        has_smtp=has_smtp,
        outgoing=outgoing,
    ).run()
    return 0


def run_screen(screen: Callable[[], Screen[Any]], game_map: rules.ao.GameMap) -> None:
    """Run the app on the screen ``screen`` makes (``game_map``: the map of the game it shows,
    or the shipped map) until it quits."""
    ArdennesApp(game_map, screen=screen).run()
