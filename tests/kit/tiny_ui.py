"""*Tiny*'s UI kit (:class:`ardennes_tui.kits.UiKit`): the smallest ruleset plays in the app.

What a ruleset brings to the app's shell, for :mod:`tests.kit.tiny`: its map drawn for the
shell's map widget (:class:`TinyMap`: eight boxed hexes, a unit's id inside its hex), its play
screen (:class:`TinyPlayScreen`) with one mode per option mode of the engine (``setup``: each
side picks its hidden morale, TINY-2; ``play``: move and strike, TINY-3/4; ``roll``: the
strike's die, TINY-4; ``game_over``), its side panel (shown as the acting side may see the
game: :meth:`rules.ruleset.Ruleset.public_view`, so a side's hidden morale never shows to the
other), its playback's and audit's words. Importing this module registers the kit (and, through
:mod:`tests.kit.tiny`, the ruleset). Tested by ``tests/tui/test_tiny_app.py``.

The keys of the play screen (the map's own move the cursor): ``m`` the morale to pick (1, 2,
3), Enter picks it (set-up) or moves the side's unit to the cursor's hex (play), ``s``
strikes, ``r`` rolls the strike's die, ``e`` ends the turn, ``w`` writes the game's record to
the save path, ``R`` plays the game back, ``q`` quits. A game given its place in the store
(``stored``, as :func:`ardennes_tui.app.play` gives it) is written there after every command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from ardennes_tui import kits
from ardennes_tui.errors import UserError
from ardennes_tui.games import hotseat, saves
from ardennes_tui.kits import MapArt, PlaybackText, ScenarioOffer, Zoom
from ardennes_tui.present.render.picture import Canvas, Picture
from ardennes_tui.widgets.map_view import MapView
from rules import hexgrid
from rules.dice import DieRoll
from rules.hexgrid import HexId
from rules.rejection import Rejection
from rules.ruleset import tag
from tests.kit import tiny

LEFT: Final = 6
"""The map's left margin: the row numbers end there."""
HEX_W: Final = 10
"""Cells from one hex's left edge to the next's in its row."""
BOX: Final = "+-------+"


