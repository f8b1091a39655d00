"""The bots' random stream: deterministic, derived from a seed by SHA-256 (no ``random``).

Draw ``k`` of a stream is ``int.from_bytes(SHA-256(b"ardennes-bot/1" + seed + k8)[:8]) % n``
(``k8``: ``k`` as 8 big-endian bytes); the stream counts its draws, so the same seed and the
same sequence of questions give the same answers in every process. The modulo bias over
2**64 values is far below anything a game could notice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final, TypeVar

DOMAIN: Final = b"ardennes-bot/1"

_T = TypeVar("_T")


class BotRng:
    """A counter-mode SHA-256 stream of choices."""

    __slots__ = ("count", "seed")

    def __init__(self, seed: bytes, count: int = 0) -> None:
        if not isinstance(seed, bytes):
            raise TypeError("the bot seed must be bytes")
        self.seed = seed
        self.count = count

    def below(self, n: int) -> int:
        """A number in ``0 .. n-1`` (0 without drawing when ``n == 1``)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        digest = hashlib.sha256(DOMAIN + self.seed + self.count.to_bytes(8, "big")).digest()
        self.count += 1
        return int.from_bytes(digest[:8], "big") % n

    def choice(self, items: Sequence[_T]) -> _T:
        """One of ``items`` (which must not be empty)."""
        return items[self.below(len(items))]

    def derive(self, label: str) -> BotRng:
        """An independent stream for ``label`` (e.g. one per side)."""
        return BotRng(hashlib.sha256(DOMAIN + self.seed + label.encode()).digest())
