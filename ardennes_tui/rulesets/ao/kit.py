"""The Ardennes Offensive's UI kit (:class:`ardennes_tui.kits.UiKit`): what the app's shell
asks of the AO, answered by the AO's screens, modes, panels, help and map drawing under
:mod:`ardennes_tui.rulesets.ao`. Registered by the program (:mod:`ardennes_tui.rulesets`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from rich.text import Text

import rules.ao
from ardennes_tui.kits import MapArt, PlaybackText, ScenarioOffer, UiKit, Zoom
from ardennes_tui.rulesets.ao.narrow import ao_side
from ardennes_tui.rulesets.ao.present import game_view, playback_text
from ardennes_tui.rulesets.ao.render import UnitsByHex, describe_hex
from ardennes_tui.rulesets.ao.render.art import AoMap
from rules.ao.bots.registry import KINDS
from rules.hexgrid import HexId
from scenarios import load_board, scenario_numbers, scenario_specs


class AoPlayback:
    """An AO game's steps in words and on the map (:mod:`.present.playback_text`)."""

    def __init__(self, game: rules.ao.Game) -> None:
        self.game = game

    def units_at(self, k: int) -> Mapping[HexId, Sequence[Any]]:
        return playback_text.units_at(self.game, k)

    def position_forms(self, k: int) -> list[str]:
        return game_view.summary_forms(playback_text.position_line(self.game, k))

    def turn_starts(self) -> list[int]:
        return playback_text.turn_starts(self.game)

    def step_hexes(self, k: int) -> frozenset[HexId]:
        return playback_text.step_hexes(self.game, k)

    def focus_hex(self, k: int) -> HexId | None:
        return playback_text.focus_hex(self.game, k)

    def step_lines(self, k: int, names: Mapping[str, str] | None = None) -> list[str]:
        return playback_text.step_lines(self.game, k, _names(names))

    def headline(self, k: int, names: Mapping[str, str] | None = None) -> str:
        return playback_text.headline(self.game, k, _names(names))

    def start_cursor(self) -> HexId:
        return AO_KIT.default_cursor(self.game.board.game_map)

    def hex_text(
        self, k: int, hex_id: HexId, units: Mapping[HexId, Sequence[Any]] | None, width: int
    ) -> Text:
        """The hex and its units as they stand after step ``k`` (their state: road, moved,
        supply...), as in play."""
        state = self.game.state_at(k)
        defs = self.game.board.defs
        notes = {
            u.id: game_view.unit_note(u, rules.ao.movement_allowance(defs[u.id], u))
            for u in state.units
            if u.hex == hex_id
        }
        return describe_hex(
            self.game.board.game_map,
            hex_id,
            cast(UnitsByHex, units),
            width=width,
            notes=notes,
        )


def _names(names: Mapping[str, str] | None) -> playback_text.Names | None:
    return None if names is None else cast(playback_text.Names, dict(names))


AUDIT_PHASES: Final = {
    "setup_allied": "set-up",
    "setup_german": "set-up",
    "reinforcement": "reinf.",
    "supply_judgment": "supply",
    "initial_movement": "init.mv",
    "combat": "combat",
    "mechanized_movement": "mech.mv",
    "game_over": "over",
}
"""Phase names short enough for the audit's table."""


