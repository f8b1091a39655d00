"""The player's settings of the app, kept in the store (``settings.json`` at its root); no
Textual.

What a player chooses once and keeps from one game to the next: the pace at which the
computer's orders play out on the map (``slow``, ``normal``, ``fast``, ``instant``), whether
phases with nothing to decide are passed by themselves (an empty Reinforcement Phase, the
Supply Judgment Phase), and whether the detailed map shows hex numbers. A file that cannot be
read is the defaults (the app must open); a write that fails is said by the caller::

    s = load()                      # Settings(pace='normal', skip_empty=False, hex_numbers=True)
    save(dataclasses.replace(s, pace="fast"))   # written atomically
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import msgspec

from pbem.atomic import write_atomic
from pbem.core.errors import PbemError
from pbem.store import Store

__all__ = ["PACES", "Pace", "Settings", "load", "next_pace", "path", "save"]

Pace = Literal["slow", "normal", "fast", "instant"]

PACES: Final[dict[Pace, float]] = {"slow": 1.5, "normal": 0.6, "fast": 0.2, "instant": 0.0}
"""Seconds between two of the computer's orders on the map, by pace (``instant``: every
order of its turn at once, as Space does)."""

LIMIT: Final = 64 << 10
"""A settings file is small; a larger one is not read."""


class _File(msgspec.Struct, forbid_unknown_fields=False):
    pace: str = "normal"
    skip_empty: bool = False
    hex_numbers: bool = True


@dataclass(frozen=True)
class Settings:
    """The settings: the computer's ``pace``, ``skip_empty`` phases, ``hex_numbers`` on the
    detailed map."""

    pace: Pace = "normal"
    skip_empty: bool = False
    hex_numbers: bool = True

    @property
    def seconds(self) -> float:
        """Seconds between two of the computer's orders."""
        return PACES[self.pace]


def path(store: Store | None = None) -> Path:
    """Where the settings are: ``settings.json`` at the store's root."""
    return (store if store is not None else Store()).root / "settings.json"


def load(store: Store | None = None) -> Settings:
    """The saved settings, else the defaults (a missing or unreadable file)."""
    try:
        raw = path(store).read_bytes()
        if len(raw) > LIMIT:
            return Settings()
        f = msgspec.json.decode(raw, type=_File)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return Settings()
    pace: Pace = next((p for p in PACES if p == f.pace), "normal")
    return Settings(pace=pace, skip_empty=f.skip_empty, hex_numbers=f.hex_numbers)


def save(settings: Settings, store: Store | None = None) -> str | None:
    """Write ``settings`` (atomically); None, or why it could not (one line)."""
    p = path(store)
    data = msgspec.json.encode(
        _File(pace=settings.pace, skip_empty=settings.skip_empty, hex_numbers=settings.hex_numbers)
    )
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(p, data)
    except (OSError, PbemError) as exc:
        return f"Settings not saved: {exc}"
    return None


def next_pace(pace: Pace, step: int) -> Pace:
    """The pace ``step`` places faster (1) or slower (-1), stopping at the ends."""
    order: list[Pace] = ["slow", "normal", "fast", "instant"]
    i = max(0, min(len(order) - 1, order.index(pace) + step))
    return order[i]


def keep_numbers(numbers: bool) -> str | None:
    """Keep the hex numbers' setting (``#`` on a map); None, or why not."""
    return save(dataclasses.replace(load(), hex_numbers=numbers))
