"""A packet's commands typed by its game's ruleset (``docs/pbem-protocol.md`` section 3):
:mod:`pbem.core.packets` reads each command as its JSON bytes, since which commands exist is
the ruleset's to say; the invitation names the ruleset (:func:`ruleset_of`) and every packet of
the game is then decoded by its command type, strictly and in the canonical spelling only
(:func:`typed`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import msgspec

from pbem.core import packets
from pbem.core.errors import one_line
from pbem.core.packets import Body, Packet
from pbem.core.parties import Refused
from rules import registry
from rules.ruleset import Ruleset

AnyRuleset = Ruleset[Any, Any, Any, Any, Any, Any, Any, Any]
"""A ruleset of any types."""

_ENC: Final = msgspec.json.Encoder(order="deterministic")


def ruleset_of(invitation: Body[Any]) -> AnyRuleset:
    """The ruleset the invitation names (none: the AO, :data:`packets.DEFAULT_RULESET`), as
    this program has it registered (:mod:`rules.registry`: the program imports the rulesets
    it plays); :class:`Refused` when it has not."""
    rid = invitation.ruleset or packets.DEFAULT_RULESET
    try:
        return registry.get(rid)
    except KeyError:
        raise Refused(
            f"packet 0: the game is played with the ruleset {rid!r}, which this program does "
            f"not have (it has {', '.join(registry.ids()) or 'none'})"
        ) from None


def body_decoder(ruleset: AnyRuleset) -> msgspec.json.Decoder[Body[Any]]:
    """A decoder of packet bodies whose commands are ``ruleset``'s."""
    return msgspec.json.Decoder(Body[ruleset.command_type])  # type: ignore[name-defined]


def typed(
    packet: Packet, ruleset: AnyRuleset, decoder: msgspec.json.Decoder[Body[Any]] | None = None
) -> Packet:
    """``packet`` (as :func:`pbem.core.packets.decode` reads it: each command its JSON bytes)
    with its commands decoded by ``ruleset``'s command type, strictly and in their canonical
    spelling only (protocol section 3: the typed body must encode to exactly the signed
    bytes); :class:`Refused` naming the packet otherwise."""
    if not packet.body.commands:
        return packet
    where = f"packet {packet.body.seq}"
    try:
        body = (decoder or body_decoder(ruleset)).decode(packet.signed)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        why = one_line(str(exc), 200)
        raise Refused(f"{where}: not a command of {ruleset.id} ({why})") from None
    except RecursionError:
        raise Refused(f"{where}: not a command (JSON nested too deeply)") from None
    if _ENC.encode(body) != packet.signed:
        raise Refused(f"{where}: a command is not in its canonical spelling (section 3)")
    return dataclasses.replace(packet, body=body)
