"""The committed self-play games of ``tests/data/``, which tests take as inputs instead of
playing them (a whole game is seconds of bot thinking; its replay a fraction of one):

* ``records/s<N>-<seed>.jsonl``: the record of scenario ``N``, seed ``seed``, byte for byte as
  ``ardennes selfplay --scenario N --seed S -o FILE`` writes it (:data:`GAMES`);
* ``records/email-s1-<mode>.txt``: the packets of a whole game by email, scenario 1, ``sealed``
  or ``open`` dice, seed :data:`EMAIL_SEED`, as ``ardennes selfplay --scenario 1 --seed
  full-game --dice MODE -o FILE`` writes them (the keys and game id derive from the seed;
  the packets are compared, not their armour: the committed ones may be armoured with an older
  dictionary, ``deflate+dict1``, which every reader still reads);
* ``selfplay-games.jsonl``: one line per full game of scenarios 1-10, seeds 1-3
  (:data:`TABLE_GAMES`), as ``ardennes selfplay --summary --games-out`` writes them: verdict,
  VP per Game-Turn, commands, final state hash.

``make records`` (``python -m tests.kit.records``) plays them all again and rewrites them;
``tests/bots/test_records.py`` (the records; the email games are ``slow``) and the ``slow``
``test_full_games_end_with_a_verdict`` (the table) fail, naming ``make records``, when the
engine or the bots would write anything else.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Final

import msgspec

import rules.ao
from ardennes_tui.cli.selfplay_summary import GameResult, game_summary
from pbem import selfplay as email_selfplay
from pbem import sources
from pbem.core import typed
from pbem.core.packets import DiceMode, Packet
from rules.ao.bots.selfplay import SelfPlayGame, encode, play, turn_vp
from scenarios import load_board

DATA: Final = Path(__file__).resolve().parents[1] / "data"
RECORDS: Final = DATA / "records"
TABLE: Final = DATA / "selfplay-games.jsonl"
REFRESH: Final = "make records"

GAMES: Final[tuple[tuple[int, int], ...]] = ((1, 1), (1, 4), (2, 4), (7, 1))
"""(scenario, seed) of the committed records."""
TABLE_GAMES: Final[tuple[tuple[int, int], ...]] = tuple(
    (n, seed) for n in range(1, 11) for seed in (1, 2, 3)
)
"""(scenario, seed) of the table's full games, in its order."""
EMAIL_SEED: Final = "full-game"
EMAIL_MODES: Final[tuple[DiceMode, ...]] = ("sealed", "open")

_ENC: Final = msgspec.json.Encoder(order="deterministic")


def record_path(scenario: int, seed: int) -> Path:
    return RECORDS / f"s{scenario}-{seed}.jsonl"


def stale(what: str, why: str) -> str:
    """The failure message of committed data the engine or the bots no longer produce."""
    return (
        f"{what} is out of date: {why}. The engine or the bots now play it differently: "
        f"run `{REFRESH}` and review the diff of tests/data/ before committing it"
    )


@functools.cache
def record_bytes(scenario: int, seed: int) -> bytes:
    """The committed record of ``(scenario, seed)``, one of :data:`GAMES`."""
    assert (scenario, seed) in GAMES, f"no committed record of scenario {scenario} seed {seed}"
    return record_path(scenario, seed).read_bytes()


def game_of(data: bytes, name: str = "the record") -> SelfPlayGame:
    """The self-play record ``data`` as :func:`rules.ao.bots.selfplay.play` returns the game:
    replayed, every state hash checked, for the VP of each Game-Turn."""
    rec = rules.record.decode(data)
    replayed = rules.ao.Game.replay(rec, load_board(rec.header.scenario))
    if not replayed.ok:
        raise AssertionError(stale(name, str(replayed.error)))
    g = replayed.game
    vps = []
    for i, events in enumerate(g.events):
        tab = [e for e in events if isinstance(e, rules.ao.VictoryPointsTabulated)]
        if tab:
            vps.append(turn_vp(g.board, g.state_at(i + 1), tab[-1]))
    meta = rec.header.meta
    return SelfPlayGame(
        scenario=rec.header.scenario,
        seed=meta["seed"],
        turns=int(meta["turns"]) if "turns" in meta else None,
        record=rec,
        vp=tuple(vps),
        verdict=g.outcome(),
    )


