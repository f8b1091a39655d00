"""Measure the bots over many self-play games: who attacks, who loses what, who wins.

``ardennes selfplay --summary`` prints the balance tables; this adds what they do not count,
per game: the attacks each side resolved (by Game-Turn span), the units each side lost and
where (in whose Combat Phase), and the verdict. Issue 22 ("an Allied computer that fights")
measures with it (``docs/selfplay.md``)::

    python -m tests.bots.measure play --scenario 1-10 --seeds 1-20 --german heuristic \\
        --allied planner --jobs 1 -o hp.jsonl        # one JSON line per game, as it ends
    python -m tests.bots.measure report hp.jsonl pp.jsonl   # a table per file
    python -m tests.bots.measure compare old.jsonl new.jsonl   # German wins, game by game

The games are exactly ``rules.ao.bots.selfplay.play``'s (same seed, same dice, same hash), so
any line can be replayed with ``ardennes selfplay --scenario N --seed S --german G --allied
A``. ``play`` appends to its output (one line per finished game) and skips the games already
there, so an interrupted run goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules.ao
from rules.ao.bots.selfplay import play
from scenarios import load_board

SPANS = ((1, 5), (6, 12), (13, 18))
"""The Game-Turn spans attacks are counted in (the historical counterattacks: GT6-12)."""


@dataclass
class Tally:
    """What one game's commands did."""

    attacks: dict[str, int] = field(default_factory=lambda: {"german": 0, "allied": 0})
    spans: dict[str, list[int]] = field(
        default_factory=lambda: {"german": [0, 0, 0], "allied": [0, 0, 0]}
    )
    killed_in: dict[str, dict[str, int]] = field(
        default_factory=lambda: {
            "german": {"german": 0, "allied": 0},
            "allied": {"german": 0, "allied": 0},
        }
    )
    """``killed_in[phasing][lost]``: units of side ``lost`` eliminated in ``phasing``'s
    player-turn."""
    gt1_fortified: int = 0
    """Allied attacks of Game-Turn 1 on a German unit in a West Wall or fortified hex (where
    the readings of AO-4.2e differ, ``docs/rules-notes.md``)."""

    def watch(
        self, board: rules.ao.Board, state: rules.ao.GameState, applied: rules.ao.Applied
    ) -> None:
        for e in applied.events:
            if isinstance(e, rules.ao.CombatResolved):
                side = board.defs[e.attackers[0]].side
                self.attacks[side] += 1
                for i, (lo, hi) in enumerate(SPANS):
                    if lo <= state.turn <= hi:
                        self.spans[side][i] += 1
                if side == "allied" and state.turn == 1:
                    m = board.game_map
                    hexes = {state.unit(u).hex for u in e.defenders}
                    if any(h is not None and m.hex(h).fortification for h in hexes):
                        self.gt1_fortified += 1
            elif isinstance(e, rules.ao.UnitEliminated):
                self.killed_in[state.side][board.defs[e.unit].side] += 1


def one_game(job: tuple[int, str, str, str]) -> dict[str, Any]:
    """Play one game and return its line."""
    scenario, seed, german, allied = job
    board = load_board(scenario)
    tally = Tally()
    t0 = time.process_time()
    g = play(
        board,
        seed,
        german=german,
        allied=allied,
        watch=lambda s, _c, a: tally.watch(board, s, a),
    )
    last = g.vp[-1]
    v = g.verdict
    return {
        "scenario": scenario,
        "seed": seed,
        "german": german,
        "allied": allied,
        "winner": v.winner if v is not None else None,
        "kind": v.kind if v is not None else None,
        "turn": last.turn,
        "german_vp": last.german,
        "allied_vp": last.allied,
        "exit_vp": last.exit_vp,
        "allied_lost": last.allied_lost,
        "german_lost": last.german_lost,
        "attacks": tally.attacks,
        "spans": tally.spans,
        "killed_in": tally.killed_in,
        "gt1_fortified": tally.gt1_fortified,
        "commands": len(g.commands),
        "hash": g.final_hash,
        "cpu": round(time.process_time() - t0, 2),
    }


