"""Email kits: what email play needs of a game beyond its rules, per ruleset (issue 23).

:mod:`pbem` imports no ruleset (an import-linter contract): it reaches a game's rules through
its :class:`rules.ruleset.Ruleset` (found by the id the invitation names, :mod:`rules.registry`)
and everything else through the ruleset's *email kit* (:class:`EmailKit`), registered here by
the program (the composition root, ``ardennes_tui/rulesets/__init__.py``; a test registers its
own, ``tests/kit/tiny_kit.py``): the boards of the scenarios an invitation may name, the bots
of the computer opponent and of email self-play, and how a cover letter, ``ardennes show`` and
``ardennes status`` put a state, a batch and a verdict in words. A kit never knows another.

    kits.register(AO_KIT)            # the program, once, at start-up
    kit = kits.get("ao")             # PbemError for a ruleset without an email kit
    kit.board(1)                     # KeyError for a scenario it does not have
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec

from pbem.core import packets
from pbem.core.errors import PbemError, one_line
from pbem.core.typed import AnyRuleset, ruleset_of
from pbem.store import Store

__all__ = [
    "Bot",
    "EmailKit",
    "KitError",
    "decode_commands",
    "for_game",
    "get",
    "ids",
    "register",
    "ruleset_id",
    "stored_ruleset",
]


class KitError(PbemError):
    """No email kit for a ruleset (one line for the player), or a kit registered twice."""


class Bot(Protocol):
    """A computer player of one side: the next command for the game it is given (the
    ruleset's bound game, a draft's scratch copy)."""

    def choose(self, game: Any) -> Any: ...


class EmailKit(Protocol):
    """One ruleset's plug-in for email play (see the module docstring). Sides, phases and
    commands are the ruleset's own; ``state`` is its state type, ``game`` its game
    (:class:`rules.game.Game` of the ruleset)."""

    @property
    def id(self) -> str:
        """The ruleset's id (:attr:`rules.ruleset.Ruleset.id`): the kit serves its games."""
        ...

    @property
    def title(self) -> str:
        """The game's name in a sentence (``The Ardennes Offensive``): an invitation's cover."""
        ...

    @property
    def state_type(self) -> Any:
        """The ruleset's state type (a msgspec struct), to read a store's snapshot back."""
        ...

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        """The kinds of bot :meth:`opponent_bot` makes (``ardennes bot --kind``)."""
        ...

    @property
    def default_bot(self) -> str:
        """The kind the computer opponent plays unless told."""
        ...

    # -- boards ----------------------------------------------------------------------------

    def scenarios(self) -> Mapping[int, str]:
        """The scenarios an invitation may name: number -> title."""
        ...

    def board(self, scenario: int) -> Any:
        """The board of ``scenario`` (:class:`KeyError` for one it does not have). An email
        game has no levels of play: the board as written."""
        ...

    # -- bots ------------------------------------------------------------------------------

    def opponent_bot(self, kind: str, side: str, seed: bytes) -> Bot:
        """The computer opponent by email (``ardennes bot``): a bot of ``kind`` playing
        ``side``, its tie-breaks from ``seed`` (:class:`ValueError`: no such kind)."""
        ...

    def selfplay_bots(self, seed: str) -> Mapping[str, Bot]:
        """Both sides' bots of email self-play from ``seed`` (``ardennes selfplay --dice``)."""
        ...

    def selfplay_dice(self, seed: str) -> bytes:
        """The 32-byte dice seed of a local self-play game from ``seed``."""
        ...

    def default_orders(self, side: str) -> Any | None:
        """The standing orders given for ``side`` where it has none when a packet of
        ``ardennes orders`` or a bot's is written (the AO's engine/engine/strongest); None: a
        ruleset without standing orders."""
        ...

    def score(self, event: Any) -> tuple[int, int] | None:
        """The score an event tabulates, the second side's then the first's (the AO's VP,
        German then Allied), else None: what self-play reports."""
        ...

    # -- in words --------------------------------------------------------------------------

    def phase_words(self, phase: str) -> str:
        """A phase (:meth:`rules.ruleset.Ruleset.where`) as players say it."""
        ...

    def turn_words(self, turn: int) -> str:
        """A turn as players say it (the AO's ``Game-Turn 3``): a cover letter's words."""
        ...

    def batch_words(self, state: Any, kind: str) -> str:
        """The packet that answers or resolves the sealed batch ``state`` waits on, by what
        the batch is: ``kind`` ``reply`` (``reply to the declared attacks``) or
        ``resolution`` (``combat resolution``)."""
        ...

    def verdict_text(self, verdict: Any) -> str:
        """A verdict (the rules' or the players') in one line."""
        ...

    def verdict_data(self, verdict: Any) -> dict[str, Any]:
        """A verdict as ``ardennes show --json`` gives it (``winner``, ``kind`` and the
        ruleset's own fields)."""
        ...

    def position(self, state: Any) -> Any:
        """A state as JSON data (``ardennes show --json``'s ``position``)."""
        ...

    def batch_detail(self, game: Any) -> dict[str, Any]:
        """What a sealed batch waiting in ``game`` holds, for ``ardennes show`` (the AO's
        attacks with their odds, or the drop's hex)."""
        ...

    def own_roll(self, state: Any) -> dict[str, Any] | None:
        """A die of the acting player's own that ``state`` waits on, for ``ardennes show``
        (the AO's CRT switch: ``{"kind": "crt_switch", "side": ...}``), else None."""
        ...


