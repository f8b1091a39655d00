"""Help (``?``: five sections, scrollable at 80x24, the phase marked, the attack's CRT column
lit), the command palette (Ctrl+P: only the commands valid now), and decisions shown with
what each choice leads to; driven with Pilot at 80x24 on the real map."""

from __future__ import annotations

from rich.text import Text
from textual.command import CommandPalette, SearchIcon
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.modes import CombatMode, DecisionMode
from ardennes_tui.present.help_text import SECTIONS
from ardennes_tui.screens.help import HelpScreen
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.side_panel import SidePanel
from rules import Rejection
from rules.ao import ResolveAttacks
from tests.kit.app import drive, gt1_german_combat, message, mode, press, view_of
from tests.kit.engine import end_phase
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def german_gt1_combat() -> rules.ao.Game:
    """Scenario 1 at the German GT1 Combat Phase, nothing declared (AO-4.2h* in force)."""
    g = saves.new_game(1, "help")
    while g.state.phase != "combat":
        end_phase(g)
    return g


def help_screen(app: ArdennesApp) -> HelpScreen:
    assert isinstance(app.screen, HelpScreen), app.screen
    return app.screen


def top_section(app: ArdennesApp) -> str:
    """The section whose title is nearest above the top of the help's scroll."""
    screen = help_screen(app)
    box = screen.query_one("#help-scroll", VerticalScroll)
    y = box.scroll_y
    seen = [
        sid
        for sid, _, _ in SECTIONS
        if screen.query_one(f"#help-{sid}", Static).virtual_region.y <= y + 1
    ]
    return seen[-1]


def titles(app: ArdennesApp) -> list[str]:
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    return [c.title for c in screen.palette_commands()]


def test_help_sections_are_reached_by_digits_and_scroll() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        await press(pilot, "question_mark")
        assert top_section(app) == "counters"
        for i, (sid, _, _) in enumerate(SECTIONS, 1):
            await press(pilot, str(i))
            assert top_section(app) == sid
        await press(pilot, "home")
        assert top_section(app) == "counters"
        box = help_screen(app).query_one("#help-scroll", VerticalScroll)
        await press(pilot, "pagedown", "j", "down")
        assert box.scroll_y > 0
        await press(pilot, "end")
        assert box.scroll_y == box.max_scroll_y > 100  # far more than a screen, all reachable
        sequence = str(help_screen(app).query_one("#help-sequence-text", Static).content)
        marked = [line for line in sequence.splitlines() if line.startswith(">")]
        assert len(marked) == 1 and "Allied set-up" in marked[0]
        await press(pilot, "q")
        assert isinstance(app.screen, PlayScreen)

    drive(body, session=saves.new_game(1, "help"))


def test_help_opens_at_the_crts_with_the_attacks_column_lit() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        target = s.options().must_be_attacked[0]
        h = s.state.unit(target).hex
        assert h is not None
        view_of(app).cursor = h
        await press(pilot, "a", "full_stop", "enter")
        combat = mode(app, CombatMode)
        p = rules.ao.preview_attack(s.board, s.state, combat.attackers, combat.targets)
        assert isinstance(p, rules.ao.Preview)
        await press(pilot, "question_mark")
        screen = help_screen(app)
        assert (screen.context.table, screen.context.column) == (p.table, p.column)
        assert screen.context.phase == "combat" and top_section(app) == "crt"
        crt = screen.query_one("#help-crt-text", Static).content
        assert isinstance(crt, Text)
        lit = [crt.plain[x.start : x.end].strip() for x in crt.spans if x.style == "reverse"]
        assert lit[0] == p.column and len(lit) == 7  # the column head and its six cells
        await press(pilot, "escape", "minus", "question_mark")  # the odds lowered: lit too
        lowered = help_screen(app).context.column
        assert lowered is not None and lowered != p.column

    drive(body, session=german_gt1_combat())


