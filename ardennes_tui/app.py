"""The Textual app: a thin shell that opens a game's play screen (or the bare map viewer),
found through its ruleset's UI kit (:mod:`ardennes_tui.kits`): it knows no ruleset.

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

from ardennes_tui import kits, wire
from ardennes_tui.errors import UserError
from ardennes_tui.games import hotseat, saves
from ardennes_tui.games.email_session import EmailSession, Outgoing
from ardennes_tui.kits import Zoom
from ardennes_tui.screens.palette import Palette, ScreenCommands
from ardennes_tui.screens.too_small import TooSmallScreen, too_small
from ardennes_tui.widgets.ascii_scrollbar import AsciiScrollBarRender
from pbem.store import GameLocked
from rules.game import Game
from rules.hexgrid import HexId

AnyGame = Game[Any, Any, Any, Any, Any, Any, Any, Any]

THEME = "ansi-dark"


class ArdennesApp(App[None]):
    """The game, its screens from the UI kit of its ruleset (:mod:`ardennes_tui.kits`). With
    ``screen``: the screen it makes (the start screen, a playback, an audit). With ``email``:
    that game by email (the AO's ``EmailPlayScreen``). With a ``game``: its kit's play screen
    (the AO's: against the computer when one side is a bot,
    :func:`ardennes_tui.rulesets.ao.games.versus.opponent_of`, ``VersusPlayScreen``; else
    hot-seat, ``PlayScreen``; ``loaded``: what ``--load`` or ``--resume`` found; ``stored``:
    its place in the store, written after every command, None for a game kept nowhere);
    without, the kit's map viewer (``ruleset``'s), and ``units`` (hex -> stack) are drawn when
    given."""

    TITLE = "The Ardennes Offensive"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = []
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {ScreenCommands}
    """The command palette (Ctrl+P) offers the screen's commands valid now, nothing else."""

    def __init__(
        self,
        game_map: Any,
        units: Any = None,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
        game: AnyGame | None = None,
        loaded: saves.Loaded | None = None,
        save_path: Path | None = None,
        stored: hotseat.StoredGame | None = None,
        email: EmailSession | None = None,
        has_smtp: bool = False,
        outgoing: Outgoing | None = None,
        screen: Callable[[], Screen[Any]] | None = None,
        handover: bool = False,
        ruleset: str = "ao",
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
        self.ruleset = game.ruleset.id if game is not None else ruleset
        """The id of the ruleset shown (the game's, else the viewer's)."""
        self.kit = kits.get(self.ruleset)
        self.title = self.kit.title

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
        hides = getattr(top, "HIDES_WHEN_SMALL", False)
        if small and not hides and not isinstance(top, TooSmallScreen):
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
            self.push_screen(
                self.kit.email_screen(
                    self.email,
                    cursor=self._cursor,
                    zoom=self._zoom,
                    has_smtp=self.has_smtp,
                    outgoing=self.outgoing,
                )
            )
            return
        if self.game is not None:
            self.push_screen(
                self.kit.play_screen(
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
        self.push_screen(
            self.kit.viewer_screen(self.game_map, self.units, cursor=self._cursor, zoom=self._zoom)
        )


def default_cursor(game_map: Any, ruleset: str = "ao") -> HexId:
    """Where the cursor starts on ``game_map`` (the AO's: on Bastogne)."""
    return kits.get(ruleset).default_cursor(game_map)


def play(
    game: AnyGame,
    loaded: saves.Loaded | None = None,
    stored: hotseat.StoredGame | None = None,
) -> int:
    """Hot-seat play of ``game`` (``loaded``: what :func:`ardennes_tui.games.saves.load_game` or
    :func:`ardennes_tui.games.hotseat.resume` found) until the players quit, the game in the store
    as ``stored`` (default: under a new name), its session held all along: a game open in
    another process is a :class:`UserError` (one line) and the app does not start."""
    stored = stored if stored is not None else hotseat.StoredGame.new()
    kit = kits.get(game.ruleset.id)
    game_map = kit.game_map(game.board)
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
            cursor=kit.default_cursor(game_map),
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
    kit = kits.get(session.game.ruleset.id)
    game_map = kit.game_map(session.game.board)
    ArdennesApp(
        game_map,
        cursor=kit.default_cursor(game_map),
        email=session,
        has_smtp=has_smtp,
        outgoing=outgoing,
    ).run()
    return 0


def run_screen(screen: Callable[[], Screen[Any]], game_map: Any, ruleset: str = "ao") -> None:
    """Run the app on the screen ``screen`` makes (``game_map``: the map of the game it shows,
    or the shipped map; ``ruleset``: its ruleset's id) until it quits."""
    ArdennesApp(game_map, screen=screen, ruleset=ruleset).run()
