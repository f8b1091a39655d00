"""Structure-aware fuzzing of the import (issue 20): the mutations and the checks, shared by the
Hypothesis suite (``tests/pbem/test_import_fuzz.py``, in ``make test``) and ``make fuzz``
(``python -m tests.pbem.fuzz``, 100,000 cases and more).

A case starts from a genuine packet of a real game (the store's next one, or one it holds)
and damages it at one layer, then carries it the rest of the way as a sender would, so the
damage reaches the check that layer is for:

* the **signed body** (its JSON: a field changed, removed, added, moved to another kind,
  a value of another type, another spelling), then signed again with the author's own key
  (past the signature: the strict decoder and the protocol's checks) or not (the signature);
* the **SSHSIG blob** (a byte, a length, the namespace, the hash, the key, another signer);
* the **packet's framing** (the newline between the body and the signature);
* the **deflate stream** (another level, no dictionary, the older dictionary, no compression,
  a byte, cut short, trailing data, the dictionary flag, another dictionary's name), armoured
  again with a valid checksum;
* the **base64** (the spare bits of its last digit, a stray ``=``, other digits);
* the **armour** (header lines changed, repeated, unknown; quoting, line ends, cuts), the
  checksum recomputed where the damage is in what it covers;
* the **mail** (an mbox or a message around it, a second message with the genuine packet).

:func:`check` imports the case into a player's store and holds the import to its promises:
it raises nothing, says one line per packet, and writes nothing in part: every packet the
store holds afterwards verifies from the invitation on, the store grew by exactly the packets
the report accepted, its index describes them, no temporary file is left, and nothing was
kept as evidence but a refused packet that a pinned key signed.
"""

from __future__ import annotations

import base64
import random
import shutil
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgspec

import rules.ao
from pbem import snapshots
from pbem.core import armor, packets, zdict
from pbem.core.identity import KeyIdentity
from pbem.core.packets import Packet
from pbem.exchange import armor_headers
from pbem.games import Service
from pbem.mail import build_message
from pbem.store import Store

T = TypeVar("T")


class Draw(Protocol):
    """Where a case's choices come from: Hypothesis's data, or a seeded :class:`random.Random`."""

    def integer(self, lo: int, hi: int) -> int: ...

    def blob(self, most: int) -> bytes: ...


def pick(d: Draw, items: Sequence[T]) -> T:
    return items[d.integer(0, len(items) - 1)]


class HypothesisDraw:
    """:class:`Draw` from Hypothesis's data (the suite in ``make test``)."""

    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self.data = data
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return int(self.data.draw(self.st.integers(lo, hi)))

    def blob(self, most: int) -> bytes:
        return bytes(self.data.draw(self.st.binary(max_size=most)))


