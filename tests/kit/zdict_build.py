"""How the preset dictionary of ``deflate+dict2`` was made (``docs/pbem-protocol.md`` section 7).

``.venv/bin/python -m tests.kit.zdict_build`` prints the dictionary's SHA-256 and size; with
``--check`` (``make zdict``) it exits 1 unless that is the dictionary :mod:`pbem.core.zdict2`
holds (``tests/pbem/test_armor.py`` checks it too, so the dictionary is this script's output,
byte for byte); ``--write`` wrote ``docs/pbem-zdict2.bin`` and ``pbem/core/zdict2.py`` once.

It is built from the *structure* of a format 3 packet, not from any game: the envelope of
every kind, the shapes of the commands (their JSON as :mod:`rules.ao.commands` encodes it, with
the values a command shares with others: units, hexes, the path's quotes), every unit id of the
order of battle (``scenarios/ardennes/oob.toml``), the phases, and the fixed bytes of an
Ed25519 SSHSIG blob in the namespace ``ardennes`` (``PROTOCOL.sshsig``). No hex number, hash,
link or key is in it (those are random, or one game's).

Deflate reaches back at most 32 KiB, and a match costs more bits the farther back it
points, so the dictionary runs from the rarest to the most frequent: the unit ids first, then
the command shapes, the envelope, and last the SSHSIG, which every packet carries once, and the
command pieces that every step repeats. It is part of the encoding: once published it never
changes (another dictionary is another encoding name, :data:`pbem.core.zdict.ENCODINGS`).
A ruleset with other units would bring its own (issue 23), made the same way from its order of
battle.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

from pbem.core.sshwire import ssh_string, ssh_uint32
from scenarios.loader import oob_entries

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "pbem-zdict2.bin"
MODULE = ROOT / "pbem" / "core" / "zdict2.py"

PHASES = (
    "setup_allied",
    "setup_german",
    "reinforcement",
    "supply_judgment",
    "initial_movement",
    "combat",
    "mechanized_movement",
    "game_over",
)
"""Every phase a packet's ``phase`` names (:data:`rules.ao.state.Phase`), the rarest first."""


def units() -> list[str]:
    """Every unit id of the order of battle, sorted (``de-``, ``fr-``, ``uk-``, ``us-``), as a
    move names it (``"unit":"de-1-a","path":["``): a move is the commonest command, and its
    unit with what follows is one match (a unit alone in a list of attackers matches inside)."""
    return [f'"unit":"{u}","path":["' for u in sorted(e.id for e in oob_entries())]


def sshsig_skeleton() -> tuple[bytes, bytes]:
    """The fixed bytes of an Ed25519 SSHSIG blob in the namespace ``ardennes`` after the
    body's newline: what comes before the 32-byte public key, and what comes between it and
    the 64-byte signature."""
    key_type = ssh_string(b"ssh-ed25519")
    before_key = (
        b"}\nSSHSIG"
        + ssh_uint32(1)
        + ssh_uint32(len(key_type) + 4 + 32)
        + key_type
        + ssh_uint32(32)
    )
    between = (
        ssh_string(b"ardennes")
        + ssh_string(b"")
        + ssh_string(b"sha512")
        + ssh_uint32(len(key_type) + 4 + 64)
        + key_type
        + ssh_uint32(64)
    )
    return before_key, between


def shapes() -> list[str]:
    """Each command's JSON up to its first variable value (and the pieces between values), as
    :mod:`rules.ao.commands` encodes it inside a step ``{"command":{...},"hash":"..."}``."""
    c = '{"command":{"type":'
    return [
        # rare: set-up answers, decisions asked for, standing orders
        f'{c}"waive_immunity","hexes":["',
        f'{c}"waive_immunity"}},"hash":"',
        f'{c}"choose_losses","units":["',
        f'{c}"choose_retreat","unit":"',
        f'{c}"advance","hex":"',
        '","unit":"',
        f'{c}"standing_orders","side":"german","waive":[],"retreat":"engine","losses":"engine",'
        '"advance":"strongest","clear":false},"hash":"',
        f'{c}"standing_orders","side":"allied","waive":[],"retreat":"engine","losses":"engine",'
        '"advance":"decline","clear":false},"hash":"',
        f'{c}"standing_orders","side":"allied","waive":[],"retreat":"engine","losses":"engine",'
        '"advance":"strongest","clear":false},"hash":"',
        f'{c}"drop","hex":"',
        f'{c}"roll"}},"hash":"',
        f'{c}"resolve_attacks"}},"hash":"',
        f'{c}"place","unit":"de-',
        f'{c}"place","unit":"us-',
        '","hex":"',
        f'{c}"declare_attack","attackers":["us-',
        f'{c}"declare_attack","attackers":["de-',
        '"],"defenders":["',
        '","odds":"3-1","waive":["',
        '"]},"hash":"',
        '"enter_road_mode","',
        '"leave_road_mode","',
    ]


