"""The command palette (Ctrl+P): only the commands valid now.

:class:`ScreenCommands` is the app's one palette provider: it asks the screen under the
palette for ``palette_commands()`` (a map screen: go to, centre, zoom, panel, help, quit; the
play screen adds what the mode and ``game.options()`` allow now: the jumps when something is
lit or may act, Road Mode for a selected unit that may move, declare / odds / waive / resolve
while an attack is built or declared, each choice of a pending decision, end of phase only when
the engine would accept it, undo only when there is something to undo, standing orders while a
side acts) and offers those, with their keys. Typed text also finds the towns (``Go to
Bastogne (2328)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from textual.app import App
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider, SearchIcon

import rules.ao
from ardennes_tui.games.settings import Settings
from ardennes_tui.modes import (
    CombatMode,
    DecisionMode,
    DropMode,
    Mode,
    MovementMode,
    ReinforcementMode,
    RollMode,
)
from ardennes_tui.modes.decision import supply_after_retreat
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import loss_units
from ardennes_tui.present.help_text import SECTIONS, HelpContext
from ardennes_tui.widgets.map_view import MapView
from rules.ao import crt


class ViewHost(Protocol):
    """What the view commands need of a map screen."""

    game_map: rules.ao.GameMap

    @property
    def map_view(self) -> MapView: ...

    @property
    def app(self) -> App[Any]: ...

    def action_goto(self) -> None: ...
    def action_center(self) -> None: ...
    def action_toggle_panel(self) -> None: ...
    def open_help(self, section: str | None = None) -> None: ...


class PlayHost(ViewHost, Protocol):
    """What the play commands need of the play screen: its game, mode, lit hexes, cursor and
    the actions of its keys."""

    game: rules.ao.Game
    mode: Mode
    highlight: frozenset[rules.HexId]

    @property
    def cursor(self) -> rules.HexId: ...

    def end_phase(self) -> None: ...
    def action_next_unit(self, step: int) -> None: ...
    def action_lit(self, step: int) -> None: ...
    def action_select(self) -> None: ...
    def action_cycle(self) -> None: ...
    def action_deselect(self) -> None: ...
    def action_road_mode(self) -> None: ...
    def action_attack(self) -> None: ...
    def action_odds(self, step: int) -> None: ...
    def action_waive_attackers(self) -> None: ...
    def action_resolve(self) -> None: ...
    def action_waive(self, waive: bool) -> None: ...
    def action_pick(self, n: int) -> None: ...
    def action_confirm(self) -> None: ...
    def action_undo(self) -> None: ...
    def action_standing_orders(self) -> None: ...
    def action_combat_log(self) -> None: ...
    def action_save(self) -> None: ...
    def action_zoc(self) -> None: ...
    def action_turn_track(self) -> None: ...
    def action_victory_points(self) -> None: ...
    def action_skip_empty(self) -> None: ...

    @property
    def settings(self) -> Settings: ...


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


# -- every map screen -------------------------------------------------------------------------


def view_commands(screen: ViewHost) -> list[PaletteCommand]:
    """What any map screen offers: go to, centre, zoom, panel, hex numbers, help, quit."""
    view = screen.map_view
    other = "overview" if view.zoom == "detail" else "detail"
    out = [
        PaletteCommand("Go to a hex or a town", "g", screen.action_goto),
        PaletteCommand("Centre the view on the selection", "C", screen.action_center),
        PaletteCommand(f"Zoom: the {other} view", "z", view.action_toggle_zoom),
        PaletteCommand("Show or hide the side panel", "p", screen.action_toggle_panel),
        PaletteCommand(
            f"Hex numbers in the margins: {'off' if view.numbers else 'on'}",
            "#",
            view.action_toggle_numbers,
        ),
    ]
    for sid, _, title in SECTIONS:
        out.append(PaletteCommand(f"Help: {title.lower()}", "?", _bind(screen.open_help, sid)))
    out.append(PaletteCommand("Quit", "q", screen.app.exit))
    return out


def town_commands(screen: ViewHost) -> list[PaletteCommand]:
    """``Go to <town> (<hex>)`` for every town of the map (offered when typed)."""
    towns = screen.game_map.towns()
    return [
        PaletteCommand(f"Go to {name} ({h})", "g", _bind(screen.map_view.center_on, h))
        for name, h in sorted(towns.items())
    ]


def _bind(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: fn(*args)


# -- the play screen --------------------------------------------------------------------------


def help_context(game: rules.ao.Game, mode: Mode) -> HelpContext:
    """What the help marks now: the phase and side, the German CRT, the attack's odds."""
    state = game.state
    table = column = None
    if isinstance(mode, CombatMode) and mode.building() and mode.attackers:
        p = rules.ao.preview_attack(game.board, state, mode.attackers, mode.targets)
        if isinstance(p, rules.ao.Preview):
            table, column = p.table, mode.odds_asked or p.column
    return HelpContext(
        phase=state.phase,
        side=state.side,
        turn=state.turn,
        german_crt=state.german_crt,
        table=table or crt.crt_for(state),
        column=column,
    )


