"""Units arriving: the Reinforcement Phase (AO-14; Tab picks the unit, its open entry hexes
are lit, Enter places it), the paratroop drop (AO-15; the drop hexes are lit, Enter drops),
and the German's own dice (Enter or r rolls: the drop's survival, AO-15.b, and the CRT switch
at the start of a Game-Turn from GT6, AO-10.3a)."""

from __future__ import annotations

from rich.text import Text

import rules.ao
from ardennes_tui.modes.base import Host, Mode, said_after
from rules import hexgrid


class ReinforcementMode(Mode):
    """The Reinforcement Phase: the due units (``options().reinforcements``) one at a time."""

    def __init__(self, host: Host, options: rules.ao.Options) -> None:
        super().__init__(host, options)
        due = options.reinforcements
        self.placing: str | None = due[0].unit if due else None
        """The reinforcement to place next (the panel marks it ``>``; Tab picks another)."""
        self._shown = False
        """``.`` has gone to :attr:`placing` (the next ``.`` marks the next unit due)."""

    def due(self) -> list[tuple[str, tuple[rules.HexId, ...]]]:
        """``(unit, open entry hexes)`` of the reinforcements that may enter now."""
        return [(d.unit, d.hexes) for d in self.options.reinforcements]

    def _entry_hexes(self) -> tuple[rules.HexId, ...]:
        return next((d.hexes for d in self.options.reinforcements if d.unit == self.placing), ())

    def hint(self) -> str:
        due = self.options.reinforcements
        if not due:
            return "Reinforcement Phase: none due now, e ends the phase"
        many = "reinforcements" if len(due) > 1 else "reinforcement"
        return (
            f"{len(due)} {many} due: ] jumps to an entry hex, Enter places {self.placing}, "
            ". the next unit, e ends"
        )

    def highlight(self) -> frozenset[rules.HexId]:
        return frozenset(self._entry_hexes())

    def header(self) -> Text:
        due = self.options.reinforcements
        text = Text()
        text.append(f"Reinforcements GT{self.game.state.turn}", "bold")
        text.append("\n")
        if not due:
            text.append(" none due now\n")
        for d in due:
            mark = ">" if d.unit == self.placing else " "
            text.append(f"{mark}{d.unit} ({len(d.hexes)} hexes)\n")
        refusal = self.options.end_phase
        if due and refusal is not None and refusal.case == "AO-14.1A":
            text.append("all must enter (AO-14.1A)\n")
        return text

    def hover(self, hex_id: rules.HexId) -> str:
        if hex_id in self.highlight():
            return f"Enter places {self.placing} on {hex_id}{self._staging(hex_id)}"
        return self.hint()

    def select(self) -> None:
        """Enter: place the unit marked ``>`` on the cursor hex."""
        if self.placing is None:
            self.host.say(self.hint())
            return
        r = self.host.play(rules.ao.Place(self.placing, self.host.cursor))
        if r is not None:
            self.host.say(said_after(self.host, r))

    def next_unit(self, step: int) -> None:
        """``.``/``,``: the first time, the cursor to the best open entry hex of the unit
        marked ``>`` (:meth:`best_entry`: the fewest units entered there, then the nearest);
        then the next (previous) unit due is marked and the cursor goes to its best entry
        hex. So ``.`` Enter places the first unit due, and again the next, spread over the
        section's entry hexes; the message says the staging loss (AO-14.2B)."""
        due = [d.unit for d in self.options.reinforcements]
        if not due:
            self.host.say(self.hint())
            return
        if self.placing not in due:
            self.placing = due[0]
        elif self._shown:
            self.placing = due[(due.index(self.placing) + step) % len(due)]
        self._shown = True
        target = self.best_entry()
        self.host.redraw()
        if target is None:
            self.host.say(f"{self.placing} has no open entry hex now")
            return
        self.host.focus_hex(target, keep_message=True)
        self.host.say(
            f"Enter places {self.placing} on {target}{self._staging(target)} "
            "(. next unit, ] next hex)"
        )

    def best_entry(self) -> rules.HexId | None:
        """The entry hex ``.`` goes to for :attr:`placing`: of its open entry hexes (the
        engine's, ``options().reinforcements``: every open entry hex of its section), the one
        with the fewest units entered there this phase (each costs a later entry road hexes,
        AO-14.2B), then the nearest to the cursor: so ``.`` Enter again and again spreads the
        units over the section."""
        entries = self._entry_hexes()
        if not entries:
            return None
        state, here = self.game.state, self.host.cursor
        entered: dict[rules.HexId, int] = {}
        for u in state.units:
            if u.hex is not None and u.staging is not None and u.status == "on_map":
                entered[u.hex] = entered.get(u.hex, 0) + 1
        return min(entries, key=lambda h: (entered.get(h, 0), hexgrid.distance(here, h), h))

    def _staging(self, hex_id: rules.HexId) -> str:
        """What placing :attr:`placing` on ``hex_id`` would cost it (the engine's answer,
        nothing played): ``, staging -2 road hexes (AO-14.2B)``, or ""."""
        if self.placing is None:
            return ""
        r = rules.ao.apply(self.game.board, self.game.state, rules.ao.Place(self.placing, hex_id))
        if isinstance(r, rules.Rejection):
            return ""
        staging = next((e.staging for e in r.events if isinstance(e, rules.ao.UnitPlaced)), None)
        return f", staging -{staging} road hexes (AO-14.2B)" if staging else ""

    def cycle(self) -> None:
        """Tab: the next reinforcement due."""
        due = [d.unit for d in self.options.reinforcements]
        if not due:
            super().cycle()
            return
        i = due.index(self.placing) + 1 if self.placing in due else 0
        self.placing = due[i % len(due)]
        self.host.redraw()
        self.host.say(self.hint())


