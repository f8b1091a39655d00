"""A pending combat decision (``options().decision``): the defender's immunity waiver
(AO-11.f*, ``y``/``n``), Ex losses (AO-10.1b, digits toggle, Enter confirms), a retreat path
(AO-10.2a, digits) or an advance (AO-9.6N, digits, ``0`` stays).

The question has its own status line; the panel numbers the choices, the map lights them,
and the cursor goes to the unit or hex concerned when the decision comes up (after ``r``,
after another decision, on opening a game saved on one, after an undo back to one).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.text import Text
from textual.actions import SkipAction

import rules
import rules.ao
from ardennes_tui.modes.base import Host, Mode
from ardennes_tui.modes.combat import append_orders, result_message
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import decision_prompt, loss_units, side_name
from ardennes_tui.present.render.counters import counter_short


class DecisionMode(Mode):
    """The engine waits for ``decision`` (answered by its side: hot-seat, one keyboard)."""

    def __init__(self, host: Host, options: rules.ao.Options) -> None:
        super().__init__(host, options)
        assert options.decision is not None
        self.decision: rules.ao.Decision = options.decision
        self.pending: rules.ao.PendingDecision | None = options.pending
        """The decision typed by kind: its ``answer`` builds the command (the engine's one
        table, :mod:`rules.ao.decisions`)."""
        first = self.decision.choices[0] if self.decision.choices else ()
        self.losses: list[str] = list(first) if self.decision.kind == "losses" else []
        """The units chosen so far for an Ex-losses decision: the first minimal set to start
        with (a player may un-tick every unit)."""

    def enter(self) -> None:
        """The cursor goes to the unit or hex concerned, the choices (retreat paths, the
        units to lose) in view with it."""
        where = self.selection_hex()
        if where is not None:
            self.host.focus_hex(where)
        self.host.keep_in_view(self.highlight())

    def selection_hex(self) -> rules.HexId | None:
        """The unit or hex concerned (``C`` centres on it)."""
        d, state = self.decision, self.game.state
        where = d.hex if d.kind == "advance" else None
        if d.unit is not None:
            where = state.unit(d.unit).hex
        elif d.kind != "advance" and d.choices:
            first = d.choices[0][0]
            where = first if d.kind == "waive_immunity" else state.unit(first).hex
        return where

    # -- what the widgets show --------------------------------------------------------------

    def hint(self) -> str:
        return self.prompt()

    def prompt(self) -> str:
        return decision_prompt(self.decision, self.losses)

    def highlight(self) -> frozenset[rules.HexId]:
        d, state = self.decision, self.game.state
        if d.kind == "retreat":
            return frozenset(h for path in d.choices for h in path)
        if d.kind == "advance":
            return frozenset({d.hex} if d.hex else ())
        if d.kind == "waive_immunity":
            return frozenset(c[0] for c in d.choices)
        return frozenset(h for u in loss_units(d) if (h := state.unit(u).hex) is not None)

    def header(self) -> Text:
        d = self.decision
        text = Text()
        text.append(f"{side_name(d.side)} decides", "bold")
        text.append(f" ({d.kind})\n")
        if d.unit:
            text.append(d.unit)
            if d.kind == "retreat":
                text.append(" retreats")
            text.append("\n")
        for line in choice_lines(self.game, d, self.losses):
            text.append(line + "\n")
        append_orders(text, self.game.state)
        return text

    def hover(self, hex_id: rules.HexId) -> None:
        return None  # the question stays on its own line; the message keeps the result

    def end_refusal(self) -> str:
        return self.prompt()

    # -- keys -------------------------------------------------------------------------------

    def select(self) -> None:
        self.host.say(self.prompt())

    def cycle(self) -> None:
        self.host.say(self.prompt())

    def attack(self) -> None:
        self.host.say(self.prompt())

    def resolve(self) -> None:
        self.host.say(self.prompt())

    def road_mode(self) -> None:
        raise SkipAction()  # r: resolve, which repeats the question

    def toggle(self) -> None:
        """Space: during an Ex-losses decision, toggle the listed units in the cursor hex."""
        if self.decision.kind != "losses":
            self.select()
            return
        units = loss_units(self.decision)
        for u in game_view.stack(self.game, self.host.cursor):
            if u in units:
                self.pick(units.index(u) + 1)

    def _answer(self, command: rules.ao.Command) -> None:
        r = self.host.play(command)
        if r is not None:
            self.host.say(result_message(r))

    def waive(self, waive: bool) -> None:
        """y/n: waive or keep the immunity of the offered hexes (AO-11.f*)."""
        p = self.pending
        if not isinstance(p, rules.ao.WaiveDecision):
            raise SkipAction()
        self._answer(p.answer(p.hexes if waive else ()))

    def pick(self, n: int) -> None:
        """1-9 (0): a retreat path, an advancing unit (0 stays), or toggle a loss."""
        d, p = self.decision, self.pending
        if isinstance(p, rules.ao.RetreatDecision):
            if not 1 <= n <= len(p.paths):
                self.host.say(f"Pick a path 1-{len(p.paths)}")
                return
            self._answer(p.answer(p.paths[n - 1]))
        elif isinstance(p, rules.ao.AdvanceDecision):
            if n == 0:
                self._answer(p.answer())
            elif n <= len(p.units):
                self._answer(p.answer(p.units[n - 1]))
            else:
                self.host.say(f"Pick a unit 1-{len(p.units)}, or 0 to stay")
        elif d.kind == "losses":
            units = loss_units(d)
            if not 1 <= n <= len(units):
                self.host.say(f"Toggle a unit 1-{len(units)}, Enter confirms")
                return
            u = units[n - 1]
            self.losses = (
                [x for x in self.losses if x != u] if u in self.losses else [*self.losses, u]
            )
            self.host.redraw()
            self.host.say(self.prompt())
        else:
            raise SkipAction()

    def confirm(self) -> None:
        """Enter: confirm the chosen Ex losses."""
        p = self.pending
        if not isinstance(p, rules.ao.LossesDecision):
            raise SkipAction()
        if not self.losses:
            self.host.say("Choose at least one unit (1-9), then Enter")
            return
        self._answer(p.answer(tuple(self.losses)))


# -- the choices and what each leads to ----------------------------------------------------------


def supply_after_retreat(game: rules.ao.Game, unit: str, end: rules.HexId) -> rules.ao.Supply:
    """The supply ``unit`` would have in ``end`` (the end of a retreat path), judged as at
    the moment of combat (:func:`rules.ao.defender_supply` on the state with the unit there)."""
    state = game.state
    there = state.replace_units([msgspec.structs.replace(state.unit(unit), hex=end)])
    side = game.board.defs[unit].side
    return rules.ao.defender_supply(game.board, there, side).get(unit, "supplied")


def choice_lines(
    game: rules.ao.Game, d: rules.ao.Decision, chosen: Sequence[str] = ()
) -> list[str]:
    """The choices of ``d`` numbered for the panel, each with what it leads to: a retreat
    path's end hex and the supply the unit has there, each unit's printed strength for Ex
    losses (and the total ticked against the need), the advancing unit and the hex it enters,
    the hexes and units whose immunity a waiver gives up."""
    board, state = game.board, game.state
    if d.kind == "waive_immunity":
        out = []
        for i, c in enumerate(d.choices, 1):
            town = board.game_map.hex(c[0]).town
            held = " ".join(u.id for u in state.at(c[0]))
            out.append(f"{i}) {c[0]}{' ' + town if town else ''}: {held}")
        return [*out, "y waives: Ar/Dr retreat them", "n keeps: they ignore Ar/Dr"]
    if d.kind == "losses":
        units = loss_units(d)
        out = [
            f"{i}) {'[x]' if u in chosen else '[ ]'} {u} {board.defs[u].strength}"
            for i, u in enumerate(units, 1)
        ]
        total = sum(board.defs[u].strength for u in chosen)
        enough = "enough" if total >= d.need else "short"
        sets = "; ".join(
            f"{'+'.join(c)}={sum(board.defs[u].strength for u in c)}" for c in d.choices
        )
        return [f"need {d.need}, ticked {total}: {enough}", *out, f"minimal sets: {sets}"]
    if d.kind == "retreat":
        assert d.unit is not None
        start = state.unit(d.unit).hex
        n = len(d.choices[0]) if d.choices else 0
        out = [f"from {start}, {n} hex{'es' if n != 1 else ''}:"]
        for i, path in enumerate(d.choices, 1):
            supply = supply_after_retreat(game, d.unit, path[-1])
            out.append(f"{i}) ends {path[-1]}, {supply}")
            if len(path) > 1:
                out.append(f"   {'-'.join(path)}")
        return out
    if d.kind == "advance":
        out = []
        for i, c in enumerate(d.choices, 1):
            here = state.unit(c[0]).hex
            out.append(f"{i}) {c[0]} {counter_short(board.defs[c[0]])}")
            out.append(f"   {here} -> {d.hex}")
        return [*out, "0) stay: no advance"]
    return []  # pragma: no cover - a new kind of decision
