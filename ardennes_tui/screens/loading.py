"""A notice while a record is checked: every order of a long game goes through the rules again
(a record of 1,191 orders takes seconds), and the screen used to stay blank meanwhile.

:class:`LoadingScreen` says what is being checked and runs the check in a thread worker; when
it is done the screen the check opens (a playback, an audit) takes its place, or the reason it
cannot is handed back (``failed``) and the notice goes. Escape gives up waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

T = TypeVar("T")


class LoadingScreen(Screen[None], Generic[T]):
    """``what`` is checked by ``load`` (in a thread); ``then`` makes the screen to show with
    its result (or raises ``ValueError``: one line); ``failed`` is told why it could not
    (None: the notice says it and waits for a key)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "give_up", "close", id="loading.close"),
    ]

    DEFAULT_CSS = """
    LoadingScreen { align: center middle; }
    LoadingScreen #loading-box {
        width: 76; max-width: 100%; height: auto;
        border: ascii $foreground; padding: 1 2;
    }
    LoadingScreen #loading-text { text-align: center; }
    """

    def __init__(
        self,
        what: str,
        load: Callable[[], T],
        then: Callable[[T], Screen[Any]],
        failed: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self.what = what
        self.load = load
        self.then = then
        self.failed = failed
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(id="loading-box"):
            yield Static(
                f"Checking {self.what}: every order through the rules again...\n"
                "(a long game takes a few seconds; Escape gives up)",
                id="loading-text",
                markup=False,
            )

    def on_mount(self) -> None:
        self.run_worker(self.load, thread=True, group="loading", exit_on_error=False)

    @on(Worker.StateChanged)
    def _loaded(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "loading" or self.done:
            return
        if event.state == WorkerState.SUCCESS:
            self.done = True
            try:
                screen = self.then(worker.result)  # type: ignore[arg-type]
            except ValueError as exc:
                self._failed(str(exc))
                return
            self.app.switch_screen(screen)
        elif event.state == WorkerState.ERROR:
            self.done = True
            self._failed(str(worker.error))

    def _failed(self, why: str) -> None:
        if self.failed is not None:
            self.failed(why)
            self.dismiss()
            return
        self.query_one("#loading-text", Static).update(f"{why}\n(q closes)")

    def action_give_up(self) -> None:
        self.done = True
        if len(self.app.screen_stack) <= 1:
            self.app.exit()
        else:
            self.dismiss()
