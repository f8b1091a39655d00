"""The play screen: hot-seat play of every phase on the map viewer.

The screen owns the :class:`~ardennes_tui.session.GameSession`; the widgets only show what it
passes down (units per hex, the highlighted reach, unit notes, the status text). Orders go
through the session, so whatever the engine refuses is shown with its rule case.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.actions import SkipAction
from textual.binding import BindingType

from ardennes_tui import keymap
from ardennes_tui.combat_text import combat_log, decision_prompt, loss_units
from ardennes_tui.screens.combat_orders import CombatOrders
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.session import PHASE_NAMES, GameSession, default_save_path
from ardennes_tui.widgets.map_view import MapView, Zoom
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from rules import paradrop, reinforcements
from rules.commands import (
    ENTER_ROAD_MODE,
    LEAVE_ROAD_MODE,
    DeclareAttack,
    Drop,
    EndPhase,
    Move,
    Place,
)
from rules.dice import DieRoll
from rules.engine import Applied
from rules.events import (
    DormantReactivated,
    GameEnded,
    PhaseSkipped,
    ReinforcementDelayed,
    UnitEliminated,
    UnitPlaced,
    VictoryPointsTabulated,
)
from rules.hexgrid import HexId
from rules.movement import movement_allowance
from rules.rejection import Rejection
from rules.setup_rules import FREE_SETUP_CASE, SETUP_PHASES
from rules.state import MOVEMENT_PHASES, UnitState


def unit_note(us: UnitState, ma: int, attack: str = "") -> str:
    """Status words of a unit for the side panel, e.g. ``road, moved, 4/10 MP``; in the
    Combat Phase ``attack`` adds ``attacking``/``declared``, and ``attacked``/``was attacked``
    come from the unit's flags."""
    words: list[str] = [attack] if attack else []
    if us.attacked:
        words.append("attacked")
    if us.was_attacked:
        words.append("was attacked")
    if us.status == "dormant":
        words.append("dormant")
    if us.road_mode:
        words.append("road")
    if us.moved:
        words.append("moved")
    if us.mp_spent:
        words.append(f"{us.mp_spent}/{ma} MP")
    if us.supply != "supplied":
        words.append(us.supply)
    if us.staging:
        words.append(f"staging -{us.staging} road hexes")
    return ", ".join(words)