def play_commands(screen: PlayHost) -> list[PaletteCommand]:
    """The play screen's commands valid now: the jumps, the mode's orders, the shared keys,
    then the view."""
    mode, game = screen.mode, screen.game
    o = mode.options
    out: list[PaletteCommand] = []
    if mode.actors() or (isinstance(mode, ReinforcementMode) and o.reinforcements):
        out += [
            PaletteCommand("Next unit that may act", ".", _bind(screen.action_next_unit, 1)),
            PaletteCommand("Previous unit that may act", ",", _bind(screen.action_next_unit, -1)),
        ]
    if screen.highlight:
        out += [
            PaletteCommand("Next lit hex", "]", _bind(screen.action_lit, 1)),
            PaletteCommand("Previous lit hex", "[", _bind(screen.action_lit, -1)),
        ]
    out += _mode_commands(screen, mode)
    if o.end_phase is None and o.mode not in ("decision", "game_over"):
        what = "Accept the set-up" if o.mode == "setup" else "End the phase"
        name = game_view.PHASE_NAMES[game.state.phase]
        out.append(PaletteCommand(f"{what} ({name})", "e e", screen.end_phase, order=True))
    if game.can_undo():
        last = type(game.history[-1].command).__name__
        title = f"Undo the last order ({last})"
        out.append(PaletteCommand(title, "Backspace", screen.action_undo, True))
    if o.acting is not None:
        side = o.acting.capitalize()
        title = f"Standing orders ({side})"
        out.append(PaletteCommand(title, "O", screen.action_standing_orders, True))
    skip = "off" if screen.settings.skip_empty else "on"
    out += [
        PaletteCommand("Log: combats and events by Game-Turn", "c", screen.action_combat_log),
        PaletteCommand("ZOC overlay: next side, or off", "Z", screen.action_zoc),
        PaletteCommand("Turn record and reinforcements", "T", screen.action_turn_track),
        PaletteCommand(
            "Victory points and where they came from", "V", screen.action_victory_points
        ),
        PaletteCommand(
            f"Pass phases with nothing to decide: {skip}", "S", screen.action_skip_empty
        ),
        PaletteCommand("Where the game is saved", "s", screen.action_save),
    ]
    return out + view_commands(screen)


def _mode_commands(screen: PlayHost, mode: Mode) -> list[PaletteCommand]:
    """The orders of the current mode that may be given now."""
    here = screen.cursor
    if isinstance(mode, MovementMode) and mode.selected is not None:
        unit = mode.selected
        out = [PaletteCommand(f"Deselect {unit}", "Escape", screen.action_deselect)]
        if unit in mode.options.movable:
            road = "leaves" if mode.game.state.unit(unit).road_mode else "enters"
            out.append(
                PaletteCommand(f"{unit} {road} Road Mode", "r", screen.action_road_mode, True)
            )
        if here in mode.highlight():
            out.append(
                PaletteCommand(f"Move {unit} to {here}", "Enter", screen.action_select, True)
            )
        return out
    if isinstance(mode, ReinforcementMode) and mode.placing is not None:
        out = []
        if here in mode.highlight():
            title = f"Place {mode.placing} on {here}"
            out.append(PaletteCommand(title, "Enter", screen.action_select, True))
        if len(mode.options.reinforcements) > 1:
            out.append(PaletteCommand("Mark the next reinforcement", "Tab", screen.action_cycle))
        return out
    if isinstance(mode, DropMode) and here in mode.highlight():
        title = f"Drop {mode.unit} on {here}"
        return [PaletteCommand(title, "Enter", screen.action_select, True)]
    if isinstance(mode, RollMode):
        return [PaletteCommand("Roll the die due", "r", screen.action_select, True)]
    if isinstance(mode, CombatMode):
        return _combat_commands(screen, mode)
    if isinstance(mode, DecisionMode):
        return _decision_commands(screen, mode)
    return []


