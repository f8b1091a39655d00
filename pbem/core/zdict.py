"""The preset dictionaries of the armour's deflate encodings (``docs/pbem-protocol.md`` section 7).

Deflate finds repeats only inside what it has already seen; a packet is small, so most of its
JSON (field names, command shapes, unit ids, the fixed parts of an SSHSIG) is new to it. zlib
lets both sides start from a *preset dictionary* (RFC 1950 ``FDICT``, its Adler-32 in the
stream header), the skeleton of a packet.

Each dictionary is part of its encoding and never changes (:data:`SHA256` pins each; a test
checks): another dictionary is another encoding name. The armour's ``Encoding`` header names
one; :data:`ENCODINGS` maps every name a reader knows to its dictionary, and
:func:`written_for` the one written for a game of each ruleset (:data:`WRITTEN_BY_RULESET`):
the dictionaries are skeletons of one ruleset's packets (its unit ids, its command shapes), so
each ruleset has its own or none. The AO's is ``deflate+dict2`` (:data:`WRITTEN`); a ruleset
without one is written with plain ``deflate`` (no preset dictionary). A ruleset that brings
its own dictionary adds a name to :data:`ENCODINGS` and to :data:`WRITTEN_BY_RULESET`; every
name stays readable, whatever the game's ruleset.

* ``deflate+dict1``: the skeleton of a format 2 packet (every unit id of the order of battle,
  the command shapes, the envelope with the base64 of an SSHSIG's fixed parts, the most
  frequent last). Written by format 2 and by the first format 3 games; read, no longer written.
* ``deflate+dict2``: the skeleton of a format 3 packet, made by ``tests/kit/zdict_build.py``
  from its structure (a move of every unit of the order of battle, the command shapes, the
  envelope of every kind, the fixed bytes of the binary SSHSIG, the pieces every step
  repeats): :mod:`pbem.core.zdict2`. Written.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pbem.core import zdict2

DICT1: Final = "deflate+dict1"
DICT2: Final = "deflate+dict2"
DEFLATE: Final = "deflate"
"""Deflate without a preset dictionary: the encoding of a ruleset that has none."""
WRITTEN: Final = DICT2
"""The ``Encoding`` an AO packet is armoured with now."""

_DICT1: Final = (
    '"de-1-a","de-10-ai","de-104-ai","de-11-ai","de-1128-i","de-1129-i","de-1130-i","de-1'
    '15-ai","de-12ss-a","de-13-pt","de-130-a","de-14-pt","de-15-pt","de-156-ai","de-16-a"'
    ',"de-167-i","de-19ss-ai","de-1ss-a","de-1ss-ai","de-2-a","de-2-ai","de-20ss-ai","de-'
    '212-i","de-246-i","de-25ss-ai","de-26ss-ai","de-27-i","de-272-i","de-276-i","de-277-'
    'i","de-29-ai","de-293-i","de-294-i","de-295-i","de-2ss-a","de-2ss-ai","de-3-2-a","de'
    '-3-a","de-304-ai","de-326-i","de-33-a","de-340-i","de-352-i","de-39-i","de-3ss-ai","'
    'de-4-a","de-48-i","de-4ss-ai","de-5-a","de-5-pt","de-6-a","de-60-ai","de-62-i","de-7'
    '-a","de-77-i","de-78-i","de-79-i","de-8-a","de-8-ai","de-8-pt","de-89-i","de-9-i","d'
    'e-9-pt","de-901-ai","de-902-ai","de-9ss-a","de-fe","de-fg","de-vdh","fr-lt","uk-129-'
    'i","uk-130-i","uk-151-i","uk-152-i","uk-153-i","uk-154-i","uk-158-i","uk-160-i","uk-'
    '214-i","uk-231-i","uk-29-a","uk-32-gds","uk-33-a","uk-34-a","uk-56-gds","uk-68-i","u'
    'k-71-i","us-10-i","us-101-i","us-102-ac","us-104-i","us-109-i","us-11-i","us-110-i",'
    '"us-1102-e","us-1107-e","us-1111-e","us-112-i","us-1128-e","us-117-i","us-119-i","us'
    '-12-i","us-120-i","us-134-i","us-137-i","us-158-e","us-16-i","us-168-e","us-18-ac","'
    'us-18-i","us-193-g","us-194-g","us-2-i","us-22-i","us-23-i","us-24-i","us-26-i","us-'
    '289-i","us-290-i","us-291-e","us-291-i","us-317-i","us-318-i","us-319-i","us-32-a","'
    'us-32-ac","us-320-i","us-325-g","us-327-g","us-328-i","us-329-i","us-33-a","us-330-i'
    '","us-331-i","us-333-i","us-334-i","us-335-i","us-342-e","us-354-e","us-36-ai","us-3'
    '8-i","us-39-i","us-393-i","us-394-i","us-395-i","us-401-g","us-401-pi","us-41-ai","u'
    's-422-i","us-423-i","us-424-i","us-44-e","us-47-i","us-501-pi","us-502-pi","us-504-p'
    'i","us-505-pi","us-506-pi","us-507-pi","us-508-pt","us-513-pi","us-517-pi","us-551-p'
    't","us-6-ac","us-60-i","us-66-a","us-67-a","us-8-i","us-9-i","us-cca10","us-cca11","'
    'us-cca4","us-cca6","us-cca7","us-cca9","us-ccb10","us-ccb11","us-ccb4","us-ccb6","us'
    '-ccb7","us-ccb9","us-ccr10","us-ccr11","us-ccr4","us-ccr5","us-ccr6","us-ccr7","us-c'
    'cr9""kind":"invitation","turn":1,"phase":"setup_allied","scenario":,"mode":"sealed",'
    '"key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI,"mode":"open","key":"ssh-ed25519 AAAAC3'
    'NzaC1lZDI1NTE5AAAAI,"mode":"local","key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"kind'
    '":"acceptance","turn":1,"phase":"setup_allied","scenario":null,"mode":null,"key":"ss'
    'h-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI","commitment":""seed":null,"accept":true,{"comma'
    'nd":{"type":"choose_losses","units":["{"command":{"type":"waive_immunity","hexes":[{'
    '"command":{"type":"choose_retreat","unit":"{"command":{"type":"advance","hex":"","un'
    'it":null},"hash":"{"command":{"type":"drop","hex":"{"command":{"type":"roll"},"hash"'
    ':"{"command":{"type":"standing_orders","side":"german","waive":[],"retreat":"engine"'
    ',"losses":"engine","advance":"strongest","clear":false},"hash":"{"command":{"type":"'
    'standing_orders","side":"allied","waive":[],"retreat":"engine","losses":"engine","ad'
    'vance":"decline","clear":false},"hash":"{"command":{"type":"standing_orders","side":'
    '"allied","waive":[],"retreat":"engine","losses":"engine","advance":"strongest","clea'
    'r":false},"hash":"{"command":{"type":"place","unit":"de-{"command":{"type":"place","'
    'unit":"us-{"command":{"type":"resolve_attacks"},"hash":"{"command":{"type":"declare_'
    'attack","attackers":["us-{"command":{"type":"declare_attack","attackers":["de-"],"de'
    'fenders":[""],"odds":null,"waive":[]},"hash":""],"odds":"3-1","waive":[]},"hash":""e'
    'nter_road_mode",""leave_road_mode","{"command":{"type":"move","unit":"us-{"command":'
    '{"type":"move","unit":"de-","path":[""]},"hash":"{"command":{"type":"end_phase"},"ha'
    'sh":""},{"command":{"type":"end_phase"},"hash":"],"accept":null,"comment":""},"signa'
    'ture":"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgAAAACGFyZGVubmVzAAAAAAAAAAZzaGE1M'
    'TIAAABTAAAAC3NzaC1lZDI1NTE5AAAAQA"reveal":null,"seed":null,"commands":["scenario":nu'
    'll,"mode":null,"key":null,"commitment":null,"reveal":""phase":"setup_allied","phase"'
    ':"setup_german","phase":"reinforcement","phase":"supply_judgment","phase":"initial_m'
    'ovement","phase":"combat","phase":"mechanized_movement","phase":"game_over",","autho'
    'r":"allied","kind":"reply","turn":","author":"german","kind":"resolution","turn":","'
    'author":"allied","kind":"orders","turn":","author":"german","kind":"orders","turn":{'
    '"body":{"format":"ardennes-packet","version":1,"rules":"ao-1973+errata-1973-05-31/2"'
    ',"game":"","seq":"prev":"'
).encode("ascii")

ENCODINGS: Final[Mapping[str, bytes]] = MappingProxyType({DICT1: _DICT1, DICT2: zdict2.DICTIONARY})
"""Every ``Encoding`` name read with a preset dictionary, and its dictionary."""

SHA256: Final[Mapping[str, str]] = MappingProxyType(
    {
        DICT1: "94dc911ace54862aabb5b15a232b926c6ea34c7c78448140d424125fb7ab1d3e",
        DICT2: "17adda3e2469dd65cd1b1985a1c6ea22e5a4119f68c99f3aad6f06be58887079",
    }
)
"""SHA-256 of each dictionary of :data:`ENCODINGS`."""

WRITTEN_BY_RULESET: Final[Mapping[str, str]] = MappingProxyType({"ao": DICT2})
"""The encoding written for each ruleset id that has a dictionary of its own."""


def written_for(ruleset_id: str) -> str:
    """The ``Encoding`` a packet of a game of ``ruleset_id`` is armoured with: its own
    dictionary's, else plain :data:`DEFLATE`."""
    return WRITTEN_BY_RULESET.get(ruleset_id, DEFLATE)
