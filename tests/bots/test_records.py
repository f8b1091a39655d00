"""The committed self-play games of ``tests/data/`` (:mod:`tests.kit.records`): each record is
what the bots play now, byte for byte, and fails naming ``make records`` when the engine or the
bots would write another; the records replay legally; the table of the 30 full games (checked
game by game by the ``slow`` ``test_full_games_end_with_a_verdict``) agrees with them. The
games by email (``slow``: the bots' packets, signed and checked by both players) are played
again whole; ``tests/pbem/test_full_games.py`` mails them in every ``make test``."""

from __future__ import annotations

import pytest

from ardennes_tui.cli.selfplay_summary import game_summary
from pbem.core.packets import DiceMode
from rules.ao.bots.selfplay import encode, play
from scenarios import load_board
from tests.kit import records
from tests.kit.realmap import needs_real_map
from tests.kit.selfplay import check_game

pytestmark = needs_real_map

GAME_IDS = [f"s{n}-{seed}" for n, seed in records.GAMES]


def first_difference(a: bytes, b: bytes) -> str:
    """Where two records part: the header, command ``n`` or the end line."""
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if x != y:
            return "the header" if i == 0 else f"line {i + 1}"
    return "the length"


@pytest.mark.parametrize(("scenario", "seed"), records.GAMES, ids=GAME_IDS)
def test_each_record_is_what_the_bots_play_now(scenario: int, seed: int) -> None:
    r = play(load_board(scenario), seed)
    committed = records.record_bytes(scenario, seed)
    now = encode(r)
    path = records.record_path(scenario, seed)
    assert now == committed, records.stale(
        str(path), f"it differs at {first_difference(now, committed)}"
    )
    # the game the tests read from it is the one played, VP of every Game-Turn included
    assert records.selfplay_game(scenario, seed) == r


@pytest.mark.parametrize(("scenario", "seed"), records.GAMES, ids=GAME_IDS)
def test_each_record_replays_legally_to_its_verdict(scenario: int, seed: int) -> None:
    r = records.selfplay_game(scenario, seed)
    assert (r.scenario, r.seed, r.turns) == (scenario, str(seed), None)
    assert r.verdict is not None and r.final_phase == "game_over"
    assert r.record.footer is not None and r.record.footer.verdict == r.verdict
    check_game(r)


def test_the_table_has_the_30_games_and_agrees_with_the_records() -> None:
    table = records.table()
    assert list(table) == [(n, str(seed)) for n, seed in records.TABLE_GAMES]
    assert all(line.verdict is not None for line in table.values())
    shared = [g for g in records.GAMES if g in records.TABLE_GAMES]
    assert shared  # both come from one `make records`
    for n, seed in shared:
        assert game_summary(records.selfplay_game(n, seed)) == table[n, str(seed)], records.stale(
            str(records.TABLE), f"its line of scenario {n} seed {seed} is not the record's"
        )


@pytest.mark.slow
@pytest.mark.parametrize("mode", records.EMAIL_MODES)
def test_each_game_by_email_is_what_the_bots_play_now(mode: DiceMode) -> None:
    """Packet for packet, byte for byte. (Not their armour: the committed games may be armoured
    with ``deflate+dict1``, which stays readable, where new packets take ``deflate+dict2``.)"""
    now = [p.wire for p in records.email_game(mode).packets]
    committed = [p.wire for p in records.email_packets(mode)]
    part = next((i for i, (a, b) in enumerate(zip(now, committed, strict=False)) if a != b), None)
    assert now == committed, records.stale(
        str(records.email_path(mode)),
        f"packet {part} differs" if part is not None else "the number of packets differs",
    )
