"""The Textual app: a thin shell that opens the play screen (or the bare map viewer).

It uses the ``ansi-dark`` theme, so the UI is drawn in the terminal's own 16 ANSI colours
(right over SSH and on any terminal); ``NO_COLOR`` is honoured by Textual itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import BindingType

from ardennes_tui.render import UnitsByHex
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.session import GameSession
from ardennes_tui.widgets.map_view import Zoom
from rules.gamemap import GameMap
from rules.hexgrid import HexId

THEME = "ansi-dark"


class ArdennesApp(App[None]):
    """The game. With a ``session``: hot-seat play of it (:class:`PlayScreen`); without, the
    map viewer, and ``units`` (hex -> stack) are drawn when given."""

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
        session: GameSession | None = None,
        save_path: Path | None = None,
    ) -> None:
        # Native ANSI colours from the start: with NO_COLOR, Textual then strips colours
        # (NoColor) instead of mapping them to greys, which a 16-colour TERM shows as black.
        super().__init__(ansi_color=True)
        self.game_map = game_map
        self.units = units
        self._cursor = cursor
        self._zoom: Zoom = zoom
        self.session = session
        self.save_path = save_path

    def on_mount(self) -> None:
        self.theme = THEME
        if self.session is not None:
            from ardennes_tui.screens.play_screen import PlayScreen

            self.push_screen(
                PlayScreen(
                    self.session, cursor=self._cursor, zoom=self._zoom, save_path=self.save_path
                )
            )
            return
        self.push_screen(MapScreen(self.game_map, self.units, cursor=self._cursor, zoom=self._zoom))


def default_cursor(game_map: GameMap) -> HexId:
    """Start on Bastogne when the map has it, else on the first hex."""
    return game_map.towns().get("Bastogne", next(iter(game_map)))


def load_session(scenario: int, path: Path | None, seed: str | None = None) -> GameSession:
    """A new game of ``scenario`` (dice from ``seed``, default random), or the game in
    ``path`` replayed with its own dice: a saved game (``ardennes-log/1``) or a self-play log
    (``docs/selfplay.md``, its state hashes checked). A bad file is a one-line
    :class:`UserError` (exit 1)."""
    import msgspec

    from ardennes_tui.errors import UserError
    from ardennes_tui.scenario_view import get_map, scenario_or_error
    from ardennes_tui.session import read_game_file
    from rules.rejection import RejectedError
    from rules.selfplay import LogError

    scenario_or_error(scenario)
    game_map = get_map(None)
    if path is None:
        return GameSession.new(scenario, game_map, seed=seed)
    try:
        return GameSession.load(scenario, read_game_file(path), game_map, seed=seed)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}", 1) from exc
    except LogError as exc:
        raise UserError(f"{path}: self-play log: {exc}", 1) from None
    except RejectedError as exc:
        raise UserError(f"{path}: {exc} (scenario {scenario})", 1) from exc
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
        raise UserError(f"{path}: not a log of orders: {exc}", 1) from exc


def run_app(scenario: int = 1, load: Path | None = None, *, seed: str | None = None) -> int:
    """A hot-seat game of ``scenario`` (``ardennes [--scenario N] [--load FILE] [--seed X]``).
    ``s`` saves to the loaded file, except a self-play log: never overwritten, the game is
    saved to a session file of its own (``ardennes-sN.jsonl``)."""
    session = load_session(scenario, load, seed)
    game_map = session.board.game_map
    save_path = load if session.selfplay is None else None
    ArdennesApp(
        game_map, cursor=default_cursor(game_map), session=session, save_path=save_path
    ).run()
    return 0
