"""Print the *Breakthrough* balance table: self-play of seeds 1-20, Twelve Days, level 3
(issue 24). CPU-heavy (about 3 s a game): ``nice make balance-breakthrough``.

``python -m tests.kit.bita_balance [FIRST LAST [SCENARIO [LEVEL [AMERICAN GERMAN]]]]``: the
last two are the bots' versions (``rules.breakthrough.bots.selfplay.BOTS``; both 2 unless
told).
"""

from __future__ import annotations

import sys

from rules.breakthrough.bots import balance, selfplay
from scenarios.breakthrough.board import load_board


def main(argv: list[str]) -> int:
    first, last = (int(argv[0]), int(argv[1])) if len(argv) >= 2 else (1, 20)
    scenario = argv[2] if len(argv) >= 3 else "twelve-days"
    level = int(argv[3]) if len(argv) >= 4 else 3
    versions = dict(selfplay.DEFAULT)
    if len(argv) >= 6:
        versions = {"american": argv[4], "german": argv[5]}
    if set(versions.values()) - set(selfplay.BOTS):
        print(f"bita_balance: bot versions are {sorted(selfplay.BOTS)}", file=sys.stderr)
        return 2
    try:
        board = load_board(scenario, level)
    except ValueError as exc:
        print(f"bita_balance: {exc}", file=sys.stderr)
        return 2
    games = balance.play_with_census(board, range(first, last + 1), versions)
    rows = [g.row for g in games]
    bots = f"American bot {versions['american']}, German bot {versions['german']}"
    print(f"Self-play, {scenario}, level {level}, seeds {first}-{last}, {bots}:")
    print()
    print("\n".join(balance.table(rows)))
    print()
    print("\n".join(balance.census_table(games)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
