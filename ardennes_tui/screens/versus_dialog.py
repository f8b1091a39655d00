"""The start screen's dialog for a new game against the computer (``b``): the scenario, your
side and the level of play, as ``ardennes --vs-bot --scenario N --side S --level L``.

Left/Right (or Enter) change the highlighted line; Enter on ``Play`` starts. Under the lines,
what the level does in that scenario with the computer on the other side
(:func:`rules.ao.levels.levers`)."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

import rules.ao
from ardennes_tui.screens.start_dialogs import DIALOG_CSS, SIDES, Launch
from scenarios import scenario_specs

LEVEL_WORDS: Final = {
    4: "the easiest: your side helped",
    3: "historical: the rules as written",
    2: "harder: the computer's side helped",
    1: "the hardest: the computer's side helped twice",
}


class VersusDialog(ModalScreen[Launch | None]):
    """A new game against the computer: scenario, your side, the level."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="versus-new.close"),
        Binding("right", "cycle(1)", "next", id="versus-new.next", show=False),
        Binding("left", "cycle(-1)", "previous", id="versus-new.previous", show=False),
    ]
    DEFAULT_CSS = f"VersusDialog {{ {DIALOG_CSS} }} VersusDialog OptionList {{ height: auto; }}"

    def __init__(self) -> None:
        super().__init__()
        self.scenario = 1
        self.side: rules.ao.Side = "german"
        self.level = rules.ao.levels.HISTORICAL

    def prompts(self) -> dict[str, str]:
        """Option id -> its line."""
        spec = scenario_specs()[self.scenario]
        return {
            "scenario": f"Scenario  < {self.scenario} > {spec.title}",
            "side": f"Your side < {self.side.capitalize()} >",
            "level": f"Level     < {self.level} > {LEVEL_WORDS[self.level]}",
            "start": "> Play against the computer",
        }

    def levers(self) -> str:
        """What the level changes in this scenario."""
        spec = scenario_specs()[self.scenario]
        lv = rules.ao.levels.level_for(spec, self.level, rules.ao.other_side(self.side))
        return f"Level {self.level}: {rules.ao.levels.levers(lv, spec)}."

    def compose(self) -> ComposeResult:
        options = [Option(Text(line), id=key) for key, line in self.prompts().items()]
        with Vertical():
            yield Static("New game against the computer (ardennes --vs-bot)", classes="title")
            yield OptionList(*options, id="versus-new-list")
            yield Static(self.levers(), id="versus-new-levers", markup=False)
            yield Static(
                "Left/Right or Enter: change a line; Enter on Play: start; Escape: cancel",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0
        self.query_one(OptionList).focus()

    def action_cycle(self, step: int) -> None:
        """Change the highlighted line's value (Left/Right)."""
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return
        key = ol.get_option_at_index(ol.highlighted).id
        numbers = list(scenario_specs())
        levels = list(rules.ao.levels.NUMBERS)
        if key == "scenario":
            self.scenario = numbers[(numbers.index(self.scenario) + step) % len(numbers)]
        elif key == "side":
            self.side = "allied" if self.side == "german" else "german"
            assert self.side in SIDES
        elif key == "level":
            self.level = levels[(levels.index(self.level) + step) % len(levels)]
        else:
            return
        ol.replace_option_prompt(key, Text(self.prompts()[key]))
        self.query_one("#versus-new-levers", Static).update(self.levers())

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "start":
            self.dismiss(Launch("versus", scenario=self.scenario, side=self.side, level=self.level))
        else:
            self.action_cycle(1)

    def action_close(self) -> None:
        self.dismiss(None)
