"""Standing orders in the app (``O``, ``ardennes_tui.screens.orders``): the acting side sets
its own; the command goes through the game (so it is in the record), the panel shows the
orders in force during combat, and the engine then decides for that side instead of asking
(``docs/engine.md``, "Standing orders")."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games import saves
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import orders_lines
from ardennes_tui.screens.orders import OrdersScreen
from ardennes_tui.screens.play_screen import PlayScreen
from ardennes_tui.widgets.side_panel import SidePanel
from rules.ao import DeclareAttack, ImmunityWaived, StandingOrders
from tests.kit.app import drive, game_of, message, press, prompt
from tests.kit.engine import board, make_map, position, unit
from tests.kit.realmap import needs_real_map


def dialog(app: ArdennesApp) -> OrdersScreen:
    screen = app.screen
    assert isinstance(screen, OrdersScreen), screen
    return screen


def lines(app: ArdennesApp) -> list[str]:
    """The dialog's lines, as the player reads them."""
    options = dialog(app).query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def why(app: ArdennesApp) -> str:
    """The line under the list: what the highlighted line means."""
    return str(dialog(app).query_one("#orders-why", Static).content)


def panel_text(app: ArdennesApp) -> str:
    """The side panel's text with its wrapping undone."""
    return " ".join(app.screen.query_one(SidePanel).text.split())


def two_towns() -> rules.ao.Game:
    """A small map in the German Combat Phase: g1 attacks a1 in town A (0301), g2 attacks a2
    in town B (0501): both defenders are immune to Ar/Dr (AO-11.f); two declared attacks."""
    towns = make_map(". . . . . .", towns={"A": "0301", "B": "0501"})
    b = board(
        towns,
        [
            unit("g1", strength=8),
            unit("g2", strength=8),
            unit("a1", "allied"),
            unit("a2", "allied"),
        ],
    )
    places = {"g1": "0201", "a1": "0301", "a2": "0501", "g2": "0601"}
    g = game_of(b, position(places, phase="combat"), seed="orders")
    for attack in (DeclareAttack(("g1",), ("0301",)), DeclareAttack(("g2",), ("0501",))):
        assert not isinstance(g.push(attack), rules.Rejection)
    return g