@functools.cache
def selfplay_game(scenario: int, seed: int) -> SelfPlayGame:
    """The committed record of ``(scenario, seed)``, replayed (:func:`game_of`)."""
    return game_of(record_bytes(scenario, seed), str(record_path(scenario, seed)))


def email_path(mode: DiceMode) -> Path:
    return RECORDS / f"email-s1-{mode}.txt"


def email_game(mode: DiceMode) -> email_selfplay.EmailSelfPlay:
    """The game by email of scenario 1 with ``mode`` dice (:data:`EMAIL_SEED`), as the bots
    play it now."""
    return email_selfplay.play(1, EMAIL_SEED, mode)


def email_text(mode: DiceMode) -> str:
    """The packets of :func:`email_game`, armoured."""
    return email_game(mode).text()


@functools.cache
def email_packets(mode: DiceMode) -> tuple[Packet, ...]:
    """The committed packets of the game by email with ``mode`` dice, by ``seq``."""
    src = sources.load_source(str(email_path(mode)))
    assert src.problem is None, src.problem
    assert [p.body.seq for p in src.packets] == list(range(len(src.packets)))
    ruleset = typed.ruleset_of(src.packets[0].body)
    return tuple(typed.typed(p, ruleset) for p in src.packets)


def encode_table(results: list[GameResult]) -> bytes:
    return b"".join(_ENC.encode(r) + b"\n" for r in results)


@functools.cache
def table() -> dict[tuple[int, str], GameResult]:
    """The committed table: each full game's line by (scenario, seed text)."""
    lines = TABLE.read_bytes().splitlines()
    rows = [msgspec.json.decode(line, type=GameResult) for line in lines]
    return {(r.scenario, r.seed): r for r in rows}


# -- make records ---------------------------------------------------------------------------------


def _play(game: tuple[int, int]) -> tuple[int, int, bytes, GameResult, float]:
    t0 = time.perf_counter()
    r = play(load_board(game[0]), game[1])
    return game[0], game[1], encode(r), game_summary(r), time.perf_counter() - t0


def _email(mode: DiceMode) -> tuple[DiceMode, bytes, float]:
    t0 = time.perf_counter()
    return mode, email_text(mode).encode(), time.perf_counter() - t0


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """Play every game of :data:`GAMES`, :data:`TABLE_GAMES` and :data:`EMAIL_MODES` (``--jobs``
    at a time) and rewrite the records and the table; print what changed."""
    parser = argparse.ArgumentParser(prog="python -m tests.kit.records", description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    games = sorted(set(GAMES) | set(TABLE_GAMES))
    played: dict[tuple[int, int], tuple[bytes, GameResult]] = {}
    emails: dict[DiceMode, bytes] = {}
    total = len(games) + len(EMAIL_MODES)
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(max(1, args.jobs)) as pool:
        by_mail = pool.map_async(_email, EMAIL_MODES, chunksize=1)
        for n, seed, data, result, seconds in pool.imap_unordered(_play, games):
            played[n, seed] = (data, result)
            print(f"[{len(played)}/{total}] scenario {n} seed {seed}: {seconds:.1f} s")
        for mode, text, seconds in by_mail.get():
            emails[mode] = text
            print(f"[{len(played) + len(emails)}/{total}] by email, {mode} dice: {seconds:.1f} s")
    RECORDS.mkdir(parents=True, exist_ok=True)
    outputs = {record_path(*g): played[g][0] for g in GAMES}
    outputs |= {email_path(mode): emails[mode] for mode in EMAIL_MODES}
    outputs[TABLE] = encode_table([played[g][1] for g in TABLE_GAMES])
    for path, data in outputs.items():
        same = path.is_file() and path.read_bytes() == data
        if not same:
            _write(path, data)
        print(f"{path.relative_to(DATA.parent.parent)}: {'unchanged' if same else 'written'}")
    print(f"{total} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
