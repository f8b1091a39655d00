"""*Breakthrough* by email with sealed dice (issue 24): the German invites, both players'
copies agree packet by packet, every die is a d100 that falls in a resolution (a batch the
mover declared, after the opponent's reply) or in the American's own roll at each day's dawn,
and the mail verifies and audits (``pbem.audit``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem import audit, sources
from pbem.core.headers import armor_packets
from pbem.core.packets import Packet
from rules.dice import DieRoll
from tests.kit import bita_email
from tests.kit.dicecheck import dice_check, needs_system_python

GAME_ID = "b1" * 16


@pytest.fixture(scope="module")
def three_days() -> tuple[dict[str, Any], list[Packet]]:
    """16 to 18 December (the first air menus and the first uncertain weather, turn 3)."""
    return bita_email.play(GAME_ID, until_turn=4)


def _file(sent: list[Packet], tmp_path: Path) -> Path:
    path = tmp_path / "breakthrough-game.txt"
    path.write_text("Mail from Hans:\n\n" + armor_packets(sent, "breakthrough"))
    return path


def test_both_copies_agree_and_the_dice_go_by_reply_and_resolution(three_days: Any) -> None:
    games, sent = three_days
    de, us = games["german"], games["american"]
    assert de.hashes == us.hashes and de.game.state_hash() == us.game.state_hash()
    assert de.game.state.turn == 4 and sent[0].body.ruleset == "breakthrough"
    kinds = [p.body.kind for p in sent]
    assert kinds[:2] == ["invitation", "acceptance"]
    assert {"orders", "reply", "resolution"} <= set(kinds)
    # every reply follows an orders packet and is followed by its author's resolution
    for i, k in enumerate(kinds):
        if k == "reply":
            assert kinds[i - 1] == "orders" and kinds[i + 1] == "resolution"
            assert sent[i + 1].body.author == sent[i - 1].body.author
    dice = [e for step in de.game.history for e in step.events if isinstance(e, DieRoll)]
    assert dice and all(d.faces == 100 for d in dice)
    # 18 December's weather is the American's own roll, the first command of his packet
    weather = [d for d in dice if d.purpose == "weather:3"]
    assert len(weather) == 1


def test_the_mail_verifies_and_audits(three_days: Any, tmp_path: Path) -> None:
    games, sent = three_days
    v = audit.verify(sources.load_source(str(_file(sent, tmp_path))), bita_email.board_for)
    assert v.ok, v.line
    assert v.line.startswith(f"OK: game {GAME_ID}, scenario 1, sealed dice, {len(sent)} packets")
    assert f"final state {games['german'].game.state_hash()}" in v.line
    a = audit.audit(v)
    drawn = [
        e for step in games["german"].game.history for e in step.events if isinstance(e, DieRoll)
    ]
    assert [(r.index, r.value) for r in a.rolls] == [(d.index, d.value) for d in drawn]
    own = [r for r in a.rolls if r.purpose.startswith("weather")]
    assert own and all(r.author == "american" for r in own)


@pytest.mark.slow
def test_a_whole_first_seven_days_by_email_verifies(tmp_path: Path) -> None:
    games, sent = bita_email.play("b2" * 16)
    de = games["german"].game
    assert de is not None and de.outcome() is not None and de.state.turn == 7
    v = audit.verify(sources.load_source(str(_file(sent, tmp_path))), bita_email.board_for)
    assert v.ok, v.line
    assert (
        "game over, American wins" in v.line
        or "game over, German wins" in v.line
        or ("game over, a draw" in v.line)
    )


@needs_system_python
def test_the_dice_checker_agrees_with_the_audit(three_days: Any, tmp_path: Path) -> None:
    """``contrib/ardennes-dice-check`` (standard library only) recomputes every d100 from the
    packets and agrees with the audit roll for roll."""
    _, sent = three_days
    path = _file(sent, tmp_path)
    r = dice_check(path, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = json.loads(r.stdout)
    rolls = audit.audit(audit.verify(sources.load_source(str(path)), bita_email.board_for)).rolls
    assert len(mine) == len(rolls) > 0
    for d, roll in zip(mine, rolls, strict=True):
        assert (d["packet"], d["draw"], d["value"], d["kind"]) == (
            roll.packet,
            roll.index,
            roll.value,
            roll.derivation,
        )
