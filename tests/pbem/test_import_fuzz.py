"""Fuzzing the import (Hypothesis, in ``make test``): arbitrary bytes, and the packets of a
real game damaged at every layer, structure-aware (:mod:`tests.pbem.fuzzkit`: the signed body
changed and signed again with the author's key, the SSHSIG blob, the framing, the deflate
stream, the base64, the armour, the mail around it).

Whatever comes in, the import raises nothing, says one line per packet, and writes nothing in
part (:func:`tests.pbem.fuzzkit.check`). ``make fuzz`` runs the same cases by the hundred
thousand (``tests/pbem/fuzz.py``); here a few thousand, about 20 s (``-s`` prints the counts).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games import Service
from pbem.store import Store
from tests.kit.realmap import needs_real_map
from tests.pbem import fuzzkit, stores

# one worker: the module's tests share what it builds once
pytestmark = [needs_real_map, pytest.mark.xdist_group("import_fuzz")]

SCALE = (settings.default or settings()).max_examples / 100
"""1 with the default profiles (100 examples), 20 with ``--hypothesis-profile long``."""
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
START = 3


@pytest.fixture(scope="module")
def receiver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[fuzzkit.Receiver]:
    game, root = stores.played(tmp_path_factory)
    pristine = tmp_path_factory.mktemp("fuzz-pristine")
    stores.cut(root / "allied", pristine, game.game_id, START)
    Service(Store(pristine)).index(game.game_id)
    keys = {s: stores.key(s) for s in ("german", "allied")}
    keys["mallory"] = stores.key("mallory")
    home = tmp_path_factory.mktemp("fuzz") / "home"
    yield fuzzkit.Receiver(home, pristine, game.game_id, game.packets, START, keys, rolling=False)


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync makes a write survive a power cut, which ``test_store.py`` tests by killing
    writers; here it would be most of the time."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def test_structured_cases(receiver: fuzzkit.Receiver, no_fsync: None) -> None:
    before = receiver.cases

    @settings(FUZZ, max_examples=int(2500 * SCALE))
    @given(st.data())
    def fuzz(data: st.DataObject) -> None:
        d = fuzzkit.HypothesisDraw(data)
        layer, raw = fuzzkit.case(d, receiver.real, receiver.held, receiver.keys)
        fuzzkit.check(receiver, layer, raw)

    fuzz()
    seen = receiver.seen
    print(f"\n{receiver.cases - before} structured cases: {dict(sorted(seen.items()))}")
    for layer in set(fuzzkit.LAYERS) - {"genuine"}:
        assert any(k.startswith(f"{layer}: refused") for k in seen), layer
    for outcome in ("accepted", "duplicate", "equivocation"):
        assert any(k.endswith(f": {outcome}") for k in seen), outcome
    for why in ("canonical", "bad signature", "not a packet", "deflated"):  # the common ones
        assert any(f"({why})" in k for k in seen), why


def test_arbitrary_bytes(receiver: fuzzkit.Receiver, no_fsync: None, tmp_path: Path) -> None:
    head = "-----BEGIN ARDENNES PACKET-----\n"
    tail = "-----END ARDENNES PACKET-----\n"
    wrapped = st.builds(
        lambda b, junk, end: (head + b + junk + (tail if end else "")).encode(),
        st.sampled_from([f"Game: {receiver.game_id}\nSeq: {receiver.held}\n\n", ""]),
        st.text(max_size=300),
        st.booleans(),
    )

    @settings(FUZZ, max_examples=int(500 * SCALE))
    @given(st.one_of(st.binary(max_size=2000), st.text(max_size=500).map(str.encode), wrapped))
    def fuzz(data: bytes) -> None:
        fuzzkit.check(receiver, "bytes", data)

    fuzz()