def test_orders_given_at_a_decision_answer_the_later_attacks() -> None:
    """The first attack asks the Allied player about the immunity of 0301; he opens his
    standing orders instead (O), ticks 0501 and gives them: the pending question is taken by
    the orders (0301 keeps its immunity) and the second attack is not asked: 0501 is waived
    by the orders (AO-11.f*)."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        assert "Standing orders (O) none: every decision is asked" in panel_text(app)
        await press(pilot, "r")
        assert prompt(app).startswith("Allied decision: waive the Ar/Dr immunity in 0301")
        await press(pilot, "O")
        assert lines(app) == [
            "Retreat   (*) engine  ( ) ask",
            "Losses    (*) engine  ( ) ask",
            "Advance   (*) decline  ( ) strongest  ( ) ask",
            "[ ] waive all 2 hexes below",
            "[ ] waive 0301 A",
            "[ ] waive 0501 B",
            "> Give these orders",
            "> Clear the orders: every decision is asked",
        ]
        title = dialog(app).query_one(".title", Static).content
        assert title == "Standing orders: Allied"
        await press(pilot, "down", "down", "down", "down", "down", "enter")
        assert lines(app)[5] == "[x] waive 0501 B"
        assert why(app) == (
            "Waive: an Ar/Dr result retreats your units in 0501 like any other; keep: they "
            "ignore it (AO-11.f*)."
        )
        await press(pilot, "down", "enter")
        assert isinstance(app.screen, PlayScreen)
        orders = StandingOrders(side="allied", waive=("0501",))
        assert orders in s.commands
        assert s.commands[-1] == orders  # the question was never answered by hand
        assert not any(isinstance(c, rules.ao.WaiveImmunity) for c in s.commands)
        waived = [e for e in s.events[-1] if isinstance(e, ImmunityWaived)]
        assert waived == [ImmunityWaived(side="allied", hexes=("0501",))]
        d = s.options().decision
        assert d is None or d.kind != "waive_immunity"
        assert message(app).startswith(
            "Allied standing orders: waive 0501; retreat engine, losses engine, advance decline. "
        )
        orders_line = "Allied: waive 0501; retreat engine, losses engine, advance decline"
        assert orders_lines(s.state) == [orders_line]
        assert f"Standing orders (O) {orders_line}" in panel_text(app)

    drive(body, cursor="0201", session=two_towns())


@needs_real_map
def test_the_acting_side_sets_and_clears_its_orders_in_the_record() -> None:
    """At the Allied set-up the Allied player acts: O lists the towns his units hold; Escape
    changes nothing; Enter cycles a setting; Give pushes ``StandingOrders``, which is in the
    game's record; Clear takes them away."""
    game = saves.new_game(1, "orders")

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        await press(pilot, "O")
        held = game_view.immune_hexes_held(s, "allied")
        assert ("2328", "Bastogne") in held and ("3217", "St. Vith") in held
        assert [x for x in lines(app) if "waive" in x] == [
            f"[ ] waive all {len(held)} hexes below",
            *(f"[ ] waive {h} {w}" for h, w in held),
        ]
        await press(pilot, "escape")
        assert isinstance(app.screen, PlayScreen) and s.history == []
        assert message(app) == "Standing orders unchanged"
        await press(pilot, "O", "enter", "down", "down", "enter", "enter")
        assert lines(app)[:3] == [
            "Retreat   ( ) engine  (*) ask",
            "Losses    (*) engine  ( ) ask",
            "Advance   ( ) decline  ( ) strongest  (*) ask",
        ]
        await press(pilot, "end", "up", "enter")  # Give
        given = StandingOrders(side="allied", retreat="ask", advance="ask")
        assert s.commands == (given,)
        assert message(app) == (
            "Allied standing orders: keep immunity; retreat ask, losses engine, advance ask."
        )
        rec = rules.record.decode(rules.record.encode(s.record()))
        assert rec.commands == (given,)
        # opened again, the dialog shows the orders in force; Clear removes them
        await press(pilot, "O")
        assert lines(app)[0] == "Retreat   ( ) engine  (*) ask"
        await press(pilot, "end", "enter")
        assert s.commands[-1] == StandingOrders(side="allied", clear=True)
        assert s.state.combat.orders("allied") is None
        assert message(app) == "Allied standing orders cleared: every decision is asked."

    drive(body, session=game)


def test_o_in_the_keys_help() -> None:
    from ardennes_tui.present import keymap
    from ardennes_tui.widgets.bindings import bindings

    rows = dict(keymap.help_rows())
    assert rows["O"].startswith("standing orders")
    assert rows["s"].startswith("where the game is saved")
    assert [b.id for b in bindings("play") if b.key == "O"] == ["play.orders"]


def test_waive_all_ticks_every_hex_and_each_line_says_what_it_means() -> None:
    """``waive all`` ticks every immune hex at once (again: unticks them); the line under the
    list explains the highlighted setting."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        await press(pilot, "r", "O")  # the Allied player is asked: his orders
        assert why(app).startswith("When your side wins a combat, the path each beaten")
        await press(pilot, "down")
        assert why(app).startswith("Ex losses of your attackers (AO-10.1b)")
        await press(pilot, "down")
        assert why(app).startswith("After your side wins a combat, one unit may advance")
        await press(pilot, "down", "enter")
        assert lines(app)[3:6] == [
            "[x] waive all 2 hexes below",
            "[x] waive 0301 A",
            "[x] waive 0501 B",
        ]
        await press(pilot, "down", "enter")  # untick 0301: "all" is no longer ticked
        assert lines(app)[3:5] == ["[ ] waive all 2 hexes below", "[ ] waive 0301 A"]
        await press(pilot, "up", "enter", "enter")  # all, then none
        assert [x[:3] for x in lines(app)[3:6]] == ["[ ]"] * 3
        await press(pilot, "enter", "end", "up", "enter")  # all; Give
        assert s.commands[-1] == StandingOrders(side="allied", waive=("0301", "0501"))

    drive(body, cursor="0201", session=two_towns())


def test_by_email_the_orders_never_ask_and_are_never_cleared() -> None:
    """An email game's dialog (``never_ask``): no setting offers ``ask``, no Clear line, and
    orders that asked are shown as the engine's."""

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        asked = rules.ao.Orders(retreat="ask", losses="ask", advance="ask")
        app.push_screen(OrdersScreen("allied", [("0301", "A")], asked, never_ask=True))
        await pilot.pause()
        assert lines(app) == [
            "Retreat   (*) engine",
            "Losses    (*) engine",
            "Advance   (*) decline  ( ) strongest",
            "[ ] waive 0301 A",
            "> Give these orders",
        ]
        text = str(dialog(app).query_one("#orders-intro", Static).content)
        assert "By email the engine answers every choice: no setting asks." in text
        await press(pilot, "enter", "down", "down", "enter")
        assert lines(app)[:3] == [
            "Retreat   (*) engine",
            "Losses    (*) engine",
            "Advance   ( ) decline  (*) strongest",
        ]

    drive(body, cursor="0201", session=two_towns())


