"""The game store (``pbem/store.py``; docs/pbem-protocol.md, "The game store"): round trips,
atomic writes, equivocation kept as evidence, path traversal refused, the lock, and a crash
test that kills a writer with SIGKILL at random moments."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
import pytest

from pbem.store import (
    MAX_PACKET_BYTES,
    EquivocationError,
    GameLocked,
    GameMeta,
    Store,
    StoreError,
    default_root,
    new_game_id,
)
from tests.pbem.crash_writer import packet_bytes

WRITER = Path(__file__).with_name("crash_writer.py")
GID = "0123456789abcdef0123456789abcdef"
META = GameMeta(scenario=3, our_side="german", german="Ann", allied="Bob", dice_mode="sealed")


class Clock:
    """A clock that advances one minute per reading."""

    def __init__(self) -> None:
        self.t = datetime(1944, 12, 16, 5, 30, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "home"
    monkeypatch.setenv("ARDENNES_HOME", str(root))
    return root


@pytest.fixture
def store(home: Path) -> Store:
    return Store(home, clock=Clock())


def visible_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_default_root_is_ardennes_home(home: Path) -> None:
    assert default_root() == home
    assert Store().root == home


def test_round_trip(store: Store) -> None:
    meta = store.create_game(GID, META)
    assert meta.created == "1944-12-16T05:31:00+00:00" == meta.last_activity
    assert store.meta(GID) == meta and meta.opponent == "Bob"
    assert store.packets(GID) == [] and store.count(GID) == 0
    data = [b"invitation", b"acceptance", bytes(range(256)) * 10]
    for seq, pkt in enumerate(data):
        assert store.append(GID, seq, pkt) is True
    assert store.packets(GID) == data
    assert Store(store.root).packets(GID) == data  # another Store, as another process would
    assert store.packet(GID, 1) == b"acceptance"
    files = visible_files(store.game_dir(GID))
    assert files == [".lock", "meta.json", "packets/000000.pkt", "packets/000001.pkt",
                     "packets/000002.pkt"]  # fmt: skip
    assert store.meta(GID).last_activity > meta.created


def test_create_twice_refused(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"x")
    with pytest.raises(StoreError, match="already exists"):
        store.create_game(GID, META)
    assert store.packets(GID) == [b"x"]
    assert not [p for p in store.games_dir.iterdir() if p.name.startswith(".new-")]


def test_same_packet_again_is_a_no_op(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"a")
    store.append(GID, 1, b"b")
    assert store.append(GID, 0, b"a") is False
    assert store.packets(GID) == [b"a", b"b"]
    assert store.evidence(GID) == {}


def test_equivocation_keeps_both(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"invitation")
    store.append(GID, 1, b"orders: attack Bastogne")
    with pytest.raises(EquivocationError, match=r"seq 1 \(equivocation") as info:
        store.append(GID, 1, b"orders: attack St. Vith")
    assert info.value.seq == 1
    assert store.packets(GID) == [b"invitation", b"orders: attack Bastogne"]
    kept = store.evidence(GID)
    assert sorted(kept.values()) == [b"orders: attack Bastogne", b"orders: attack St. Vith"]
    assert set(kept) == set(info.value.kept)
    assert all(name.startswith("seq-000001.") for name in kept)
    with pytest.raises(EquivocationError):  # again: still refused, nothing more kept
        store.append(GID, 1, b"orders: attack St. Vith")
    assert len(store.evidence(GID)) == 2
    assert store.games()[0].evidence == 2


def test_gap_refused(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"a")
    with pytest.raises(StoreError, match="packet 2 arrives before packet 1"):
        store.append(GID, 2, b"c")
    assert store.packets(GID) == [b"a"]


def test_keep_evidence(store: Store) -> None:
    store.create_game(GID, META)
    name = store.keep_evidence(GID, "rejected-seq-3", b"forged")
    assert name.startswith("rejected-seq-3.") and name.endswith(".bin")
    assert store.keep_evidence(GID, "rejected-seq-3", b"forged") == name
    store.keep_evidence(GID, "rejected-seq-3", b"forged again")
    assert sorted(store.evidence(GID).values()) == [b"forged", b"forged again"]
    assert store.packets(GID) == []  # evidence changes nothing in the game


def test_reading_checks_contiguity_and_ignores_temps(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"a")
    packets = store.game_dir(GID) / "packets"
    (packets / ".000001.pkt.abc.tmp").write_bytes(b"half a pack")
    (packets / "README").write_text("not a packet")
    assert store.packets(GID) == [b"a"]
    store.append(GID, 1, b"b")  # the writer's lock cleans the crashed writer's temp file
    assert sorted(p.name for p in packets.iterdir()) == ["000000.pkt", "000001.pkt", "README"]
    (packets / "000001.pkt").unlink()
    (packets / "000002.pkt").write_bytes(b"c")
    with pytest.raises(StoreError, match="packet 1 is missing"):
        store.packets(GID)
    [info] = store.games()
    assert "packet 1 is missing" in info.problem


@pytest.mark.parametrize(
    "bad",
    ["../" + GID[3:], GID.upper(), GID + "0", GID[:-1] + "/", "..", "", "/etc/passwd",
     GID[:-1] + "\x00", 7],
)  # fmt: skip
def test_bad_game_ids_refused(store: Store, bad: object) -> None:
    for call in (
        lambda: store.create_game(bad, META),  # type: ignore[arg-type]
        lambda: store.append(bad, 0, b"x"),  # type: ignore[arg-type]
        lambda: store.packets(bad),  # type: ignore[arg-type]
        lambda: store.keep_evidence(bad, "x", b"x"),  # type: ignore[arg-type]
    ):
        with pytest.raises(StoreError, match="not a game id"):
            call()
    assert not store.root.exists() or visible_files(store.root) == []


@pytest.mark.parametrize("bad", [-1, 1_000_000, True, "1", 1.0])
def test_bad_seq_refused(store: Store, bad: object) -> None:
    store.create_game(GID, META)
    with pytest.raises(StoreError, match="not a packet number"):
        store.append(GID, bad, b"x")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="not a packet number"):
        store.packet(GID, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["../meta", ".hidden", "a/b", "a.b", "", "x" * 65])
def test_bad_names_refused(store: Store, bad: str) -> None:
    store.create_game(GID, META)
    with pytest.raises(StoreError, match="not a valid evidence name"):
        store.keep_evidence(GID, bad, b"x")
    with pytest.raises(StoreError, match="not a valid hot-seat game name"):
        store.save_local(bad, b"x")
    with pytest.raises(StoreError, match="not a valid hot-seat game name"):
        store.load_local(bad)


def test_unknown_game(store: Store) -> None:
    with pytest.raises(StoreError, match="is not in the store"):
        store.packets(GID)
    with pytest.raises(StoreError, match="is not in the store"):
        store.append(GID, 0, b"x")
    assert store.games() == [] and store.list_local() == []


def test_size_limits(store: Store) -> None:
    store.create_game(GID, META)
    with pytest.raises(StoreError, match="over 65536 bytes"):
        store.append(GID, 0, b"x" * (MAX_PACKET_BYTES + 1))
    with pytest.raises(StoreError, match="is empty"):
        store.append(GID, 0, b"")
    (store.game_dir(GID) / "packets" / "000000.pkt").write_bytes(b"x" * (MAX_PACKET_BYTES + 1))
    with pytest.raises(StoreError, match="over 65536 bytes"):
        store.packets(GID)
    (store.game_dir(GID) / "meta.json").write_bytes(b" " * (1 << 20))
    with pytest.raises(StoreError, match=r"meta\.json is over"):
        store.meta(GID)


def test_damaged_meta_is_listed_not_hidden(store: Store) -> None:
    store.create_game(GID, META)
    (store.game_dir(GID) / "meta.json").write_text('{"scenario": "three"}')
    [info] = store.games()
    assert info.game_id == GID and "meta.json is damaged" in info.problem


def test_meta_update_and_listing(store: Store) -> None:
    other = "f" * 32
    store.create_game(GID, META)
    store.create_game(other, GameMeta(scenario=1, our_side="allied", german="Carl"))
    store.append(GID, 0, b"invitation")
    meta = msgspec.structs.replace(store.meta(GID), to_move="allied", packets=1)
    new = store.update_meta(GID, meta)
    assert new.created == "1944-12-16T05:31:00+00:00"
    assert json.loads((store.game_dir(GID) / "meta.json").read_bytes())["to_move"] == "allied"
    first, second = store.games()
    assert first.game_id == GID  # the most recently active first
    assert (first.scenario, first.our_side, first.opponent, first.to_move, first.packets) == (
        3, "german", "Bob", "allied", 1,
    )  # fmt: skip
    assert (second.game_id, second.opponent, second.packets) == (other, "Carl", 0)
    assert not first.stale and second.stale  # its index says nothing of its 0 packets
    store.append(GID, 1, b"acceptance")  # a writer stopped before the index: whose move is "?"
    first = store.games()[0]
    assert (first.stale, first.to_move, first.packets) == (True, "", 2)
    # unknown fields (a newer program's) are ignored
    path = store.game_dir(other) / "meta.json"
    path.write_bytes(path.read_bytes()[:-1] + b',"future":1}')
    assert store.meta(other).scenario == 1


def _failing_replace(src: object, dst: object) -> None:
    raise OSError(28, "No space left on device")


def test_atomic_append(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"first")
    before = visible_files(store.root)
    monkeypatch.setattr(os, "replace", _failing_replace)
    with pytest.raises(OSError, match="No space"):
        store.append(GID, 1, b"second")
    with pytest.raises(OSError, match="No space"):
        store.save_local("hot", b"record")
    with pytest.raises(OSError, match="No space"):
        store.update_meta(GID, msgspec.structs.replace(META, to_move="x"))
    monkeypatch.undo()
    assert visible_files(store.root) == [*before, "local/.hot.lock"]
    assert store.packets(GID) == [b"first"] and store.meta(GID).to_move == ""
    store.append(GID, 1, b"second")
    assert store.packets(GID) == [b"first", b"second"]


def test_atomic_create(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "replace", _failing_replace)
    with pytest.raises(OSError):
        store.create_game(GID, META)
    monkeypatch.undo()
    assert visible_files(store.root) == [] and store.games() == []
    store.create_game(GID, META)


def test_local_round_trip(store: Store, home: Path) -> None:
    name = new_game_id()
    store.save_local(name, b"record 1")
    store.save_local(name, b"record 1 and 2")
    store.save_local("sunday-game", b"another")
    assert store.load_local(name) == b"record 1 and 2"
    assert sorted(x.name for x in store.list_local()) == sorted([name, "sunday-game"])
    assert {x.name: x.size for x in store.list_local()}[name] == 14
    assert sorted(p.name for p in (home / "local").iterdir()) == sorted(
        [f"{name}.jsonl", f".{name}.lock", "sunday-game.jsonl", ".sunday-game.lock"]
    )
    with pytest.raises(StoreError, match="not in the store"):
        store.load_local("nothing")


HOLDER = """
import sys, time
from pathlib import Path
from pbem.store import Store
store = Store(Path(sys.argv[1]))
with store.{what}(sys.argv[2]):
    print("held", flush=True)
    time.sleep(30)
