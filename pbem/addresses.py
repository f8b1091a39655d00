"""The opponent's mail address of a game by email.

A game's opponent has a label in ``meta.json`` (a name, a key fingerprint, or an address:
``invite --mailto``, ``--opponent ADDR``) and, once given, an ``address`` of its own
(:attr:`pbem.store.GameMeta.address`): the address typed in the app's send screen or given to
``ardennes export GAME --mailto ADDR`` when none was known. :func:`opponent_address` is where
mail goes; :func:`remember` keeps a new address and never replaces one already known.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from pbem.core.errors import PbemError
from pbem.store import Store

__all__ = ["MAX_ADDRESS", "AddressError", "check_address", "opponent_address", "remember"]

MAX_ADDRESS: Final = 254
"""The longest address taken (RFC 5321's limit on a forward path, less its brackets)."""
_FORBIDDEN: Final = re.compile(r"[\s,;<>()\[\]\"\\:\x00-\x1f\x7f]")


class AddressError(PbemError):
    """Not one mail address; the message is one line."""


def check_address(text: str) -> str:
    """``text`` (stripped) when it is one plain mail address (``name@domain``: no spaces, no
    list, no display name, at most :data:`MAX_ADDRESS` characters); else
    :class:`AddressError`."""
    addr = text.strip()
    if not addr:
        raise AddressError("no address given")
    if len(addr) > MAX_ADDRESS:
        raise AddressError(f"an address has at most {MAX_ADDRESS} characters")
    bad = _FORBIDDEN.search(addr)
    if bad is not None:
        what = "a space" if bad.group().isspace() else repr(bad.group())
        raise AddressError(f"one address only (name@domain), without {what}")
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain or "@" in local or domain.startswith("."):
        raise AddressError(f"{addr[:60]!r} is not an address (name@domain)")
    return addr


def _address_or_none(text: str) -> str | None:
    try:
        return check_address(text)
    except AddressError:
        return None


def opponent_address(store: Store, game_id: str) -> str | None:
    """Where mail to the opponent goes: the game's ``address``, else his label when it is an
    address, else None."""
    meta = store.meta(game_id)
    if meta.address:
        return _address_or_none(meta.address)
    return _address_or_none(meta.opponent)


def remember(store: Store, game_id: str, address: str) -> bool:
    """Keep ``address`` (checked) as the opponent's when none is known (:func:`opponent_address`
    is None): True when kept. ``last_activity`` stays: this is no move of the game."""
    addr = check_address(address)
    with store.transaction(game_id):
        if opponent_address(store, game_id) is not None:
            return False
        meta = msgspec.structs.replace(store.meta(game_id), address=addr)
        store.update_meta(game_id, meta, touch=False)
    return True
