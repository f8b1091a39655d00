"""The standing orders dialog (``O``): how the engine decides for a side when the enemy's
combat needs its choice (``rules.StandingOrders``, ``docs/engine.md``, "Standing orders").

The side that acts sets its own orders: which of its immune hexes waive their immunity to
Ar/Dr (AO-11.f*; every other immune hex keeps it), and for retreats, Ex losses and advances
whether the engine decides (the first choice offered; ``strongest``: the strongest unit
advances) or the player is asked. The dialog holds these choices as view state only and is
dismissed with the command (``Give``, ``Clear``) or None (Escape); the play screen pushes the
command through the game, so the orders are in the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

import rules
from ardennes_tui.combat_text import side_name

Retreat = Literal["engine", "ask"]
Advance = Literal["decline", "strongest", "ask"]

RETREATS: Final[tuple[Retreat, ...]] = ("engine", "ask")
ADVANCES: Final[tuple[Advance, ...]] = ("decline", "strongest", "ask")


def choice_line(label: str, values: Sequence[str], current: str) -> str:
    """``Retreat   (*) engine  ( ) ask``: one setting and its values, the current one ticked."""
    marks = "  ".join(f"({'*' if v == current else ' '}) {v}" for v in values)
    return f"{label:<9} {marks}"


class OrdersScreen(ModalScreen[rules.StandingOrders | None]):
    """``side``'s standing orders: ``immune`` lists the hexes it may waive (hex, what makes it
    immune), ``current`` its orders in force (None: every decision is asked)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="orders.cancel"),
    ]

    def __init__(
        self,
        side: rules.Side,
        immune: Sequence[tuple[rules.HexId, str]],
        current: rules.Orders | None,
    ) -> None:
        super().__init__()
        self.side: rules.Side = side
        self.immune = list(immune)
        orders = current if current is not None else rules.Orders()
        self.retreat: Retreat = orders.retreat
        self.losses: Retreat = orders.losses
        self.advance: Advance = orders.advance
        self.waive: set[rules.HexId] = set(orders.waive)

    # -- what it shows ------------------------------------------------------------------------

    def prompts(self) -> dict[str, str]:
        """Option id -> its line, in order (the hexes as ``hex-CCRR``)."""
        out = {
            "retreat": choice_line("Retreat", RETREATS, self.retreat),
            "losses": choice_line("Losses", RETREATS, self.losses),
            "advance": choice_line("Advance", ADVANCES, self.advance),
        }
        for h, what in self.immune:
            out[f"hex-{h}"] = f"[{'x' if h in self.waive else ' '}] waive {h} {what}"
        out["give"] = "> Give these orders"
        out["clear"] = "> Clear the orders: every decision is asked"
        return out

    def compose(self) -> ComposeResult:
        enemy = side_name("allied" if self.side == "german" else "german")
        options: list[Option | None] = []
        for key, line in self.prompts().items():
            if key == "give":
                if not self.immune:
                    options.append(Option("no immune hex held: nothing to waive", disabled=True))
                options.append(None)
            options.append(Option(Text(line), id=key))
        with Vertical(id="orders-box"):
            yield Static(f"Standing orders: {side_name(self.side)}", classes="title")
            yield Static(
                f"In {enemy} attacks the engine decides for you. engine: the first choice "
                "offered (best retreat path, first minimal loss set); strongest: the "
                "strongest unit advances; ask: you are asked. Unticked hexes keep their "
                "immunity (AO-11.f*)."
            )
            yield OptionList(*options, id="orders-list")
            yield Static(
                "Enter: change a line, or give; End: Give, Clear; Escape: cancel",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    # -- keys -----------------------------------------------------------------------------------

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if key == "give":
            self.dismiss(self.command())
            return
        if key == "clear":
            self.dismiss(rules.StandingOrders(side=self.side, clear=True))
            return
        if key == "retreat":
            self.retreat = RETREATS[(RETREATS.index(self.retreat) + 1) % len(RETREATS)]
        elif key == "losses":
            self.losses = RETREATS[(RETREATS.index(self.losses) + 1) % len(RETREATS)]
        elif key == "advance":
            self.advance = ADVANCES[(ADVANCES.index(self.advance) + 1) % len(ADVANCES)]
        elif key is not None and key.startswith("hex-"):
            self.waive ^= {key.removeprefix("hex-")}
        else:  # pragma: no cover - every option has one of the ids above
            return
        assert key is not None
        event.option_list.replace_option_prompt(key, Text(self.prompts()[key]))

    def command(self) -> rules.StandingOrders:
        """The orders as the dialog holds them now."""
        return rules.StandingOrders(
            side=self.side,
            waive=tuple(sorted(self.waive)),
            retreat=self.retreat,
            losses=self.losses,
            advance=self.advance,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
