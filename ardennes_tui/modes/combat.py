"""Combat orders (AO-9): build an attack (``a`` on an enemy hex, Enter on your units), see the
engine's odds live (:func:`rules.ao.preview_attack`) and its refusal before Enter
(:func:`rules.ao.check_attack`), lower the odds (``-``/``+``), waive the attackers' immunity
(``w``), declare (Enter on the target) and resolve the batch (``r``).

The attack being built is view state of the mode (targets, attackers, odds asked, waiver);
the game changes only by ``DeclareAttack`` and ``ResolveAttacks``.
"""

from __future__ import annotations

from rich.text import Text
from textual.actions import SkipAction

import rules.ao
from ardennes_tui.modes.base import WAIVE_KEY, Host, Mode
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import (
    TABLE_NAMES,
    combat_log,
    odds_note,
    odds_notes,
    orders_lines,
)
from rules import hexgrid
from rules.ao import crt


def append_orders(text: Text, state: rules.ao.GameState) -> None:
    """The standing orders in force, at the end of the panel's lines in combat (``O`` sets
    the acting side's)."""
    text.append("Standing orders (O)", "bold")
    text.append("\n")
    for line in orders_lines(state):
        text.append(line + "\n")


def result_message(applied: rules.ao.Applied) -> str:
    """Every combat of a resolution, whole, one to a line (the message area wraps them and
    scrolls when they do not fit; ``c`` shows them again in the combat log)."""
    lines = combat_log(applied.events)
    if not lines:
        return "Done"
    return "\n".join(lines)