def numbers(text: str) -> list[int]:
    out: list[int] = []
    for item in text.split(","):
        a, _, b = item.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def load(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return sorted(rows, key=lambda r: (r["scenario"], int(r["seed"])))


def cmd_play(args: argparse.Namespace) -> int:
    out = Path(args.o)
    done = {(r["scenario"], r["seed"]) for r in load(out)} if out.exists() else set()
    jobs = [
        (n, str(s), args.german, args.allied)
        for n in numbers(args.scenario)
        for s in numbers(args.seeds)
        if (n, str(s)) not in done
    ]
    with out.open("a") as f:
        if args.jobs == 1:
            results: Iterable[dict[str, Any]] = map(one_game, jobs)
            for r in results:
                f.write(json.dumps(r) + "\n")
                f.flush()
        else:
            with ProcessPoolExecutor(args.jobs) as pool:
                for r in pool.map(one_game, jobs):
                    f.write(json.dumps(r) + "\n")
                    f.flush()
    return 0


def mean(xs: Sequence[float]) -> str:
    return f"{sum(xs) / len(xs):.1f}" if xs else "-"


def table(rows: list[dict[str, Any]]) -> str:
    """One row per scenario and a total: games; German wins (immediate); draws; mean Allied
    and German attacks (Allied by GT span); mean units lost per side; mean German VP."""
    head = (
        "| scenario | games | German wins (imm.) | draws | Allied attacks (GT1-5/6-12/13-18) "
        "| German attacks | Allied lost | German lost | German lost in Allied turns "
        "| German VP |\n|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(str(r["scenario"]), []).append(r)
    groups["all"] = rows
    for key, rs in groups.items():
        gw = sum(1 for r in rs if r["winner"] == "german")
        imm = sum(1 for r in rs if r["winner"] == "german" and r["kind"] == "immediate")
        dr = sum(1 for r in rs if r["winner"] == "draw")
        spans = "/".join(mean([r["spans"]["allied"][i] for r in rs]) for i in range(3))
        lines.append(
            f"| {key} | {len(rs)} | {gw} ({imm}) | {dr} "
            f"| {mean([r['attacks']['allied'] for r in rs])} ({spans}) "
            f"| {mean([r['attacks']['german'] for r in rs])} "
            f"| {mean([r['allied_lost'] for r in rs])} | {mean([r['german_lost'] for r in rs])} "
            f"| {mean([r['killed_in']['allied']['german'] for r in rs])} "
            f"| {mean([r['german_vp'] for r in rs])} |"
        )
    return head + "\n".join(lines) + "\n"


def cmd_report(args: argparse.Namespace) -> int:
    for p in args.files:
        rows = load(Path(p))
        kinds = sorted({(r["german"], r["allied"]) for r in rows})
        cpu = [r["cpu"] for r in rows]
        print(
            f"## {p}: German {', '.join(k[0] for k in kinds)} v Allied "
            f"{', '.join(k[1] for k in kinds)}; cpu per game {mean(cpu)} s\n"
        )
        print(table(rows))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    a = {(r["scenario"], r["seed"]): r for r in load(Path(args.old))}
    b = {(r["scenario"], r["seed"]): r for r in load(Path(args.new))}
    changed = []
    for k in sorted(set(a) & set(b), key=lambda k: (k[0], int(k[1]))):
        x, y = a[k], b[k]
        if (x["winner"], x["kind"]) != (y["winner"], y["kind"]):
            changed.append(
                f"scenario {k[0]} seed {k[1]}: {x['winner']} ({x['kind']}, "
                f"{x['german_vp']}-{x['allied_vp']}) -> {y['winner']} ({y['kind']}, "
                f"{y['german_vp']}-{y['allied_vp']})"
            )
    same = sum(1 for k in set(a) & set(b) if a[k]["hash"] == b[k]["hash"])
    print(
        f"{len(set(a) & set(b))} games in both, {same} identical (final hash), "
        f"{len(changed)} verdicts changed"
    )
    print("\n".join(changed))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bots.measure")
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("play")
    pl.add_argument("--scenario", default="1-10")
    pl.add_argument("--seeds", default="1-20")
    pl.add_argument("--german", default="heuristic")
    pl.add_argument("--allied", default="heuristic")
    pl.add_argument("--jobs", type=int, default=1)
    pl.add_argument("-o", required=True)
    rp = sub.add_parser("report")
    rp.add_argument("files", nargs="+")
    cp = sub.add_parser("compare")
    cp.add_argument("old")
    cp.add_argument("new")
    args = p.parse_args(argv)
    return {"play": cmd_play, "report": cmd_report, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
