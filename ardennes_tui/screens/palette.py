"""The command palette (Ctrl+P): only the commands valid now.

:class:`ScreenCommands` is the app's one palette provider: it asks the screen under the
palette for ``palette_commands()`` (each screen its own: a ruleset's map and play screens
offer what their modes allow now, e.g. the AO's in
:mod:`ardennes_tui.rulesets.ao.screens.commands`) and offers those, with their keys. Typed text
also finds what the screen's ``town_commands()`` gives (the AO's towns: ``Go to Bastogne
(2328)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider, SearchIcon


@dataclass(frozen=True)
class PaletteCommand:
    """One command: its ``title``, the ``key`` that does the same, what it runs, and whether
    it gives an ``order`` (changes the game) or only changes the view."""

    title: str
    key: str
    run: Callable[[], Any]
    order: bool = False

    @property
    def help(self) -> str:
        return f"key: {self.key}" if self.key else ""


class Palette(CommandPalette):
    """Textual's command palette in ASCII: a ``>`` before the line (no emoji), no half-block
    edges (``hkey``) or dotted spinner, and ``...`` for the ellipsis (over SSH, and as
    everywhere in the app)."""

    DEFAULT_CSS = """
    Palette #--input { border: none; }
    Palette CommandList { border-bottom: none; }
    Palette LoadingIndicator { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="Search for commands...", id=id)

    def on_mount(self) -> None:
        self.query_one(SearchIcon).icon = ">"


class ScreenCommands(Provider):
    """The screen's own commands (``palette_commands()``), and its map's towns when typed."""

    def _commands(self) -> list[PaletteCommand]:
        get = getattr(self.screen, "palette_commands", None)
        return list(get()) if get is not None else []

    async def discover(self) -> Hits:
        for c in self._commands():
            yield DiscoveryHit(c.title, c.run, help=c.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for c in self._commands():
            score = matcher.match(c.title)
            if score > 0:
                yield Hit(score, matcher.highlight(c.title), c.run, help=c.help)
        towns = getattr(self.screen, "town_commands", None)
        for c in towns() if towns is not None else ():
            score = matcher.match(c.title)
            if score > 0:
                yield Hit(score * 0.9, matcher.highlight(c.title), c.run, help=c.help)
