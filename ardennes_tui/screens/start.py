"""The start screen (``ardennes`` alone): your games, and everything you can start from here.

On the left the actions (each with its key), on the right the games of the store
(:func:`ardennes_tui.present.game_list.rows`: by email and hot-seat, whose move, the last activity),
under them the highlighted game in full or what the last action did. Enter on a game opens it
(a hot-seat game resumes; a game by email opens as ``ardennes --email GAME``; an invitation an
import kept is accepted as ``ardennes --email accept GAME``, after a dialog that shows it and
asks with which key, :class:`AcceptDialog`); ``n`` starts a
hot-seat game (a scenario dialog; first a game dialog when the app plays more than one
ruleset), ``e`` a game by email (as ``ardennes --email new``), ``b`` a
game against the computer (as ``ardennes --vs-bot``), ``i``
imports a turn (the import dialog: pasted, a file or the mailbox), ``w`` plays a record or a
game back, ``a`` audits a game, ``k`` shows the keys, ``?`` the help, ``q`` quits.

A game to play ends this app with a :class:`Launch` in :attr:`StartScreen.chosen`: the command
line runs it (the key's passphrase asked on the terminal, the game's session held) and comes
back here when it is over. Playback, the audit, the keys and the import run on this app.
"""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from ardennes_tui import kits
from ardennes_tui.games.saves import short_name
from ardennes_tui.present import audit_view, game_list
from ardennes_tui.screens.start_dialogs import (
    AcceptDialog,
    GameDialog,
    Launch,
    NewEmailDialog,
    PathDialog,
    ScenarioDialog,
    TextDialog,
)
from pbem.audit import Verified
from pbem.core.errors import PbemError
from pbem.games import Service
from pbem.store import Store
from rules.record import LEGACY_RULESET

__all__ = ["ACTIONS", "Launch", "StartScreen", "help_text"]

ACTIONS: Final = (
    ("open", "Enter", "Open game"),
    ("new", "n", "New hot-seat"),
    ("email", "e", "New by email"),
    ("versus", "b", "Vs the computer"),
    ("import", "i", "Import a turn"),
    ("watch", "w", "Watch a record"),
    ("audit", "a", "Audit a game"),
    ("keys", "k", "Keys"),
    ("help", "?", "Help"),
    ("quit", "q", "Quit"),
)
"""The menu: action id, key, words."""

GAME_COLUMNS: Final = ("GAME", "KIND", "SC", "TO MOVE", "LAST (UTC)")


HELP_KEYS: Final = (
    (
        "Enter",
        "open the highlighted game: a hot-seat game resumes, a game by email opens as "
        "ardennes --email GAME (your key's passphrase is asked in the terminal), an "
        "invitation is accepted (ardennes --email accept GAME); q in the game comes back here",
    ),
    ("n", "new hot-seat game: pick a scenario (ardennes --scenario N)"),
    (
        "e",
        "new game by email: scenario, side, dice, key, opponent (ardennes --email new ...); "
        "the invitation is then sent",
    ),
    (
        "b",
        "new game against the computer: scenario, your side, the level (ardennes --vs-bot "
        "...); the computer plays the other side",
    ),
    (
        "i",
        "import your opponent's packets: paste them, give a file, .eml, mbox or Maildir, or "
        "nothing for the config's [mailbox]",
    ),
    (
        "w",
        "watch a record (a file: ardennes --watch FILE) or a game of the store, step by step "
        "from its start; empty: the highlighted game",
    ),
    (
        "a",
        "audit a game: every roll, who could know it when, the dice statistics, the "
        "signatures (ardennes --audit FILE|GAME)",
    ),
    ("k", "your keys and the keys pinned in each game by email"),
    ("r", "read the store again"),
    ("Tab", "between the games and the menu; Up/Down choose"),
    ("q", "quit"),
)
"""The start screen's keys and what they do (the help)."""

HELP_WIDTH: Final = 68
"""The help's lines at most (the text dialog shows 72 columns beside its scroll bar)."""


def help_text() -> str:
    """The start screen's help: the keys, and the commands behind them."""
    lines: list[str] = []
    for key, what in HELP_KEYS:
        body = textwrap.wrap(what, HELP_WIDTH - 10)
        lines.append(f"{key:<10}{body[0]}")
        lines += [" " * 10 + more for more in body[1:]]
    shell = (
        "From a shell: ardennes games, keygen, keys, status, verify, audit, import, export "
        "(ardennes --help). `make play ARGS=...` passes options; put ardennes on your PATH "
        "with `pipx install .` or .venv/bin (README)."
    )
    return "\n".join([*lines, "", *textwrap.wrap(shell, HELP_WIDTH)])