class CombatMode(Mode):
    """The Combat Phase with no decision pending."""

    def __init__(self, host: Host, options: rules.ao.Options) -> None:
        super().__init__(host, options)
        self.targets: list[rules.HexId] = []
        """The hexes of the attack being built (empty: none)."""
        self.attackers: list[str] = []
        """The units of the attack being built."""
        self.odds_asked: str | None = None
        """The odds column asked for (AO-9.4L), None: the real odds."""
        self.waived = False
        """The attackers waive the Ar immunity of their town / West Wall / fortified hexes in
        the attack being built (AO-11.f*)."""
        self._batch: list[str] | None = None
        """:meth:`batch_lines`, once for the state."""

    # -- questions --------------------------------------------------------------------------

    def building(self) -> bool:
        return bool(self.targets)

    def eligible_attackers(self) -> list[str]:
        """Own units adjacent to every target hex that have not attacked nor been declared
        in this batch (the engine's refusal of the attack, if any, is shown before Enter)."""
        state = self.game.state
        busy = {u for a in state.combat.declared for u in a.attackers}
        out = []
        for us in state.units:
            if us.hex is None or us.status != "on_map" or us.attacked or us.id in busy:
                continue
            if self.game.board.defs[us.id].side != state.side:
                continue
            if all(hexgrid.adjacent(us.hex, t) for t in self.targets):
                out.append(us.id)
        return out

    def _can_attack_here(self, hex_id: rules.HexId) -> bool:
        eligible = set(self.eligible_attackers())
        return any(u in eligible for u in game_view.own_units(self.game, hex_id))

    def _preview(self) -> rules.ao.Preview | rules.Rejection | None:
        if not self.building() or not self.attackers:
            return None
        return rules.ao.preview_attack(
            self.game.board, self.game.state, self.attackers, self.targets
        )

    def _check(self, odds: str | None = None) -> rules.ao.Preview | rules.Rejection:
        attack = rules.ao.DeclareAttack(
            attackers=tuple(self.attackers),
            defenders=tuple(self.targets),
            odds=odds,
            waive=self.waived_hexes(),
        )
        return rules.ao.check_attack(self.game.board, self.game.state, attack)

    def immune_attacker_hexes(self) -> list[rules.HexId]:
        """The hexes of the attack's units that are immune to Ar (AO-11.f*), sorted."""
        if not self.building():
            return []
        return list(rules.ao.immune_hexes(self.game.board, self.game.state, self.attackers))

    def waived_hexes(self) -> tuple[rules.HexId, ...]:
        """The attackers' hexes whose immunity the declaration waives (``DeclareAttack.waive``)."""
        return tuple(self.immune_attacker_hexes()) if self.waived else ()

    def _hex_names(self, hexes: list[rules.HexId]) -> str:
        m = self.game.board.game_map
        return ", ".join(m.hex(h).town or h for h in hexes)

    # -- jumps -----------------------------------------------------------------------------

    def actors(self) -> list[str]:
        """Building an attack: the units that may still join it; else the units that may
        still attack (``options().attackers``) and are not in the declared batch."""
        if self.building():
            return [u for u in self.eligible_attackers() if u not in self.attackers]
        busy = {u for a in self.options.declared for u in a.attackers}
        return [u for u in self.options.attackers if u not in busy]

    def act(self, unit: str) -> None:
        """Mark ``unit`` (``>``) and say what it may do."""
        self.choose(unit)
        if self.building():
            self.host.keep_in_view(self.targets)
            self.host.say(f"> {unit}: Enter adds its stack to the attack, Space only {unit}")
            return
        here = self.game.state.unit(unit).hex
        near = sorted(h for h in self.highlight() if here and hexgrid.adjacent(here, h))
        self.host.keep_in_view(near)  # the targets it may attack, in view with it
        where = f" {', '.join(near)}: ] jumps there, a attacks" if near else ""
        self.host.say(f"> {unit} may attack{where}")

    def selection_hex(self) -> rules.HexId | None:
        """The attack's first target, else the unit marked ``>``."""
        return self.targets[0] if self.targets else super().selection_hex()

    # -- what the widgets show --------------------------------------------------------------

    def hint(self) -> str:
        n = len(self.game.state.combat.declared)
        batch = f"{n} declared, r resolves. " if n else ""
        return f"Combat: {batch}a on an enemy hex (lit) starts an attack, c log, e ends"

    def highlight(self) -> frozenset[rules.HexId]:
        """The target and the units that may join the attack being built, else the enemy
        hexes that may be attacked (on GT1: the American units still to be attacked,
        AO-4.2h*)."""
        state = self.game.state
        if self.building():
            near = set(self.targets)
            near.update(h for u in self.eligible_attackers() if (h := state.unit(u).hex))
            return frozenset(near)
        declared = {h for a in state.combat.declared for h in a.defenders}
        must = self.options.must_be_attacked
        if must:
            return frozenset(h for u in must if (h := state.unit(u).hex) is not None) - declared
        return frozenset(self.options.targets) - declared

    def note(self, unit: str) -> str:
        if unit in self.attackers:
            return "attacking"
        return "declared" if any(unit in a.attackers for a in self.options.declared) else ""

    def attack_summary(self) -> str:
        """The message line while an attack is built: the odds, or the engine's refusal."""
        if not self.attackers:
            return (
                f"Attack on {'+'.join(self.targets)}: Enter (or Space) on your lit units adds "
                "them, a on another enemy hex adds it, Esc cancels"
            )
        p = self._preview()
        assert p is not None
        if isinstance(p, rules.Rejection):
            return p.message
        col = f"{p.column} lowered to {self.odds_asked}" if self.odds_asked else p.column
        note = odds_note(p.attack, p.defence, p.column)
        table = f"{TABLE_NAMES.get(p.table, p.table)} CRT" + (f"; {note}" if note else "")
        line = f"{p.attack} vs {p.defence} = {col} ({table})"
        immune = self.immune_attacker_hexes()
        if immune and self.waived:
            line += f"; attackers in {self._hex_names(immune)} waive immunity (AO-11.f*)"
        c = self._check(self.odds_asked)
        if isinstance(c, rules.Rejection):
            return f"{line}. {c.message}"
        more = f", {WAIVE_KEY}: {'keep' if self.waived else 'waive'} immunity" if immune else ""
        return f"{line}. Enter on {self.targets[0]} declares, -/+ odds{more}"

    def header(self) -> Text:
        """The attack being built, the batch declared, the GT1 obligations."""
        state = self.game.state
        text = Text()
        if self.building():
            text.append("Attack on " + "+".join(self.targets), "bold")
            text.append("\n")
            for u in self.attackers:
                text.append(f" * {u} {state.unit(u).hex}\n")
            if not self.attackers:
                text.append(" (no attacker yet)\n")
            p = self._preview()
            if isinstance(p, rules.ao.Preview):
                text.append(f"{p.attack} vs {p.defence} = {p.column}", "bold")
                text.append(f" {TABLE_NAMES.get(p.table, p.table)}\n")
                note = odds_note(p.attack, p.defence, p.column)
                if note:
                    text.append(f"({note})\n")
                if self.odds_asked:
                    text.append(f"asked {self.odds_asked} (AO-9.4L)\n")
            for note in odds_notes(self.game.board, state, self.attackers, self.targets):
                text.append(note + "\n")
            immune = self.immune_attacker_hexes()
            if immune:
                what = "Ar immunity waived" if self.waived else f"immune to Ar ({WAIVE_KEY} waives)"
                text.append(f"att {self._hex_names(immune)}: {what}\n")
        declared = state.combat.declared
        if declared:
            text.append(f"Batch: {len(declared)} declared", "bold")
            text.append(" (r resolves)\n")
            for line in self.batch_lines():
                text.append(line + "\n")
        must, must_with = self.obligations_left()
        if must or must_with:
            text.append("GT1 must (AO-4.2h*)", "bold")
            text.append("\n")
            if must:
                text.append("attack: " + " ".join(must) + "\n")
            if must_with:
                text.append("attack with: " + " ".join(must_with) + "\n")
        elif self.options.must_be_attacked or self.options.must_attack:
            text.append("GT1 must (AO-4.2h*)", "bold")
            text.append("\nall in the batch: r resolves\n")
        append_orders(text, state)
        return text

    def batch_lines(self) -> list[str]:
        """Every attack of the declared batch with its odds, in the order declared:
        `` 3432 7-1 <- de-15-pt de-352-i`` (``7-1 asked 5-1`` when lowered, AO-9.4L)."""
        if self._batch is None:
            board, state = self.game.board, self.game.state
            out = []
            for a in state.combat.declared:
                p = rules.ao.preview_attack(board, state, list(a.attackers), list(a.defenders))
                odds = p.column if isinstance(p, rules.ao.Preview) else "?"
                if a.odds:
                    odds = f"{odds} asked {a.odds}"
                out.append(f" {'+'.join(a.defenders)} {odds} <- {' '.join(a.attackers)}")
            self._batch = out
        return self._batch

    def obligations_left(self) -> tuple[list[str], list[str]]:
        """The Game-Turn 1 obligations (AO-4.2h*) still to meet: the American units no
        declared attack aims at, the German units in no declared attack."""
        state = self.game.state
        aimed = {h for a in state.combat.declared for h in a.defenders}
        busy = {u for a in state.combat.declared for u in a.attackers}
        must = [u for u in self.options.must_be_attacked if state.unit(u).hex not in aimed]
        return must, [u for u in self.options.must_attack if u not in busy]

    def hover(self, hex_id: rules.HexId) -> str:
        if self.building():
            if self._can_attack_here(hex_id):
                eligible = self.eligible_attackers()
                units = [u for u in game_view.own_units(self.game, hex_id) if u in eligible]
                inn = [u for u in units if u in self.attackers]
                if inn and len(inn) == len(units):
                    return f"Enter drops {', '.join(inn)} from the attack"
                return f"Enter adds {', '.join(u for u in units if u not in inn)} to the attack"
            return self.attack_summary()
        enemy = game_view.enemy_units(self.game, hex_id)
        if enemy:
            return f"a attacks {', '.join(enemy)} in {hex_id}"
        return self.hint()

    # -- keys -------------------------------------------------------------------------------

    def select(self, one: bool = False) -> None:
        """Enter: start an attack on an enemy hex, add/drop your units, declare on the
        target."""
        hex_id = self.host.cursor
        if not self.building():
            if game_view.enemy_units(self.game, hex_id):
                self.attack()
                return
            own = game_view.own_units(self.game, hex_id)
            if own and self.selected not in own:
                self.choose(own[0])
            self.host.say(self.hint())
            return
        if self._can_attack_here(hex_id):
            self._toggle_units(hex_id, one)
            return
        if hex_id in self.targets:
            self.declare()
            return
        self.host.say(self.attack_summary())

    def toggle(self) -> None:
        """Space: add/drop only the unit marked ``>``."""
        self.select(one=True)

    def cycle(self) -> None:
        own = game_view.own_units(self.game, self.host.cursor)
        super().cycle()
        if own and self.selected is not None:
            self.host.say(f"> {self.selected}: Space adds/drops it alone")

    def road_mode(self) -> None:
        raise SkipAction()  # r resolves here

    def deselect(self) -> None:
        if self.building():
            self.cancel_attack()
            return
        super().deselect()

    def _toggle_units(self, hex_id: rules.HexId, one: bool) -> None:
        eligible = set(self.eligible_attackers())
        units = [u for u in game_view.own_units(self.game, hex_id) if u in eligible]
        if one:
            unit = self.selected if self.selected in units else units[0]
            assert unit is not None
            units = [unit]
            self.selected = unit
        if all(u in self.attackers for u in units):
            self.attackers = [u for u in self.attackers if u not in units]
        else:
            self.attackers += [u for u in units if u not in self.attackers]
        self.odds_asked = None
        self.host.redraw()
        self.host.say(self.attack_summary())

    def attack(self) -> None:
        """a: attack the enemy hex under the cursor, or add/drop it as a further defender."""
        hex_id = self.host.cursor
        if not game_view.enemy_units(self.game, hex_id):
            self.host.say(f"No enemy unit in {hex_id} to attack")
            return
        if hex_id in self.targets:
            self.targets.remove(hex_id)
            if not self.targets:
                self.cancel_attack(f"Attack on {hex_id} cancelled")
                return
        else:
            self.targets.append(hex_id)
        eligible = self.eligible_attackers()
        dropped = [u for u in self.attackers if u not in eligible]
        self.attackers = [u for u in self.attackers if u not in dropped]
        self.odds_asked = None
        self.host.redraw()
        self.host.keep_in_view(self.highlight())  # the targets and who may join
        note = f" ({', '.join(dropped)} not adjacent: dropped)" if dropped else ""
        self.host.say(self.attack_summary() + note)

    def cancel_attack(self, message: str = "Attack cancelled") -> None:
        self.targets, self.attackers, self.odds_asked, self.waived = [], [], None, False
        self.host.redraw()
        self.host.say(message)

    def declare(self) -> bool:
        """Declare the attack being built; True when the engine accepted it."""
        if not self.attackers:
            self.host.say(
                f"No attacker yet: Enter on your units next to {self.targets[0]} adds them"
            )
            return False
        cmd = rules.ao.DeclareAttack(
            tuple(self.attackers),
            tuple(self.targets),
            odds=self.odds_asked,
            waive=self.waived_hexes(),
        )
        r = self.host.play(cmd)
        if r is None:
            return False
        n = len(self.game.state.combat.declared)
        self.host.say(
            " ".join(combat_log(r.events)) + f". {n} in the batch: r resolves, a attacks more"
        )
        return True

    def odds(self, step: int) -> None:
        """-/+: lower (or raise back) the odds of the attack being built (AO-9.4L)."""
        if not self.building():
            super().odds(step)
            return
        p = self._preview()
        if not isinstance(p, rules.ao.Preview):
            self.host.say(self.attack_summary())
            return
        real = crt.ODDS_COLUMNS.index(p.column)
        now = crt.ODDS_COLUMNS.index(self.odds_asked) if self.odds_asked else real
        want = now + step
        if want > real:
            self.host.say(f"The odds may only be lowered: the real odds are {p.column} (AO-9.4L)")
            return
        if want < 0:
            self.host.say(f"{crt.ODDS_COLUMNS[0]} is the lowest column")
            return
        odds = None if want == real else crt.ODDS_COLUMNS[want]
        if odds is not None:
            c = self._check(odds)
            if isinstance(c, rules.Rejection) and c.case.startswith("AO-9.4L"):
                self.host.say(c.message)
                return
        self.odds_asked = odds
        self.host.redraw()
        self.host.say(self.attack_summary())

    def waive_attackers(self) -> None:
        """w: the attackers of the attack being built waive (again: keep) the Ar immunity of
        their town / West Wall / fortified hexes (AO-11.f*); only when one of them has it."""
        if not self.building():
            super().waive_attackers()
            return
        if not self.immune_attacker_hexes():
            self.host.say("No attacker of this attack is immune to Ar: nothing to waive (AO-11.f*)")
            return
        self.waived = not self.waived
        self.host.redraw()
        self.host.say(self.attack_summary())

    def resolve(self) -> None:
        """r: declare the attack being built, then resolve the batch (the dice roll)."""
        if self.building() and self.attackers and not self.declare():
            return
        if not self.game.state.combat.declared:
            self.host.say("No attack declared: a on an enemy hex starts one")
            return
        r = self.host.play(rules.ao.ResolveAttacks())
        if r is not None:
            self.host.say(result_message(r))
