"""The Combat Phase orders of the play screen (a mixin of :class:`PlayScreen`).

Building an attack is view state of the screen (the target hexes, the attacking units, the
odds asked for); everything else is the session's: ``DeclareAttack`` when the player declares,
``ResolveAttacks`` and the decision commands. The odds shown are
:func:`rules.combat.preview_attack`'s, and a declaration the engine would refuse is shown with
its rule case before Enter (``check_attack``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rich.text import Text
from textual.actions import SkipAction

from ardennes_tui.combat_text import (
    TABLE_NAMES,
    combat_log,
    decision_lines,
    decision_prompt,
    loss_units,
    odds_notes,
    side_name,
)
from rules import hexgrid
from rules.combat import Preview, end_of_combat_check
from rules.commands import (
    Advance,
    ChooseLosses,
    ChooseRetreat,
    Command,
    DeclareAttack,
    ResolveAttacks,
    WaiveImmunity,
)
from rules.crt import ODDS_COLUMNS
from rules.engine import Applied
from rules.hexgrid import HexId
from rules.rejection import Rejection
from rules.state import Decision

if TYPE_CHECKING:
    from ardennes_tui.session import GameSession
    from ardennes_tui.widgets.map_view import MapView

WAIVE_KEY: Final = "w"


class CombatOrders:
    """Attack building, declaration, odds, resolution and the combat decisions."""

    if TYPE_CHECKING:
        session: GameSession
        selected: str | None

        @property
        def map_view(self) -> MapView: ...

        def say(self, message: str) -> None: ...
        def _sync(self, units: bool = True) -> None: ...
        def _select(self, unit: str | None) -> None: ...
        def _unconfirm(self) -> None: ...

    targets: list[HexId]
    """The hexes of the attack being built (empty: none)."""
    attackers: list[str]
    """The units of the attack being built."""
    odds: str | None
    """The odds column asked for (AO-9.4L), None: the real odds."""
    losses: list[str]
    """The units chosen so far for a pending Ex loss decision."""
    waive: bool
    """The attackers waive the Ar immunity of their town / West Wall / fortified hexes in the
    attack being built (AO-11.f*)."""

    def _init_combat(self) -> None:
        self.targets = []
        self.attackers = []
        self.odds = None
        self.losses = []
        self.waive = False

    # -- questions ------------------------------------------------------------------------------

    def in_combat(self) -> bool:
        return self.session.state.phase == "combat"

    def building(self) -> bool:
        return bool(self.targets)

    def _enemy_units(self, hex_id: HexId) -> list[str]:
        side = self.session.state.side
        return [u for u in self.session.stack(hex_id) if self.session.unit_def(u).side != side]

    def _busy(self) -> set[str]:
        return {u for a in self.session.state.combat.declared for u in a.attackers}

    def _can_attack(self, unit: str) -> bool:
        """Own unit in play that has not attacked nor been declared in this batch."""
        state = self.session.state
        us = state.unit(unit)
        return (
            self.session.unit_def(unit).side == state.side
            and us.status == "on_map"
            and us.hex is not None
            and not us.attacked
            and unit not in self._busy()
        )

    def eligible_attackers(self) -> list[str]:
        """Own units adjacent to every target hex that may still attack."""
        out = []
        for us in self.session.state.units:
            if us.hex is None or not self._can_attack(us.id):
                continue
            if all(hexgrid.adjacent(us.hex, h) for h in self.targets):
                out.append(us.id)
        return out

    def combat_highlight(self) -> set[HexId]:
        """The lit hexes in the Combat Phase: the choices of a decision, the target and the
        units that may join the attack being built, else the enemy hexes that may be
        attacked (on GT1: the American units still to be attacked, AO-4.2h*)."""
        s = self.session
        d = s.pending()
        if d is not None:
            return self._decision_hexes(d)
        if self.building():
            near = set(self.targets)
            for u in self.eligible_attackers():
                h = s.state.unit(u).hex
                if h is not None:
                    near.add(h)
            return near
        us_left, _ = s.gt1_unmet()
        declared = {h for a in s.state.combat.declared for h in a.defenders}
        if us_left:
            return {h for u in us_left if (h := s.state.unit(u).hex) is not None} - declared
        lit: set[HexId] = set()
        for us in s.state.units:
            if us.hex is None or not self._can_attack(us.id):
                continue
            for n in s.board.game_map.neighbours(us.hex):
                if self._enemy_units(n) and n not in declared:
                    lit.add(n)
        return lit

    def _decision_hexes(self, d: Decision) -> set[HexId]:
        s = self.session
        if d.kind == "retreat":
            return {h for path in d.choices for h in path}
        if d.kind == "advance":
            return {d.hex} if d.hex else set()
        if d.kind == "waive_immunity":
            return {c[0] for c in d.choices}
        return {h for u in loss_units(d) if (h := s.state.unit(u).hex) is not None}

    def _odds_preview(self) -> Preview | Rejection | None:
        if not self.building() or not self.attackers:
            return None
        return self.session.preview(self.attackers, self.targets)

    def _odds_check(self) -> Preview | Rejection | None:
        if not self.building() or not self.attackers:
            return None
        return self.session.check_attack(
            self.attackers, self.targets, self.odds, self.waived_hexes()
        )

    def immune_attacker_hexes(self) -> list[HexId]:
        """The hexes of the attack's units that are immune to Ar (AO-11.f*), sorted."""
        return self.session.immune_hexes(self.attackers) if self.building() else []

    def waived_hexes(self) -> tuple[HexId, ...]:
        """The attackers' hexes whose immunity the declaration waives (``DeclareAttack.waive``)."""
        return tuple(self.immune_attacker_hexes()) if self.waive else ()

    def _hex_names(self, hexes: list[HexId]) -> str:
        m = self.session.board.game_map
        return ", ".join(m.hex(h).town or h for h in hexes)

    def attack_summary(self) -> str:
        """The message line while an attack is built: the odds, or the engine's refusal."""
        if not self.attackers:
            return (
                f"Attack on {'+'.join(self.targets)}: Enter (or Space) on your lit units adds "
                "them, a on another enemy hex adds it, Esc cancels"
            )
        p = self._odds_preview()
        assert p is not None
        if isinstance(p, Rejection):
            return p.message
        col = f"{p.column} lowered to {self.odds}" if self.odds else p.column
        line = f"{p.attack} vs {p.defence} = {col} ({TABLE_NAMES.get(p.table, p.table)} CRT)"
        immune = self.immune_attacker_hexes()
        if immune and self.waive:
            line += f"; attackers in {self._hex_names(immune)} waive immunity (AO-11.f*)"
        c = self._odds_check()
        if isinstance(c, Rejection):
            return f"{line}. {c.message}"
        more = f", {WAIVE_KEY}: {'keep' if self.waive else 'waive'} immunity" if immune else ""
        return f"{line}. Enter on {self.targets[0]} declares, -/+ odds{more}"

    def combat_header(self) -> Text:
        """The side panel's lines in the Combat Phase."""
        s = self.session
        text = Text()
        d = s.pending()
        if d is not None:
            text.append(f"{side_name(d.side)} decides", "bold")
            text.append(f" ({d.kind})\n")
            if d.unit:
                text.append(f"{d.unit}")
                if d.kind == "retreat":
                    text.append(" retreats")
                text.append("\n")
            for line in decision_lines(d, self.losses):
                text.append(line + "\n")
            return text
        declared = s.state.combat.declared
        if self.building():
            text.append("Attack on " + "+".join(self.targets), "bold")
            text.append("\n")
            for u in self.attackers:
                text.append(f" * {u} {s.state.unit(u).hex}\n")
            if not self.attackers:
                text.append(" (no attacker yet)\n")
            p = self._odds_preview()
            if isinstance(p, Preview):
                text.append(f"{p.attack} vs {p.defence} = {p.column}", "bold")
                text.append(f" {TABLE_NAMES.get(p.table, p.table)}\n")
                if self.odds:
                    text.append(f"asked {self.odds} (AO-9.4L)\n")
            for note in odds_notes(s.board, s.state, self.attackers, self.targets):
                text.append(note + "\n")
            immune = self.immune_attacker_hexes()
            if immune:
                what = "Ar immunity waived" if self.waive else f"immune to Ar ({WAIVE_KEY} waives)"
                text.append(f"att {self._hex_names(immune)}: {what}\n")
        if declared:
            text.append(f"Batch: {len(declared)} declared", "bold")
            text.append(" (r)\n")
            for a in declared[-3:]:
                text.append(f" {'+'.join(a.defenders)} <- {len(a.attackers)} units\n")
        us_left, de_left = s.gt1_unmet()
        if us_left or de_left:
            text.append("GT1 must (AO-4.2h*)", "bold")
            text.append("\n")
            if us_left:
                text.append("attack: " + " ".join(us_left) + "\n")
            if de_left:
                text.append("attack with: " + " ".join(de_left) + "\n")
        return text

    def combat_hint(self) -> str:
        s = self.session
        n = len(s.state.combat.declared)
        batch = f"{n} declared, r resolves. " if n else ""
        return f"Combat: {batch}a on an enemy hex (lit) starts an attack, c log, e ends"

    def combat_hover(self, hex_id: HexId) -> str:
        """The message when the cursor moves in the Combat Phase."""
        if self.building():
            if self._can_attack_here(hex_id):
                units = [
                    u for u in self.session.own_units(hex_id) if u in self.eligible_attackers()
                ]
                inn = [u for u in units if u in self.attackers]
                if inn and len(inn) == len(units):
                    return f"Enter drops {', '.join(inn)} from the attack"
                return f"Enter adds {', '.join(u for u in units if u not in inn)} to the attack"
            return self.attack_summary()
        if self._enemy_units(hex_id):
            return f"a attacks {', '.join(self._enemy_units(hex_id))} in {hex_id}"
        return self.combat_hint()

    def _can_attack_here(self, hex_id: HexId) -> bool:
        eligible = set(self.eligible_attackers())
        return any(u in eligible for u in self.session.own_units(hex_id))

    # -- orders ---------------------------------------------------------------------------------

    def action_attack(self) -> None:
        """a: attack the enemy hex under the cursor, or add/drop it as a further defender."""
        self._unconfirm()
        if not self.in_combat():
            self.say("Attacks are declared in the Combat Phase")
            return
        d = self.session.pending()
        if d is not None:
            self.say(decision_prompt(d, self.losses))
            return
        hex_id = self.map_view.cursor
        if not self._enemy_units(hex_id):
            self.say(f"No enemy unit in {hex_id} to attack")
            return
        if hex_id in self.targets:
            self.targets.remove(hex_id)
            if not self.targets:
                self.cancel_attack(f"Attack on {hex_id} cancelled")
                return
        else:
            self.targets.append(hex_id)
        dropped = [u for u in self.attackers if u not in self.eligible_attackers()]
        self.attackers = [u for u in self.attackers if u not in dropped]
        self.odds = None
        self._sync(units=False)
        note = f" ({', '.join(dropped)} not adjacent: dropped)" if dropped else ""
        self.say(self.attack_summary() + note)

    def cancel_attack(self, message: str = "Attack cancelled") -> None:
        self._init_combat()
        self._sync(units=False)
        self.say(message)

    def combat_enter(self, one: bool = False) -> None:
        """Enter/Space in the Combat Phase (no decision pending)."""
        hex_id = self.map_view.cursor
        if not self.building():
            if self._enemy_units(hex_id):
                self.action_attack()
                return
            own = self.session.own_units(hex_id)
            if own and self.selected not in own:
                self._select(own[0])
            self.say(self.combat_hint())
            return
        if self._can_attack_here(hex_id):
            self._toggle_units(hex_id, one)
            return
        if hex_id in self.targets:
            self.declare()
            return
        self.say(self.attack_summary())

    def _toggle_units(self, hex_id: HexId, one: bool) -> None:
        eligible = set(self.eligible_attackers())
        units = [u for u in self.session.own_units(hex_id) if u in eligible]
        if one:
            unit = self.selected if self.selected in units else units[0]
            assert unit is not None
            units = [unit]
            self.selected = unit
        if all(u in self.attackers for u in units):
            self.attackers = [u for u in self.attackers if u not in units]
        else:
            self.attackers += [u for u in units if u not in self.attackers]
        self.odds = None
        self._sync(units=False)
        self.say(self.attack_summary())

    def declare(self) -> bool:
        """Declare the attack being built; True when the engine accepted it."""
        if not self.attackers:
            self.say(f"No attacker yet: Enter on your units next to {self.targets[0]} adds them")
            return False
        cmd = DeclareAttack(
            tuple(self.attackers), tuple(self.targets), odds=self.odds, waive=self.waived_hexes()
        )
        r = self.session.apply(cmd)
        if isinstance(r, Rejection):
            self.say(r.message)
            return False
        self._init_combat()
        self._sync(units=False)
        n = len(self.session.state.combat.declared)
        self.say(" ".join(combat_log(r.events)) + f". {n} in the batch: r resolves, a attacks more")
        return True

    def action_odds(self, step: int) -> None:
        """-/+: lower (or raise back) the odds of the attack being built (AO-9.4L)."""
        self._unconfirm()
        if not self.in_combat() or not self.building():
            self.say("-/+ change the odds of an attack being built (a on an enemy hex)")
            return
        p = self._odds_preview()
        if not isinstance(p, Preview):
            self.say(self.attack_summary())
            return
        real = ODDS_COLUMNS.index(p.column)
        now = ODDS_COLUMNS.index(self.odds) if self.odds else real
        want = now + step
        if want > real:
            self.say(f"The odds may only be lowered: the real odds are {p.column} (AO-9.4L)")
            return
        if want < 0:
            self.say(f"{ODDS_COLUMNS[0]} is the lowest column")
            return
        odds = None if want == real else ODDS_COLUMNS[want]
        if odds is not None:
            c = self.session.check_attack(self.attackers, self.targets, odds)
            if isinstance(c, Rejection) and c.case.startswith("AO-9.4L"):
                self.say(c.message)
                return
        self.odds = odds
        self._sync(units=False)
        self.say(self.attack_summary())

    def action_waive_attackers(self) -> None:
        """w: the attackers of the attack being built waive (again: keep) the Ar immunity of
        their town / West Wall / fortified hexes (AO-11.f*); only when one of them has it."""
        self._unconfirm()
        if not self.in_combat() or not self.building():
            self.say(f"{WAIVE_KEY} waives the attackers' immunity of an attack being built")
            return
        d = self.session.pending()
        if d is not None:
            self.say(decision_prompt(d, self.losses))
            return
        if not self.immune_attacker_hexes():
            self.say("No attacker of this attack is immune to Ar: nothing to waive (AO-11.f*)")
            return
        self.waive = not self.waive
        self._sync(units=False)
        self.say(self.attack_summary())

    def action_resolve(self) -> None:
        """r in the Combat Phase: declare the attack being built, then resolve the batch."""
        if not self.in_combat():
            raise SkipAction()
        self._unconfirm()
        if self.session.pending() is not None:
            self.say(decision_prompt(self.session.pending(), self.losses))  # type: ignore[arg-type]
            return
        if self.building() and self.attackers and not self.declare():
            return
        if not self.session.state.combat.declared:
            self.say("No attack declared: a on an enemy hex starts one")
            return
        self._run(ResolveAttacks())

    def _run(self, cmd: Command) -> None:
        """Apply a resolution command; show what happened and the next decision."""
        r = self.session.apply(cmd)
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self._focus_decision()
        self.selected = None
        self._sync()
        self.say(self.result_message(r))

    def _focus_decision(self) -> None:
        """Ready the pending decision, if any: an Ex-losses decision starts with its first
        minimal set chosen (:attr:`losses`, else empty), and the cursor goes to the unit or
        hex concerned. Called when a decision appears (after ``r`` or another decision), when
        the screen opens on one (a loaded game) and after an undo back to one; not on every
        refresh, so a player may un-toggle every unit."""
        self.losses = []
        d = self.session.pending()
        if d is None:
            return
        if d.kind == "losses" and d.choices:
            self.losses = list(d.choices[0])
        where = d.hex if d.kind == "advance" else None
        if d.unit is not None:
            where = self.session.state.unit(d.unit).hex
        elif d.kind != "advance" and d.choices:
            first = d.choices[0][0]
            where = first if d.kind == "waive_immunity" else self.session.state.unit(first).hex
        if where is not None:
            self.map_view.cursor = where

    def result_message(self, r: Applied) -> str:
        lines = combat_log(r.events)
        if not lines:
            return "Done"
        more = f" [+{len(lines) - 1} more: c shows the log]" if len(lines) > 1 else ""
        return lines[-1] + more

    def combat_end_check(self) -> str | None:
        """Why the Combat Phase may not end now (the engine's message), or None."""
        if not self.in_combat():
            return None
        bad = end_of_combat_check(self.session.board, self.session.state)
        return bad.message if bad is not None else None

    # -- decisions (priority keys: they act only while a decision is pending) ---------------------

    def _decision(self, kind: str) -> Decision:
        d = self.session.pending() if self.in_combat() else None
        if d is None or d.kind != kind:
            raise SkipAction()
        return d

    def action_waive(self, waive: bool) -> None:
        """y/n: waive or keep the immunity of the offered hexes (AO-11.f*)."""
        d = self._decision("waive_immunity")
        self._run(WaiveImmunity(tuple(c[0] for c in d.choices) if waive else ()))

    def action_pick(self, n: int) -> None:
        """1-9 (0): a retreat path, an advancing unit (0 stays), or toggle a loss."""
        d = self.session.pending() if self.in_combat() else None
        if d is None or d.kind not in ("retreat", "advance", "losses"):
            raise SkipAction()
        if d.kind == "retreat":
            if not 1 <= n <= len(d.choices):
                self.say(f"Pick a path 1-{len(d.choices)}")
                return
            assert d.unit is not None
            self._run(ChooseRetreat(d.unit, d.choices[n - 1]))
        elif d.kind == "advance":
            assert d.hex is not None
            if n == 0:
                self._run(Advance(d.hex))
            elif n <= len(d.choices):
                self._run(Advance(d.hex, d.choices[n - 1][0]))
            else:
                self.say(f"Pick a unit 1-{len(d.choices)}, or 0 to stay")
        else:
            units = loss_units(d)
            if not 1 <= n <= len(units):
                self.say(f"Toggle a unit 1-{len(units)}, Enter confirms")
                return
            u = units[n - 1]
            self.losses = (
                [x for x in self.losses if x != u] if u in self.losses else [*self.losses, u]
            )
            self._sync(units=False)
            self.say(decision_prompt(d, self.losses))

    def action_confirm(self) -> None:
        """Enter: confirm the chosen Ex losses."""
        self._decision("losses")
        if not self.losses:
            self.say("Choose at least one unit (1-9), then Enter")
            return
        self._run(ChooseLosses(tuple(self.losses)))