class StartScreen(Screen[None]):
    """The start screen; ``notice``: a line to show first (why the last game did not open)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "new hot-seat", id="start.new"),
        Binding("e", "email", "new by email", id="start.email"),
        Binding("b", "versus", "vs the computer", id="start.versus"),
        Binding("i", "import", "import", id="start.import"),
        Binding("w", "watch", "watch", id="start.watch"),
        Binding("a", "audit", "audit", id="start.audit"),
        Binding("k", "keys", "keys", id="start.keys"),
        Binding("r", "reload", "reload", id="start.reload"),
        Binding("question_mark", "help", "help", id="start.help"),
        Binding("q", "quit", "quit", id="start.quit"),
    ]

    DEFAULT_CSS = """
    StartScreen #st-title { height: 1; text-style: bold; padding: 0 1; }
    StartScreen #st-body { height: 1fr; }
    StartScreen #st-menu { width: 22; height: 1fr; border: ascii $primary; }
    StartScreen #st-games-box { width: 1fr; height: 1fr; border: ascii $foreground 40%; }
    StartScreen #st-games-box:focus-within { border: ascii $primary; }
    StartScreen #st-games { height: 1fr; border: none; }
    StartScreen #st-detail { height: 3; padding: 0 1; }
    StartScreen #st-hint { height: 1; padding: 0 1; color: $foreground 60%; }
    """

    def __init__(self, store: Store | None = None, notice: str = "") -> None:
        super().__init__()
        self.store = store if store is not None else Store()
        self.notice = notice
        self.games: list[dict[str, Any]] = []
        self._moved = False
        self.chosen: Launch | None = None
        """The game to play once this app ends (None: quit)."""
        self.note = ""
        """What the last action did, said before the highlighted game until the cursor
        moves."""

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(
            "The Ardennes Offensive (SPI, 1973): hot-seat and play by email", id="st-title"
        )
        with Horizontal(id="st-body"):
            menu = OptionList(
                *(
                    Option(f"{key:<3}{words}" if len(key) == 1 else f"{key} {words}", id=aid)
                    for aid, key, words in ACTIONS
                ),
                id="st-menu",
            )
            menu.border_title = "Menu"
            yield menu
            with Vertical(id="st-games-box") as box:
                box.border_title = "Your games"
                yield DataTable(cursor_type="row", id="st-games")
        yield Static("", id="st-detail", markup=False)
        yield Static("Tab: games / menu   Enter: open   ? help   q quit", id="st-hint")

    def on_mount(self) -> None:
        table: DataTable[str] = self.query_one("#st-games", DataTable)
        table.add_columns(*GAME_COLUMNS)
        self.reload()
        if self.games:
            table.focus()
        else:
            self.query_one("#st-menu", OptionList).focus()
            self.query_one("#st-menu", OptionList).highlighted = 1
        if self.notice:
            self.say(self.notice)

    # -- the games -----------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the store's games again."""
        try:
            self.games = game_list.rows(self.store)
            trouble = ""
        except (PbemError, OSError) as exc:
            self.games, trouble = [], f"Cannot read the store at {self.store.root}: {exc}"
        table: DataTable[str] = self.query_one("#st-games", DataTable)
        table.clear()
        self._moved = False  # the table's own highlight after a reload keeps the note
        for i, g in enumerate(self.games):
            table.add_row(*self.game_cells(g), key=str(i))
        if trouble:
            self.say(trouble)
        elif not self.games:
            self.say("No games yet: n starts a hot-seat game, e a game by email.")
        else:
            self._describe(table.cursor_row)

    @staticmethod
    def game_cells(g: dict[str, Any]) -> tuple[str, ...]:
        """A game's row: id, kind, scenario, whose move, last activity."""
        if g["kind"] == "invitation":
            kept = game_list.when(g["last_activity"]).removesuffix(" UTC")[5:]
            return (g["id"][:8], "invite", str(g["scenario"] or "?"), "accept it", kept)
        email = g["kind"] == "pbem"
        gid = g["id"][:8] if email else short_name(g["id"])
        to_move = g["to_move"] or "?"
        for kid in kits.ids():  # the whole row in sight
            for long, short in kits.get(kid).short_phase_names().items():
                to_move = to_move.replace(long, short)
        if email and any(to_move in kits.get(kid).sides for kid in kits.ids()):
            ours = to_move == g["side"] or g.get("dice") == "local"
            to_move = "you" if ours else f"{to_move.capitalize()} (them)"
        kind = ("email" if g.get("dice") != "local" else "local") if email else "hot-seat"
        if not email and g.get("opponent"):
            kind = "vs bot"
        when = game_list.when(g["last_activity"]).removesuffix(" UTC")
        return (gid, kind, str(g["scenario"] or "?"), to_move, when[5:])

    def highlighted_game(self) -> dict[str, Any] | None:
        table: DataTable[str] = self.query_one("#st-games", DataTable)
        if not self.games or table.cursor_row < 0:
            return None
        return self.games[min(table.cursor_row, len(self.games) - 1)]

    def _describe(self, row: int) -> None:
        if not 0 <= row < len(self.games):
            return
        g = self.games[row]
        if g["kind"] == "invitation":
            self.say(self.invitation_text(g))
            return
        if g["kind"] == "pbem":
            side = (g["side"] or "?").capitalize()
            who = f", opponent {g['opponent']}" if g["opponent"] else ""
            status = f" [{g['status']}]" if g["status"] else ""
            text = (
                f"Game by email {g['id']}: scenario {g['scenario']}, you play the {side}"
                f"{who}, {g.get('dice') or '?'} dice, {g['packets']} packet"
                f"{'s' if g['packets'] != 1 else ''}{status}."
            )
        else:
            what = f"Game against {g['opponent']}" if g.get("opponent") else "Hot-seat game"
            text = (
                f"{what} {g['id']}: scenario {g['scenario'] or '?'}, {g['to_move']} "
                f"(ardennes --resume {short_name(g['id'])})."
            )
        note = f"{self.note} " if self.note else ""
        self.say(f"{note}{text} Enter opens it; w plays it back; a audits it.")

    @staticmethod
    def invitation_text(g: dict[str, Any]) -> str:
        """What the line says of an invitation an import kept (:mod:`pbem.invitations`)."""
        return (
            f"Invitation {g['id'][:8]} from {g['opponent']}: scenario {g['scenario']}, you "
            f"would play the {g['side'].capitalize()}, {g.get('dice') or '?'} dice. Enter "
            f"accepts it (in a shell: ardennes accept {g['id'][:8]})."
        )

    @on(DataTable.RowHighlighted, "#st-games")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._describe(event.cursor_row)
        if self._moved:
            self.note = ""
        self._moved = True

    @on(DataTable.RowSelected, "#st-games")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    @on(OptionList.OptionSelected, "#st-menu")
    def _menu(self, event: OptionList.OptionSelected) -> None:
        action = event.option.id
        if action == "quit":
            self.action_quit()
        elif action is not None:
            getattr(self, f"action_{action}")()

    def say(self, text: str) -> None:
        """The line under the games."""
        self.query_one("#st-detail", Static).update(Text(text))

    @property
    def said(self) -> str:
        return str(self.query_one("#st-detail", Static).content)

    # -- the actions -------------------------------------------------------------------------

    def launch(self, launch: Launch) -> None:
        """End the app: the command line plays ``launch``."""
        self.chosen = launch
        self.app.exit()

    def action_open(self) -> None:
        g = self.highlighted_game()
        if g is None:
            self.say("No game to open: n starts a hot-seat game, e a game by email.")
            return
        if g["kind"] == "invitation":
            self.accept(g)
        elif g["kind"] == "pbem":
            self.launch(Launch("email", name=g["id"]))
        else:
            self.launch(Launch("resume", name=g["id"]))

    def accept(self, g: dict[str, Any]) -> None:
        """The invitation ``g``: what it proposes, and with which key to accept it (the
        acceptance is then written and the game opens, as ``ardennes --email accept``)."""
        names = [k.name for k in game_list.key_rows() if k.fingerprint is not None]
        about = (
            f"Scenario {g['scenario']}, you would play the {g['side'].capitalize()}, "
            f"{g.get('dice') or '?'} dice. The inviter's key: {g['opponent']} (compare it with "
            "him out of band)."
        )

        def chosen(launch: Launch | None) -> None:
            if launch is not None:
                self.launch(launch)

        self.app.push_screen(AcceptDialog(g["id"], about, names), chosen)

    def action_new(self) -> None:
        """A new hot-seat game: which game first when the app plays more than one (its UI
        kits, :func:`ardennes_tui.kits.ids`), then which scenario."""

        def scenario(rid: str | None) -> None:
            if rid is None:
                return
            title = f"New hot-seat game of {kits.get(rid).title}: which scenario?"

            def chosen(n: int | None) -> None:
                if n is not None:
                    self.launch(Launch("new", scenario=n, ruleset=rid))

            dialog = ScenarioDialog(title, rid) if picked else ScenarioDialog()
            self.app.push_screen(dialog, chosen)

        picked = len(kits.ids()) > 1
        if picked:
            self.app.push_screen(GameDialog(), scenario)
        else:
            scenario(LEGACY_RULESET)

    def action_email(self) -> None:
        names = [k.name for k in game_list.key_rows() if k.fingerprint is not None]

        def chosen(launch: Launch | None) -> None:
            if launch is not None:
                self.launch(launch)

        self.app.push_screen(NewEmailDialog(names), chosen)

    def action_versus(self) -> None:
        dialog = kits.get(LEGACY_RULESET).versus_dialog()
        if dialog is None:
            return

        def chosen(launch: Launch | None) -> None:
            if launch is not None:
                self.launch(launch)

        self.app.push_screen(dialog, chosen)

    def action_import(self) -> None:
        from ardennes_tui.screens.import_dialog import ImportDialog

        def done(accepted: bool | None) -> None:
            self.note = "Imported (in the game, R plays the new orders back)." if accepted else ""
            self.reload()

        self.app.push_screen(ImportDialog(Service(self.store)), done)

    def _default(self) -> tuple[str, str]:
        """What an empty path means: the highlighted game (its id or name, and words)."""
        g = self.highlighted_game()
        if g is None:
            return "", ""
        short = g["id"][:8] if g["kind"] == "pbem" else short_name(g["id"])
        return g["id"], f"the highlighted game {short}"

    def action_watch(self) -> None:
        default, label = self._default()
        self.app.push_screen(
            PathDialog("Watch a record or a game, step by step", default, label), self.open_playback
        )

    def open_playback(self, arg: str | None) -> None:
        """Play ``arg`` back (a record, a file of packets, a game of the store), checked under
        a notice (:class:`ardennes_tui.screens.loading.LoadingScreen`)."""
        from ardennes_tui.screens.loading import LoadingScreen
        from ardennes_tui.screens.playback import PlaybackScreen

        if arg is None:
            return

        def then(verified: Verified) -> Screen[Any]:
            v = audit_view.view(verified)
            if v.game is None:
                raise ValueError(v.check)
            title = v.title if v.ok else f"{v.title} (FAILED after the last step)"
            return PlaybackScreen(v.game, title=title, notes=v.notes)

        self.app.push_screen(
            LoadingScreen(
                arg,
                lambda: audit_view.load(arg, self.store),
                then,
                lambda why: self.say(f"Cannot watch: {why}"),
            )
        )

    def action_audit(self) -> None:
        default, label = self._default()
        self.app.push_screen(PathDialog("Audit a game", default, label), self.open_audit)

    def open_audit(self, arg: str | None) -> None:
        """The audit of ``arg`` (a file of packets, a record, a game of the store)."""
        from ardennes_tui.screens.audit import AuditScreen
        from ardennes_tui.screens.loading import LoadingScreen

        if arg is None:
            return
        mine = game_list.my_fingerprints(game_list.key_rows())
        self.app.push_screen(
            LoadingScreen(
                arg,
                lambda: audit_view.load(arg, self.store),
                lambda verified: AuditScreen(audit_view.view(verified, mine)),
                lambda why: self.say(f"Cannot audit: {why}"),
            )
        )

    def action_keys(self) -> None:
        self.app.push_screen(TextDialog("Keys", keys_text(self.store)))

    def action_help(self) -> None:
        self.app.push_screen(TextDialog("The start screen", help_text()))

    def action_reload(self) -> None:
        self.reload()

    def action_quit(self) -> None:
        self.chosen = None
        self.app.exit()


