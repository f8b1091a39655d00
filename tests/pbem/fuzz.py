"""``make fuzz``: the structure-aware import fuzzer (:mod:`tests.pbem.fuzzkit`) for many cases,
seeded and bounded in time::

    python -m tests.pbem.fuzz --cases 100000 --minutes 20 --seed 1

It plays a real game by email once (scenario 1, sealed dice, two Game-Turns), then imports
one mutated case after another into a player's store holding its first packets, checking after
each that nothing raised and nothing was written in part (:func:`tests.pbem.fuzzkit.check`);
one case in 200 is also verified as a file after the genuine packets before it
(``ardennes verify``'s path), which must answer in one line. It prints the counts by layer and
outcome, and exits 1 if any case crashed or wrote in part (the case is saved to reproduce).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import ardennes_tui.rulesets  # noqa: F401 - the composition root: the AO's email kit plugged in
from pbem import audit, selfplay, sources
from pbem.exchange import armor_packets
from pbem.games import Service
from pbem.store import Store
from tests.pbem import fuzzkit

SEED = "fuzz"
START = 3
"""The packets the fuzzed store starts with (the invitation, the acceptance, the set-up)."""


def receiver(root: Path) -> fuzzkit.Receiver:
    """A store of the Allied player holding the first :data:`START` packets of a real game."""
    game = selfplay.play(1, SEED, "sealed", turns=2, root=root / "game")
    pristine = root / "pristine"
    from tests.pbem.stores import cut

    cut(root / "game" / "allied", pristine, game.game_id, START)
    Service(Store(pristine)).index(game.game_id)
    keys = {s: selfplay.player_key(s, SEED) for s in ("german", "allied")}
    keys["mallory"] = selfplay.player_key("german", "mallory")
    return fuzzkit.Receiver(root / "home", pristine, game.game_id, game.packets, START, keys)


def verified_in_one_line(r: fuzzkit.Receiver, data: bytes) -> None:
    """``ardennes verify`` of the case after the genuine packets before it: one line."""
    path = r.home.parent / "case.txt"
    path.write_bytes(armor_packets(r.real[: r.held]).encode() + b"\n" + data)
    try:
        v = audit.verify(sources.load_source(str(path)))
    except sources.SourceError as exc:  # nothing readable in it: exit 2, one line
        assert "\n" not in str(exc)
        return
    assert "\n" not in v.line and v.line.startswith(("OK: ", "FAILED: ")), v.line


def run(seed: int, cases: int, minutes: float) -> tuple[int, dict[str, int], int, float]:
    """One fuzzing process: its cases, their outcomes, its failures, its seconds."""
    # fsync makes a write survive a power cut; the fuzzer checks what is written, not what
    # survives one (tests/pbem/test_store.py kills writers for that), and fsync is most of
    # its time
    os.fsync = lambda fd: None
    rng = random.Random(seed)
    draw = fuzzkit.RandomDraw(rng)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ardennes-fuzz-") as tmp:
        r = receiver(Path(tmp))
        began = time.monotonic()
        deadline = began + minutes * 60
        while r.cases < cases and time.monotonic() < deadline:
            layer, data = fuzzkit.case(draw, r.real, r.held, r.keys)
            try:
                fuzzkit.check(r, layer, data)
                if rng.randrange(200) == 0:
                    verified_in_one_line(r, data)
            except Exception:  # a crash or a partial write: keep the case
                failures += 1
                saved = Path(f"fuzz-failure-{seed}-{r.cases}.bin").resolve()
                saved.write_bytes(data)
                print(f"FAILURE in case {r.cases} ({layer}), saved to {saved}:", file=sys.stderr)
                traceback.print_exc()
                r.restore()
            if r.cases % 10_000 == 0:
                print(
                    f"seed {seed}: {r.cases} cases, {time.monotonic() - began:.0f} s",
                    file=sys.stderr,
                )
        return r.cases, dict(r.seen), failures, time.monotonic() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.pbem.fuzz", description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000, help="in all (default 100000)")
    parser.add_argument("--minutes", type=float, default=30.0, help="at most (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="of the first job (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    share = [args.cases // args.jobs + (i < args.cases % args.jobs) for i in range(args.jobs)]
    seeds = [args.seed + i for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run, seeds, share, [args.minutes] * args.jobs))
    cases = sum(r[0] for r in results)
    failures = sum(r[2] for r in results)
    seen: Counter[str] = Counter()
    for r in results:
        seen.update(r[1])
    seconds = max(r[3] for r in results)
    print(f"{cases} cases in {seconds:.0f} s ({args.jobs} jobs, seeds {seeds[0]}-{seeds[-1]})")
    print(f"crashes or partial writes: {failures}")
    print(f"packets: {sum(seen.values())}; by layer and outcome:")
    for key, n in sorted(seen.items()):
        print(f"  {key}: {n}")
    return 1 if failures or cases < args.cases else 0


if __name__ == "__main__":
    sys.exit(main())