def _attack_ok(mode: CombatMode, odds: str | None) -> bool:
    """The engine would accept the attack being built, at ``odds`` (None: the real odds)."""
    attack = rules.ao.DeclareAttack(
        attackers=tuple(mode.attackers),
        defenders=tuple(mode.targets),
        odds=odds,
        waive=mode.waived_hexes(),
    )
    return isinstance(
        rules.ao.check_attack(mode.game.board, mode.game.state, attack), rules.ao.Preview
    )


def _combat_commands(screen: PlayHost, mode: CombatMode) -> list[PaletteCommand]:
    out: list[PaletteCommand] = []
    here = screen.cursor
    enemy = game_view.enemy_units(mode.game, here)
    ready = False
    """An attack is being built that the engine would accept as it stands."""
    if not mode.building():
        if enemy and here in mode.highlight():
            out.append(PaletteCommand(f"Attack {here}", "a", screen.action_attack, True))
    else:
        targets = "+".join(mode.targets)
        cancel = f"Cancel the attack on {targets}"
        out.append(PaletteCommand(cancel, "Escape", screen.action_deselect))
        if enemy and here not in mode.targets:
            further = f"Add {here} as a further defender"
            out.append(PaletteCommand(further, "a", screen.action_attack))
        p = rules.ao.preview_attack(mode.game.board, mode.game.state, mode.attackers, mode.targets)
        if mode.attackers and isinstance(p, rules.ao.Preview):
            ready = _attack_ok(mode, mode.odds_asked)
            if ready:
                declare = f"Declare the attack on {targets}"
                out.append(PaletteCommand(declare, "Enter", mode.declare, True))
            now = crt.ODDS_COLUMNS.index(mode.odds_asked or p.column)
            if now > 0 and _attack_ok(mode, crt.ODDS_COLUMNS[now - 1]):
                out.append(PaletteCommand("Lower the odds", "-", _bind(screen.action_odds, -1)))
            if mode.odds_asked is not None:
                out.append(PaletteCommand("Raise the odds", "+", _bind(screen.action_odds, 1)))
            if mode.immune_attacker_hexes():
                verb = "keep" if mode.waived else "waive"
                title = f"The attackers {verb} their Ar immunity"
                out.append(PaletteCommand(title, "w", screen.action_waive_attackers))
    building = mode.building() and bool(mode.attackers)
    n = len(mode.options.declared) + (1 if building else 0)
    if (ready or not building) and n:
        title = f"Resolve the attacks ({n}: the dice roll)"
        out.append(PaletteCommand(title, "r", screen.action_resolve, True))
    return out


def _decision_commands(screen: PlayHost, mode: DecisionMode) -> list[PaletteCommand]:
    d = mode.decision
    if d.kind == "waive_immunity":
        hexes = ", ".join(c[0] for c in d.choices)
        return [
            PaletteCommand(f"Waive the immunity in {hexes}", "y", _bind(screen.action_waive, True)),
            PaletteCommand(f"Keep the immunity in {hexes}", "n", _bind(screen.action_waive, False)),
        ]
    if d.kind == "retreat":
        assert d.unit is not None
        out = []
        for i, path in enumerate(d.choices[:9], 1):
            supply = supply_after_retreat(mode.game, d.unit, path[-1])
            title = f"Retreat {d.unit} by path {i} to {path[-1]}, {supply}: {'-'.join(path)}"
            out.append(PaletteCommand(title, str(i), _bind(screen.action_pick, i), True))
        return out
    if d.kind == "advance":
        out = [
            PaletteCommand(
                f"Advance {c[0]} into {d.hex}", str(i), _bind(screen.action_pick, i), True
            )
            for i, c in enumerate(d.choices[:9], 1)
        ]
        return [
            *out,
            PaletteCommand(f"Do not advance into {d.hex}", "0", _bind(screen.action_pick, 0), True),
        ]
    if d.kind == "losses":
        out = []
        for i, u in enumerate(loss_units(d)[:9], 1):
            verb = "untick" if u in mode.losses else "tick"
            title = f"Ex losses: {verb} {u}"
            out.append(PaletteCommand(title, str(i), _bind(screen.action_pick, i)))
        if mode.losses:
            title = f"Confirm the losses: {', '.join(mode.losses)}"
            out.append(PaletteCommand(title, "Enter", screen.action_confirm, True))
        return out
    return []  # pragma: no cover - a new kind of decision
