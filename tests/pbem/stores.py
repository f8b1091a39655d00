"""Stores holding a real game by email, for tests of import and of the store: a self-play game
of scenario 1 (sealed dice, one Game-Turn), made once per session, and copies of a player's
store cut back to its first packets, to import the rest into."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from pbem import selfplay
from pbem.core.identity import KeyIdentity
from pbem.core.packets import Packet
from pbem.games import Service
from pbem.store import Store

SEED = "stores"


@cache
def _played(root: str) -> selfplay.EmailSelfPlay:
    return selfplay.play(1, SEED, "sealed", turns=1, root=Path(root))


def played(tmp: pytest.TempPathFactory) -> tuple[selfplay.EmailSelfPlay, Path]:
    """The game and the folder of its two stores (``german/``, ``allied/``)."""
    root = tmp.getbasetemp() / "stores-game"
    return _played(str(root)), root


def key(side: str) -> KeyIdentity:
    return selfplay.player_key(side, SEED)


def cut(store: Path, to: Path, game_id: str, upto: int) -> None:
    """Copy the store at ``store`` to ``to``, keeping only packets ``0..upto-1`` of
    ``game_id`` (its index left as it was: stale until written again)."""
    shutil.copytree(store, to, dirs_exist_ok=True)
    folder = to / "games" / game_id / "packets"
    for path in sorted(folder.iterdir())[upto:]:
        path.unlink()


def cut_back(tmp: pytest.TempPathFactory, upto: int, side: str = "allied") -> tuple[Service, Path]:
    """A copy of ``side``'s store holding only packets ``0..upto-1`` (:func:`cut`), and its
    folder."""
    game, root = played(tmp)
    home = tmp.mktemp(f"cut-{upto}")
    cut(root / side, home, game.game_id, upto)
    return Service(Store(home)), home


def packets_of(tmp: pytest.TempPathFactory) -> tuple[Packet, ...]:
    return played(tmp)[0].packets