_KITS: dict[str, EmailKit] = {}


def register(kit: EmailKit) -> None:
    """Make ``kit`` serve the games of its ruleset; the same kit again does nothing, another
    for a ruleset that has one is a :class:`KitError`."""
    old = _KITS.get(kit.id)
    if old is not None and old is not kit:
        raise KitError(f"an email kit for the ruleset {kit.id!r} is registered already")
    _KITS[kit.id] = kit


def get(ruleset_id: str) -> EmailKit:
    """The email kit of ``ruleset_id``; :class:`KitError` (one line) when this program has
    none for it."""
    kit = _KITS.get(ruleset_id)
    if kit is None:
        have = ", ".join(ids()) or "none"
        raise KitError(
            one_line(
                f"this program cannot play the ruleset {ruleset_id!r} by email (it plays: {have})",
                200,
            )
        )
    return kit


def ids() -> tuple[str, ...]:
    """The rulesets with an email kit, sorted."""
    return tuple(sorted(_KITS))


def ruleset_id(invitation: packets.Packet) -> str:
    """The ruleset an invitation (packet 0) names (none: the AO's)."""
    return invitation.body.ruleset or packets.DEFAULT_RULESET


def _invitation(store: Store, game_id: str) -> packets.Packet:
    try:
        return packets.decode(store.packet(game_id, 0))
    except PbemError as exc:
        raise PbemError(f"game {game_id[:8]}: its invitation cannot be read: {exc}") from None


def stored_ruleset(store: Store, game_id: str) -> AnyRuleset:
    """The ruleset of the stored game ``game_id`` (:mod:`rules.registry`), as its invitation
    names it; :class:`PbemError` for a damaged invitation or a ruleset this program has not."""
    return ruleset_of(_invitation(store, game_id).body)


def for_game(store: Store, game_id: str) -> EmailKit:
    """The email kit of the stored game ``game_id``, by the ruleset its invitation names;
    :class:`PbemError` for a damaged invitation or a ruleset without a kit."""
    return get(ruleset_id(_invitation(store, game_id)))


def decode_commands(ruleset: AnyRuleset, raw: Sequence[msgspec.Raw]) -> tuple[Any, ...]:
    """Commands kept as JSON (a saved draft, :mod:`pbem.drafts`; the rest of ``ardennes
    orders``, :mod:`pbem.orders_rest`), decoded strictly with ``ruleset``'s command type
    (:class:`msgspec.ValidationError`, :class:`msgspec.DecodeError`)."""
    return tuple(msgspec.json.decode(r, type=ruleset.command_type) for r in raw)
