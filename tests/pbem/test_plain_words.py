"""Mails and hints speak plainly (issue 21, item 7): a sealed batch is named by what it is
(the paratroop drop during Initial Movement, not "the declared attacks")."""

from __future__ import annotations

import rules.ao
from pbem.aoplay import ao_other
from pbem.core.protocol import EmailGame
from pbem.exchange import next_move, next_packet
from rules.ao.bots import BotRng, bots_for
from tests.kit.players import bot_packet, start
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def _until_drop() -> tuple[EmailGame, dict, dict]:
    """A sealed bot game up to the German orders packet that names the paratroop drop."""
    g, _, keys = start("sealed")
    bots = bots_for(BotRng(b"pbem-test"), batch=True)
    for _ in range(200):
        p = bot_packet(g, keys, bots)
        g.receive(p)
        if any(isinstance(c.command, rules.ao.Drop) for c in p.body.commands):
            return g, keys, bots
    raise AssertionError("no paratroop drop in 200 packets")


def test_the_paradrop_batch_is_named_by_what_it_is() -> None:
    g, keys, bots = _until_drop()
    assert g.game is not None
    s = g.game.state
    assert (s.side, s.phase, s.roll is not None and s.roll.purpose) == (
        "german",
        "initial_movement",
        "paradrop",
    )
    assert next_packet(g) == "Allied reply to the paratroop drop"
    assert next_move(g, "german", "joe") == (
        "waiting for the allied player (joe): Allied reply to the paratroop drop"
    )
    g.receive(bot_packet(g, keys, bots))  # the reply
    assert next_packet(g) == "German paratroop drop (its survival die)"
    assert next_move(g, "german") == "your move (German paratroop drop (its survival die))"
    # the combat batches keep their names
    for _ in range(50):
        g.receive(bot_packet(g, keys, bots))
        want = g.expects()
        assert want is not None
        if want[1] == "reply":
            assert g.game is not None and g.game.state.phase == "combat"
            assert next_packet(g) == f"{want[0].capitalize()} reply to the declared attacks"
            g.receive(bot_packet(g, keys, bots))
            assert next_packet(g) == f"{ao_other(want[0]).capitalize()} combat resolution"
            return
    raise AssertionError("no combat batch in 50 packets after the drop")
