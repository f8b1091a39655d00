"""*Tiny*'s play screen in the app (its UI kit: :mod:`tests.kit.tiny_ui`, whose docstring gives
the keys): the shell's map widget with Tiny's map, the side panel as the acting side may see
the game, the status; one mode for each of the engine's option modes (``setup``: TINY-2;
``play``: TINY-3/4; ``roll``: TINY-4; ``game_over``: TINY-5)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from ardennes_tui.games import hotseat, saves
from ardennes_tui.screens.handover import HandoverScreen
from ardennes_tui.screens.help import HelpScreen
from ardennes_tui.screens.palette import PaletteCommand
from ardennes_tui.widgets.map_view import MapView
from rules.hexgrid import HexId
from rules.rejection import Rejection
from tests.kit import tiny
from tests.kit.tiny_ui import TINY_HELP, TinyMap, event_text, panel_lines, standing, units_by_hex


class TinyMode:
    """What the play screen's keys do in one kind of state (one per option mode)."""

    hint: ClassVar[str] = ""

    def __init__(self, screen: TinyPlayScreen, options: tiny.Options) -> None:
        self.screen = screen
        self.options = options

    def enter(self) -> tiny.Command | str:
        return "Nothing to do with Enter now"

    def key(self, key: str) -> tiny.Command | str | None:
        """The command ``key`` gives, why not, or None: not this mode's key (``e`` is the end
        of the turn in every mode: the rules say when it may not be)."""
        return tiny.EndPhase() if key == "e" else None


class SetupMode(TinyMode):
    """TINY-2: ``m`` the morale (1-3), Enter picks it; the other side does not see it."""

    hint = "m: morale 1-3, Enter: pick it"

    def enter(self) -> tiny.Command | str:
        return tiny.Pick(self.screen.morale)

    def key(self, key: str) -> tiny.Command | str | None:
        if key == "m":
            self.screen.morale = self.screen.morale % 3 + 1
            return f"Morale to pick: {self.screen.morale}"
        return super().key(key)


class PlayMode(TinyMode):
    """TINY-3/4: Enter moves the unit to the cursor's hex, ``s`` strikes, ``e`` ends."""

    hint = "Enter: move here, s: strike, e: end the turn"

    def enter(self) -> tiny.Command | str:
        game = self.screen.game
        return tiny.Move(game.state.own().id, self.screen.cursor)

    def key(self, key: str) -> tiny.Command | str | None:
        if key == "s":
            targets = self.options.targets
            return tiny.Strike(targets[0]) if targets else "No enemy unit next to yours"
        return super().key(key)


class RollMode(TinyMode):
    """TINY-4: the strike waits for its die: ``r``."""

    hint = "r: roll the strike's die"

    def key(self, key: str) -> tiny.Command | str | None:
        return tiny.Roll() if key == "r" else super().key(key)


class OverMode(TinyMode):
    """TINY-5: the game is over."""

    hint = "w: write the record, R: play it back, q: quit"


MODES: Final[dict[str, type[TinyMode]]] = {
    "setup": SetupMode,
    "play": PlayMode,
    "roll": RollMode,
    "game_over": OverMode,
}
"""The mode for each of the engine's option modes (``tiny.Options.mode``)."""


