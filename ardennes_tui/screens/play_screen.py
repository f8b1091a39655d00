"""The play screen: hot-seat play of the movement phases on the map viewer.

The screen owns the :class:`~ardennes_tui.session.GameSession`; the widgets only show what it
passes down (units per hex, the highlighted reach, unit notes, the status text). Orders go
through the session, so whatever the engine refuses is shown with its rule case.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.binding import BindingType

from ardennes_tui import keymap
from ardennes_tui.screens.map_screen import MapScreen
from ardennes_tui.session import PHASE_NAMES, GameSession
from ardennes_tui.widgets.map_view import MapView, Zoom
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from rules.commands import ENTER_ROAD_MODE, LEAVE_ROAD_MODE, EndPhase, Move, Place
from rules.engine import Applied
from rules.events import DormantReactivated, PhaseSkipped, UnitEliminated
from rules.hexgrid import HexId
from rules.movement import movement_allowance
from rules.rejection import Rejection
from rules.state import MOVEMENT_PHASES, UnitState


def unit_note(us: UnitState, ma: int) -> str:
    """Status words of a unit for the side panel, e.g. ``road, moved, 4/10 MP``."""
    words: list[str] = []
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
    return ", ".join(words)


class PlayScreen(MapScreen):
    """Select a unit (Enter), see where it can go, move it (Enter), undo, end the phase."""

    BINDINGS: ClassVar[list[BindingType]] = keymap.bindings("play")  # type: ignore[assignment]

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
        self.save_path = save_path or Path(f"ardennes-s{session.state.scenario}.jsonl")
        """Where ``s`` writes the command log (``ardennes --load FILE`` replays it)."""
        self.selected: str | None = None
        self._confirm_end = False

    # -- plumbing -----------------------------------------------------------------------------

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def on_mount(self) -> None:
        super().on_mount()
        self.status.add_class("play")
        self._sync(units=False)
        self.say(self._phase_hint())

    def say(self, message: str) -> None:
        """Show ``message`` on the second status line."""
        self.status.message = message

    def _sync(self, units: bool = True) -> None:
        """Pass the session's state down after it changed."""
        s = self.session
        state = s.state
        notes = {
            u.id: unit_note(u, movement_allowance(s.unit_def(u.id), u))
            for u in state.units
            if u.hex is not None
        }
        panel = self.query_one(SidePanel)
        panel.notes = notes
        panel.selected = self.selected
        if units:
            self.set_units(s.units_by_hex())
        else:
            panel.refresh_hex()
        self.status.summary = s.summary()
        self._highlight()

    def _highlight(self) -> None:
        reach = self._reach()
        self.map_view.set_highlight(frozenset(reach))

    def _reach(self) -> set[HexId]:
        if self.selected is None:
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
        if state.phase in ("setup_allied", "setup_german"):
            return (
                f"{state.side.capitalize()} set-up: the historical set-up is placed. e accepts it"
            )
        if state.phase in MOVEMENT_PHASES:
            n = len(self.session.movable_units())
            return f"{n} units may move: Enter selects, e ends the phase, ? help"
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
        elif self.selected is not None:
            self.say(self._preview(message.hex_id))
        else:
            self.say(self._hover(message.hex_id))

    def _hover(self, hex_id: HexId) -> str:
        """With nothing selected: what Enter would do here, else the phase's hint."""
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

    def action_select(self) -> None:
        """Enter/space: move the selected unit to a lit hex, else select a unit here."""
        self._unconfirm()
        s = self.session
        state = s.state
        hex_id = self.map_view.cursor
        if state.phase in ("setup_allied", "setup_german"):
            self.say(self._phase_hint())
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
        """Tab: the next unit of the phasing side in the stack under the cursor."""
        self._unconfirm()
        own = self.session.own_units(self.map_view.cursor)
        if not own:
            self.say(f"No unit of yours in {self.map_view.cursor}")
            return
        i = own.index(self.selected) + 1 if self.selected in own else 0
        self._select(own[i % len(own)])

    def action_road_mode(self) -> None:
        """r: the selected unit enters or leaves Road Mode where it is (its move)."""
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
        cmd = self.session.undo()
        if cmd is None:
            self.say("Nothing to undo in this phase")
            return
        self.selected = None
        self._sync()
        if isinstance(cmd, Move):
            back = self.session.state.unit(cmd.unit).hex
            self.say(f"Undone: the move of {cmd.unit} (back in {back})")
        elif isinstance(cmd, Place):
            self.say(f"Undone: the placement of {cmd.unit}")
        else:  # pragma: no cover - EndPhase is never undone
            self.say("Undone")

    def action_deselect(self) -> None:
        """Escape: drop the selection."""
        self._unconfirm()
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
            self._confirm_end = True
            what = (
                f"accept the {state.side.capitalize()} set-up"
                if state.phase in ("setup_allied", "setup_german")
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
        return out