class RandomDraw:
    """:class:`Draw` from a seeded :class:`random.Random` (``make fuzz``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def blob(self, most: int) -> bytes:
        return self.rng.randbytes(self.rng.randint(0, most))


# -- the layers --------------------------------------------------------------------------------

_JUNK: tuple[Any, ...] = (None, True, 0, -1, 2**63, 1.5, "", "x" * 600, "é", [], {}, [1], "0" * 64)
_FIELDS = ("scenario", "mode", "key", "commitment", "reveal", "seed", "accept", "dice", "comment")


def mutate_body(d: Draw, raw: bytes) -> bytes:
    """The signed JSON changed in its structure (or its bytes), mostly still JSON."""
    op = d.integer(0, 9)
    if op == 0:  # bytes
        out = bytearray(raw)
        for _ in range(d.integer(1, 3)):
            i = d.integer(0, len(out) - 1)
            out[i] = pick(d, b'0123456789abcdef",:{}[]\\ \xff')
        return bytes(out)
    obj = msgspec.json.decode(raw)
    keys = list(obj)
    if op == 1:  # a field removed
        obj.pop(pick(d, keys))
    elif op == 2:  # a field another kind carries, or an unknown one
        obj[pick(d, [*_FIELDS, "extra", "signature", "body"])] = pick(d, (*_JUNK[:9], "open", 3))
    elif op == 3:  # a value of another type or range
        obj[pick(d, keys)] = pick(d, _JUNK)
    elif op == 4:  # the kind, the author, the seq or the phase changed
        name = pick(d, ["kind", "author", "seq", "turn", "phase", "version"])
        obj[name] = pick(d, [*packets.KINDS, "german", "allied", 0, 1, 3, 99, "combat", 2])
    elif op == 5:  # the commands: one dropped, repeated, or its hash or command changed
        steps = obj.get("commands") or [{"command": {"type": "end_phase"}, "hash": "0" * 32}]
        i = d.integer(0, len(steps) - 1)
        what = d.integer(0, 3)
        if what == 0:
            steps.pop(i)
        elif what == 1:
            steps.insert(i, steps[i])
        elif what == 2:
            steps[i] = {**steps[i], "hash": f"{d.integer(0, 2**64):032x}"[:32]}
        else:
            steps[i] = {**steps[i], "command": {"type": pick(d, ["roll", "resolve_attacks"])}}
        obj["commands"] = steps
    elif op == 6 and d.integer(0, 1):  # the dice listed, as version 3 lists them
        obj["dice"] = "".join(str(d.integer(1, 6)) for _ in range(d.integer(0, 4)))
    elif op == 6:  # as version 4 lists them, the faces and values sometimes misspelled
        faces, values = [6, 100, 0, 257, "06", 256], [1, 6, 37, 100, 0, 101, "05", 256]
        runs = [
            f"d{pick(d, faces)}:" + ",".join(str(pick(d, values)) for _ in range(d.integer(1, 3)))
            for _ in range(d.integer(1, 3))
        ]
        obj["version"] = pick(d, [4, 4, 3])
        obj["dice"] = pick(d, [" ", " ", "  ", ","]).join(runs)
    elif op == 7:  # a link or hash changed
        name = pick(d, ["prev", "reveal", "commitment", "game"])
        obj[name] = f"{d.integer(0, 2**256 - 1):064x}"[: 32 if name == "game" else 64]
    elif op == 8:  # another spelling of the same body
        text = msgspec.json.encode(obj).decode()
        return pick(
            d, [text.replace(",", ", ", 1), text.replace(":", " :", 1), text + " "]
        ).encode()
    else:  # fields in another order
        items = list(obj.items())
        i, j = d.integer(0, len(items) - 1), d.integer(0, len(items) - 1)
        items[i], items[j] = items[j], items[i]
        obj = dict(items)
    return msgspec.json.encode(obj)


def mutate_sshsig(d: Draw, blob: bytes, body: bytes, keys: Sequence[KeyIdentity]) -> bytes:
    """The SSHSIG blob damaged at a byte or a field, or made by another key or namespace."""
    op = d.integer(0, 5)
    if op == 0:
        out = bytearray(blob)
        i = d.integer(0, len(out) - 1)
        out[i] ^= d.integer(1, 255)
        return bytes(out)
    if op == 1:
        return blob[: d.integer(0, len(blob) - 1)]
    if op == 2:
        return blob + d.blob(8)
    if op == 3:  # a field's value: the namespace, the reserved field, the hash
        old = pick(d, [b"ardennes", b"sha512", b"ssh-ed25519"])
        new = pick(d, [b"ardenner", b"sha256", b"ssh-rsa", b"ssh-ed25519", b""])
        return blob.replace(old, new, 1)
    if op == 4:
        return pick(d, keys).sign(body, pick(d, ["ardennes", "ardennes-dice", "git"]))
    i = 4 * d.integer(1, 6)  # a uint32 length field near the start: too long, too short
    return blob[:i] + d.integer(0, 400).to_bytes(4, "big") + blob[i + 4 :]


def frame(d: Draw, body: bytes, blob: bytes) -> bytes:
    """Body and signature put together, mostly as they should be."""
    op = d.integer(0, 9)
    if op == 0:
        return body + blob  # no newline
    if op == 1:
        return body + b"\n\n" + blob
    if op == 2:
        return blob + b"\n" + body
    return body + b"\n" + blob


def deflate(d: Draw, wire: bytes) -> tuple[bytes, str | None]:
    """The payload as the armour carries it, and its ``Encoding`` (None: as it is)."""
    op = d.integer(0, 9)
    if op == 0:
        return wire, None
    name = armor.DEFLATE if op == 1 else zdict.DICT1 if op == 2 else zdict.WRITTEN
    dictionary = zdict.ENCODINGS.get(name)
    z = zlib.compressobj(d.integer(1, 9), zdict=dictionary) if dictionary else zlib.compressobj()
    data = bytearray(z.compress(wire) + z.flush())
    damage = d.integer(0, 9)
    if damage == 0:
        i = d.integer(0, len(data) - 1)
        data[i] ^= d.integer(1, 255)
    elif damage == 1:
        del data[d.integer(0, len(data) - 1) :]
    elif damage == 2:
        data += d.blob(6)
    elif damage == 3:
        name = pick(d, [armor.DEFLATE, *zdict.ENCODINGS, "deflate+dict9", "gzip"])
    return bytes(data), name


def armoured(d: Draw, payload: bytes, encoding: str | None, headers: dict[str, str]) -> str:
    """An armour block, valid but for what is damaged here (the checksum recomputed over what
    it covers)."""
    h = dict(headers)
    if encoding is not None:
        h[armor.ENCODING] = encoding
    op = d.integer(0, 11)
    if op == 0:  # a header's value: recomputed checksum, so the packet must refuse it
        name = pick(d, list(headers))
        h[name] = pick(d, ["0", "german", "allied", "orders", "combat", "x", headers[name] + "0"])
    elif op == 1:  # an unknown header
        h["X-Note"] = "hello"
    b64 = base64.b64encode(payload).decode()
    if op == 2 and b64.endswith("="):  # the spare bits of the last digit set
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        k = len(b64.rstrip("=")) - 1
        b64 = b64[:k] + alphabet[alphabet.index(b64[k]) ^ 1] + b64[k + 1 :]
    elif op == 3:
        i = d.integer(0, len(b64) - 1)
        b64 = b64[:i] + pick(d, ["=", "!", " ", "\t", "-"]) + b64[i + 1 :]
    lines = [armor.BEGIN, *(f"{k}: {v}" for k, v in h.items()), ""]
    width = pick(d, [76, 76, 64, 50, 1000])
    lines += [b64[i : i + width] for i in range(0, len(b64), width)]
    lines += [armor.checksum(h, payload), armor.END]
    text = "\n".join(lines) + "\n"
    if op == 4:
        text = "".join(f"> {x}\n" for x in text.splitlines())
    elif op == 5:
        text = text.replace("\n", "\r\n")
    elif op == 6:
        text = text[: d.integer(0, len(text) - 1)]
    elif op == 7:
        i = d.integer(0, len(text) - 1)
        text = text[:i] + chr(d.integer(0, 0x2FF)) + text[i + 1 :]
    elif op == 8:
        text = text.replace(f"\n{lines[1]}\n", f"\n{lines[1]}\n{lines[1]}\n", 1)
    return text


def block(payload: bytes, encoding: str | None, headers: dict[str, str]) -> str:
    """An armour block carrying ``payload`` exactly (``encoding`` its ``Encoding`` header, or
    None), with a valid checksum."""
    h = {**headers, **({armor.ENCODING: encoding} if encoding is not None else {})}
    b64 = base64.b64encode(payload).decode()
    lines = [armor.BEGIN, *(f"{k}: {v}" for k, v in h.items()), ""]
    lines += [b64[i : i + 76] for i in range(0, len(b64), 76)]
    return "\n".join([*lines, armor.checksum(h, payload), armor.END]) + "\n"


def _mail(d: Draw, text: str, genuine: str) -> bytes:
    """An mbox: a message carrying ``text`` (a few bytes of it damaged), then one carrying
    ``genuine``."""
    first = build_message("joe@y.org", "turn", text, from_addr="hans@x.org").as_bytes()
    second = build_message("joe@y.org", "turn", genuine, from_addr="hans@x.org").as_bytes()
    i = d.integer(0, len(first) - 1)
    first = first[:i] + d.blob(4) + first[i + 4 :]
    head = b"From hans Thu Jan  1 00:00:00 2026\n"
    return head + first + b"\n" + head + second


LAYERS = ("body", "body", "sshsig", "frame", "deflate", "armour", "mail", "genuine")


def case(
    d: Draw, real: Sequence[Packet], held: int, keys: dict[str, KeyIdentity]
) -> tuple[str, bytes]:
    """A fuzz case around packet ``held`` of ``real`` (see the module docstring): the layer
    damaged, and the bytes to import. ``keys``: the players' keys by side, and another."""
    p = real[d.integer(max(0, held - 2), min(len(real) - 1, held + 1))]
    body, blob = p.signed, p.signature
    layer = pick(d, LAYERS)
    if layer == "body":
        body = mutate_body(d, body)
        if d.integer(0, 3):  # signed again by the author: past the signature
            blob = keys[p.body.author].sign(body)
    elif layer == "sshsig":
        blob = mutate_sshsig(d, blob, body, list(keys.values()))
    wire = frame(d, body, blob) if layer == "frame" else body + b"\n" + blob
    if layer == "deflate":
        payload, encoding = deflate(d, wire)
    else:
        z = zlib.compressobj(9, zdict=zdict.ENCODINGS[zdict.WRITTEN])
        payload, encoding = z.compress(wire) + z.flush(), zdict.WRITTEN
    headers = armor_headers(p)
    if layer == "armour":
        return layer, armoured(d, payload, encoding, headers).encode()
    text = block(payload, encoding, headers)
    if layer == "mail":
        genuine = real[min(held + d.integer(0, 3), len(real) - 1)]
        return layer, _mail(d, text, block(genuine.wire, None, armor_headers(genuine)))
    return layer, text.encode()


