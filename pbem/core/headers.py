"""The armour blocks of packets: their readable header lines (``Game``, ``Seq``, ``Side``,
``Turn``, ``Phase``, ``Kind``, and an invitation's ``Dice``) and the text of several packets
(``docs/pbem-protocol.md`` section 7)."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.core import armor, dicemodes, packets, zdict
from pbem.core.packets import Packet

__all__ = ["armor_headers", "armor_packets"]


def armor_headers(packet: Packet) -> dict[str, str]:
    """The readable header lines of ``packet``'s armour block; an invitation's also says
    what its dice mode allows (``Dice:``, :data:`pbem.core.dicemodes.HEADER`)."""
    b = packet.body
    headers = {
        "Game": b.game,
        "Seq": str(b.seq),
        "Side": b.author,
        "Turn": str(b.turn),
        "Phase": b.phase,
        "Kind": b.kind,
    }
    if b.mode is not None:
        headers["Dice"] = dicemodes.HEADER[b.mode]
    return headers


def armor_packets(sent: Iterable[Packet], ruleset: str = packets.DEFAULT_RULESET) -> str:
    """``sent``, packets of a game of ``ruleset`` (an id), as armour blocks one after another
    ("" for none), deflated with that ruleset's dictionary (:func:`pbem.core.zdict.written_for`:
    the AO's ``deflate+dict2``, plain ``deflate`` for a ruleset without one)."""
    blocks = ((p.wire, armor_headers(p)) for p in sent)
    return armor.armor_all(blocks, encoding=zdict.written_for(ruleset))
