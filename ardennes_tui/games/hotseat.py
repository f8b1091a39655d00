"""Hot-seat games in the store (``docs/pbem-protocol.md``, "The game store"); no Textual.

Every hot-seat game lives in the store under a name (:func:`pbem.store.new_game_id`): the app
holds ``store.local_session(name)`` while the game is open (a second copy of the program on
the same game is refused in one line) and writes ``rules.record.encode(game.record())`` with
``store.save_local`` after every accepted command (undo too), so quitting never loses an
order. ``ardennes --resume [NAME]`` reopens one, replayed and checked like ``--load``::

    stored = StoredGame.new(Store())           # a new name
    with stored.session():                     # GameLocked: open in another process
        stored.save(game)                      # after every command
    game, loaded, stored = resume("3f9c")      # a unique start of the name; None: the latest

The store is ``$ARDENNES_HOME`` or the user data directory (:func:`pbem.store.default_root`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Final

import rules.ao
from ardennes_tui.games import saves
from pbem.store import Store, StoreError, new_game_id
from rules import record

SAVE_ERRORS: Final = (StoreError, OSError)
"""What :meth:`StoredGame.save` may raise (a full disk, a store that cannot be written)."""


class StoredGame:
    """One hot-seat game of the store: its :attr:`name` and the :class:`Store` that holds
    its session (the lock is per open file, so saves go through the same store)."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self.name = name

    @classmethod
    def new(cls, store: Store | None = None) -> StoredGame:
        """A new name in ``store`` (default: the user's store)."""
        return cls(store if store is not None else Store(), new_game_id())

    @property
    def short(self) -> str:
        """The name as the app shows it (:func:`ardennes_tui.games.saves.short_name`)."""
        return saves.short_name(self.name)

    def session(self) -> AbstractContextManager[None]:
        """Hold the game's lock (:meth:`pbem.store.Store.local_session`): raises
        :class:`pbem.store.GameLocked` when another process has it open."""
        return self.store.local_session(self.name)

    def save(self, game: rules.ao.Game) -> None:
        """Write ``game``'s record (atomically); raises one of :data:`SAVE_ERRORS`."""
        self.store.save_local(self.name, record.encode(game.record()))


def find_local(store: Store, prefix: str | None) -> str:
    """The name of the hot-seat game ``prefix`` names (the name or a unique start of it);
    without ``prefix`` the most recently saved. ``ValueError``: one line for the player."""
    names = [info.name for info in store.list_local()]
    if not names:
        raise ValueError(f"no hot-seat game in the store ({store.local_dir}): ardennes starts one")
    if not prefix:
        return names[0]
    if prefix in names:
        return prefix
    found = [n for n in names if n.startswith(prefix)]
    if len(found) != 1:
        what = "no hot-seat game" if not found else f"{len(found)} hot-seat games"
        raise ValueError(f"{what} in the store with a name starting {prefix!r} (ardennes games)")
    return found[0]


def resume(
    prefix: str | None, store: Store | None = None
) -> tuple[rules.ao.Game, saves.Loaded, StoredGame]:
    """``ardennes --resume [NAME]``: the hot-seat game ``prefix`` names (:func:`find_local`),
    replayed and checked like ``--load`` (:func:`ardennes_tui.games.saves.replay_data`: a record
    edited by hand is refused naming its first diverging command). ``ValueError``: one line."""
    store = store if store is not None else Store()
    name = find_local(store, prefix)
    try:
        data = store.load_local(name)
    except StoreError as exc:
        raise ValueError(str(exc)) from None
    game, rec = saves.replay_data(data, f"hot-seat game {name}")
    loaded = saves.Loaded(
        path=store.local_dir / f"{name}.jsonl",
        players=rec.header.players,
        commands=len(rec.lines),
        save_path=saves.default_save_path(game),
        resumed=name,
    )
    return game, loaded, StoredGame(store, name)