# -- the checks ------------------------------------------------------------------------------


@dataclass
class Receiver:
    """A player's store holding the first :attr:`held` packets of the real game. A case that
    stores packets moves it on; past the real game's end, or off it, it is put back as it
    was made (``pristine``)."""

    home: Path
    pristine: Path
    game_id: str
    real: tuple[Packet, ...]
    start: int
    keys: dict[str, KeyIdentity]
    rolling: bool = True
    """A case that stores packets moves the store on (``make fuzz``); else it is put back
    after every case that changed it (Hypothesis: every case starts from the same store)."""
    svc: Service = field(init=False)
    held: int = field(init=False)
    seen: Counter[str] = field(default_factory=Counter)
    cases: int = 0

    def __post_init__(self) -> None:
        self.restore()

    def restore(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.copytree(self.pristine, self.home)
        self.svc = Service(Store(self.home))
        self.held = self.svc.store.count(self.game_id)
        assert self.held == self.start

    def files(self) -> dict[str, bytes]:
        return {
            str(p.relative_to(self.home)): p.read_bytes()
            for p in sorted(self.home.rglob("*"))
            if p.is_file() and p.name != ".lock"
        }


_REASONS = (
    "checksum",
    "base64",
    "deflated",
    "END",
    "header",
    "bad signature",
    "canonical",
    "not a packet",
    "carries no",
    "signed by",
    "state hash",
    "out of order",
    "prev hash",
    "already in the game",
    "lists the dice",
    "refused: AO-",
)


def _why(reason: str) -> str:
    """The check that refused a packet, in a word or two (for the counts)."""
    return f" ({next((w for w in _REASONS if w in reason), 'other')})"


def _pinned(r: Receiver) -> set[str]:
    return {r.keys["german"].public_line, r.keys["allied"].public_line}


def check(r: Receiver, layer: str, data: bytes) -> None:
    """Import ``data`` into ``r`` and hold the import to its promises (module docstring)."""
    r.cases += 1
    before = r.files()
    report = r.svc.import_text(data)  # never raises
    lines = report.lines()
    assert lines and all(x and "\n" not in x for x in lines), lines
    for i in report.items:
        r.seen[f"{layer}: {i.outcome}{_why(i.reason) if i.outcome == 'refused' else ''}"] += 1
    store = r.svc.store
    stored = store.packets(r.game_id)
    accepted = report.accepted
    assert len(stored) == r.held + len(accepted), lines
    assert stored[: r.held] == [p.wire for p in r.real[: r.held]]
    assert store.meta(r.game_id).packets == len(stored), "the index describes the packets"
    if accepted:  # the snapshot too: the state whose hash the last command carries
        state = snapshots.read(store, r.game_id, len(stored))
        last = [s.hash for d in stored for s in packets.decode(d).body.commands][-1:]
        assert state is not None and [packets.step_hash(rules.ao.state_hash(state))] == last
    after = r.files()
    assert not [k for k in after if k.endswith(".tmp")], "a temporary file left"
    assert set(before) <= set(after), "a file removed"
    new = {k: v for k, v in after.items() if before.get(k) != v}
    for name, content in new.items():
        folder = name.split("/")[2]
        if folder == "packets":
            continue
        if name.endswith(("meta.json", "snapshot.json")):
            assert accepted or report.of("equivocation"), (name, lines)
            continue
        assert folder == "evidence", (name, lines)
        kept = packets.decode(content)
        assert kept.signer in _pinned(r), (name, lines)
        if name.split("/")[-1].startswith("refused-"):
            assert kept.body.seq == r.held and kept.body.prev == r.real[r.held - 1].hash
        else:
            assert report.of("equivocation"), (name, lines)
    r.held = len(stored)
    genuine = stored == [p.wire for p in r.real[: r.held]]
    if (
        report.of("equivocation")
        or not genuine
        or r.held == len(r.real)
        or (accepted and not r.rolling)
    ):
        if not genuine:  # a mutation made another packet the rules accept: check it all
            from pbem import audit, sources

            v = audit.verify(sources.load_source(r.game_id, store))
            assert v.ok, v.line
            r.seen["another valid packet"] += 1
        r.restore()
    elif new:  # evidence only: remove it, the game in memory is unchanged
        for name in new:
            if "/evidence/" in name:
                (r.home / name).unlink()
