"""The store's verified snapshot (``pbem.snapshots``, protocol section 8): importing one packet
resumes the game at the snapshot instead of replaying it, to the very state a replay reaches;
a snapshot that is damaged, stale or made up is not used, and is written again."""

from __future__ import annotations

import msgspec
import pytest

import rules.ao
from pbem import snapshots
from pbem.core.protocol import EmailGame
from pbem.exchange import armor_packets
from pbem.games import Service
from pbem.store import Store
from tests.kit.realmap import needs_real_map
from tests.pbem import stores

pytestmark = needs_real_map


def _replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the replays from the invitation."""
    calls: list[int] = []
    real = EmailGame.replay.__func__  # type: ignore[attr-defined]

    def counted(cls: type[EmailGame], chain: object, board_for: object) -> EmailGame:
        calls.append(1)
        return real(cls, chain, board_for)

    monkeypatch.setattr(EmailGame, "replay", classmethod(counted))
    return calls


def test_one_packet_is_imported_without_a_replay(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 2
    svc, home = stores.cut_back(tmp_path_factory, n)
    gid = sent[0].body.game
    svc.index(gid)  # the cut-back store's index and snapshot, from its packets
    assert snapshots.read(svc.store, gid, n) is not None
    replays = _replays(monkeypatch)
    fresh = Service(Store(home))  # a new process: nothing in memory
    assert fresh.import_text(armor_packets([sent[n]])).ok
    again = Service(Store(home))
    assert again.import_text(armor_packets([sent[n + 1]])).ok
    assert replays == []
    resumed = Service(Store(home)).load(gid, history=False)
    assert resumed.partial and replays == []
    whole = Service(Store(home)).load(gid)  # the record, playback: replayed whole
    assert not whole.partial and replays == [1]
    assert resumed.game is not None and whole.game is not None
    assert resumed.game.state_hash() == whole.game.state_hash()
    assert resumed.hashes == whole.hashes and resumed.expects() == whole.expects()
    assert [p.revealed for p in resumed.parties.values()] == [
        p.revealed for p in whole.parties.values()
    ]
    assert (resumed.batch, resumed.offer, resumed.verdict) == (
        whole.batch,
        whole.offer,
        whole.verdict,
    )


@pytest.mark.parametrize("how", ["damaged", "stale", "made up"])
def test_a_snapshot_that_does_not_fit_is_not_used(
    how: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = stores.packets_of(tmp_path_factory)
    n = len(sent) - 1
    svc, home = stores.cut_back(tmp_path_factory, n)
    gid = sent[0].body.game
    svc.index(gid)
    path = svc.store.game_dir(gid) / snapshots.SNAPSHOT_FILE
    snap = msgspec.json.decode(path.read_bytes(), type=snapshots.Snapshot)
    if how == "damaged":
        path.write_bytes(path.read_bytes()[:-10])
    elif how == "stale":
        path.write_bytes(msgspec.json.encode(msgspec.structs.replace(snap, packets=n - 1)))
    else:  # another state, its own hash right: the packets' signed hashes refuse it
        vp = msgspec.structs.replace(snap.state.vp, german=snap.state.vp.german + 5)
        state = msgspec.structs.replace(snap.state, vp=vp)
        made = snapshots.Snapshot(packets=n, hash=rules.ao.state_hash(state), state=state)
        path.write_bytes(msgspec.json.encode(made))
        assert snapshots.read(svc.store, gid, n) == state
    replays = _replays(monkeypatch)
    fresh = Service(Store(home))
    assert fresh.import_text(armor_packets([sent[n]])).ok
    assert replays == [1]
    game = fresh.load(gid)
    assert game.game is not None
    after = snapshots.read(fresh.store, gid, n + 1)  # written again, from the replay
    assert after is not None and rules.ao.state_hash(after) == game.game.state_hash()