async def _dialog_text(app: ArdennesApp, pilot: Pilot[None]) -> str:
    """Every word the dialog shows: its title, intro, lines, key hint, and the line under the
    list for each of its lines in turn (Down walks them; Home comes back)."""
    d = dialog(app)
    shown = [str(w.content) for w in d.query(Static)] + lines(app)
    for _ in range(d.query_one(OptionList).option_count):
        shown.append(why(app))
        await press(pilot, "down")
    await press(pilot, "home")
    return "\n".join(shown)


@pytest.mark.parametrize("by_email", [True, False])
def test_every_hint_of_the_dialog_says_what_its_keys_do(by_email: bool) -> None:
    """Issue 21, item 14: the hint under the dialog offered "End: Give, Clear" by email, where
    no Clear exists, and each setting's meaning offered "ask" there too. Each hint now says
    only what this dialog has: by email End goes to Give and Enter gives the orders; in
    hot-seat play End goes to Clear and Enter clears them; Escape gives nothing."""
    from ardennes_tui.screens.orders import PROPOSED, SEALED_WHY

    answers: list[rules.ao.StandingOrders | None] = []

    async def body(app: ArdennesApp, pilot: Pilot[None], s: rules.ao.Game) -> None:
        def open_dialog() -> None:
            immune = [("0301", "A"), ("0501", "B")]
            why_given = SEALED_WHY if by_email else ""
            made = OrdersScreen("allied", immune, PROPOSED, never_ask=by_email, why=why_given)
            app.push_screen(made, answers.append)

        open_dialog()
        await pilot.pause()
        hint = str(dialog(app).query_one("#orders-hint", Static).content)
        text = await _dialog_text(app, pilot)
        if by_email:
            assert hint == "Enter: change a line, or give; End: Give; Escape: cancel"
            assert "clear" not in text.lower() and "ask:" not in text and "( ) ask" not in text
            assert "Give them (End, Enter)." in text  # SEALED_WHY: what End, Enter do
            assert "engine: the best-ranked path (AO-10.2a)." in text
            assert "decline: none; strongest: your strongest eligible unit." in text
        else:
            assert hint == "Enter: change a line, give or clear; End: Clear; Escape: cancel"
            assert "engine: the best-ranked path (AO-10.2a); ask: you pick it." in text
            assert "strongest: your strongest eligible unit; ask: you pick." in text
            assert "> Clear the orders: every decision is asked" in text
        await press(pilot, "escape")
        assert answers == [None]
        open_dialog()
        await pilot.pause()
        await press(pilot, "end")
        last = dialog(app).query_one(OptionList).highlighted_option
        assert last is not None and last.id == ("give" if by_email else "clear")
        await press(pilot, "enter")
        assert answers[1] == (
            StandingOrders(side="allied", retreat="engine", losses="engine", advance="strongest")
            if by_email
            else StandingOrders(side="allied", clear=True)
        )

    drive(body, cursor="0201", session=two_towns())
