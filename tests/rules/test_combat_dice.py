"""Dice (``rules.dice``): rejection sampling, determinism, scripted dice, draw records."""

from __future__ import annotations

import hashlib
from collections import Counter

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import dice
from rules.dice import DiceError, DieRoll, ScriptedDice, SeededDice, d6_from_seed, draw


def reference_d6(seed: bytes, index: int) -> int:
    """An independent transcription of the documented scheme."""
    head = b"ardennes-d6/1" + seed + index.to_bytes(8, "big")
    k = 0
    while True:
        data = head if k == 0 else head + k.to_bytes(8, "big")
        for b in hashlib.sha256(data).digest():
            if b < 252:
                return b % 6 + 1
        k += 1


class Crafted:
    """A stand-in for ``dice._hash``: returns the given digests in turn, records the inputs."""

    def __init__(self, *digests: bytes) -> None:
        self.digests = list(digests)
        self.inputs: list[bytes] = []

    def __call__(self, data: bytes) -> bytes:
        self.inputs.append(data)
        return self.digests.pop(0)


def pad(prefix: list[int], fill: int = 0) -> bytes:
    return bytes(prefix + [fill] * (32 - len(prefix)))


def test_matches_an_independent_transcription_of_the_scheme() -> None:
    for seed in (b"", b"ardennes", bytes(range(32))):
        for index in (*range(50), 2**40, 2**63):
            assert d6_from_seed(seed, index) == reference_d6(seed, index)


def test_known_answers_pin_the_scheme() -> None:
    # Fixed vectors: a change of domain tag, byte order or rejection rule changes them.
    known = [3, 4, 3, 3, 2, 6, 5, 1, 1, 6, 4, 3]
    assert [SeededDice(b"ardennes").d6(i) for i in range(12)] == known
    assert [reference_d6(b"ardennes", i) for i in range(12)] == known


@pytest.mark.parametrize("b", range(256))
def test_every_first_byte_is_accepted_or_rejected_exactly(
    b: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The second byte is 10 (10 % 6 + 1 = 5): it shows only when the first one is rejected.
    monkeypatch.setattr(dice, "_hash", Crafted(pad([b, 10])))
    assert d6_from_seed(b"s", 0) == (b % 6 + 1 if b < 252 else 5)


def test_rejected_bytes_are_skipped_not_reduced(monkeypatch: pytest.MonkeyPatch) -> None:
    # 252..255 % 6 would give 1, 2, 3, 4: a value of 6 proves they were all skipped.
    monkeypatch.setattr(dice, "_hash", Crafted(pad([252, 253, 254, 255, 251])))
    assert d6_from_seed(b"s", 0) == 6
    monkeypatch.setattr(dice, "_hash", Crafted(pad([255, 255, 0])))
    assert d6_from_seed(b"s", 0) == 1


def test_an_all_rejected_block_continues_with_counter_blocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Crafted(pad([], 255), pad([], 252), pad([254, 7]))
    monkeypatch.setattr(dice, "_hash", fake)
    assert d6_from_seed(b"seed", 3) == 7 % 6 + 1
    head = b"ardennes-d6/1" + b"seed" + (3).to_bytes(8, "big")
    assert fake.inputs == [head, head + (1).to_bytes(8, "big"), head + (2).to_bytes(8, "big")]


def test_roughly_uniform_over_6000_draws() -> None:
    counts = Counter(SeededDice(b"uniformity").d6(i) for i in range(6000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(900 <= n <= 1100 for n in counts.values()), counts


def test_deterministic_and_independent_of_draw_order() -> None:
    a, b = SeededDice(b"x"), SeededDice(b"x")
    forward = [a.d6(i) for i in range(100)]
    backward = [b.d6(i) for i in reversed(range(100))][::-1]
    assert forward == backward == [SeededDice(b"x").d6(i) for i in range(100)]


def test_indices_and_seeds_give_different_streams() -> None:
    s = SeededDice(b"x")
    values = [s.d6(i) for i in range(64)]
    assert len(set(values)) == 6  # the index moves the die
    assert values != [SeededDice(b"y").d6(i) for i in range(64)]
    assert values != [s.d6(i + 1) for i in range(64)]


def test_seed_must_be_bytes_and_index_non_negative() -> None:
    with pytest.raises(TypeError):
        SeededDice("text")  # type: ignore[arg-type]
    with pytest.raises(DiceError):
        SeededDice(b"x").d6(-1)


@given(st.binary(max_size=64), st.integers(min_value=0, max_value=2**64 - 1))
def test_seeded_values_are_always_one_to_six(seed: bytes, index: int) -> None:
    assert 1 <= SeededDice(seed).d6(index) <= 6


def test_scripted_dice_replay_values_from_their_start() -> None:
    s = ScriptedDice([3, 1, 6], start=5)
    assert [s.d6(5), s.d6(6), s.d6(7)] == [3, 1, 6]
    assert s.d6(6) == 1  # addressed by index, not consumed
    with pytest.raises(DiceError, match="exhausted"):
        s.d6(8)
    with pytest.raises(DiceError, match="before the script"):
        s.d6(4)


@pytest.mark.parametrize("bad", [0, 7, -1, 2.5, True])
def test_scripted_dice_refuse_values_outside_one_to_six(bad: object) -> None:
    with pytest.raises(DiceError, match="1 to 6"):
        ScriptedDice([1, bad])  # type: ignore[list-item]


def test_draw_records_the_roll_and_advances_the_position() -> None:
    roll, nxt = draw(ScriptedDice([4, 2], start=10), 11, "combat:3512")
    assert roll == DieRoll(index=11, value=2, purpose="combat:3512")
    assert nxt == 12
    raw = msgspec.json.encode(roll)
    assert raw == b'{"type":"die_rolled","index":11,"value":2,"purpose":"combat:3512"}'
    assert msgspec.json.decode(raw, type=DieRoll) == roll


def test_draw_refuses_a_source_outside_one_to_six() -> None:
    class Broken:
        def uniform(self, index: int, n: int) -> int:
            return 0

    with pytest.raises(DiceError):
        draw(Broken(), 0, "paradrop")
