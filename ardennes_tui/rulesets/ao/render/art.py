"""The AO's map as the shell's map widget draws it (:class:`ardennes_tui.kits.MapArt`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

import rules.ao
from ardennes_tui.kits import Zoom
from ardennes_tui.present.render.picture import Picture
from ardennes_tui.rulesets.ao.render.counters import UnitsByHex
from ardennes_tui.rulesets.ao.render.detail import LEFT, draw_detail
from ardennes_tui.rulesets.ao.render.overview import draw_overview
from rules.hexgrid import HexId


class AoMap:
    """The AO's map as the map widget draws it: the detailed and the overview pictures of
    :mod:`ardennes_tui.rulesets.ao.render`, the counters and the Road Mode marks on them."""

    left: Final = LEFT

    def __init__(self, game_map: rules.ao.GameMap) -> None:
        self.game_map = game_map

    @property
    def hexes(self) -> rules.ao.GameMap:
        return self.game_map

    def draw(
        self, zoom: Zoom, units: Mapping[HexId, Sequence[Any]] | None, road: frozenset[str]
    ) -> Picture:
        if zoom == "detail":
            return draw_detail(self.game_map, cast(UnitsByHex, units), road)
        return draw_overview(self.game_map, cast(UnitsByHex, units))
