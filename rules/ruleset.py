"""The ruleset seam: what one game system gives the generic machinery (``docs/engine.md``).

A *ruleset* is one game system - The Ardennes Offensive (:mod:`rules.ao`), later
*Breakthrough in the Ardennes* - behind one interface, :class:`Ruleset`. Through it the
generic :class:`rules.game.Game`, the game record (:mod:`rules.record`) and, from phase 2 of
issue 23, ``pbem`` and the app's shell reach a game without knowing which one it is. The
ruleset is a plain object (a module-level instance); its types are its own:

* ``B`` its board (the fixed part of a game: map, counters, scenario data),
* ``S`` its state (immutable, with canonical bytes and a hash, :meth:`Ruleset.state_bytes`),
* ``C`` its commands and ``E`` its events (msgspec tagged unions: canonical JSON),
* ``A`` what an accepted command gives (:class:`AppliedLike`: the new state and its events),
* ``O`` its answer to "what may be done now" (:class:`OptionsLike`),
* ``V`` its verdict (:class:`VerdictLike`),
* ``L`` its level of play against the computer, if it has levels (written in the record's
  header; ``None`` for a game as written).

Hidden information (Iron Tide's morale chits; the AO has none) goes through
:meth:`Ruleset.public_view` and :meth:`Ruleset.revealed`; how commitments to hidden values
ride in email packets is designed in ``docs/engine.md``, "Hidden information".

Dice are :meth:`rules.dice.DiceSource.uniform` draws (``uniform(index, n)``: 1..n); a ruleset
draws d6 (the AO), percentages (*Breakthrough*: ``uniform(index, 100)``) or anything up to 256
faces from the same seeded stream (:mod:`rules.dice`).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Protocol, TypeVar

import msgspec

from rules.dice import DiceSource, DieRoll
from rules.rejection import Rejection

B = TypeVar("B")
S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
A = TypeVar("A", bound="AppliedLike[Any, Any]")
O = TypeVar("O", bound="OptionsLike")  # noqa: E741 - the options type, as B, S, C, E are
V = TypeVar("V", bound="VerdictLike")
L = TypeVar("L")

S_co = TypeVar("S_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)
C_contra = TypeVar("C_contra", contravariant=True)
A_co = TypeVar("A_co", bound="AppliedLike[Any, Any]", covariant=True)
O_co = TypeVar("O_co", bound="OptionsLike", covariant=True)
V_co = TypeVar("V_co", bound="VerdictLike", covariant=True)


class AppliedLike(Protocol[S_co, E_co]):
    """An accepted command's result: the new state and what happened, in order."""

    @property
    def state(self) -> S_co: ...

    @property
    def events(self) -> tuple[E_co, ...]: ...


class OptionsLike(Protocol):
    """What may be done in one state, as the generic machinery reads it. The ruleset's own
    options type carries its detail (the AO's: movable units, targets, the pending decision)
    beside these."""

    @property
    def hash(self) -> str:
        """The hash of the state answered."""
        ...

    @property
    def mode(self) -> str:
        """The kind of input the state waits for, in the ruleset's own vocabulary (the AO's
        ``setup``, ``movement``, ``combat``, ``decision``, ``roll``...; every ruleset has
        ``game_over``)."""
        ...

    @property
    def acting(self) -> str | None:
        """The side that gives the next command (None once the game is over)."""
        ...

    @property
    def may_end_phase(self) -> bool:
        """The ruleset's end-of-phase command is accepted now."""
        ...


class VerdictLike(Protocol):
    """The end of a game: who won (None for a draw) and which rule (or the players) decided."""

    @property
    def winner(self) -> str | None: ...

    @property
    def kind(self) -> str: ...


DiceWaitKind = Literal["none", "batch", "own"]
"""What dice a state waits on (:meth:`Ruleset.dice_wait`): none; a *batch* that waits for the
opponent's reply before its dice (the AO's declared attacks, its paratroop drop); or a roll of
the acting player's *own* that nobody else decides anything about (the AO's CRT switch)."""