class DropMode(Mode):
    """The German Initial Movement Phase of Game-Turn 2 before the paratroop drop (AO-15.a):
    nothing else is accepted first."""

    @property
    def unit(self) -> str:
        return self.options.drop_unit or "the paratroop unit"

    def hint(self) -> str:
        return f"{self.unit} must drop first: Enter on a lit hex (AO-15.a)"

    def highlight(self) -> frozenset[rules.HexId]:
        return frozenset(self.options.drop_hexes)

    def header(self) -> Text:
        text = Text()
        text.append("Paradrop (AO-15.a)", "bold")
        text.append(
            f"\n{self.unit} drops now: Enter on a lit hex, then its die: 1-2 lands (AO-15.b)\n"
        )
        return text

    def hover(self, hex_id: rules.HexId) -> str:
        if hex_id in self.options.drop_hexes:
            return f"Enter drops {self.unit} on {hex_id}"
        return self.hint()

    def select(self) -> None:
        """Enter: drop on the cursor hex (its die is rolled next, :class:`RollMode`)."""
        r = self.host.play(rules.ao.Drop(self.host.cursor))
        if r is not None:
            self.host.say(said_after(self.host, r))


class RollMode(Mode):
    """A die the German must roll before anything else (``options().roll``): the CRT switch
    (AO-10.3a) or the survival of the paratroop unit just dropped (AO-15.b)."""

    def hint(self) -> str:
        due = self.options.roll
        if due is not None and due.purpose == "paradrop":
            return f"The drop on {due.hex}: Enter or r rolls for survival, 1-2 lands (AO-15.b)"
        return "Game-Turn start: Enter or r rolls for the CRT switch, 1 switches (AO-10.3a)"

    def highlight(self) -> frozenset[rules.HexId]:
        due = self.options.roll
        return frozenset({due.hex}) if due is not None and due.hex is not None else frozenset()

    def header(self) -> Text:
        due = self.options.roll
        text = Text()
        if due is not None and due.purpose == "paradrop":
            text.append("Paradrop (AO-15.b)", "bold")
            text.append(f"\nthe drop on {due.hex}: die 1-2 lands, 3-6 is lost\n")
        else:
            text.append("CRT switch (AO-10.3a)", "bold")
            text.append("\nthe German rolls: a 1 switches to the Standard CRT for good\n")
        return text

    def select(self) -> None:
        """Enter: roll the die."""
        r = self.host.play(rules.ao.Roll())
        if r is not None:
            self.host.say(said_after(self.host, r))

    def resolve(self) -> None:
        """r: roll the die."""
        self.select()

    def road_mode(self) -> None:
        """r (no unit moves now): roll the die."""
        self.select()
