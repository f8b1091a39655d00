"""The help screen (``?``, and the command palette's ``Help: ...``): a ruleset's help pages
in one scrolling box that fits 80x24 (:class:`HelpPages`: the AO's are
:mod:`ardennes_tui.rulesets.ao.help`, five sections written by
:mod:`ardennes_tui.rulesets.ao.present.help_text`).

The AO's: 1 the counter key and the map symbols, 2 the sequence of play with the current phase
marked, 3 both CRTs with the odds column of the attack being built lit, 4 the terrain effects
chart, 5 every key. ``1``-``9`` jump to a section (as many as there are); the arrows,
``j``/``k``, PgUp/PgDn, Home/End and Space scroll; Escape, ``q`` or ``?`` close it. It opens at
the section asked for, else where the pages say (the AO's: at the CRTs while an attack is being
built), else at the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpPages(Protocol):
    """A ruleset's help: its sections (id, short name, title) and their text, marked for a
    ``context`` of its own (the AO's: the phase, the CRT, the odds)."""

    @property
    def sections(self) -> Sequence[tuple[str, str, str]]: ...

    def text(self, section: str, context: Any) -> Any:
        """The text of ``section`` (Rich text or a string) for ``context``."""
        ...

    def first(self, context: Any) -> str | None:
        """The section to open at when none is asked for (None: the top)."""
        ...


class HelpScreen(ModalScreen[None]):
    """``pages`` marked for ``context``, at ``section``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "close", id="help.close"),
        *(
            Binding(str(i), f"section({i})", f"section {i}", id=f"help.section{i}")
            for i in range(1, 10)
        ),
        Binding("down,j", "scroll('down')", "scroll down", id="help.down"),
        Binding("up,k", "scroll('up')", "scroll up", id="help.up"),
        Binding("pagedown,space", "scroll('page_down')", "page down", id="help.pagedown"),
        Binding("pageup", "scroll('page_up')", "page up", id="help.pageup"),
        Binding("home", "scroll('home')", "top", id="help.home"),
        Binding("end", "scroll('end')", "bottom", id="help.end"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    #help-frame {
        width: 78;
        max-width: 100%;
        height: 100%;
        border: ascii $primary;
        padding: 0 1;
        background: $background;
    }
    #help-bar {
        height: 1;
        text-style: bold;
    }
    #help-scroll {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    #help-scroll .title {
        text-style: bold underline;
        margin-top: 1;
    }
    #help-frame .hint {
        height: 1;
        color: $foreground 60%;
    }
    """

    def __init__(self, pages: HelpPages, context: Any, section: str | None = None) -> None:
        super().__init__()
        self.pages = pages
        self.context = context
        self.section = section if section is not None else pages.first(context)
        """The section shown first (None: the top)."""

    def compose(self) -> ComposeResult:
        sections = self.pages.sections
        bar = "  ".join(f"{i} {short}" for i, (_, short, _) in enumerate(sections, 1))
        with Vertical(id="help-frame"):
            yield Static(f"Help   {bar}", id="help-bar")
            with VerticalScroll(id="help-scroll", can_focus=False):
                for sid, _, title in sections:
                    yield Static(title, id=f"help-{sid}", classes="title")
                    yield Static(self.pages.text(sid, self.context), id=f"help-{sid}-text")
            hint = f"1-{len(sections)} sections, Up/Down/PgUp/PgDn scroll, Escape q ? close"
            yield Static(hint, classes="hint")

    def on_mount(self) -> None:
        if self.section is not None:
            self.call_after_refresh(self.show_section, self.section)

    @property
    def box(self) -> VerticalScroll:
        return self.query_one("#help-scroll", VerticalScroll)

    def show_section(self, section: str) -> None:
        """Scroll so that ``section``'s title is the first line."""
        title = self.query_one(f"#help-{section}", Static)
        self.box.scroll_to_widget(title, top=True, animate=False, immediate=True)

    def action_section(self, n: int) -> None:
        if n <= len(self.pages.sections):
            self.show_section(self.pages.sections[n - 1][0])

    def action_scroll(self, how: str) -> None:
        box = self.box
        if how == "down":
            box.scroll_down(animate=False)
        elif how == "up":
            box.scroll_up(animate=False)
        elif how == "page_down":
            box.scroll_page_down(animate=False)
        elif how == "page_up":
            box.scroll_page_up(animate=False)
        elif how == "home":
            box.scroll_home(animate=False)
        else:
            box.scroll_end(animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