def test_the_palette_offers_only_what_the_engine_accepts_now() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        offered = titles(app)
        # GT1: the obligatory attacks are not made (AO-4.2h*): no end of phase; nothing
        # declared: nothing to resolve; nothing done: nothing to undo
        assert not any(t.startswith("End the phase") for t in offered)
        assert not any(t.startswith(("Resolve", "Undo", "Declare")) for t in offered)
        assert "Next unit that may act" in offered and "Next lit hex" in offered
        assert "Standing orders (German)" in offered and "Help: keys" in offered
        target = s.options().must_be_attacked[0]
        view_of(app).cursor = s.state.unit(target).hex  # type: ignore[assignment]
        await pilot.pause()
        assert f"Attack {view_of(app).cursor}" in titles(app)
        await press(pilot, "a")
        assert f"Cancel the attack on {view_of(app).cursor}" in titles(app)
        assert not any(t.startswith("Declare") for t in titles(app))  # no attacker yet

        def accepted() -> bool:
            combat = mode(app, CombatMode)
            attack = rules.ao.DeclareAttack(tuple(combat.attackers), tuple(combat.targets))
            return isinstance(rules.ao.check_attack(s.board, s.state, attack), rules.ao.Preview)

        await press(pilot, "full_stop", "enter")  # one stack: GT1 refuses it (AO-4.2h*)
        assert not accepted() and "AO-4.2h*" in message(app)
        assert not any(t.startswith(("Resolve", "Declare")) for t in titles(app))
        while mode(app, CombatMode).actors():  # every neighbour joins
            await press(pilot, "full_stop", "enter")
        assert accepted()
        assert f"Declare the attack on {mode(app, CombatMode).targets[0]}" in titles(app)
        assert "Resolve the attacks (1: the dice roll)" in titles(app)
        assert "Lower the odds" in titles(app) and "Raise the odds" not in titles(app)
        await press(pilot, "minus")
        assert "Raise the odds" in titles(app)

    drive(body, session=german_gt1_combat())


def test_a_command_run_from_the_palette() -> None:
    """Ctrl+P, a few letters, Enter: the phase ends as with ``e`` ``e``."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        assert "Accept the set-up (Set-up)" in titles(app)
        await press(pilot, "ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        assert str(app.screen.query_one(SearchIcon).icon) == ">"  # ASCII, no emoji
        for ch in "accept the":
            await pilot.press("space" if ch == " " else ch)
        for _ in range(5):
            await pilot.pause(0.05)
        await press(pilot, "enter")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, PlayScreen)
        assert s.state.phase == "setup_german", message(app)

    drive(body, session=saves.new_game(1, "help"))


def test_decisions_show_what_each_choice_leads_to() -> None:
    """Seed ``l``: the Ex losses with each unit's strength and the total against the need;
    an advance with the unit and the hexes; retreat paths with their end hex and the supply
    there (seed ``d`` has no retreat decision since issue 22's AO-10.2a ranking). The palette
    offers exactly these choices."""
    g = gt1_german_combat("l")
    assert not isinstance(g.push(ResolveAttacks()), Rejection)

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        panel = app.screen.query_one(SidePanel)
        d = s.options().decision
        assert d is not None and d.kind == "losses"
        first = d.choices[0]
        need = sum(s.board.defs[u].strength for u in first)
        assert f"need {d.need}, ticked {need}: enough" in panel.text
        for u in first:
            assert f"[x] {u} {s.board.defs[u].strength}" in panel.text
        assert "Confirm the losses: " + ", ".join(first) in titles(app)
        assert not any(t.startswith("End the phase") for t in titles(app))
        await press(pilot, "enter")
        d = s.options().decision
        assert d is not None and d.kind == "advance"
        mover = d.choices[0][0]
        assert f"   {s.state.unit(mover).hex} -> {d.hex}" in panel.text
        assert f"Advance {mover} into {d.hex}" in titles(app)
        while (d := s.options().decision) is not None and d.kind == "advance":
            await press(pilot, "0")
        assert d is not None and d.kind == "retreat" and d.unit is not None
        for i, path in enumerate(d.choices, 1):
            assert f"{i}) ends {path[-1]}, supplied" in panel.text
        end = d.choices[1][-1]
        assert f"Retreat {d.unit} by path 2 to {end}, supplied: {'-'.join(d.choices[1])}" in (
            titles(app)
        )
        assert isinstance(app.screen, PlayScreen) and mode(app, DecisionMode)
        await press(pilot, "ctrl+p")
        for ch in "path 2":
            await pilot.press("space" if ch == " " else ch)
        for _ in range(5):
            await pilot.pause(0.05)
        await press(pilot, "enter")
        for _ in range(3):
            await pilot.pause()
        assert s.commands[-1] == rules.ao.ChooseRetreat(d.unit, d.choices[1])

    drive(body, cursor="2328", session=g)