def keys_text(store: Store) -> str:
    """Your keys with their fingerprints, then the keys pinned in each game by email."""
    from pbem import keys

    mine = game_list.key_rows()
    lines = [f"Your keys ({keys.key_dir()}):"]
    if not mine:
        lines.append("  none: make one with ardennes keygen NAME (it asks a passphrase)")
    for k in mine:
        lines.append(f"  {k.name} ({k.note})")
        lines.append(f"    {k.fingerprint or '-'}")
    fps = game_list.my_fingerprints(mine)
    lines += ["", "Keys pinned in your games by email (compare them out of band):"]
    try:
        pinned = game_list.pinned_rows(store)
    except (PbemError, OSError) as exc:
        pinned = []
        lines.append(f"  cannot read the store: {exc}")
    if not pinned:
        lines.append("  no game by email yet")
    for p in pinned:
        if p.problem:
            lines.append(f"  {p.game_id[:8]}  {p.problem}")
            continue
        who = f", opponent {p.opponent}" if p.opponent else ""
        lines.append(f"  {p.game_id[:8]}  you play the {p.our_side.capitalize()}{who}")
        for side, fp in (("German", p.german), ("Allied", p.allied)):
            yours = "  yours" if fp in fps else ""
            lines.append(f"    {side}  {fp}{yours}")
    return "\n".join(lines)
