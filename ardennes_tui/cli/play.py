"""``ardennes`` with no subcommand: a hot-seat game in the app (new, or loaded from a record)."""

from __future__ import annotations

from pathlib import Path

from ardennes_tui import saves
from ardennes_tui.app import play
from ardennes_tui.errors import UserError
from ardennes_tui.scenario_view import scenario_or_error


def run_app(scenario: int = 1, load: Path | None = None, *, seed: str | None = None) -> int:
    """``ardennes [--scenario N] [--load FILE] [--seed X]``: a new game of ``scenario`` (dice
    from ``seed``, default random), or the record in ``load`` replayed and checked
    (:func:`ardennes_tui.saves.load_game`; its scenario and dice win). A bad file is one line
    and exit status 1."""
    if load is None:
        scenario_or_error(scenario)
        return play(saves.new_game(scenario, seed))
    try:
        game, loaded = saves.load_game(load)
    except ValueError as exc:
        raise UserError(str(exc), 1) from None
    return play(game, loaded)
