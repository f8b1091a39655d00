"""*Tiny*'s UI kit (:class:`ardennes_tui.kits.UiKit`): the smallest ruleset plays in the app.

What a ruleset brings to the app's shell, for :mod:`tests.kit.tiny`: its map drawn for the
shell's map widget (:class:`TinyMap`: eight boxed hexes, a unit's id inside its hex), its play
screen (:class:`TinyPlayScreen`) with one mode per option mode of the engine (``setup``: each
side picks its hidden morale, TINY-2; ``play``: move and strike, TINY-3/4; ``roll``: the
strike's die, TINY-4; ``game_over``), its side panel (shown as the acting side may see the
game: :meth:`rules.ruleset.Ruleset.public_view`, so a side's hidden morale never shows to the
other), its playback's and audit's words. Importing this module registers the ruleset (through
:mod:`tests.kit.tiny`) but not the kit: a test registers :data:`TINY_KIT` for its own time
(:func:`ardennes_tui.kits.registered`, in a fixture of the test module), so that no other test
sees an app that plays Tiny. Tested by ``tests/tui/test_tiny_app.py`` and
``tests/tui/test_start_games.py``.

The keys of the play screen (the map's own move the cursor): ``m`` the morale to pick (1, 2,
3), Enter picks it (set-up) or moves the side's unit to the cursor's hex (play), ``s``
strikes, ``r`` rolls the strike's die, ``e`` ends the turn, ``w`` writes the game's record to
the save path, ``R`` plays the game back, ``?`` opens the shell's help frame on Tiny's pages,
``q`` quits; Ctrl+P, the shell's command palette, offers the commands valid now. In a hot-seat
game (``handover``) the shell's hand-over screen hides the map whenever the side changes. A
game given its place in the store (``stored``, as :func:`ardennes_tui.app.play` gives it) is
written there after every command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.text import Text

from ardennes_tui import kits
from ardennes_tui.errors import UserError
from ardennes_tui.kits import MapArt, PlaybackText, ScenarioOffer, Zoom
from ardennes_tui.present.render.picture import Canvas, Picture
from rules import hexgrid
from rules.dice import DieRoll
from rules.hexgrid import HexId
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


class TinyHelp:
    """Tiny's help pages in the shell's help frame: its rules (the ruleset's docstring) and
    its keys (this module's); it opens at the rules during set-up."""

    sections: Final = (("rules", "Rules", "The rules of Tiny"), ("keys", "Keys", "The keys"))

    def text(self, section: str, context: Any) -> str:
        """The rules: the cases TINY-1..5 of :mod:`tests.kit.tiny`; the keys: this module's."""
        doc = tiny.__doc__ if section == "rules" else __doc__
        assert doc is not None
        start = doc.index("The game (rule cases" if section == "rules" else "The keys of")
        return doc[start:].split("\n\n*Tiny percent*")[0].strip()

    def first(self, context: Any) -> str | None:
        return "rules" if context == "setup" else None


TINY_HELP: Final = TinyHelp()


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
        from tests.kit.tiny_screen import TinyPlayScreen

        return TinyPlayScreen(
            game, cursor=cursor, save_path=save_path, stored=stored, handover=handover
        )

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
