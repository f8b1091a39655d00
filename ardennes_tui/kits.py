"""The app's UI kits: what the app's shell needs from a ruleset, and where it finds it.

The shell (the app, the start screen, the store's list, the send and import flows, playback,
the audit screen, the hand-over, the help frame, the command palette and the map widget's
drawing of hexes) knows no ruleset: an import-linter contract keeps ``rules.ao``,
``rules.breakthrough`` and ``scenarios`` out of every ``ardennes_tui`` module but
``ardennes_tui.rulesets`` and ``ardennes_tui.cli``. Each ruleset brings a :class:`UiKit`
(the AO's: :mod:`ardennes_tui.rulesets.ao.kit`), registered here by the program
(:mod:`ardennes_tui.rulesets`, imported by the entry points and the tests), and the shell
finds it by the id of its game's ruleset (:func:`get`). A kit never knows another. The start
screen offers a new hot-seat game of every ruleset registered here (:func:`ids`); a test that
adds a kit does so for its own time only (:func:`registered`, :func:`unregister`).

What a kit gives (``docs/ui.md``, "Rulesets in the app"):

* its names: the title, the sides' and the phases' names;
* its start screen's offer: the scenarios, and the levels/opponents it plays against;
* its play: the screen of a game (its modes for each of the engine's option modes, side
  panel, keys and help pages live there), the map viewer, a game by email;
* its map: the hexes and the drawing of a :class:`~ardennes_tui.present.render.Picture` with
  its counters (:class:`MapArt`), which the shell's map widget shows;
* its playback's and audit's texts: a step of a game in words, its lit hexes and counters
  (:class:`PlaybackText`), what a die did.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ardennes_tui.errors import UserError
from rules.hexgrid import HexId

Zoom = Literal["detail", "overview"]
"""The map's two zooms: ``detail`` (hexsides drawn) and ``overview`` (one line per hex row)."""


@dataclass(frozen=True)
class ScenarioOffer:
    """A scenario the start screen offers: its ``title`` and what it is ``about`` (one line
    under the list)."""

    title: str
    about: str


class Hexes(Protocol):
    """A map's hexes: which are on it, and all of them in order."""

    def __contains__(self, hex_id: object) -> bool: ...

    def __iter__(self) -> Iterator[HexId]: ...


class MapArt(Protocol):
    """A ruleset's map as the map widget draws it: its hexes and, for each zoom, a picture
    with the counters of ``units`` (hex -> the ruleset's counters, top first) and the marks
    of ``road`` (units the ruleset marks on the map: the AO's Road Mode)."""

    @property
    def hexes(self) -> Hexes: ...

    @property
    def left(self) -> int:
        """Cells of the detailed picture's left margin (its row numbers end there)."""
        ...

    def draw(
        self, zoom: Zoom, units: Mapping[HexId, Sequence[Any]] | None, road: frozenset[str]
    ) -> Any:
        """The :class:`ardennes_tui.present.render.picture.Picture` of the map at ``zoom``
        (typed ``Any`` here: this registry sits below what the app shows, in the app's
        layers)."""
        ...


class PlaybackText(Protocol):
    """Step ``k`` of one game in words and on the map (``1 <= k <= len(game.history)``; 0 is
    the start), for the playback screen."""

    def units_at(self, k: int) -> Mapping[HexId, Sequence[Any]]:
        """The counters on the map after step ``k``."""
        ...

    def position_forms(self, k: int) -> list[str]:
        """Where the game stands after step ``k`` (turn, side, phase, score), from its
        longest form (the panel's) to its shortest (the status line takes the longest that
        fits)."""
        ...

    def turn_starts(self) -> list[int]:
        """The steps that begin a turn."""
        ...

    def step_hexes(self, k: int) -> frozenset[HexId]:
        """The hexes step ``k`` touched (lit on the map)."""
        ...

    def focus_hex(self, k: int) -> HexId | None:
        """The hex the cursor goes to at step ``k``."""
        ...

    def step_lines(self, k: int, names: Mapping[str, str] | None = None) -> list[str]:
        """Step ``k`` in words (``names``: side -> the player's name)."""
        ...

    def headline(self, k: int, names: Mapping[str, str] | None = None) -> str:
        """Step ``k`` in one line."""
        ...

    def start_cursor(self) -> HexId:
        """Where the cursor starts when step 0 has no hex of its own."""
        ...

    def hex_text(
        self, k: int, hex_id: HexId, units: Mapping[HexId, Sequence[Any]] | None, width: int
    ) -> Any:
        """The side panel's text of ``hex_id`` and its units as they stand after step ``k``
        (Rich text: typed ``Any`` here, where the games the app plays need no Rich)."""
        ...


