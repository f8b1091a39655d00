"""The start screen's dialogs: a game (of the rulesets the app plays), a scenario, a new game
by email, an invitation to accept, a file or game to open, the keys, and a plain text (help).

Each holds its choices as view state only and is dismissed with the answer (None: Escape).
:class:`Launch` is what the start screen answers when a game is to be played: the command line
runs it (``ardennes_tui.cli.start``) after the start screen's app has ended, so that a key's
passphrase is asked on the terminal as ``ardennes --email`` asks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ardennes_tui import kits
from pbem.core import dicemodes
from rules.record import LEGACY_RULESET

LaunchKind = Literal["new", "resume", "email", "email-new", "email-accept", "versus"]


@dataclass(frozen=True)
class Launch:
    """A game to play, chosen on the start screen: ``new`` (a hot-seat game of ``scenario``),
    ``resume`` (the hot-seat game ``name``), ``email`` (the game by email ``name``),
    ``email-new`` (invite: ``scenario``, ``side``, ``dice``, ``opponent``, with ``key``, a key
    name of the store, "" for the default), ``email-accept`` (accept the invitation an import
    kept for the game ``name``, :mod:`pbem.invitations`, with ``key``, and ``opponent`` as
    his address) or ``versus`` (a game of ``scenario`` against the computer: your ``side``, the
    ``level``). ``ruleset``: the game's ruleset (``new``: whose hot-seat game to start)."""

    kind: LaunchKind
    scenario: int = 1
    name: str = ""
    side: str = ""
    dice: str = ""
    opponent: str = ""
    key: str = ""
    level: int = 3
    ruleset: str = LEGACY_RULESET


DIALOG_CSS: Final = """
    align: center middle;
    & > Vertical, & > VerticalScroll {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: ascii $primary; padding: 0 1; background: $background;
    }
    & .title { text-style: bold; }
    & .hint { color: $foreground 60%; }
    & .error { color: $error; }
"""


