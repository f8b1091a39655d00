"""Fuzzing :meth:`pbem.games.Service.import_text` (Hypothesis): arbitrary bytes, and the
armoured packets of a real game mutated as mail and attackers would (bytes flipped, inserted
or deleted, blocks reordered, duplicated or cut, the packet's own bytes changed and armoured
again with a valid checksum).

Whatever comes in, the import never raises (every failure is a line of its report), and it
never writes part of anything: the store's packets stay a prefix of the real game's, grown by
exactly the packets the report accepted; an import that accepted nothing leaves every file of
the store byte-identical (``.lock`` aside), but for a refused packet that a pinned key really
signed, kept under ``evidence/`` (``docs/pbem-protocol.md`` section 8).

The number of cases scales with the Hypothesis profile: about 20 s in all by default,
``pytest --hypothesis-profile long tests/pbem/test_import_fuzz.py -s`` for 20 times as many
(the counts are printed with ``-s``).
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import armor, packets, selfplay
from pbem.exchange import armor_headers
from pbem.games import Service
from pbem.packets import Packet
from pbem.store import Store
from tests.realmap import needs_real_map

# one worker: the module's tests share what it builds once
pytestmark = [needs_real_map, pytest.mark.xdist_group("import_fuzz")]

SEED = "fuzz"
SCALE = (settings.default or settings()).max_examples / 100
"""1 with the default profiles, 20 with ``--hypothesis-profile long``."""
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@dataclass
class Receiver:
    """A player's store holding the first ``held`` packets of the real game, restored from
    ``pristine`` whenever an import changed it."""

    home: Path
    pristine: Path
    game_id: str
    real: tuple[Packet, ...]
    """Every packet of the real game, further than the store holds."""
    held: int
    svc: Service

    def snapshot(self) -> dict[str, bytes]:
        return {
            str(p.relative_to(self.home)): p.read_bytes()
            for p in sorted(self.home.rglob("*"))
            if p.is_file() and p.name != ".lock"
        }

    def restore(self) -> None:
        shutil.rmtree(self.home)
        shutil.copytree(self.pristine, self.home)
        self.svc = Service(Store(self.home))


@pytest.fixture(scope="module")
def receiver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Receiver]:
    root = tmp_path_factory.mktemp("fuzz")
    held = selfplay.play(1, SEED, "sealed", turns=1, root=root / "game")
    more = selfplay.play(1, SEED, "sealed", turns=2)  # the same game, one Game-Turn further
    assert more.packets[: len(held.packets)] == held.packets
    shutil.copytree(root / "game" / "allied", root / "pristine")
    home = root / "home"
    shutil.copytree(root / "pristine", home)
    yield Receiver(
        home, root / "pristine", held.game_id, more.packets, len(held.packets), Service(Store(home))
    )


def block(p: Packet) -> str:
    return armor.armor(packets.encode(p), armor_headers(p))


_REASONS = (
    "checksum",
    "signature",
    "signed by",
    "state hash",
    "not a packet",
    "out of order",
    "prev hash",
    "not in the store",
    "header says",
    "END",
    "base64",
    "packet",
)


def _kind(outcome: str, reason: str) -> str:
    """``refused (checksum)``: the outcome, and for a refusal the check that failed."""
    if outcome != "refused":
        return outcome
    return f"refused ({next((w for w in _REASONS if w in reason), 'other')})"


def check(r: Receiver, data: bytes, seen: Counter[str]) -> None:
    """Import ``data`` (never an exception) and check that nothing was written in part."""
    before = r.snapshot()
    n = r.svc.store.count(r.game_id)
    report = r.svc.import_text(data)
    lines = report.lines()
    assert lines, "an import always says what it did"
    assert all(line and "\n" not in line for line in lines)
    accepted = report.accepted
    seen.update(_kind(i.outcome, i.reason) for i in report.items)
    if not report.items:
        seen["nothing found"] += 1
    stored = r.svc.store.packets(r.game_id)
    assert stored == [packets.encode(p) for p in r.real[: len(stored)]], "not the real game"
    assert len(stored) == n + len(accepted), lines
    assert all(i.game_id == r.game_id for i in accepted)
    after = r.snapshot()
    if not accepted:
        new = {k: v for k, v in after.items() if before.get(k) != v}
        genuine = {packets.encode(p) for p in r.real}
        for name, content in new.items():  # only evidence, and only what a player signed
            assert name.startswith(f"games/{r.game_id}/evidence/refused-"), (name, lines)
            assert content in genuine, (name, lines)
        assert {k for k in before if k not in after} == set()
    if after != before:
        r.restore()


# -- arbitrary bytes --------------------------------------------------------------------------


def test_arbitrary_bytes(receiver: Receiver) -> None:
    seen: Counter[str] = Counter()
    cases = [0]
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
        cases[0] += 1
        check(receiver, data, seen)

    fuzz()
    print(f"\narbitrary bytes: {cases[0]} cases; outcomes {dict(sorted(seen.items()))}")


# -- mutated packets of a real game -----------------------------------------------------------


@st.composite
def mutated(draw: st.DrawFn, r: Receiver) -> bytes:
    """The armoured text of a few real packets around the store's next one, mutated."""
    first = draw(st.integers(max(0, r.held - 2), r.held + 1))
    count = draw(st.integers(1, 3))
    chosen = list(r.real[first : first + count])
    blocks = []
    for p in chosen:
        if draw(st.integers(0, 9)) == 0:  # an attacker changes the packet's bytes, re-armours
            data = bytearray(packets.encode(p))
            for _ in range(draw(st.integers(1, 3))):  # mostly still JSON: past the decoder
                i = draw(st.integers(0, len(data) - 1))
                data[i] = draw(st.sampled_from(b"0123456789abcdefz"))
            blocks.append(armor.armor(bytes(data), armor_headers(p)))
        else:
            blocks.append(block(p))
    if draw(st.booleans()):
        blocks = draw(st.permutations(blocks))
    if draw(st.integers(0, 3)) == 0:
        blocks = [*blocks, draw(st.sampled_from(blocks))]
    text = bytearray(draw(st.sampled_from(["", "> ", "hi,\n\n"])).encode())
    text += "\n".join(blocks).encode()
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if op == "flip":
            text[i] = draw(st.integers(0, 255))
        elif op == "insert":
            text[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del text[i : i + draw(st.integers(1, 80))]
        else:
            del text[i:]
    return bytes(text)


def test_mutated_packets_of_a_real_game(receiver: Receiver) -> None:
    seen: Counter[str] = Counter()
    cases = [0]

    @settings(FUZZ, max_examples=int(800 * SCALE))
    @given(mutated(receiver))
    def fuzz(data: bytes) -> None:
        cases[0] += 1
        check(receiver, data, seen)

    fuzz()
    print(f"\nmutated packets: {cases[0]} cases; outcomes {dict(sorted(seen.items()))}")
    assert seen["accepted"] and seen["duplicate"]
    assert seen["refused (checksum)"] and seen["refused (out of order)"]