class TinyMap:
    """The eight hexes as boxes of three lines, the even row shifted half a hex; the column
    numbers on line 1, the row numbers in the left margin; each unit's id inside its hex."""

    left: Final = LEFT

    def __init__(self, board: tiny.Board) -> None:
        self.board = board

    @property
    def hexes(self) -> list[HexId]:
        return sorted(self.board.hexes, key=lambda h: (hexgrid.parse(h)[1], hexgrid.parse(h)[0]))

    def origin(self, hex_id: HexId) -> tuple[int, int]:
        col, row = hexgrid.parse(hex_id)
        return LEFT + HEX_W * (col - 1) + (HEX_W // 2 if row % 2 == 0 else 0), 2 + 3 * (row - 1)

    def draw(
        self, zoom: Zoom, units: Mapping[HexId, Sequence[Any]] | None, road: frozenset[str]
    ) -> Picture:
        """The same picture at both zooms (eight hexes fit any terminal)."""
        canvas = Canvas(LEFT + HEX_W * 4 + HEX_W // 2 + 1, 2 + 3 * 2 + 1)
        spans: dict[HexId, tuple[tuple[int, int, int], ...]] = {}
        for h in self.hexes:
            x, y = self.origin(h)
            col, row = hexgrid.parse(h)
            if row == 1:
                canvas.text(x + 3, 1, f"{col:02d}")
            if x - LEFT < HEX_W:
                canvas.text(LEFT - 3, y + 1, f"{row:02d}")
            stack = (units or {}).get(h, ())
            inside = str(stack[0]) if stack else ""
            canvas.text(x, y, BOX)
            canvas.text(x, y + 1, f"|{inside:^7}|")
            canvas.text(x, y + 2, BOX)
            spans[h] = tuple((y + i, x, x + len(BOX)) for i in range(3))
        return canvas.freeze(spans)


def units_by_hex(state: tiny.State) -> dict[HexId, list[str]]:
    """hex -> the ids of the units on it (an eliminated unit is on no hex)."""
    out: dict[HexId, list[str]] = {}
    for u in state.units:
        if u.hex is not None:
            out.setdefault(u.hex, []).append(u.id)
    return out


def morale_text(state: tiny.State, side: str) -> str:
    """A side's morale as a view shows it: ``?`` when hidden (0 in a public view)."""
    value = state.morale[tiny.SIDES.index(side)]
    return str(value) if value else "?"


def standing(state: tiny.State) -> str:
    """``Turn 2, Red play`` / ``Game over: Red wins (elimination)``."""
    v = state.result
    if v is not None:
        who = f"{v.winner.capitalize()} wins" if v.winner else "a draw"
        return f"Game over: {who} ({v.kind})"
    return f"Turn {state.turn}, {state.side.capitalize()} {state.phase}"


def panel_lines(board: tiny.Board, state: tiny.State, viewer: str) -> list[str]:
    """The side panel, as ``viewer`` may see the game (:meth:`tiny.TinyRuleset.public_view`):
    his own morale, the other's only once a strike has revealed it (TINY-2, TINY-4)."""
    seen = tiny.TINY.public_view(board, state, viewer)
    other = "blue" if viewer == "red" else "red"
    lines = [
        standing(state),
        f"Seen by: {viewer.capitalize()}",
        f"{viewer.capitalize()} morale: {morale_text(seen, viewer)}",
        f"{other.capitalize()} morale: {morale_text(seen, other)}",
    ]
    for u in state.units:
        lines.append(f"{u.id}: {u.hex or 'eliminated'}")
    return lines


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
    ) -> None:
        super().__init__()
        self.game = game
        self.save_path = save_path
        self.stored = stored
        """The game's place in the store, written after every command (None: kept nowhere)."""
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
            r = self.game.push(command)
            if isinstance(r, Rejection):
                self.message = r.message
            else:
                self.message = "; ".join(event_text(e) for e in r.events) or "Done"
                self.mode = self._mode()
                self.morale = 1  # the next side picks its own
                if self.stored is not None:
                    self.stored.save(self.game)
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

    def action_playback(self) -> None:
        from ardennes_tui.screens.playback import PlaybackScreen

        self.app.push_screen(PlaybackScreen(self.game, title="Tiny"))


def event_text(e: Any) -> str:
    """One event in words (a morale picked is not said: it is hidden)."""
    if isinstance(e, tiny.Picked):
        return f"{e.side.capitalize()} picked a morale"
    if isinstance(e, tiny.Moved):
        return f"{e.unit} {e.start}-{e.end}"
    if isinstance(e, tiny.StrikeDeclared):
        return f"{e.unit} strikes {e.target}"
    if isinstance(e, DieRoll):
        return f"die {e.value}"
    if isinstance(e, tiny.Revealed):
        return f"{e.side.capitalize()} morale {e.morale}"
    if isinstance(e, tiny.Eliminated):
        return f"{e.unit} eliminated"
    if isinstance(e, tiny.GameEnded):
        return e.verdict.reason
    return type(e).__name__


class TinyPlayback:
    """A Tiny game's steps in words and on the map."""

    def __init__(self, game: tiny.Game) -> None:
        self.game = game

    def units_at(self, k: int) -> Mapping[HexId, Sequence[Any]]:
        return units_by_hex(self.game.state_at(k))

    def position_forms(self, k: int) -> list[str]:
        return [standing(self.game.state_at(k))]

    def turn_starts(self) -> list[int]:
        return [
            k
            for k in range(1, len(self.game.history) + 1)
            if self.game.state_at(k).turn != self.game.state_at(k - 1).turn
        ]

    def step_hexes(self, k: int) -> frozenset[HexId]:
        if k == 0:
            return frozenset()
        return frozenset(
            h
            for e in self.game.history[k - 1].events
            if isinstance(e, tiny.Moved)
            for h in (e.end,)
        )

    def focus_hex(self, k: int) -> HexId | None:
        return min(self.step_hexes(k), default=None)

    def step_lines(self, k: int, names: Mapping[str, str] | None = None) -> list[str]:
        if k == 0:
            return [f"The start: {len(self.game.history)} steps follow."]
        step = self.game.history[k - 1]
        return [tag(step.command)] + [event_text(e) for e in step.events]

    def headline(self, k: int, names: Mapping[str, str] | None = None) -> str:
        return "; ".join(self.step_lines(k, names))

    def start_cursor(self) -> HexId:
        return "0101"

    def hex_text(
        self, k: int, hex_id: HexId, units: Mapping[HexId, Sequence[Any]] | None, width: int
    ) -> Text:
        here = ", ".join(str(u) for u in (units or {}).get(hex_id, ())) or "empty"
        return Text(f"Hex {hex_id}: {here}")


class TinyKit:
    """Tiny's UI kit (:data:`TINY_KIT`)."""

    ruleset_id: Final = "tiny"
    title: Final = "Tiny"
    sides: Final = tiny.SIDES

    def side_name(self, side: str) -> str:
        return side.capitalize()

    def phase_name(self, phase: str, *, short: bool = False) -> str:
        return phase.replace("_", " ")

    def audit_phase(self, phase: str) -> str:
        return phase

    def roll_effect(self, event: Any, effect: str) -> str:
        return effect

    def other_side(self, side: str) -> str:
        return "blue" if side == "red" else "red"

    def scenarios(self) -> Mapping[int, ScenarioOffer]:
        return {1: ScenarioOffer("Tiny", "Eight hexes, one unit a side, one die a turn.")}

    def short_phase_names(self) -> Mapping[str, str]:
        return {}

    def opponents(self) -> tuple[str, ...]:
        return ()

    def versus_dialog(self) -> Any:
        return None

    def board(self, scenario: int) -> tiny.Board:
        if scenario != 1:
            raise ValueError(f"scenario {scenario} does not exist")
        return tiny.Board()

    def game_map(self, board: tiny.Board) -> tiny.Board:
        return board

    def map_art(self, board: tiny.Board) -> MapArt:
        return TinyMap(board)

    def play_screen(
        self,
        game: tiny.Game,
        *,
        cursor: HexId | None,
        zoom: Zoom,
        loaded: Any,
        save_path: Any,
        stored: Any,
        handover: bool,
    ) -> Any:
        return TinyPlayScreen(game, cursor=cursor, save_path=save_path, stored=stored)

    def email_screen(
        self, session: Any, *, cursor: HexId | None, zoom: Zoom, has_smtp: bool, outgoing: Any
    ) -> Any:
        raise UserError("Tiny is not played by email in the app")

    def viewer_screen(self, game_map: Any, units: Any, *, cursor: HexId | None, zoom: Zoom) -> Any:
        raise UserError("Tiny has no map viewer")

    def default_cursor(self, game_map: Any) -> HexId:
        return "0101"

    def playback(self, game: Any) -> PlaybackText:
        return TinyPlayback(game)


TINY_KIT: Final = TinyKit()
_CONFORMS: Final[kits.UiKit] = TINY_KIT
"""mypy checks here that :class:`TinyKit` is a :class:`ardennes_tui.kits.UiKit`."""

kits.register(TINY_KIT)