"""


def _hold(root: Path, what: str, name: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER.format(what=what), str(root), name],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def test_lock_contention(store: Store) -> None:
    store.create_game(GID, META)
    store.append(GID, 0, b"a")
    proc = _hold(store.root, "transaction", GID)
    try:
        quick = Store(store.root, lock_wait=0.1)
        start = time.monotonic()
        with pytest.raises(GameLocked) as info:
            quick.append(GID, 1, b"b")
        assert time.monotonic() - start < 2
        assert str(info.value) == f"game {GID} is open in another process"
        with pytest.raises(GameLocked):
            quick.keep_evidence(GID, "x", b"x")
        assert quick.packets(GID) == [b"a"]  # reading needs no lock
    finally:
        proc.kill()
        proc.wait()
    assert quick.append(GID, 1, b"b")  # the lock dies with its process


def test_local_lock_contention(store: Store) -> None:
    store.save_local("hot", b"v1")
    proc = _hold(store.root, "local_session", "hot")
    try:
        with pytest.raises(GameLocked, match=r"^game hot is open in another process$"):
            Store(store.root, lock_wait=0).save_local("hot", b"v2")
    finally:
        proc.kill()
        proc.wait()
    assert store.load_local("hot") == b"v1"


def test_transaction_is_reentrant(store: Store) -> None:
    store.create_game(GID, META)
    with store.transaction(GID):
        assert store.count(GID) == 0
        store.append(GID, 0, b"a")
        store.update_meta(GID, META)
        with pytest.raises(GameLocked):  # another Store is another holder
            Store(store.root, lock_wait=0).append(GID, 1, b"b")
    Store(store.root, lock_wait=0).append(GID, 1, b"b")
    assert store.packets(GID) == [b"a", b"b"]


def test_crash() -> None:
    """A writer killed with SIGKILL at random moments loses no packet it reported written,
    leaves no partial packet visible, and the store takes further appends."""
    import tempfile

    rng = random.Random(int(os.environ.get("ARDENNES_CRASH_SEED", "20241216")))
    runs, killed_mid, mid_write, reported_total = 30, 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        Store(root).create_game(GID, META)
        reported: set[int] = set()
        started = time.monotonic()
        for _ in range(runs):
            proc = subprocess.Popen(
                [sys.executable, str(WRITER), str(root), GID],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert proc.stdout is not None
            assert proc.stdout.readline() == "ready\n"
            time.sleep(rng.uniform(0.0, 0.2))
            os.kill(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            assert proc.returncode == -signal.SIGKILL
            now = {int(line) for line in out.split()}
            reported |= now
            reported_total += len(now)
            mid_write += any(root.rglob("*.tmp"))  # killed between mkstemp and os.replace
            store = Store(root)
            packets = store.packets(GID)  # reopens: contiguous from 0, whole files only
            assert set(range(len(packets))) >= reported
            for seq, data in enumerate(packets):
                assert data == packet_bytes(seq), f"packet {seq} damaged"
            killed_mid += len(packets) > (max(reported) + 1 if reported else 0)
        elapsed = time.monotonic() - started
        store = Store(root)
        n = store.count(GID)
        assert store.append(GID, n, packet_bytes(n))
        assert store.packets(GID) == [packet_bytes(i) for i in range(n + 1)]
        temps = [p for p in root.rglob("*.tmp")]
        assert temps == []  # the next writer cleaned what the killed ones left
    print(
        f"crash test: {runs} kills, {n} packets, {reported_total} reported, {mid_write} kills "
        f"in the middle of a write, {killed_mid} after a write but before its report, "
        f"{elapsed:.1f} s"
    )


def _hot_seat_record(phase: str) -> bytes:
    from rules import record

    header: record.Header[None] = record.Header(
        format=record.FORMAT,
        version=record.VERSION,
        rules=record.RULES_VERSION,
        scenario=2,
        dice=record.DiceSpec.seeded(b"7", "7"),
    )
    footer: record.Footer[None] = record.Footer(commands=0, turn=3, phase=phase, hash="0" * 64)
    return record.encode(record.Record(header=header, lines=(), footer=footer))


def test_games_command(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from ardennes_tui.cli import games

    assert games.run(argparse.Namespace(json=False), store.root) == 0
    assert capsys.readouterr().out == "No games yet.\n"
    store.create_game(GID, META)
    store.append(GID, 0, b"invitation")
    store.update_meta(GID, msgspec.structs.replace(META, to_move="allied", packets=1))
    store.create_game("f" * 32, GameMeta(scenario=1, our_side="allied", german="Carl"))
    store.save_local("sunday", _hot_seat_record("combat"))
    store.save_local("broken", b"not a record")
    (store.game_dir("f" * 32) / "meta.json").write_text("{")

    assert games.run(argparse.Namespace(json=True), store.root) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {g["id"]: g for g in data}
    assert by_id[GID] == {
        "id": GID, "kind": "pbem", "scenario": 3, "side": "german", "to_move": "allied",
        "last_activity": "1944-12-16T05:33:00+00:00", "opponent": "Bob", "status": "",
        "packets": 1, "evidence": 0,
    }  # fmt: skip
    assert "meta.json is damaged" in by_id["f" * 32]["status"]
    assert (by_id["sunday"]["kind"], by_id["sunday"]["scenario"]) == ("hot-seat", 2)
    assert by_id["sunday"]["to_move"] == "GT3 Combat"
    assert (by_id["broken"]["scenario"], by_id["broken"]["to_move"]) == (None, "?")

    assert games.run(argparse.Namespace(json=False), store.root) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["GAME", "SC", "SIDE", "DICE", "TO", "MOVE", "LAST", "ACTIVITY",
                              "OPPONENT"]  # fmt: skip
    assert out[1].split() == ["01234567", "3", "German", "sealed", "Allied", "1944-12-16",
                              "05:33", "UTC", "Bob"]  # fmt: skip
    assert "sealed dice: no roll chosen; a batch's dice seen on the reply" in out
    assert "[game ffffffff" in "\n".join(out)
    assert any(line.startswith("sunday ") and "GT3 Combat" in line for line in out)


def test_games_command_via_main(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from ardennes_tui.cli import games

    parser = argparse.ArgumentParser()
    games.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["games", "--json"])
    assert args.func(args) == 0  # the store of $ARDENNES_HOME
    assert json.loads(capsys.readouterr().out) == []


def test_find_game(store: Store) -> None:
    store.create_game(GID, META)
    store.create_game("0123" + "f" * 28, META)
    assert store.find_game("012345") == store.find_game(GID) == GID
    with pytest.raises(StoreError, match="2 games in the store"):
        store.find_game("0123")
    with pytest.raises(StoreError, match="no game"):
        store.find_game("dead")
    with pytest.raises(StoreError, match="not a game id"):
        store.find_game("../x")
