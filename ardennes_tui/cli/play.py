"""``ardennes`` with no subcommand: a hot-seat game in the app (new, loaded from a record
file, or resumed from the store); every hot-seat game lives in the store
(:mod:`ardennes_tui.hotseat`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ardennes_tui import hotseat, saves
from ardennes_tui.app import play, play_email
from ardennes_tui.cli.email import player_identity
from ardennes_tui.email_session import EmailSession
from ardennes_tui.errors import UserError
from ardennes_tui.scenario_view import scenario_or_error
from pbem import config
from pbem.errors import PbemError
from pbem.games import Service
from pbem.store import Store


def run_app(
    scenario: int = 1,
    load: Path | None = None,
    *,
    seed: str | None = None,
    resume: str | None = None,
) -> int:
    """``ardennes [--scenario N] [--load FILE | --resume [NAME]] [--seed X]``: a new game of
    ``scenario`` (dice from ``seed``, default random), the record in ``load`` replayed and
    checked (:func:`ardennes_tui.saves.load_game`; its scenario and dice win; the game goes on
    in the store under a new name, the file is never written), or with ``resume`` (a name, a
    unique start of one, or ``""``: the most recent) a hot-seat game of the store
    (:func:`ardennes_tui.hotseat.resume`). A bad file or name is one line and exit status 1."""
    if resume is not None:
        try:
            game, loaded, stored = hotseat.resume(resume)
        except ValueError as exc:
            raise UserError(str(exc), 1) from None
        return play(game, loaded, stored)
    if load is None:
        scenario_or_error(scenario)
        return play(saves.new_game(scenario, seed))
    try:
        game, loaded = saves.load_game(load)
    except ValueError as exc:
        raise UserError(str(exc), 1) from None
    return play(game, loaded)


def run_email(args: argparse.Namespace) -> int:
    """``ardennes --email GAME [--key K] [--passphrase-file F]``: game GAME of the store
    played by email in the app. The key is resolved as the email commands do (a key that is
    not the one pinned for our side is refused before any passphrase is asked), all before
    the app starts; every problem is one line and exit status 1."""
    try:
        store = Store()
        service = Service(store)
        game_id = store.find_game(args.email.lower())
        me = player_identity(args, service, game_id)
        session = EmailSession(service, game_id, me)
    except PbemError as exc:
        raise UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1) from None
    try:
        has_smtp = config.load_config().smtp is not None
    except PbemError:
        has_smtp = False
    return play_email(session, has_smtp=has_smtp)
