"""Dice chains and seeds (``pbem.core.chain``, protocol section 4) and the audit's statistics."""

from __future__ import annotations

import hashlib
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core import chain, stats
from rules import SeededDice

GAME = bytes.fromhex("00112233445566778899aabbccddeeff")


def test_the_chain_links_down_to_its_commitment() -> None:
    c = chain.Chain(b"\x07" * 32, length=64)
    assert c.link(64) == b"\x07" * 32  # the secret is the last link revealed
    assert c.commitment == c.link(0)
    for k in range(1, 65):
        assert chain.verify_link(c.link(k - 1), c.link(k))
        assert c.link(k - 1) == hashlib.sha256(b"ardennes-link/1" + c.link(k)).digest()
    assert not chain.verify_link(c.link(0), c.link(2))  # skipping a link is caught
    with pytest.raises(chain.ChainError):
        c.link(65)


@given(st.binary(min_size=32, max_size=32), st.integers(0, 255), st.integers(0, 31))
def test_a_changed_link_is_refused(secret: bytes, flip: int, at: int) -> None:
    c = chain.Chain(secret, length=3)
    bad = bytearray(c.link(2))
    bad[at] ^= flip or 1
    assert not chain.verify_link(c.link(1), bytes(bad))


def test_the_secret_is_per_key_and_per_game() -> None:
    key_a, key_b = b"a" * 32, b"b" * 32
    other = bytes(16)
    s = chain.chain_secret(key_a, GAME)
    assert len(s) == 32 and s == chain.chain_secret(key_a, GAME)
    assert s != chain.chain_secret(key_b, GAME) and s != chain.chain_secret(key_a, other)
    with pytest.raises(chain.ChainError, match="the game id must be 16 bytes"):
        chain.chain_secret(key_a, b"short")


def test_seeds_bind_every_input() -> None:
    x, y, h = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32
    base = chain.batch_seed(GAME, 1, x, y, h)
    changed = [
        chain.batch_seed(bytes(16), 1, x, y, h),
        chain.batch_seed(GAME, 2, x, y, h),
        chain.batch_seed(GAME, 1, y, x, h),  # mover and opponent are not interchangeable
        chain.batch_seed(GAME, 1, x, y, x),
    ]
    assert all(s != base for s in changed)
    assert len({*changed, base}) == 5
    switch = chain.switch_seed(GAME, 1, x, y, h)
    assert switch != chain.switch_seed(GAME, 1, x, y, x)  # the previous packet's hash counts
    assert switch != chain.switch_seed(GAME, 2, x, y, h)
    assert switch != chain.switch_seed(GAME, 1, y, x, h)
    # the three kinds of seed never coincide for the same inputs (domain separation)
    assert len({base, switch, chain.open_seed(GAME, 1, x, y)}) == 3
    with pytest.raises(chain.ChainError, match="the reply hash must be 32 bytes"):
        chain.batch_seed(GAME, 1, x, y, b"")


def derived_d6(n: int) -> list[int]:
    """``n`` d6 values as the protocol derives them: 1,000 batch seeds from two real chains,
    ``n / 1000`` draws of each (draw indices as in a game: continuing across batches)."""
    mover = chain.Chain(chain.chain_secret(b"m" * 32, GAME), length=1000)
    opponent = chain.Chain(chain.chain_secret(b"o" * 32, GAME), length=1000)
    per = n // 1000
    out: list[int] = []
    for b in range(1, 1001):
        reply = hashlib.sha256(b"reply" + b.to_bytes(4, "big")).digest()
        dice = SeededDice(chain.batch_seed(GAME, b, mover.link(b), opponent.link(b), reply))
        out.extend(dice.d6(i) for i in range((b - 1) * per, b * per))
    return out


def test_a_million_derived_d6_pass_a_chi_square_test() -> None:
    values = derived_d6(1_000_000)
    counts = stats.face_counts(values)
    chi2 = stats.chi_square(counts)
    assert sum(counts) == 1_000_000
    assert stats.p_value(chi2) > 0.001, (counts, chi2)
    # and the test has teeth: the classic b % 6 over all 256 byte values fails it
    biased = [hashlib.sha256(i.to_bytes(4, "big")).digest()[0] % 6 + 1 for i in range(1_000_000)]
    assert stats.p_value(stats.chi_square(stats.face_counts(biased))) < 1e-6


def test_p_value_against_known_quantiles() -> None:
    # chi-square with 5 degrees of freedom: P(X >= 11.0705) = 0.05, P(X >= 20.5150) = 0.001
    assert stats.p_value(11.0705) == pytest.approx(0.05, abs=1e-5)
    assert stats.p_value(20.5150) == pytest.approx(0.001, abs=1e-6)
    assert stats.p_value(4.35146) == pytest.approx(0.5, abs=1e-5)
    assert stats.p_value(0.0) == 1.0
    assert stats.chi_square([10, 10, 10, 10, 10, 10]) == 0.0
    assert stats.chi_square([16, 10, 10, 10, 10, 4]) == pytest.approx(72 / 10)
    with pytest.raises(ValueError):
        stats.face_counts([1, 7])


def test_counts_in_order() -> None:
    faces = list(itertools.chain.from_iterable([f] * f for f in range(1, 7)))
    assert stats.face_counts(faces) == (1, 2, 3, 4, 5, 6)