class TextDialog(ModalScreen[None]):
    """A title and a text to read (scrolls); Escape, q or Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,question_mark", "close", "close", id="text.close"),
    ]
    DEFAULT_CSS = f"TextDialog {{ {DIALOG_CSS} }}"

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.title_text, classes="title", markup=False)
            yield Static(self.text, id="text-body", markup=False)
            yield Static("Escape closes", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class PathDialog(ModalScreen[str | None]):
    """Ask for a file or a game: ``default`` is the answer to an empty line (the game
    highlighted on the start screen); without one an empty line is refused."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="path.close"),
    ]
    DEFAULT_CSS = f"PathDialog {{ {DIALOG_CSS} }}"

    def __init__(self, title: str, default: str = "", default_label: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.default = default
        self.default_label = default_label or default

    def compose(self) -> ComposeResult:
        empty = f"empty: {self.default_label}" if self.default else "a path"
        with Vertical():
            yield Static(self.title_text, classes="title", markup=False)
            yield Input(placeholder=f"a file, or a game's id or name ({empty})", id="path")
            yield Static("", id="path-error", classes="error")
            yield Static("Enter: open; Escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip() or self.default
        if not value:
            self.query_one("#path-error", Static).update("Type a file's path or a game's id")
            return
        self.dismiss(value)

    def action_close(self) -> None:
        self.dismiss(None)


class GameDialog(ModalScreen[str | None]):
    """Pick the game of a new hot-seat game when the app plays more than one: each UI kit's
    title, in :func:`ardennes_tui.kits.ids` order; Enter answers its ruleset's id, Escape
    None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="game.close"),
    ]
    DEFAULT_CSS = (
        f"GameDialog {{ {DIALOG_CSS} }} GameDialog OptionList {{ height: auto; max-height: 14; }}"
    )

    def compose(self) -> ComposeResult:
        options = [Option(kits.get(rid).title, id=rid) for rid in kits.ids()]
        with Vertical():
            yield Static("New hot-seat game: which game?", classes="title")
            yield OptionList(*options, id="game-list")
            yield Static("Enter: choose; Escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)


class ScenarioDialog(ModalScreen[int | None]):
    """Pick a scenario (AO-18): Up/Down, Enter; the digits 1-9 and 0 (scenario 10) too."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="scenario.close"),
    ]
    DEFAULT_CSS = (
        f"ScenarioDialog {{ {DIALOG_CSS} }} "
        "ScenarioDialog OptionList { height: auto; max-height: 14; }"
    )

    def __init__(
        self, title: str = "New hot-seat game: which scenario?", ruleset: str = LEGACY_RULESET
    ) -> None:
        super().__init__()
        self.title_text = title
        self.offer = kits.get(ruleset).scenarios()
        """The scenarios of the ruleset's UI kit: number -> title and what it is about."""

    def compose(self) -> ComposeResult:
        options = [Option(f"{n:>2}  {s.title}", id=str(n)) for n, s in self.offer.items()]
        with Vertical():
            yield Static(self.title_text, classes="title", markup=False)
            yield OptionList(*options, id="scenario-list")
            yield Static("", id="scenario-about", markup=False)
            yield Static("Enter: start; 1-9, 0: scenario 1-10; Escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    @on(OptionList.OptionHighlighted)
    def _about(self, event: OptionList.OptionHighlighted) -> None:
        assert event.option.id is not None
        about = self.offer[int(event.option.id)].about
        self.query_one("#scenario-about", Static).update(about)

    def on_key(self, event: events.Key) -> None:
        key = event.character
        if key is not None and key.isdigit():
            n = int(key) or 10
            if n in self.offer:
                self.dismiss(n)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.dismiss(int(event.option.id))

    def action_close(self) -> None:
        self.dismiss(None)


DICE: Final = ("sealed", "open", "local")
DICE_WORDS: Final = dicemodes.SHORT


class NewEmailDialog(ModalScreen[Launch | None]):
    """A new game by email, as ``ardennes --email new``: the scenario, your side, the dice,
    your key and your opponent's address (or name). Enter or Left/Right change a line; the
    address is typed on its own line (Tab goes to it); Enter on ``Invite`` starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="email-new.close"),
        Binding("right", "cycle(1)", "next", id="email-new.next", show=False),
        Binding("left", "cycle(-1)", "previous", id="email-new.previous", show=False),
    ]
    DEFAULT_CSS = f"NewEmailDialog {{ {DIALOG_CSS} }} NewEmailDialog OptionList {{ height: auto; }}"

    def __init__(self, key_names: Sequence[str], ruleset: str = LEGACY_RULESET) -> None:
        super().__init__()
        self.key_names = list(key_names)
        kit = kits.get(ruleset)
        self.offer = kit.scenarios()
        self.sides = kit.sides
        self.scenario = 1
        self.side = self.sides[0]
        self.dice = "sealed"
        self.key = self.key_names[0] if self.key_names else ""

    def prompts(self) -> dict[str, str]:
        """Option id -> its line."""
        spec = self.offer[self.scenario]
        keys = self.key or "none: make one with ardennes keygen NAME"
        return {
            "scenario": f"Scenario  < {self.scenario} > {spec.title}",
            "side": f"Your side < {self.side.capitalize()} >",
            "dice": f"Dice      < {self.dice} > {DICE_WORDS[self.dice]}",
            "key": f"Your key  < {keys} >",
            "start": "> Invite: make the invitation (then save, copy or mail it)",
        }

    def compose(self) -> ComposeResult:
        options = [Option(Text(line), id=key) for key, line in self.prompts().items()]
        with Vertical():
            yield Static("New game by email (ardennes --email new)", classes="title")
            yield OptionList(*options, id="email-new-list")
            yield Input(placeholder="your opponent's mail address or name (optional)", id="to")
            yield Static("", id="email-new-error", classes="error")
            yield Static(
                "Left/Right or Enter: change a line; Tab: the address; Enter on Invite: "
                "start; Escape: cancel",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0
        self.query_one(OptionList).focus()

    def _refresh(self, key: str) -> None:
        self.query_one(OptionList).replace_option_prompt(key, Text(self.prompts()[key]))

    def action_cycle(self, step: int) -> None:
        """Change the highlighted line's value (Left/Right)."""
        ol = self.query_one(OptionList)
        if not ol.has_focus or ol.highlighted is None:
            return
        key = ol.get_option_at_index(ol.highlighted).id
        if key is None or key == "start":
            return
        numbers = list(self.offer)
        if key == "scenario":
            self.scenario = numbers[(numbers.index(self.scenario) + step) % len(numbers)]
        elif key == "side":
            sides = self.sides
            self.side = sides[(sides.index(self.side) + step) % len(sides)]
        elif key == "dice":
            self.dice = DICE[(DICE.index(self.dice) + step) % len(DICE)]
        elif key == "key" and self.key_names:
            i = self.key_names.index(self.key) if self.key in self.key_names else 0
            self.key = self.key_names[(i + step) % len(self.key_names)]
        self._refresh(key)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "start":
            self._start()
        else:
            self.action_cycle(1)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._start()

    def _start(self) -> None:
        if not self.key_names:
            self.query_one("#email-new-error", Static).update(
                "You have no key: quit and run ardennes keygen NAME (it asks a passphrase)"
            )
            return
        opponent = self.query_one(Input).value.strip()
        self.dismiss(
            Launch(
                "email-new",
                scenario=self.scenario,
                side=self.side,
                dice=self.dice,
                opponent=opponent,
                key=self.key,
            )
        )

    def action_close(self) -> None:
        self.dismiss(None)


class AcceptDialog(ModalScreen[Launch | None]):
    """Accept an invitation an import kept (:mod:`pbem.invitations`), as ``ardennes --email
    accept GAME``: what it proposes and the inviter's key (``about``), then one line per key
    of the player (``key_names``) to accept with; the opponent's address may be typed on its
    own line (Tab goes to it). Enter on a key accepts; Escape changes nothing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "cancel", id="accept.close"),
    ]
    DEFAULT_CSS = f"AcceptDialog {{ {DIALOG_CSS} }} AcceptDialog OptionList {{ height: auto; }}"

    def __init__(self, game_id: str, about: str, key_names: Sequence[str]) -> None:
        super().__init__()
        self.game_id = game_id
        self.about = about
        self.key_names = list(key_names)

    def compose(self) -> ComposeResult:
        if self.key_names:
            options = [
                Option(f"> Accept with your key {name}", id=f"key-{name}")
                for name in self.key_names
            ]
        else:
            none = "You have no key: quit and run ardennes keygen NAME (it asks a passphrase)"
            options = [Option(none, disabled=True)]
        with Vertical():
            yield Static(
                f"Accept invitation {self.game_id[:8]} (ardennes --email accept "
                f"{self.game_id[:8]})",
                classes="title",
                markup=False,
            )
            yield Static(self.about, id="accept-about", markup=False)
            yield OptionList(*options, id="accept-list")
            yield Input(placeholder="your opponent's mail address or name (optional)", id="to")
            yield Static(
                "Enter: accept (an encrypted key's passphrase is asked in the terminal); Tab: "
                "the address; Escape: cancel",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self._accept(event.option.id.removeprefix("key-"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        ol = self.query_one(OptionList)
        if self.key_names and ol.highlighted is not None:
            self._accept(self.key_names[ol.highlighted])

    def _accept(self, key: str) -> None:
        opponent = self.query_one(Input).value.strip()
        self.dismiss(Launch("email-accept", name=self.game_id, key=key, opponent=opponent))

    def action_close(self) -> None:
        self.dismiss(None)