class UiKit(Protocol):
    """What one ruleset brings to the app (see the module's docstring)."""

    @property
    def ruleset_id(self) -> str:
        """The id of its ruleset (:attr:`rules.ruleset.Ruleset.id`)."""
        ...

    @property
    def title(self) -> str:
        """The game's name, the app's title (``The Ardennes Offensive``)."""
        ...

    @property
    def sides(self) -> tuple[str, str]:
        """The two sides in the order the app names them (the AO's: German, then Allied)."""
        ...

    def side_name(self, side: str) -> str:
        """A side's name (``German``)."""
        ...

    def phase_name(self, phase: str, *, short: bool = False) -> str:
        """A phase's name (``German combat``; ``short``: for the store's list)."""
        ...

    def audit_phase(self, phase: str) -> str:
        """A phase's name short enough for the audit's table (``mech.mv``)."""
        ...

    def roll_effect(self, event: Any, effect: str) -> str:
        """What a die did, in a few words for the audit (``event``: the event the die
        decided, if any; ``effect``: the ruleset's own words,
        :attr:`rules.ruleset.RollPlace.effect`)."""
        ...

    def other_side(self, side: str) -> str:
        """The side that is not ``side``."""
        ...

    def scenarios(self) -> Mapping[int, ScenarioOffer]:
        """The scenarios the start screen offers, by number."""
        ...

    def short_phase_names(self) -> Mapping[str, str]:
        """A phase's name -> its short form, for the rows of the store's list."""
        ...

    def opponents(self) -> tuple[str, ...]:
        """The kinds of computer opponent its games may name (empty: none)."""
        ...

    def versus_dialog(self) -> Any:
        """The start screen's dialog of a new game against the computer (the levels and the
        opponents it offers: a Textual screen that dismisses with a
        :class:`ardennes_tui.screens.start_dialogs.Launch`), None when it has none."""
        ...

    def game_map(self, board: Any) -> Any:
        """The map of ``board``, as the viewer and :meth:`default_cursor` take it."""
        ...

    def board(self, scenario: int) -> Any:
        """The board of ``scenario`` (:meth:`scenarios`); :class:`ValueError` (one line) for
        a scenario that does not exist."""
        ...

    def map_art(self, board: Any) -> MapArt:
        """The map of ``board`` (a game's), as the map widget draws it."""
        ...

    def play_screen(
        self,
        game: Any,
        *,
        cursor: HexId | None,
        zoom: Zoom,
        loaded: Any,
        save_path: Any,
        stored: Any,
        handover: bool,
    ) -> Any:
        """The screen that plays ``game`` (hot-seat, or against the computer when one side
        is the computer's): a Textual ``Screen``."""
        ...

    def email_screen(
        self, session: Any, *, cursor: HexId | None, zoom: Zoom, has_smtp: bool, outgoing: Any
    ) -> Any:
        """The screen that plays a game by email (``session``)."""
        ...

    def viewer_screen(self, game_map: Any, units: Any, *, cursor: HexId | None, zoom: Zoom) -> Any:
        """The bare map viewer (``ardennes`` without a game)."""
        ...

    def default_cursor(self, game_map: Any) -> HexId:
        """Where the cursor starts on ``game_map``."""
        ...

    def playback(self, game: Any) -> PlaybackText:
        """``game``'s steps in words and on the map, for the playback screen."""
        ...


_KITS: dict[str, UiKit] = {}


def register(kit: UiKit) -> None:
    """Make ``kit`` known by its ruleset's id; the same kit again does nothing, another kit
    under a taken id is a :class:`ValueError`."""
    old = _KITS.get(kit.ruleset_id)
    if old is not None and old is not kit:
        raise ValueError(f"a UI kit for the ruleset {kit.ruleset_id!r} is registered already")
    _KITS[kit.ruleset_id] = kit


def unregister(ruleset_id: str) -> None:
    """Forget the kit of ``ruleset_id`` (nothing when there is none): a test that registered
    a kit takes it away again, so that no other test sees it."""
    _KITS.pop(ruleset_id, None)


@contextmanager
def registered(kit: UiKit) -> Iterator[UiKit]:
    """``kit`` registered (:func:`register`) for the block, unregistered after it, unless it
    was registered before the block (then it stays)."""
    already = _KITS.get(kit.ruleset_id) is kit
    register(kit)
    try:
        yield kit
    finally:
        if not already:
            unregister(kit.ruleset_id)


def get(ruleset_id: str) -> UiKit:
    """The kit of ``ruleset_id``; a :class:`UserError` (one line) when the app has none."""
    kit = _KITS.get(ruleset_id)
    if kit is None:
        known = ", ".join(ids()) or "none"
        raise UserError(f"the app cannot show a game of ruleset {ruleset_id!r} (it has: {known})")
    return kit


def ids() -> tuple[str, ...]:
    """The ruleset ids the app has a kit for, sorted."""
    return tuple(sorted(_KITS))
