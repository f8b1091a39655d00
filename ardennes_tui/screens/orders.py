"""The standing orders dialog (``O``): how the engine decides for a side when the enemy's
combat needs its choice (``rules.ao.StandingOrders``, ``docs/engine.md``, "Standing orders").

The side that acts sets its own orders: which of its immune hexes waive their immunity to
Ar/Dr (AO-11.f*; every other immune hex keeps it), and for retreats, Ex losses and advances
whether the engine decides (the first choice offered; ``strongest``: the strongest unit
advances) or the player is asked. The dialog holds these choices as view state only and is
dismissed with the command (``Give``; in hot-seat play also ``Clear``) or None (Escape); the
play screen pushes the command through the game, so the orders are in the record. By email
(``never_ask``) no setting offers ``ask`` and there is no ``Clear``: every line and hint says
only what this dialog offers (:meth:`OrdersScreen.why`, :meth:`OrdersScreen.hint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Literal, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

import rules.ao
from ardennes_tui.present.combat_text import side_name

Retreat = Literal["engine", "ask"]
Advance = Literal["decline", "strongest", "ask"]

RETREATS: Final[tuple[Retreat, ...]] = ("engine", "ask")
ADVANCES: Final[tuple[Advance, ...]] = ("decline", "strongest", "ask")

SETTINGS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "retreat": (
        "When your side wins a combat, the path each beaten enemy unit retreats by.",
        {"engine": "the best-ranked path (AO-10.2a)", "ask": "you pick it"},
    ),
    "losses": (
        "Ex losses of your attackers (AO-10.1b).",
        {"engine": "the first minimal set (the least strength that meets the need)",
         "ask": "you tick them"},
    ),
    "advance": (
        "After your side wins a combat, one unit may advance into the emptied hex (AO-9.6N).",
        {"decline": "none", "strongest": "your strongest eligible unit", "ask": "you pick"},
    ),
}  # fmt: skip
"""Each setting: what it decides, and what each of its values means (only the values the
dialog offers are said: by email no ``ask``)."""

WHY: Final[dict[str, str]] = {
    "all": "Tick (or untick) every immune hex listed below at once.",
    "give": "Give these orders: they go into the game's record (by email: into the packet).",
    "clear": "Take your orders away: every decision is asked again.",
}
"""What each line of the dialog means, shown under the list for the highlighted line."""

SEALED_WHY: Final = (
    "Sealed dice: your attacks are resolved only after your opponent's reply, and your "
    "choices during them follow these orders. Proposed: the engine picks retreats and "
    "losses, your strongest unit advances. Give them (End, Enter)."
)
"""Why the dialog opens by itself at a sealed game's first batch (the play screen by email)."""

PROPOSED: Final = rules.ao.Orders(retreat="engine", losses="engine", advance="strongest")
"""The standing orders proposed to a player by email who has none (as ``ardennes orders``
adds them by itself): the engine picks retreats and Ex losses, the strongest unit advances."""


def choice_line(label: str, values: Sequence[str], current: str) -> str:
    """``Retreat   (*) engine  ( ) ask``: one setting and its values, the current one ticked."""
    marks = "  ".join(f"({'*' if v == current else ' '}) {v}" for v in values)
    return f"{label:<9} {marks}"