class DiceWait(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The dice a state waits on, for email play: ``kind`` (:data:`DiceWaitKind`), the command
    that resolves them (``resolver``; None when ``kind`` is ``none``), a word for what they
    are for (``purpose``, the ruleset's own: ``combat``, ``crt_switch``, ``paradrop``) and
    whether the acting player may still add to a waiting batch before he sends it
    (``extendable``: the AO's declared attacks; not its drop, nor Tiny's strike: the packet
    ends there)."""

    kind: DiceWaitKind = "none"
    resolver: Any = None
    purpose: str = ""
    extendable: bool = False


NO_DICE = DiceWait()


class Reveal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hidden value the rules make public now (:meth:`Ruleset.revealed`): whose it is
    (``side``), which one (``key``, the ruleset's own name: ``morale:de-7``) and its value.
    An email packet that reveals it carries the opening of the commitment made when the value
    was drawn or chosen (``docs/engine.md``, "Hidden information")."""

    side: str
    key: str
    value: int


class RollPlace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where the audit places one die (:meth:`Ruleset.roll_place`): the ``turn``, the
    ``side`` whose turn it is and the ``phase`` it was rolled in, ``of`` whose roll the dice
    statistics count it as (the AO's combat die: the attacker's; its CRT switch and
    paradrop: the German's) and ``effect``, what it did, in words (empty: nothing to say)."""

    turn: int
    side: str
    phase: str
    of: str
    effect: str = ""


class Ruleset(Protocol[B, S, C_contra, E_co, A_co, O_co, V_co, L]):
    """One game system. Everything :class:`rules.game.Game`, :mod:`rules.record` and email play
    need, and nothing they would have to know about the game itself."""

    # -- identity and types ----------------------------------------------------------------

    @property
    def id(self) -> str:
        """The ruleset's id, written in record headers (``ao``); lowercase letters and digits."""
        ...

    @property
    def version(self) -> str:
        """The rules version the engine plays; goes up whenever a change can change a game
        (the AO's ``ao-1973+errata-1973-05-31/4``)."""
        ...

    @property
    def sides(self) -> tuple[str, str]:
        """The two sides, the first to set up first."""
        ...

    @property
    def command_type(self) -> Any:
        """The command type (a msgspec tagged union), for decoding records and packets."""
        ...

    @property
    def event_type(self) -> Any:
        """The event type (a msgspec tagged union)."""
        ...

    @property
    def verdict_type(self) -> Any:
        """The verdict type, as written in a record's end line."""
        ...

    @property
    def level_type(self) -> Any:
        """The level-of-play type written in a record's header (``None`` type: no levels)."""
        ...

    # -- the rules -----------------------------------------------------------------------------

    def new_game(self, board: B) -> S:
        """The state before the first command of a game on ``board``."""
        ...

    def apply(
        self, board: B, state: S, command: C_contra, dice: DiceSource | None
    ) -> A_co | Rejection:
        """Apply ``command``: the new state and its events, or why the rules refuse it (and
        nothing changes). Pure; dice come only from ``dice`` at :meth:`dice_drawn`."""
        ...

    def options(self, board: B, state: S, state_hash: str) -> O_co:
        """What may be done in ``state`` (whose hash is ``state_hash``)."""
        ...

    def acting(self, board: B, state: S) -> str | None:
        """The side that gives the next command, None once the game is over: the ``acting``
        of :meth:`options`, without its search for what may be done (email play asks it before
        every command it checks)."""
        ...

    def outcome(self, state: S) -> V_co | None:
        """The verdict once the game is over, else None."""
        ...

    def state_bytes(self, state: S) -> bytes:
        """The canonical bytes of ``state``: equal states, equal bytes, in every process."""
        ...

    def where(self, state: S) -> tuple[int, str]:
        """(turn, phase) of ``state``, as a record's end line writes them."""
        ...

    def scenario(self, state: S) -> int:
        """The scenario number of the game (1 for a ruleset of one scenario)."""
        ...

    def dice_drawn(self, state: S) -> int:
        """The position in the dice stream: the number of draws so far."""
        ...

    def ends_phase(self, command: C_contra) -> bool:
        """``command`` ends a phase: never undone (:meth:`rules.game.Game.pop`)."""
        ...

    # -- records -----------------------------------------------------------------------------

    def level(self, board: B) -> L | None:
        """The level of play ``board`` is set up for (written in the record's header)."""
        ...

    def board_for(self, board: B, level: L | None) -> B:
        """``board`` set up at the record's ``level`` (:meth:`rules.game.Game.replay`); raises
        :class:`ValueError` with one sentence when it cannot be."""
        ...

    def check_header(self, level: L | None, bot_levels: dict[str, int]) -> str | None:
        """Why a header's ``level`` and its players' levels (side -> level) disagree, else
        None (:func:`rules.record.decode`)."""
        ...

    # -- email play ------------------------------------------------------------------------------

    def dice_wait(self, board: B, state: S) -> DiceWait:
        """The dice ``state`` waits on (:class:`DiceWait`)."""
        ...

    def batch_open(self, state: S) -> bool:
        """A batch (:data:`DiceWaitKind`) is still being resolved or waits for a decision."""
        ...

    def orders_side(self, command: C_contra) -> str | None:
        """The side whose standing orders ``command`` sets (a reply packet may carry only
        those of its author), else None: not standing orders."""
        ...

    def orders_refusal(self, command: C_contra) -> str | None:
        """Why standing orders ``command`` cannot serve an email game (the AO's that would
        ``ask``: nobody is there to answer during a batch), else None."""
        ...

    def orders_given(self, state: S, side: str) -> bool:
        """``side`` has the standing orders a batch needs from it in ``state`` (a sealed
        email game's reply gives them; a ruleset without standing orders: always True)."""
        ...

    def players_verdict(self, state: S, winner: str | None, kind: str, reason: str) -> V_co:
        """The verdict the players reach by email in ``state``: ``kind`` ``resignation``
        (``winner`` the other side) or ``agreement`` (a draw, ``winner`` None)."""
        ...

    def describe_roll(self, roll: DieRoll) -> str:
        """How the audit names what a die was for, in words (``the CRT switch``)."""
        ...

    @property
    def roll_owners(self) -> str:
        """Whose roll the audit's dice statistics count each die as (:class:`RollPlace`'s
        ``of``), in words, or ``""``: always the side whose turn it is (the AO's ``combat: the
        attacker; CRT switch, paradrop: the German``)."""
        ...

    def standing(self, state: S, verdict: Any) -> str:
        """Where ``state`` stands, or how the game ended (``verdict``, the rules' or the
        players'), in a few words for ``ardennes verify`` and the audit (the AO's
        ``Game-Turn 3, German combat``, ``game over, German wins (immediate, VP 35:2)``)."""
        ...

    def roll_place(self, state: S, events: tuple[Any, ...], k: int) -> RollPlace:
        """Where the die ``events[k]`` (a :class:`rules.dice.DieRoll`) of one command applied to
        ``state`` falls, whose it is and what it did (:class:`RollPlace`), for the audit."""
        ...

    # -- hidden information ------------------------------------------------------------------------

    def public_view(self, board: B, state: S, side: str) -> S:
        """``state`` as ``side`` may see it: every value hidden from ``side`` replaced by the
        ruleset's placeholder. The AO hides nothing: ``state`` itself."""
        ...

    def seal(self, command: C_contra) -> Any:
        """``command`` as the opponent may see it before its hidden values are revealed (those
        fields at the ruleset's placeholder; a command that sets no hidden value: itself). An
        email packet carries the sealed command and a commitment to the real one
        (``docs/engine.md``, "Hidden information")."""
        ...

    def revealed(self, board: B, before: S, after: S) -> tuple[Reveal, ...]:
        """The hidden values the rules reveal between ``before`` and ``after`` (one accepted
        command); empty for a ruleset without hidden information."""
        ...


def state_hash_of(ruleset: Ruleset[B, S, Any, Any, Any, Any, Any, Any], state: S) -> str:
    """SHA-256 (hex) of the state's canonical bytes."""
    return hashlib.sha256(ruleset.state_bytes(state)).hexdigest()


def tag(command: object) -> str:
    """A msgspec tagged struct's tag (``move``, ``end_phase``...), for messages."""
    config = getattr(command, "__struct_config__", None)
    return str(config.tag) if config is not None else type(command).__name__
