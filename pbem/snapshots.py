"""The verified snapshot of a game's latest state, kept beside its packets so that importing
one packet does not replay the whole game (``docs/pbem-protocol.md`` section 8).

``games/<id>/snapshot.json`` holds the rules' state after the game's packets, how many packets
that is, and the state's hash. It is written after every packet stored, with the index
(:meth:`pbem.games.Service.write_meta`: atomically, under the game's lock), and read only to
resume (:meth:`pbem.core.protocol.EmailGame.resume`), which checks it against the packets (the
128 bits of the state hash their last command carries, signed) and refuses it otherwise. A
snapshot that is missing, damaged, or describes another number of packets is ignored, and the
game is replayed from its invitation instead; ``ardennes verify`` always replays.
"""

from __future__ import annotations

from typing import Final

import msgspec

import rules.ao
from pbem.atomic import read_limited, write_atomic
from pbem.core.protocol import EmailGame
from pbem.store import Store, StoreError

__all__ = ["SNAPSHOT_FILE", "read", "write"]

SNAPSHOT_FILE: Final = "snapshot.json"
MAX_SNAPSHOT_BYTES: Final = 4 << 20
"""A whole state is some tens of KB."""


class Snapshot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``snapshot.json``: the rules' state after the game's first ``packets`` packets."""

    packets: int
    hash: str
    state: rules.ao.GameState


_DEC: Final = msgspec.json.Decoder(Snapshot)


def write(store: Store, game_id: str, game: EmailGame) -> None:
    """Keep ``game``'s state as the snapshot of ``game_id`` (nothing before the acceptance)."""
    if game.game is None:
        return
    state = game.game.state
    snap = Snapshot(packets=len(game.packets), hash=rules.ao.state_hash(state), state=state)
    with store.transaction(game_id):
        write_atomic(store.game_dir(game_id) / SNAPSHOT_FILE, msgspec.json.encode(snap))


def read(store: Store, game_id: str, packets: int) -> rules.ao.GameState | None:
    """The snapshot's state when it describes ``packets`` packets and its hash is its own;
    None otherwise (to be replayed)."""
    path = store.game_dir(game_id) / SNAPSHOT_FILE
    try:
        data = read_limited(path, MAX_SNAPSHOT_BYTES, f"game {game_id[:8]}: snapshot", StoreError)
        snap = _DEC.decode(data)
    except (OSError, StoreError, msgspec.DecodeError, RecursionError):
        return None
    if snap.packets != packets or rules.ao.state_hash(snap.state) != snap.hash:
        return None
    return snap.state
