"""The writer of the crash test (``tests/pbem/test_store.py::test_crash``; docs/pbem-protocol.md,
"The game store"): appends packets to one game of the store at ``ROOT`` without end, printing
``ready`` and then each ``seq`` once its append has returned, until it is killed.

    python tests/pbem/crash_writer.py ROOT GAME_ID
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def packet_bytes(seq: int) -> bytes:
    """The packet the writer appends as ``seq``: deterministic, 200 bytes to about 40 KiB, so
    a kill often lands in the middle of a write."""
    size = 200 + (seq * 7919) % 40_000
    block = hashlib.sha256(f"packet {seq}".encode()).hexdigest().encode()
    return (f"seq {seq}\n".encode() + block * (size // 64 + 1))[:size]


def main(argv: list[str]) -> int:
    from pbem.store import Store

    root, game_id = Path(argv[1]), argv[2]
    store = Store(root, lock_wait=5.0)
    print("ready", flush=True)
    while True:
        seq = store.count(game_id)
        store.append(game_id, seq, packet_bytes(seq))
        print(seq, flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main(sys.argv))