class OrdersScreen(ModalScreen[rules.ao.StandingOrders | None]):
    """``side``'s standing orders: ``immune`` lists the hexes it may waive (hex, what makes it
    immune), ``current`` its orders in force (None: every decision is asked). With
    ``never_ask`` (play by email: the engine must answer every choice while the opponent
    resolves) no setting offers ``ask`` and the orders cannot be cleared."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="orders.cancel"),
    ]

    DEFAULT_CSS = """
    #orders-why {
        height: 3;
        color: $foreground 80%;
    }
    """

    def __init__(
        self,
        side: rules.ao.Side,
        immune: Sequence[tuple[rules.HexId, str]],
        current: rules.ao.Orders | None,
        *,
        never_ask: bool = False,
        why: str = "",
    ) -> None:
        super().__init__()
        self.why_given = why
        """Why the dialog opened by itself (a sealed batch needs orders), shown first."""
        self.side: rules.ao.Side = side
        self.immune = list(immune)
        self.never_ask = never_ask
        self.retreats: tuple[Retreat, ...] = RETREATS[:1] if never_ask else RETREATS
        self.advances: tuple[Advance, ...] = ADVANCES[:2] if never_ask else ADVANCES
        orders = current if current is not None else rules.ao.Orders()
        self.retreat: Retreat = orders.retreat if orders.retreat in self.retreats else "engine"
        self.losses: Retreat = orders.losses if orders.losses in self.retreats else "engine"
        self.advance: Advance = orders.advance if orders.advance in self.advances else "decline"
        self.waive: set[rules.HexId] = set(orders.waive)

    # -- what it shows ------------------------------------------------------------------------

    def prompts(self) -> dict[str, str]:
        """Option id -> its line, in order (the hexes as ``hex-CCRR``)."""
        out = {
            "retreat": choice_line("Retreat", self.retreats, self.retreat),
            "losses": choice_line("Losses", self.retreats, self.losses),
            "advance": choice_line("Advance", self.advances, self.advance),
        }
        if len(self.immune) > 1:
            every = {h for h, _ in self.immune} <= self.waive
            out["all"] = f"[{'x' if every else ' '}] waive all {len(self.immune)} hexes below"
        for h, what in self.immune:
            out[f"hex-{h}"] = f"[{'x' if h in self.waive else ' '}] waive {h} {what}"
        out["give"] = "> Give these orders"
        if not self.never_ask:
            out["clear"] = "> Clear the orders: every decision is asked"
        return out

    def why(self, key: str | None) -> str:
        """What line ``key`` means (the line under the list): of a setting, only the values
        offered."""
        if key in SETTINGS:
            lead, meanings = SETTINGS[key]
            offered = {"retreat": self.retreats, "losses": self.retreats}.get(key, self.advances)
            return f"{lead} " + "; ".join(f"{v}: {meanings[v]}" for v in offered) + "."
        if key is not None and key.startswith("hex-"):
            h = key.removeprefix("hex-")
            return (
                f"Waive: an Ar/Dr result retreats your units in {h} like any other; keep: "
                "they ignore it (AO-11.f*)."
            )
        return WHY.get(key or "", "")

    def hint(self) -> str:
        """The keys under the list, as this dialog has them (End: the last line, Clear only
        in hot-seat play)."""
        if self.never_ask:
            return "Enter: change a line, or give; End: Give; Escape: cancel"
        return "Enter: change a line, give or clear; End: Clear; Escape: cancel"

    def compose(self) -> ComposeResult:
        enemy = side_name("allied" if self.side == "german" else "german")
        options: list[Option | None] = []
        for key, line in self.prompts().items():
            if key == "give":
                if not self.immune:
                    options.append(Option("no immune hex held: nothing to waive", disabled=True))
                options.append(None)
            options.append(Option(Text(line), id=key))
        email = (
            " By email the engine answers every choice: no setting asks." if self.never_ask else ""
        )
        with Vertical(id="orders-box"):
            yield Static(f"Standing orders: {side_name(self.side)}", classes="title")
            yield Static(
                self.why_given
                or f"What the engine decides for you in combat ({enemy} attacks, and your own "
                f"batch by email).{email}",
                id="orders-intro",
            )
            yield OptionList(*options, id="orders-list")
            yield Static("", id="orders-why")
            yield Static(self.hint(), classes="hint", id="orders-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.query_one("#orders-why", Static).update(self.why(event.option.id))

    # -- keys -----------------------------------------------------------------------------------

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if key == "give":
            self.dismiss(self.command())
            return
        if key == "clear" and not self.never_ask:
            self.dismiss(rules.ao.StandingOrders(side=self.side, clear=True))
            return
        if key == "retreat":
            self.retreat = _next(self.retreats, self.retreat)
        elif key == "losses":
            self.losses = _next(self.retreats, self.losses)
        elif key == "advance":
            self.advance = _next(self.advances, self.advance)
        elif key == "all":
            hexes = {h for h, _ in self.immune}
            self.waive = self.waive - hexes if hexes <= self.waive else self.waive | hexes
        elif key is not None and key.startswith("hex-"):
            self.waive ^= {key.removeprefix("hex-")}
        else:  # pragma: no cover - every option has one of the ids above
            return
        prompts = self.prompts()
        waives = ["all", *(f"hex-{h}" for h, _ in self.immune)]
        for k in waives if key in waives else [key]:
            if k in prompts:
                event.option_list.replace_option_prompt(k, Text(prompts[k]))

    def command(self) -> rules.ao.StandingOrders:
        """The orders as the dialog holds them now."""
        return rules.ao.StandingOrders(
            side=self.side,
            waive=tuple(sorted(self.waive)),
            retreat=self.retreat,
            losses=self.losses,
            advance=self.advance,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


T = TypeVar("T")


def _next(values: tuple[T, ...], current: T) -> T:
    """The value after ``current``, round."""
    return values[(values.index(current) + 1) % len(values)]
