"""Games written in packet format version 2, as the program wrote them before version 3.

:func:`writing_version_2` makes :mod:`pbem.core.protocol` write version 2 packets for the duration
of a test: the body says version 2 and lists no dice, the packet is the JSON envelope
``{"body":...,"signature":"<base64>"}`` signed over the body's canonical bytes, and the dice
chains come from the raw private keys (``packets.VERSION`` is 2 while they are made). The
bytes are those of the version 2 program: the self-play game of scenario 1, seed ``v2``,
sealed, two Game-Turns, came out identical, packet for packet, to the one the last version 2
program wrote (checked once when this helper was written).

:func:`in_version_2` writes a game's packets again in version 2, as the version 2 program
would have written the same bodies: for the size benchmark (``tests/bench/test_bench_pbem.py``),
which compares the two formats on one game.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import msgspec
import pytest

from pbem.aoplay import ao_side
from pbem.core import packets
from pbem.core.packets import Body, Packet, Signer
from rules.ao import Side

_ENC = msgspec.json.Encoder(order="deterministic")


def sign_version_2(body: Body, signer: Signer) -> Packet:
    """``body`` as a version 2 packet (no dice), read back by :func:`pbem.core.packets.decode`."""
    body = msgspec.structs.replace(body, version=packets.LEGACY, dice="")
    packets.check_body(body)
    blob = signer(packets.canonical_bytes(body))
    text = base64.b64encode(blob).decode("ascii")
    return packets.decode(_ENC.encode({"body": body, "signature": text}))


@contextmanager
def writing_version_2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within the block, every packet written is version 2 (see the module docstring)."""
    with monkeypatch.context() as m:
        m.setattr(packets, "VERSION", packets.LEGACY)
        m.setattr(packets, "sign", sign_version_2)
        yield


def in_version_2(sent: Sequence[Packet], signers: Mapping[Side, Signer]) -> list[Packet]:
    """``sent`` (version 3) written again in version 2, each body signed by its author's
    ``signers`` (:func:`sign_version_2`: read back and verified by
    :func:`pbem.core.packets.decode`), each ``prev`` the version 2 identity of the packet
    before. The bodies are the same but for ``version``, ``prev`` and the ``dice`` version 2
    does not list. Such a game verifies whole where its dice do not hash packet identities
    (open and local dice); a sealed batch's or switch's seed hashes the previous packet's
    identity (protocol section 4), so there the same commands would have had other dice."""
    out: list[Packet] = []
    for p in sent:
        body = msgspec.structs.replace(p.body, prev=out[-1].hash if out else "")
        out.append(sign_version_2(body, signers[ao_side(p.body.author)]))
    return out