class AoKit:
    """The AO's kit (:data:`AO_KIT`)."""

    ruleset_id: Final = "ao"
    title: Final = "The Ardennes Offensive"
    sides: Final = ("german", "allied")

    def side_name(self, side: str) -> str:
        return side.capitalize()

    def phase_name(self, phase: str, *, short: bool = False) -> str:
        name = {str(p): n for p, n in game_view.PHASE_NAMES.items()}.get(phase, phase)
        return game_view.SHORT_PHASE_NAMES.get(name, name) if short else name

    def audit_phase(self, phase: str) -> str:
        return AUDIT_PHASES.get(phase, phase)

    def roll_effect(self, event: Any, effect: str) -> str:
        """``7-1 Initial: Dr3``, ``-> Standard CRT``, ``de-vdh lands 3119``."""
        e = event
        if isinstance(e, rules.ao.CombatResolved):
            return f"{e.column} {e.table.capitalize()}: {e.result}"
        if isinstance(e, rules.ao.CrtSwitchRolled):
            verb = "keeps" if effect.startswith("keeps") else "->"
            return f"{verb} {e.crt.capitalize()} CRT"
        if isinstance(e, rules.ao.UnitPlaced):
            return f"{e.unit} lands {e.hex}"
        if isinstance(e, rules.ao.UnitEliminated):
            return f"{e.unit} eliminated"
        return effect

    def other_side(self, side: str) -> str:
        return rules.ao.other_side(ao_side(side))

    def scenarios(self) -> Mapping[int, ScenarioOffer]:
        """AO-18's scenarios: who sets up how, the reinforcement rates, what to expect."""
        return {
            n: ScenarioOffer(
                spec.title,
                f"Allied: {spec.allied_setup} set-up, {spec.allied_rate} reinforcements. "
                f"German: {spec.german_setup} set-up, {spec.german_rate} reinforcements. "
                f"Expected: {spec.expectation}.",
            )
            for n, spec in scenario_specs().items()
        }

    def short_phase_names(self) -> Mapping[str, str]:
        return game_view.SHORT_PHASE_NAMES

    def opponents(self) -> tuple[str, ...]:
        return tuple(sorted(KINDS))

    def versus_dialog(self) -> Any:
        from ardennes_tui.rulesets.ao.screens.versus_dialog import VersusDialog

        return VersusDialog()

    def board(self, scenario: int) -> rules.ao.Board:
        if scenario not in scenario_numbers():
            raise ValueError(f"scenario {scenario} does not exist")
        return load_board(scenario)

    def game_map(self, board: rules.ao.Board) -> rules.ao.GameMap:
        return board.game_map

    def map_art(self, board: rules.ao.Board) -> MapArt:
        return AoMap(board.game_map)

    def play_screen(
        self,
        game: rules.ao.Game,
        *,
        cursor: HexId | None,
        zoom: Zoom,
        loaded: Any,
        save_path: Any,
        stored: Any,
        handover: bool,
    ) -> Any:
        """Against the computer when one side is a bot this program has (``VersusPlayScreen``),
        else hot-seat (``PlayScreen``)."""
        from ardennes_tui.rulesets.ao.games.versus import opponent_of
        from ardennes_tui.rulesets.ao.screens.play_screen import PlayScreen

        vs = opponent_of(game)
        if vs is not None:
            from ardennes_tui.rulesets.ao.screens.versus_play import VersusPlayScreen

            return VersusPlayScreen(
                game,
                vs,
                cursor=cursor,
                zoom=zoom,
                loaded=loaded,
                save_path=save_path,
                stored=stored,
            )
        return PlayScreen(
            game,
            cursor=cursor,
            zoom=zoom,
            loaded=loaded,
            save_path=save_path,
            stored=stored,
            handover=handover,
        )

    def email_screen(
        self, session: Any, *, cursor: HexId | None, zoom: Zoom, has_smtp: bool, outgoing: Any
    ) -> Any:
        from ardennes_tui.rulesets.ao.screens.email_play import EmailPlayScreen

        return EmailPlayScreen(
            session, cursor=cursor, zoom=zoom, has_smtp=has_smtp, outgoing=outgoing
        )

    def viewer_screen(
        self, game_map: rules.ao.GameMap, units: Any, *, cursor: HexId | None, zoom: Zoom
    ) -> Any:
        from ardennes_tui.rulesets.ao.screens.map_screen import MapScreen

        return MapScreen(game_map, units, cursor=cursor, zoom=zoom)

    def default_cursor(self, game_map: rules.ao.GameMap) -> HexId:
        """On Bastogne when the map has it, else on the first hex."""
        return game_map.towns().get("Bastogne", next(iter(game_map)))

    def playback(self, game: Any) -> PlaybackText:
        return AoPlayback(game)


AO_KIT: Final = AoKit()
_CONFORMS: Final[UiKit] = AO_KIT
"""mypy checks here that :class:`AoKit` is a :class:`ardennes_tui.kits.UiKit`."""