def envelope() -> list[str]:
    """The fields every packet has, kind by kind, the rarest first; then the phases."""
    head = '{"format":"ardennes-packet","version":3,"rules":"ao-1973+errata-1973-05-31/4"'
    out = [
        ',"scenario":1,"mode":"sealed","key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI',
        ',"mode":"open","key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI',
        ',"mode":"local","key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI',
        '"kind":"invitation","turn":1,"phase":"setup_allied","scenario":',
        '"kind":"acceptance","turn":1,"phase":"setup_allied","key":"ssh-ed25519 '
        "AAAAC3NzaC1lZDI1NTE5AAAAI",
        '","commitment":"',
        '","seed":"',
        '"kind":"resign","turn":',
        '"kind":"draw_offer","turn":',
        '"kind":"draw_answer","turn":',
        ',"accept":true',
        ',"accept":false',
        ',"comment":"',
    ]
    out += [f'"phase":"{p}"' for p in PHASES]
    out += [
        '"author":"allied","kind":"reply","turn":',
        '"author":"german","kind":"reply","turn":',
        '"author":"allied","kind":"resolution","turn":',
        '"author":"german","kind":"resolution","turn":',
        '"author":"allied","kind":"orders","turn":',
        '"author":"german","kind":"orders","turn":',
        '","reveal":"',
        '","commands":[',
        '"}],"dice":"',
        head + ',"game":"',
        '","seq":',
        ',"prev":"',
        '","author":"',
    ]
    return out


def steps() -> list[str]:
    """What every step repeats, the most frequent last."""
    c = '{"command":{"type":'
    return [
        f'"}},{c}"end_phase"}},"hash":"',
        f'"}},{c}"move","unit":"de-',
        f'"}},{c}"move","unit":"us-',
        '","path":["',
        '"]},"hash":"',
        '","',
    ]


def build() -> bytes:
    """The dictionary, byte for byte."""
    before_key, between = sshsig_skeleton()
    text = "".join(units()) + "".join(shapes()) + "".join(envelope())
    return text.encode("ascii") + before_key + between + "".join(steps()).encode("ascii")


def module(data: bytes) -> str:
    """``pbem/core/zdict2.py``: the dictionary as a bytes literal, 80 characters a line."""
    text = repr(data)[2:-1]
    lines, line = [], ""
    for piece in re.findall(r"\\x[0-9a-f]{2}|\\.|.", text):
        if len(line) + len(piece) > 80:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    body = "\n".join(f'    b"{x}"' if '"' not in x else f"    b'{x}'" for x in lines)
    digest = hashlib.sha256(data).hexdigest()
    return (
        '"""The preset dictionary of the armour\'s ``deflate+dict2`` encoding '
        f"({len(data):,} bytes,\nSHA-256 ``{digest}``), written by\n"
        "``tests/kit/zdict_build.py --write`` (``make zdict`` checks it), which says how it is "
        "made;\nnot edited by hand."
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Final\n\n"
        f"DICTIONARY: Final = (\n{body}\n)\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT} and {MODULE}")
    parser.add_argument("--check", action="store_true", help="compare with pbem.core.zdict")
    args = parser.parse_args(argv)
    data = build()
    print(f"{hashlib.sha256(data).hexdigest()}  {len(data)} bytes")
    if args.write:
        OUT.write_bytes(data)
        MODULE.write_text(module(data))
    if args.check:
        from pbem.core import zdict

        if zdict.ENCODINGS.get("deflate+dict2") != data:
            print("not the dictionary of deflate+dict2 in pbem/core/zdict.py", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