class PlayScreen(CombatOrders, MapScreen):
    """Select a unit (Enter), see where it can go, move it (Enter), undo, end the phase;
    rearrange a free set-up the same way; attack, resolve and answer the combat decisions
    (:class:`CombatOrders`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *keymap.bindings("play"),
        *keymap.bindings("decide"),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        cursor: HexId | None = None,
        zoom: Zoom = "detail",
        save_path: Path | None = None,
    ) -> None:
        super().__init__(session.board.game_map, session.units_by_hex(), cursor=cursor, zoom=zoom)
        self.session = session
        self.save_path = save_path or default_save_path(session.start.scenario)
        """Where ``s`` writes the command log (``ardennes --load FILE`` replays it): the
        loaded file, else ``ardennes-sN.jsonl`` (:func:`default_save_path`; a game loaded
        from a self-play log is saved there, the log is never overwritten)."""
        self.selected: str | None = None
        self._confirm_end = False
        self._init_combat()
        self._verdict_shown = False
        self.placing: str | None = None
        """The reinforcement to place next (Reinforcement Phase; Tab picks another)."""

    # -- plumbing -----------------------------------------------------------------------------

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def on_mount(self) -> None:
        super().on_mount()
        self.status.add_class("play")
        self._focus_decision()  # a game opened on a decision (e.g. saved in the middle of one)
        self._sync(units=False)
        self.say(f"{self._opening()} {self._phase_hint()}")

    def _opening(self) -> str:
        """The first message: the dice seed, or what a self-play log replayed."""
        s = self.session
        head = s.selfplay
        if head is None:
            return f"Dice seed {s.seed_label}."
        return (
            f"Self-play log (scenario {head.scenario}, seed {head.seed}): {len(s.log)} orders "
            f"replayed and checked; s saves to {self.save_path}."
        )

    def say(self, message: str) -> None:
        """Show ``message`` on the second status line."""
        self.status.message = message

    def _sync(self, units: bool = True) -> None:
        """Pass the session's state down after it changed."""
        s = self.session
        state = s.state
        busy = self._busy()
        free = s.setup_kind() == "free"

        def word(uid: str) -> str:
            if free:
                return self._setup_note(uid)
            return "attacking" if uid in self.attackers else "declared" if uid in busy else ""

        notes = {
            u.id: unit_note(u, movement_allowance(s.unit_def(u.id), u), word(u.id))
            for u in state.units
            if u.hex is not None
        }
        panel = self.query_one(SidePanel)
        panel.notes = notes
        panel.selected = self.selected
        panel.header = (
            self.combat_header()
            if self.in_combat()
            else self._setup_header()
            if state.phase in SETUP_PHASES
            else self._arrival_header()
        )
        if units:
            self.set_units(s.units_by_hex())
        else:
            panel.refresh_hex()
        self.status.summary = s.summary()
        d = s.pending()
        self.status.prompt = decision_prompt(d, self.losses) if d is not None else ""
        self.status.set_class(d is not None, "decide")
        self._highlight()
        if state.phase == "game_over" and not self._verdict_shown:
            self._verdict_shown = True
            self.call_after_refresh(self.show_verdict)

    def _highlight(self) -> None:
        if self.in_combat():
            lit = self.combat_highlight()
        elif self.session.state.phase in SETUP_PHASES:
            lit = set(self._setup_reach())
        elif self._drop_pending():
            lit = set(self.session.drop_hexes())
        elif self.session.state.phase == "reinforcement":
            lit = set(self._entry_hexes())
        else:
            lit = self._reach()
        self.map_view.set_highlight(frozenset(lit))

    # -- free set-up (AO-17.b, AO-17.c) ---------------------------------------------------------

    def _free_setup(self) -> bool:
        return self.session.setup_kind() == "free"

    def _setup_case(self) -> str:
        return FREE_SETUP_CASE[self.session.state.side]

    def _setup_reach(self) -> frozenset[HexId]:
        """The hexes the selected unit may be placed in (the engine's own check)."""
        if self.selected is None or not self._free_setup():
            return frozenset()
        return self.session.setup_hexes(self.selected)

    def _setup_note(self, unit: str) -> str:
        line = self.session.front_line_unit(unit)
        if line is None or self.session.unit_def(unit).side != self.session.state.side:
            return ""
        return "front line" if line else "rear"

    def _setup_header(self) -> Text | None:
        if not self._free_setup():
            return None  # a historical set-up (AO-17.a): nothing to choose
        text = Text()
        text.append(f"Free set-up ({self._setup_case()})", "bold")
        text.append("\nfront line: along it\nrear: behind it\none unit a hex\n")
        return text

    def _setup_enter(self, hex_id: HexId) -> None:
        """Enter in a set-up step: place the selected unit on a lit hex, else select a unit
        here (a historical side only hears the hint)."""
        s = self.session
        if not self._free_setup():
            self.say(self._phase_hint())
            return
        if self.selected is not None and hex_id in self._setup_reach():
            self._place_setup(self.selected, hex_id)
            return
        own = s.own_units(hex_id)
        if own:
            if self.selected in own:
                self.action_cycle()
                return
            self._select(own[0])
            return
        if self.selected is not None:
            bad = s.why_not_place(self.selected, hex_id)
            self.say(bad.message if bad is not None else self._phase_hint())
            return
        self.say(f"No unit of yours in {hex_id}")

    def _place_setup(self, unit: str, hex_id: HexId) -> None:
        start = self.session.state.unit(unit).hex
        r = self.session.apply(Place(unit, hex_id))
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self.selected = None
        self._sync()
        self.say(f"{unit} placed {start} -> {hex_id}. Backspace/U undoes, e accepts the set-up")

    def _setup_select_note(self, unit: str) -> str:
        n = len(self._setup_reach())
        where = (
            "along the front line"
            if self.session.front_line_unit(unit)
            else "behind the front line"
        )
        return f"{unit}: {n} hexes lit ({where}). Enter on one places it"

    def _setup_preview(self, hex_id: HexId) -> str:
        unit = self.selected
        assert unit is not None
        if hex_id == self.session.state.unit(unit).hex:
            return f"{unit} is here ({hex_id})"
        bad = self.session.why_not_place(unit, hex_id)
        if bad is not None:
            return bad.message
        return f"Enter places {unit} in {hex_id}"

    # -- reinforcements and the paradrop --------------------------------------------------------

    def _drop_pending(self) -> bool:
        return self.session.drop_required()

    def due(self) -> list[tuple[str, tuple[HexId, ...]]]:
        """``(unit, open entry hexes)`` of the reinforcements that may enter now."""
        return self.session.reinforcements()

    def _placing(self) -> tuple[str, tuple[HexId, ...]] | None:
        due = self.due()
        if not due:
            return None
        for u, hexes in due:
            if u == self.placing:
                return u, hexes
        self.placing = due[0][0]
        return due[0]

    def _entry_hexes(self) -> tuple[HexId, ...]:
        got = self._placing()
        return () if got is None else got[1]

    def _arrival_header(self) -> Text | None:
        s = self.session
        if self._drop_pending():
            uid = paradrop.drop_unit(s.board)
            text = Text()
            text.append("Paradrop (AO-15.a)", "bold")
            text.append(f"\n{uid} drops now: Enter on a lit hex. Die 1-2: it lands (AO-15.b)\n")
            return text
        if s.state.phase != "reinforcement":
            return None
        self._placing()  # the unit marked >
        due = self.due()
        text = Text()
        text.append(f"Reinforcements GT{s.state.turn}", "bold")
        text.append("\n")
        if not due:
            text.append(" none due now\n")
        for u, hexes in due:
            mark = ">" if u == self.placing else " "
            text.append(f"{mark}{u} ({len(hexes)} hexes)\n")
        if due and reinforcements.mandatory(s.state.side):
            text.append("all must enter (AO-14.1A)\n")
        return text

    def _arrival_enter(self, hex_id: HexId) -> None:
        """Enter in the Reinforcement Phase or on the drop: place / drop on ``hex_id``."""
        s = self.session
        if self._drop_pending():
            r = s.apply(Drop(hex_id))
        else:
            got = self._placing()
            if got is None:
                self.say(self._phase_hint())
                return
            r = s.apply(Place(got[0], hex_id))
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self.placing = None
        self._sync()
        self.say(" ".join([*self._event_notes(r), self._phase_hint()]))

    def _reach(self) -> set[HexId]:
        if self.selected is None or self.session.state.phase not in MOVEMENT_PHASES:
            return set()
        here = self.session.state.unit(self.selected).hex
        return {h for h in self.session.legal_moves(self.selected) if h != here}

    def _select(self, unit: str | None) -> None:
        self.selected = unit
        panel = self.query_one(SidePanel)
        panel.selected = unit
        panel.refresh_hex()
        self._highlight()
        if unit is None:
            return
        if self.in_combat():
            return
        if self.session.state.phase in SETUP_PHASES:
            self.say(self._setup_select_note(unit))
            return
        bad = self.session.may_move(unit)
        if bad is not None:
            self.say(f"{unit}: {bad.message}")
            return
        us = self.session.state.unit(unit)
        left = movement_allowance(self.session.unit_def(unit), us) - us.mp_spent
        self.say(
            f"{unit}: {left} MP, {len(self._reach())} hexes lit. Enter on one moves it, r road mode"
        )

    def _phase_hint(self) -> str:
        state = self.session.state
        if state.phase in SETUP_PHASES:
            if self._free_setup():
                return (
                    f"{state.side.capitalize()} free set-up ({self._setup_case()}): Enter "
                    "selects a unit, Enter on a lit hex moves it, e accepts the set-up"
                )
            return f"{state.side.capitalize()} set-up placed (historical): e accepts it"
        if self._drop_pending():
            uid = paradrop.drop_unit(self.session.board)
            return f"{uid} must drop first: Enter on a lit hex (AO-15.a)"
        if state.phase == "reinforcement":
            due = self.due()
            if not due:
                return "Reinforcement Phase: none due now, e ends the phase"
            many = "reinforcements" if len(due) > 1 else "reinforcement"
            return (
                f"{len(due)} {many} due: Enter on a lit entry hex places "
                f"{self.placing or due[0][0]}, Tab picks another, e ends"
            )
        if state.phase in MOVEMENT_PHASES:
            n = len(self.session.movable_units())
            units = "unit may" if n == 1 else "units may"
            return f"{n} {units} move: Enter selects, e ends the phase, ? help"
        if state.phase == "combat":
            return self.combat_hint()
        if state.phase == "game_over":
            return "The game is over"
        return f"{PHASE_NAMES[state.phase]}: not playable yet, e ends the phase"

    def _unconfirm(self) -> None:
        self._confirm_end = False

    # -- the cursor ---------------------------------------------------------------------------

    @on(MapView.CursorMoved)
    def _play_cursor_moved(self, message: MapView.CursorMoved) -> None:
        # MapScreen's own handler shows the hex in the panel and the status line.
        if self._confirm_end:
            self._confirm_end = False
            self.say("End of phase cancelled")
        elif self.in_combat():
            d = self.session.pending()
            if d is None:
                self.say(self.combat_hover(message.hex_id))
        elif self.selected is not None and self.session.state.phase in SETUP_PHASES:
            self.say(self._setup_preview(message.hex_id))
        elif self.selected is not None:
            self.say(self._preview(message.hex_id))
        else:
            self.say(self._hover(message.hex_id))

    def _hover(self, hex_id: HexId) -> str:
        """With nothing selected: what Enter would do here, else the phase's hint."""
        if self._drop_pending() or self.session.state.phase == "reinforcement":
            if hex_id in self.map_view.highlight:
                if self._drop_pending():
                    return f"Enter drops {paradrop.drop_unit(self.session.board)} on {hex_id}"
                return f"Enter places {self.placing} on {hex_id}"
            return self._phase_hint()
        if self.session.state.phase in SETUP_PHASES and self._free_setup():
            own = self.session.own_units(hex_id)
            if own:
                return f"Enter selects {own[0]}"
        if self.session.state.phase in MOVEMENT_PHASES:
            movable = [
                u for u in self.session.own_units(hex_id) if self.session.may_move(u) is None
            ]
            if movable:
                return f"Enter selects {movable[0]}" + (
                    f" (Tab: {len(movable)} may move here)" if len(movable) > 1 else ""
                )
        return self._phase_hint()

    def _preview(self, hex_id: HexId) -> str:
        """What a move of the selected unit to ``hex_id`` would cost, or why it cannot go."""
        unit = self.selected
        assert unit is not None
        us = self.session.state.unit(unit)
        if hex_id == us.hex:
            return f"{unit} is here ({us.hex})"
        reach = self.session.legal_moves(unit).get(hex_id)
        if reach is None:
            return self.session.why_not(unit, hex_id).message
        steps = sum(1 for s in reach.path if s not in (ENTER_ROAD_MODE, LEAVE_ROAD_MODE))
        mode = ", in Road Mode" if reach.road_mode else ""
        hexes = "1 hex" if steps == 1 else f"{steps} hexes"
        return f"{unit} to {hex_id}: {reach.cost} MP, {hexes}{mode}. Enter moves"

    # -- orders -------------------------------------------------------------------------------

    def action_toggle_one(self) -> None:
        """Space: as Enter; in the Combat Phase only the unit marked ``>``, and during an Ex
        loss decision the attacking units in the hex under the cursor."""
        self._unconfirm()
        d = self.session.pending() if self.in_combat() else None
        if d is not None and d.kind == "losses":
            units = loss_units(d)
            for u in self.session.stack(self.map_view.cursor):
                if u in units:
                    self.action_pick(units.index(u) + 1)
            return
        if self.in_combat() and d is None:
            self.combat_enter(one=True)
            return
        self.action_select()

    def action_select(self) -> None:
        """Enter: move the selected unit to a lit hex, else select a unit here; in the Combat
        Phase add/drop units to the attack, or declare it on its target."""
        self._unconfirm()
        s = self.session
        state = s.state
        hex_id = self.map_view.cursor
        if state.phase == "combat":
            d = s.pending()
            if d is not None:
                self.say(decision_prompt(d, self.losses))
            else:
                self.combat_enter()
            return
        if state.phase in SETUP_PHASES:
            self._setup_enter(hex_id)
            return
        if state.phase == "reinforcement" or self._drop_pending():
            self._arrival_enter(hex_id)
            return
        if self.selected is not None and hex_id in self._reach():
            self._move(self.selected, hex_id)
            return
        own = s.own_units(hex_id)
        if own:
            if self.selected in own:
                self.action_cycle()
                return
            movable = [u for u in own if s.may_move(u) is None]
            self._select(movable[0] if movable else own[0])
            return
        if self.selected is not None:
            self.say(s.why_not(self.selected, hex_id).message)
            return
        stack = s.stack(hex_id)
        if stack:
            bad = s.may_move(stack[0])
            self.say(bad.message if bad else f"{stack[0]}: Enter again to select it")
        else:
            self.say(f"No unit of yours in {hex_id}")

    def _move(self, unit: str, hex_id: HexId) -> None:
        path = self.session.path_to(unit, hex_id)
        start = self.session.state.unit(unit).hex
        r = self.session.apply(Move(unit, path))
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self.selected = None
        self._sync()
        cost = self.session.state.unit(unit).mp_spent
        self.say(f"{unit} moved {start} -> {hex_id} ({cost} MP). Backspace/U undoes")

    def action_cycle(self) -> None:
        """Tab: the next unit of the phasing side in the stack under the cursor; in the
        Reinforcement Phase the next reinforcement due."""
        self._unconfirm()
        due = [u for u, _ in self.due()]
        if due:
            i = due.index(self.placing) + 1 if self.placing in due else 0
            self.placing = due[i % len(due)]
            self._sync(units=False)
            self.say(self._phase_hint())
            return
        own = self.session.own_units(self.map_view.cursor)
        if not own:
            self.say(f"No unit of yours in {self.map_view.cursor}")
            return
        i = own.index(self.selected) + 1 if self.selected in own else 0
        self._select(own[i % len(own)])
        if self.in_combat():
            self.say(f"> {self.selected}: Space adds/drops it alone")

    def action_road_mode(self) -> None:
        """r: the selected unit enters or leaves Road Mode where it is (its move)."""
        if self.in_combat():
            raise SkipAction()  # r resolves (action_resolve)
        self._unconfirm()
        unit = self.selected
        if unit is None:
            self.say("Select a unit first (Enter on it)")
            return
        us = self.session.state.unit(unit)
        step = LEAVE_ROAD_MODE if us.road_mode else ENTER_ROAD_MODE
        r = self.session.apply(Move(unit, (step,)))
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self.selected = None
        self._sync()
        now = self.session.state.unit(unit)
        verb = "entered" if now.road_mode else "left"
        self.say(f"{unit} {verb} Road Mode ({now.mp_spent} MP). Backspace/U undoes")

    def action_undo(self) -> None:
        """Backspace/U: take back the last order of this phase."""
        self._unconfirm()
        refusal = self.session.undo_refusal()
        cmd = self.session.undo()
        if cmd is None:
            self.say(refusal)
            return
        self.selected = None
        self._init_combat()
        self._focus_decision()  # back on a decision: ready it again (the losses preselected)
        self._sync()
        if isinstance(cmd, Move):
            back = self.session.state.unit(cmd.unit).hex
            self.say(f"Undone: the move of {cmd.unit} (back in {back})")
        elif isinstance(cmd, Place) and self.session.state.phase in SETUP_PHASES:
            back = self.session.state.unit(cmd.unit).hex
            self.say(f"Undone: the placement of {cmd.unit} (back in {back})")
        elif isinstance(cmd, Place):
            self.say(f"Undone: the placement of {cmd.unit}")
        elif isinstance(cmd, DeclareAttack):
            self.say(f"Undone: the attack on {'+'.join(cmd.defenders)}")
        else:
            self.say(f"Undone: {type(cmd).__name__}")

    def action_deselect(self) -> None:
        """Escape: drop the selection, or the attack being built."""
        self._unconfirm()
        if self.building():
            self.cancel_attack()
            return
        if self.selected is not None:
            self._select(None)
            self.say("Deselected")

    def action_end_phase(self) -> None:
        """e: ask, then (e again) end the phase or accept the set-up."""
        state = self.session.state
        if state.phase == "game_over":
            self.say("The game is over")
            return
        if not self._confirm_end:
            d = self.session.pending()
            if d is not None:
                self.say(decision_prompt(d, self.losses))
                return
            bad = self.combat_end_check()
            drop = paradrop.check_not_pending(
                self.session.board, self.session.state, "the end of the phase"
            )
            if drop is not None and self._drop_pending():
                bad = drop.message
            if bad is not None:
                self.say(bad)
                return
            self._confirm_end = True
            what = (
                f"accept the {state.side.capitalize()} set-up"
                if state.phase in SETUP_PHASES
                else f"end the {state.side.capitalize()} {PHASE_NAMES[state.phase]} Phase"
            )
            self.say(f"Press e again to {what}; any other key cancels")
            return
        self._confirm_end = False
        r = self.session.apply(EndPhase())
        if isinstance(r, Rejection):
            self.say(r.message)
            return
        self.selected = None
        self._init_combat()
        self._sync()
        self.say(" ".join([*self._event_notes(r), self._phase_hint()]))

    def action_save(self) -> None:
        """s: write the command log (JSONL) to :attr:`save_path`."""
        self._unconfirm()
        try:
            self.session.save(self.save_path)
        except OSError as exc:
            self.say(f"Cannot save to {self.save_path}: {exc.strerror}")
            return
        n = len(self.session.log)
        self.say(f"Saved {n} orders to {self.save_path} (ardennes --load {self.save_path})")

    def _event_notes(self, applied: Applied) -> list[str]:
        out: list[str] = []
        for e in applied.events:
            if isinstance(e, PhaseSkipped):
                out.append(f"{PHASE_NAMES[e.phase]} lost ({e.case}).")
            elif isinstance(e, UnitEliminated):
                out.append(f"{e.unit} eliminated ({e.case}).")
            elif isinstance(e, DormantReactivated):
                out.append(f"{e.unit} reactivated.")
            elif isinstance(e, UnitPlaced) and e.case == "AO-15.b":
                out.append(f"{e.unit} lands in {e.hex} (AO-15.b).")
            elif isinstance(e, UnitPlaced) and e.case is not None:
                staging = f", staging: -{e.staging} road hexes" if e.staging else ""
                out.append(f"{e.unit} enters at {e.hex} in Road Mode{staging}.")
            elif isinstance(e, DieRoll) and e.purpose == "paradrop":
                out.append(f"Drop die {e.value}.")
            elif isinstance(e, ReinforcementDelayed):
                out.append(f"{e.unit} delayed to GT{e.turn} (AO-14.1b).")
            elif isinstance(e, VictoryPointsTabulated):
                out.append(f"GT{e.turn} VP: German {e.german}, Allied {e.allied}.")
            elif isinstance(e, GameEnded):
                out.append("The game is over.")
        out += [line + "." for line in combat_log(applied.events) if "CRT roll" in line]
        return out

    def action_combat_log(self) -> None:
        """c: the combat log of the whole game (a modal)."""
        from ardennes_tui.screens.combat_log import CombatLogScreen

        self._unconfirm()
        lines = combat_log(e for events in self.session.events for e in events)
        self.app.push_screen(CombatLogScreen(lines))

    def verdict_text(self) -> str:
        state = self.session.state
        v = state.result
        if v is None:
            return f"Game over after Game-Turn {state.turn}. {self.session.summary()}"
        who = {"german": "The German player wins", "allied": "The Allied player wins"}
        head = who.get(v.winner or "", "A draw")
        return (
            f"{head} ({v.kind}) after Game-Turn {state.turn}.\n"
            f"VP: German {v.german_vp}, Allied {v.allied_vp}.\n{v.reason}"
        )

    def show_verdict(self) -> None:
        from ardennes_tui.screens.combat_log import VerdictScreen

        self.app.push_screen(VerdictScreen(self.verdict_text()))