class TinyPlayScreen(Screen[None]):
    """Hot-seat play of a Tiny game: the shell's map widget, the side panel, the status."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "enter", "pick / move", id="tiny.enter"),
        *(Binding(k, f"key('{k}')", k, id=f"tiny.{k}") for k in "mser"),
        Binding("w", "write", "write the record", id="tiny.write"),
        Binding("R", "playback", "play back", id="tiny.playback"),
        Binding("question_mark", "help", "help", id="tiny.help"),
        Binding("q", "app.quit", "quit", id="tiny.quit"),
    ]
    DEFAULT_CSS = """
    #tiny-main { height: 1fr; }
    #tiny-panel { width: 1fr; padding: 0 1; }
    #tiny-status { height: 2; }
    """

    def __init__(
        self,
        game: tiny.Game,
        *,
        cursor: HexId | None,
        save_path: Path | None = None,
        stored: hotseat.StoredGame | None = None,
        handover: bool = False,
    ) -> None:
        super().__init__()
        self.game = game
        self.save_path = save_path
        self.stored = stored
        """The game's place in the store, written after every command (None: kept nowhere)."""
        self.handover = handover
        """Hide the map behind the shell's hand-over screen when the side to act changes."""
        self.morale = 1
        """The morale to pick (set-up)."""
        self._cursor = cursor
        self.mode: TinyMode = self._mode()
        self.message = ""

    def _mode(self) -> TinyMode:
        o = self.game.options()
        return MODES[o.mode](self, o)

    @property
    def viewer(self) -> str:
        """The side at the keyboard: the acting side (at the end, the last to act)."""
        s = self.game.state
        return s.side if s.result is None else (s.result.winner or s.side)

    @property
    def cursor(self) -> HexId:
        return self.query_one(MapView).cursor

    def compose(self) -> ComposeResult:
        art = TinyMap(self.game.board)
        with Horizontal(id="tiny-main"):
            view = MapView(art, units_by_hex(self.game.state), cursor=self._cursor, id="tiny-map")
            view.styles.width = 54  # the whole map (the app's CSS gives a map 1fr)
            yield view
            yield Static("", id="tiny-panel", markup=False)
        yield Static("", id="tiny-status", markup=False)

    def on_mount(self) -> None:
        self.query_one(MapView).focus()
        self._show()

    def panel(self) -> str:
        return "\n".join(panel_lines(self.game.board, self.game.state, self.viewer))

    def status(self) -> str:
        return f"{self.message}\n{self.mode.hint}".strip("\n")

    def _show(self) -> None:
        self.query_one(MapView).units = units_by_hex(self.game.state)
        self.query_one("#tiny-panel", Static).update(self.panel())
        self.query_one("#tiny-status", Static).update(self.status())

    def _give(self, command: tiny.Command | str | None) -> None:
        if command is None:
            return
        if isinstance(command, str):
            self.message = command
        else:
            before = self.viewer
            r = self.game.push(command)
            if isinstance(r, Rejection):
                self.message = r.message
            else:
                self.message = "; ".join(event_text(e) for e in r.events) or "Done"
                self.mode = self._mode()
                self.morale = 1  # the next side picks its own
                if self.stored is not None:
                    self.stored.save(self.game)
                if self.handover and self.game.state.result is None and self.viewer != before:
                    self.app.push_screen(
                        HandoverScreen(self.viewer.capitalize(), standing(self.game.state))
                    )
        self._show()

    def action_enter(self) -> None:
        self._give(self.mode.enter())

    def action_key(self, key: str) -> None:
        self._give(self.mode.key(key))

    def action_write(self) -> None:
        if self.save_path is None:
            self.message = "No save path"
        else:
            saves.save_game(self.game, self.save_path)
            self.message = f"Written to {self.save_path.name}"
        self._show()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(TINY_HELP, self.game.options().mode))

    def palette_commands(self) -> list[PaletteCommand]:
        """Ctrl+P: the commands valid now (the rules' options), then the screen's own."""
        o = self.game.options()
        out: list[PaletteCommand] = []
        if o.mode == "setup":
            out.append(
                PaletteCommand(f"Pick morale {self.morale}", "Enter", self.action_enter, True)
            )
            out.append(PaletteCommand("The next morale to pick", "m", lambda: self.action_key("m")))
        if self.cursor in o.moves:
            title = f"Move {self.game.state.own().id} to {self.cursor}"
            out.append(PaletteCommand(title, "Enter", self.action_enter, True))
        for target in o.targets:
            title = f"Strike {target}"
            out.append(PaletteCommand(title, "s", lambda: self.action_key("s"), True))
        if o.mode == "roll":
            out.append(
                PaletteCommand("Roll the strike's die", "r", lambda: self.action_key("r"), True)
            )
        if o.may_end_phase:
            out.append(PaletteCommand("End the turn", "e", lambda: self.action_key("e"), True))
        return [
            *out,
            PaletteCommand("Write the record", "w", self.action_write),
            PaletteCommand("Play the game back", "R", self.action_playback),
            PaletteCommand("Help: the rules and the keys", "?", self.action_help),
            PaletteCommand("Quit", "q", self.app.exit),
        ]

    def action_playback(self) -> None:
        from ardennes_tui.screens.playback import PlaybackScreen

        self.app.push_screen(PlaybackScreen(self.game, title="Tiny"))
