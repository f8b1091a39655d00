"""Hot-seat play of the movement phases, driven headless with Pilot at 80x24 on the real map
and scenario 1: set-ups, the German GT1 Mechanized Movement Phase, undo, road mode, refusals,
the Allied player-turn, and a foot unit in the German GT2 Initial Movement Phase."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.modes import CombatMode, DecisionMode, ReinforcementMode
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import decision_prompt
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.side_panel import SidePanel
from ardennes_tui.widgets.status_line import StatusLine
from ardennes_tui.widgets.text_box import TextBox
from rules import Rejection
from rules import record as game_record
from rules.ao import Advance, ChooseLosses, ChooseRetreat, reinforcements
from tests.kit.app import (
    RepaintSpy,
    drive,
    end_phases,
    game_of,
    message,
    mode,
    notice,
    press,
    prompt,
    view_of,
)
from tests.kit.engine import scenario_gt1_german_combat
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def gt1_unmet(g: rules.ao.Game) -> tuple[list[str], list[str]]:
    """The GT1 German obligations still to meet (AO-4.2h*): American units, German units."""
    o = g.options()
    return list(o.must_be_attacked), list(o.must_attack)


def replayed(g: rules.ao.Game) -> rules.ao.Game:
    """``g``'s record encoded, decoded and replayed from ``g``'s start (the engine's check)."""
    rec = game_record.decode(game_record.encode(g.record()))
    again = game_of(g.board, g.start, g.dice_spec.text or "")
    for cmd in rec.commands:
        assert not isinstance(again.push(cmd), Rejection)
    return again


def status(app: ArdennesApp) -> str:
    return app.screen.query_one(StatusLine).plain


async def place_all(pilot: Pilot[None], s: rules.ao.Game) -> None:
    """Place every reinforcement due by keys (AO-4.1b): ``]`` to the next lit entry hex, Enter."""
    for _ in range(40):
        if not s.options().reinforcements:
            return
        await press(pilot, "right_square_bracket", "enter")
    raise AssertionError("reinforcements left unplaced")


async def select(app: ArdennesApp, pilot: Pilot[None], unit: str, hex_id: str) -> None:
    """Put the cursor on ``hex_id`` and select ``unit`` there (Esc, Enter, Tab through); with
    a unit selected, Enter on a lit hex would move it there instead."""
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    await press(pilot, "escape")
    view_of(app).cursor = hex_id
    await press(pilot, "enter")
    for _ in range(6):
        if screen.selected == unit:
            return
        await press(pilot, "tab")
    raise AssertionError(f"{unit} not selectable in {hex_id}")


SEED = "ardennes-test-1"
"""The dice seed of the Pilot games (``ardennes --seed``): the same dice every run."""


async def answer_decisions(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> list[str]:
    """Answer every pending decision with the keys (keep immunity, the offered losses, the
    first retreat path, no advance); the prompts seen."""
    prompts: list[str] = []
    for _ in range(60):
        d = s.options().decision
        if d is None:
            return prompts
        line = prompt(app)
        prompts.append(line)
        assert line == decision_prompt(d, list(d.choices[0]) if d.kind == "losses" else ())
        key = {"waive_immunity": "n", "losses": "enter", "retreat": "1", "advance": "0"}[d.kind]
        await press(pilot, key)
    raise AssertionError("decisions do not end")


@pytest.mark.rule("AO-4.2a")
@pytest.mark.rule("AO-4.2c")
@pytest.mark.rule("AO-4.2h*")
@pytest.mark.rule("AO-9.4L*")
@pytest.mark.rule("AO-4.2f")
@pytest.mark.rule("AO-5.1E")
def test_gt1_combat_and_the_turn_played_through_the_ui() -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        panel = app.screen.query_one(SidePanel)
        assert status(app).startswith(" GT1 16 Dec | Allied | Set-up | VP German 0, Allied 0  4009")
        assert "e accepts it" in message(app)
        # Enter does not select in set-up; e asks, a cursor move cancels, e e accepts
        await press(pilot, "enter")
        assert screen.selected is None
        await press(pilot, "e")
        assert message(app).startswith("Press e again to accept the Allied set-up")
        await press(pilot, "h", "l")
        assert str(s.state.phase) == "setup_allied"  # str: no narrowing across the awaits
        await end_phases(pilot, 2)
        assert game_view.summary(s) == "GT1 16 Dec | German | Reinforcement | VP German 0, Allied 0"
        await press(pilot, "right_square_bracket", "enter")  # de-1-a placed (AO-4.2b)
        await end_phases(pilot, 2)  # Supply Judgment; Initial Movement lost: Combat
        assert "Initial Movement Phase lost (AO-4.2c)" in notice(app)
        assert s.state.phase == "combat"
        # the obligatory attacks (AO-4.2h*) are listed, lit, and e is refused until made
        us_left, de_left = gt1_unmet(s)
        assert len(us_left) == 10 and len(de_left) == 15
        assert "GT1 must (AO-4.2h*)" in panel.text and "us-109-i" in panel.text
        assert view.highlight == {s.state.unit(u).hex for u in us_left}
        await press(pilot, "e")
        assert message(app).startswith("AO-4.2h*") and s.state.phase == "combat"
        # a on an American unit starts an attack, Enter on each German neighbour adds it
        m = s.board.game_map
        for n, target in enumerate(us_left):
            h = s.state.unit(target).hex
            assert h is not None
            view.cursor = h
            await press(pilot, "a")
            assert mode(app, CombatMode).targets == [h]
            germans = sorted(
                {
                    x
                    for nb in m.neighbours(h)
                    for x in game_view.own_units(s, nb)
                    if not s.state.unit(x).attacked
                    and x not in {u for a in s.state.combat.declared for u in a.attackers}
                }
            )
            for g in germans:
                view.cursor = s.state.unit(g).hex  # type: ignore[assignment]
                await press(pilot, "enter")
            assert sorted(mode(app, CombatMode).attackers) == germans
            p = rules.ao.preview_attack(s.board, s.state, germans, [h])
            assert isinstance(p, rules.ao.Preview)
            shown = f"{p.attack} vs {p.defence} = {p.column}"
            assert shown in panel.text and message(app).startswith(
                f"{shown} ({p.table.capitalize()} CRT"
            )
            assert "GT1 x3" in panel.text  # the German attack is tripled (AO-4.2d)
            if n == 0:
                # - lowers the odds; the German floor at 2-1 is the engine's (AO-9.4L*)
                for _ in range(9):
                    await press(pilot, "minus")
                    if "AO-9.4L*" in message(app):
                        break
                assert message(app).startswith("AO-9.4L*: the German player may not reduce")
                assert mode(app, CombatMode).odds_asked == "2-1"
                await press(pilot, "plus")
                assert mode(app, CombatMode).odds_asked in (None, "3-1")
                await press(pilot, *(["plus"] * 9))
                assert mode(app, CombatMode).odds_asked is None and "only be lowered" in message(
                    app
                )
            view.cursor = h
            await press(pilot, "enter")  # on the target: declare
            assert len(s.state.combat.declared) == n + 1, message(app)
            assert f"{n + 1} in the batch" in message(app)
        assert gt1_unmet(s) == (us_left, de_left)  # declared, not yet resolved
        # backspace takes back a declaration; Enter declares it again
        last = s.commands[-1]
        await press(pilot, "backspace")
        assert (
            message(app).startswith("Undone: the attack on") and len(s.state.combat.declared) == 9
        )
        assert s.push(last) and len(s.state.combat.declared) == 10
        # r resolves the batch with the game's dice; each decision is asked in the status
        dice_before = s.state.dice_drawn
        await press(pilot, "r")
        assert s.state.dice_drawn > dice_before
        assert " CRT: die " in message(app) or prompt(app)
        await answer_decisions(app, pilot, s)
        assert s.state.combat.declared == () and s.options().decision is None
        assert gt1_unmet(s) == ([], [])
        # no re-roll: undo takes back choices made after the last roll, and stops there
        for _ in range(10):
            await press(pilot, "backspace")
            if not message(app).startswith("Undone: "):
                break
        assert message(app) == "The dice have rolled: that cannot be undone"
        await answer_decisions(app, pilot, s)
        assert s.options().decision is None and gt1_unmet(s) == ([], [])
        # the combat log lists the ten attacks
        await press(pilot, "c")
        log = app.screen.query_one("#log-text", TextBox).source
        assert log.count(" CRT: die ") == 10
        await press(pilot, "escape")
        assert app.screen is screen
        vp = s.state.vp
        assert vp.german + vp.allied > 0
        await end_phases(pilot, 1)
        assert status(app).startswith(" GT1 16 Dec | German | Mechanized Movement | VP ")
        assert "units may move" in message(app)
        # through the Allied player-turn (its Combat Phase too) to GT2
        await end_phases(pilot, 3)
        assert game_view.summary(s).startswith("GT1 16 Dec | Allied | Combat")
        assert "a on an enemy hex (lit) starts an attack" in message(app)
        await end_phases(pilot, 1)
        assert game_view.summary(s).startswith("GT1 16 Dec | Allied | Mechanized Movement"), (
            message(app)
        )
        await press(pilot, "backspace")
        assert message(app) == "Nothing to undo in this phase"
        await end_phases(pilot, 1)
        await place_all(pilot, s)
        await end_phases(pilot, 2)
        assert game_view.summary(s).startswith("GT2 17 Dec | German | Initial Movement | VP "), (
            message(app)
        )
        assert f"VP German {s.state.vp.german}, Allied {s.state.vp.allied}" in status(app)
        # von der Heydte drops first (AO-15.a): the drop hexes are lit, Enter drops, one die
        assert message(app).endswith("de-vdh must drop first: Enter on a lit hex (AO-15.a)")
        drops = s.options().drop_hexes
        assert view.highlight == set(drops) and "Paradrop (AO-15.a)" in panel.text
        await press(pilot, "e")
        assert message(app).startswith("AO-15.a: de-vdh must drop")
        view.cursor = drops[len(drops) // 2]
        await pilot.pause()
        assert message(app) == f"Enter drops de-vdh on {view.cursor}"
        await press(pilot, "enter")  # the hex is named: then the die (AO-15.b)
        hexid = view.cursor
        assert message(app) == (
            f"The drop on {hexid}: Enter or r rolls for survival, 1-2 lands (AO-15.b)"
        )
        assert view.highlight == {hexid} and "Paradrop (AO-15.b)" in panel.text
        await press(pilot, "enter")
        assert notice(app).startswith("Drop die ")
        die = int(notice(app).split()[2].rstrip("."))
        vdh = s.state.unit("de-vdh")
        assert (vdh.status == "on_map") == (die in (1, 2))
        # a foot unit moves in the Initial Movement Phase
        foot = next(
            u
            for u in s.options().movable
            if not s.board.defs[u].mechanized and len(s.legal_moves(u)) > 3
        )
        start = s.state.unit(foot).hex
        assert start is not None
        await select(app, pilot, foot, start)
        dest, reach = sorted(s.legal_moves(foot).items())[0]
        view.cursor = dest
        await pilot.pause()
        assert f": {reach.cost} MP, " in message(app)
        await press(pilot, "enter")
        assert s.state.unit(foot).hex == dest
        # the whole game replays from its saved log, with its seed, to the same state
        again = replayed(s)
        assert again.dice_spec.text == SEED and again.state_hash() == s.state_hash()

    drive(body, session=saves.new_game(1, SEED))


def test_cursor_move_with_a_unit_selected_repaints_two_hexes_only(tmp_path: Path) -> None:
    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        await end_phases(pilot, 1)  # from the German GT1 Combat Phase (AO-4.2h* lifted)
        view = view_of(app)
        view.cursor = "3627"
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.selected == "de-130-a"
        assert len(view.highlight) == 139  # bridges across the start line interdicted (AO-13.1A)
        await pilot.pause()
        spy = RepaintSpy(view)
        offset = view.scroll_offset
        await press(pilot, "h")
        assert view.cursor == "3527" and "3527" in view.highlight
        assert view.scroll_offset == offset
        assert [(r.width, r.height) for r in spy.regions] == [(11, 5)]
        assert 0 < len(spy.rendered) <= 10 and len(set(spy.rendered)) <= 5
        assert "MP" in message(app)
        # deselecting repaints the lit hexes' rectangles only (those on screen)
        spy.clear()
        await press(pilot, "escape")
        assert view.highlight == frozenset()
        assert spy.regions and all(r.height == 5 and r.width <= 7 for r in spy.regions)
        # s s exports the orders; --load replays them
        await press(pilot, "l", "enter", "h", "enter")
        assert s.state.unit("de-130-a").hex == "3527"
        screen.save_path = tmp_path / "game.jsonl"
        await press(pilot, "s")
        assert message(app) == (
            f"This game is not kept in the store; s again exports a copy to {screen.save_path}"
        )
        assert not screen.save_path.exists()
        await press(pilot, "s")
        assert (
            message(app)
            == f"Saved 2 orders to {screen.save_path} (ardennes --load {screen.save_path})"
        )
        # a long message wraps in the message area; the position line stays on top
        first, *lines = status(app).splitlines()
        assert first.startswith(" GT1 16 Dec | German | Mechanized Movement")
        assert lines[0] == " Saved 2 orders to" and len(lines) >= 3
        # the game started past the GT1 German attacks, so replay from its own start
        rec = game_record.decode(screen.save_path.read_bytes())
        assert rec.header.dice == s.dice_spec and rec.header.scenario == 1
        assert rec.commands == s.commands and rec.footer is not None
        assert replayed(s).state_hash() == s.state_hash() == rec.footer.hash

    drive(body, session=game_of(*scenario_gt1_german_combat(1)))


def test_load_refuses_a_bad_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"end_phase"}\n{"type":"move","unit":"de-12ss-a","path":["3909"]}\n')
    with pytest.raises(ValueError, match="the header is not a record line"):
        saves.load_game(bad)
    bad.write_text("not json\n")
    with pytest.raises(ValueError, match="the header is not a record line"):
        saves.load_game(bad)
    with pytest.raises(ValueError, match="cannot read"):
        saves.load_game(tmp_path / "missing.jsonl")


def test_combat_decisions_answered_with_the_keys() -> None:
    """Seed ``d``: the batch asks for Ex losses (1-9 toggle, Enter confirms), an advance
    (1-9 picks the unit) and retreat paths (1-9 picks the path, lit on the map)."""
    from tests.kit.app import gt1_german_combat

    s = gt1_german_combat("l")  # losses, advances, then a retreat of three paths to pick

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        panel = app.screen.query_one(SidePanel)
        assert "Batch: 10 declared" in panel.text
        await press(pilot, "r")
        d = s.options().decision
        assert d is not None and d.kind == "losses" and d.side == "german"
        assert prompt(app).startswith(f"German: choose Ex losses (need {d.need}): 1-9 toggle")
        assert screen.status.has_class("decide")
        assert " CRT: die " in message(app)  # the result stays visible under the question
        units = sorted({u for c in d.choices for u in c})
        assert mode(app, DecisionMode).losses == list(d.choices[0])
        assert f"1) [x] {units[0]}" in panel.text or f"1) [ ] {units[0]}" in panel.text
        # digits toggle the listed units (not the map's keypad cursor keys meanwhile)
        cursor = view.cursor
        for u in list(mode(app, DecisionMode).losses):
            await press(pilot, str(units.index(u) + 1))
        assert mode(app, DecisionMode).losses == [] and view.cursor == cursor
        await press(pilot, "enter")
        assert message(app) == "Choose at least one unit (1-9), then Enter"
        await press(pilot, str(units.index(d.choices[-1][0]) + 1))
        for u in d.choices[-1][1:]:
            await press(pilot, str(units.index(u) + 1))
        assert mode(app, DecisionMode).losses == list(d.choices[-1])
        await press(pilot, "enter")
        assert s.commands[-1] == ChooseLosses(tuple(d.choices[-1]))
        d = s.options().decision
        assert d is not None and d.kind == "advance"
        assert prompt(app).startswith(f"German: advance into {d.hex}: key")
        assert view.highlight == {d.hex} and view.cursor == d.hex
        await press(pilot, "1")
        assert s.commands[-1:] == (Advance(d.hex, d.choices[0][0]),)  # a slice: no narrowing
        while (d := s.options().decision) is not None and d.kind == "advance":
            await press(pilot, "0")
            assert s.commands[-1] == Advance(d.hex)  # type: ignore[arg-type]
        assert d is not None and d.kind == "retreat" and len(d.choices) == 3
        assert prompt(app).startswith(f"German (victor) picks the retreat of {d.unit}: keys 1-3")
        assert view.highlight == {h for p in d.choices for h in p}
        assert f"2) ends {d.choices[1][-1]}, supplied" in panel.text
        await press(pilot, "2")
        assert s.commands[-1] == ChooseRetreat(d.unit, d.choices[1])  # type: ignore[arg-type]
        await answer_decisions(app, pilot, s)
        assert s.options().decision is None and not screen.status.has_class("decide")
        assert prompt(app) == ""
        # no decision pending: the digits move the cursor again (keypad)
        before = view.cursor
        await press(pilot, "6")
        assert view.cursor != before

    drive(body, session=s)


def test_reinforcements_placed_on_lit_entry_hexes() -> None:
    """The Allied GT2 Reinforcement Phase: the due units are listed, Tab picks one, its entry
    hexes are lit, Enter places it (Road Mode), and the phase cannot end with units left."""
    from tests.kit.app import allied_gt2_reinforcements

    s = allied_gt2_reinforcements()

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        panel = app.screen.query_one(SidePanel)
        due = mode(app, ReinforcementMode).due()
        assert len(due) == 10 and "Reinforcements GT2" in panel.text
        first, entries = due[0]
        assert f">{first} ({len(entries)} hexes)" in panel.text
        section = dict(reinforcements.due(s.board, s.state, "allied", 2))[first]
        assert entries == reinforcements.entry_hexes(s.board, s.state, "allied", section)
        assert view.highlight == set(entries)
        await press(pilot, "tab")
        assert mode(app, ReinforcementMode).placing == due[1][0] and f">{due[1][0]}" in panel.text
        await press(pilot, "tab", *(["tab"] * 8))
        assert mode(app, ReinforcementMode).placing == first
        # e: the engine refuses while Allied units are due (AO-14.1A)
        await end_phases(pilot, 1)
        assert message(app).startswith("AO-14.1A: Allied reinforcements may not be delayed")
        view.cursor = "2328"
        await press(pilot, "enter")
        assert message(app).startswith("AO-14.1A: 2328 is not an entry hex")
        view.cursor = entries[0]
        await pilot.pause()
        assert message(app) == f"Enter places {first} on {entries[0]}"
        await press(pilot, "enter")
        us = s.state.unit(first)
        assert (us.hex, us.status, us.road_mode) == (entries[0], "on_map", True)
        assert notice(app).startswith(f"{first} enters at {entries[0]} in Road Mode")
        assert (
            len(mode(app, ReinforcementMode).due()) == 9
            and mode(app, ReinforcementMode).placing == due[1][0]
        )
        await press(pilot, "backspace")
        assert (
            message(app) == f"Undone: the placement of {first}"
            and len(mode(app, ReinforcementMode).due()) == 10
        )

    drive(body, session=s)


@pytest.mark.parametrize(("key", "waived"), [("y", ("0301",)), ("n", ())])
def test_the_defender_answers_the_town_immunity_question(key: str, waived: tuple[str, ...]) -> None:
    """On a small map: the Allied player is asked, before the die, whether to waive the town
    immunity of his unit (AO-11.f*); ``y`` waives, ``n`` keeps it (not the cursor keys)."""
    from rules.ao.commands import WaiveImmunity
    from tests.kit.engine import board, make_map, position, unit

    town = make_map(". . . . . .", towns={"Town": "0301"})
    b = board(town, [unit("g", strength=8), unit("a", "allied")])
    s = game_of(b, position({"g": "0201", "a": "0301"}, phase="combat"), seed="waive")

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        view.cursor = "0301"
        await press(pilot, "a")
        view.cursor = "0201"
        await press(pilot, "enter")
        assert mode(app, CombatMode).attackers == ["g"]
        assert "def 0301: immune to Ar/Dr" in app.screen.query_one(SidePanel).text
        await press(pilot, "r")
        assert prompt(app) == (
            "Allied decision: waive the Ar/Dr immunity in 0301 (AO-11.f*)? y waives, n keeps"
        )
        assert s.state.dice_drawn == 0  # asked before the die
        assert view.cursor == "0301" and view.highlight == {"0301"}
        await press(pilot, key)
        assert s.commands[-1] == WaiveImmunity(waived) and view.cursor == "0301"
        assert s.state.dice_drawn == 1 and " CRT: die " in message(app)

    drive(body, cursor="0201", session=s)


@pytest.mark.rule("AO-11.f*")
@pytest.mark.parametrize(("presses", "waive"), [(1, ("0201",)), (2, ()), (0, ())])
def test_the_attacker_waives_his_town_immunity_with_w(presses: int, waive: tuple[str, ...]) -> None:
    """On a small map: the German attacks out of a town; ``w`` toggles waiving the town's
    immunity in the attack being built (shown in the odds line and the panel), and the
    declaration carries it (``DeclareAttack.waive``)."""
    from rules.ao.commands import DeclareAttack
    from tests.kit.engine import board, make_map, position, unit

    town = make_map(". . . . . .", towns={"Town": "0201"})
    b = board(town, [unit("g", strength=8), unit("a", "allied")])
    s = game_of(b, position({"g": "0201", "a": "0301"}, phase="combat"), seed="waive")

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        view = view_of(app)
        view.cursor = "0301"
        await press(pilot, "a")
        view.cursor = "0201"
        await press(pilot, "enter")
        assert mode(app, CombatMode).attackers == ["g"]
        assert message(app).endswith("Enter on 0301 declares, -/+ odds, w: waive immunity")
        panel = app.screen.query_one(SidePanel)
        assert "att Town: immune to Ar (w waives)" in " ".join(panel.text.split())
        for _ in range(presses):
            await press(pilot, "w")
        waived = "attackers in Town waive immunity (AO-11.f*)"
        assert (waived in message(app)) == bool(waive)
        assert ("att Town: Ar immunity waived" in " ".join(panel.text.split())) == bool(waive)
        view.cursor = "0301"
        await press(pilot, "enter")  # declare
        assert s.commands[-1] == DeclareAttack(("g",), ("0301",), waive=waive)
        assert s.state.combat.declared[0].waive == waive

    drive(body, cursor="0201", session=s)


@pytest.mark.rule("AO-11.f*")
def test_w_offers_nothing_when_no_attacker_is_immune() -> None:
    from rules.ao.commands import DeclareAttack
    from tests.kit.engine import board, make_map, position, unit

    town = make_map(". . . . . .", towns={"Town": "0301"})  # only the defender is immune
    b = board(town, [unit("g", strength=8), unit("a", "allied")])
    s = game_of(b, position({"g": "0201", "a": "0301"}, phase="combat"), seed="waive")

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await press(pilot, "w")
        assert message(app) == "w waives the attackers' immunity of an attack being built"
        view = view_of(app)
        view.cursor = "0301"
        await press(pilot, "a")
        view.cursor = "0201"
        await press(pilot, "enter")
        assert "w: waive" not in message(app)
        await press(pilot, "w")
        assert message(app) == (
            "No attacker of this attack is immune to Ar: nothing to waive (AO-11.f*)"
        )
        assert mode(app, CombatMode).waived is False
        view.cursor = "0301"
        await press(pilot, "enter")
        assert s.commands[-1] == DeclareAttack(("g",), ("0301",))

    drive(body, cursor="0201", session=s)
