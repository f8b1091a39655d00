"""``ardennes`` alone (the start screen), ``ardennes --watch FILE|GAME`` (a game played back
from its start) and ``ardennes --audit FILE|GAME`` (the audit on screen).

The start screen (:class:`ardennes_tui.screens.start.StartScreen`) runs in its own app; a
game chosen there (:class:`Launch`) is played after that app ends, by the very functions
behind ``ardennes --scenario N`` (a new hot-seat game, of the ruleset chosen there),
``--resume NAME``, ``--email GAME``, ``--email new`` and ``--email accept GAME`` (so a key's
passphrase is asked on the terminal, and a game's session is held while it is open). When the
game is quit the start screen comes back; a game that cannot open (a wrong key, a game open in
another window) is one line on it. ``q`` on the start screen quits.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ardennes_tui.app import run_screen
from ardennes_tui.errors import UserError
from ardennes_tui.present import audit_view, game_list
from ardennes_tui.rulesets.ao.present.scenario_view import get_map
from ardennes_tui.screens.start import Launch, StartScreen
from pbem.store import Store
from rules.ao.bots.registry import DEFAULT
from rules.record import LEGACY_RULESET

Runner = Callable[[Launch], int]


def email_args(launch: Launch) -> argparse.Namespace:
    """The options of ``ardennes --email GAME``, ``--email new ...`` or ``--email accept
    GAME`` for ``launch``."""
    new = launch.kind == "email-new"
    accept = launch.kind == "email-accept"
    words = ["new"] if new else ["accept", launch.name] if accept else [launch.name]
    return argparse.Namespace(
        email=words,
        scenario=launch.scenario,
        side=launch.side if new else None,
        dice=launch.dice if new else None,
        opponent=(launch.opponent or None) if new or accept else None,
        key=launch.key or None,
        passphrase_file=None,
        seed=None,
    )


def play(launch: Launch) -> int:
    """Play ``launch`` as the command line would (``UserError``: one line)."""
    from ardennes_tui.cli.play import run_app, run_email

    if launch.kind == "new" and launch.ruleset != LEGACY_RULESET:
        return run_app(launch.scenario, ruleset=launch.ruleset)
    if launch.kind == "new":
        return run_app(launch.scenario)
    if launch.kind == "versus":
        return run_app(launch.scenario, versus=(launch.side, launch.level, DEFAULT))
    if launch.kind == "resume":
        return run_app(resume=launch.name)
    return run_email(email_args(launch))


def choose(notice: str = "", store: Store | None = None) -> Launch | None:
    """Run the start screen until a game is chosen (the :class:`Launch`) or the player quits
    (None)."""
    made: list[StartScreen] = []

    def make() -> StartScreen:
        made.append(StartScreen(store, notice))
        return made[-1]

    run_screen(make, get_map(None))
    return made[-1].chosen if made else None


def run_start(runner: Runner = play, store: Store | None = None) -> int:
    """``ardennes``: the start screen, the game chosen there, and back, until ``q``."""
    notice = ""
    while True:
        launch = choose(notice, store)
        if launch is None:
            return 0
        try:
            runner(launch)
            notice = ""
        except UserError as exc:
            notice = f"Not opened: {exc}"


def run_watch(arg: str, store: Store | None = None) -> int:
    """``ardennes --watch FILE|GAME``: the game played back from its start. A source that
    cannot be read is one line and exit status 1; a game that fails its check is played back
    as far as it verified (the title says so)."""
    from ardennes_tui.cli.play import checking
    from ardennes_tui.screens.playback import PlaybackScreen

    checking(arg)
    try:
        verified = audit_view.load(arg, store)
    except ValueError as exc:
        raise UserError(str(exc), 1) from None
    v = audit_view.view(verified)
    game = v.game
    if game is None:
        raise UserError(v.check, 1)
    title = v.title if v.ok else f"{v.title}; {v.check}"
    run_screen(lambda: PlaybackScreen(game, title=title, alone=True), game.board.game_map)
    return 0


def run_audit(arg: str, store: Store | None = None) -> int:
    """``ardennes --audit FILE|GAME``: the audit on screen (exit status 1 when the source
    cannot be read; a game that fails its check is shown with its failure)."""
    from ardennes_tui.cli.play import checking
    from ardennes_tui.screens.audit import AuditScreen

    checking(arg)
    try:
        verified = audit_view.load(arg, store)
    except ValueError as exc:
        raise UserError(str(exc), 1) from None
    mine = {k.fingerprint: k.name for k in game_list.key_rows() if k.fingerprint}
    v = audit_view.view(verified, mine)
    run_screen(lambda: AuditScreen(v, alone=True), get_map(None))
    return 0
