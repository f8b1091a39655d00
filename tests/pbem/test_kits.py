"""The email kits' registry (``pbem/kits.py``): one kit a ruleset, registered by the program's
composition root (``ardennes_tui/rulesets/__init__.py``) or a test (``tests/kit/tiny_kit.py``),
and a one-line refusal for a ruleset without one, wherever email play needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ardennes_tui.rulesets.ao.email import AO_EMAIL_KIT
from pbem import kits
from pbem.core.errors import PbemError
from pbem.games import Service
from pbem.store import Store
from tests.kit.players import PlayerKey
from tests.kit.tiny_kit import TINY_KIT, TinyKit


def test_the_program_registers_the_aos_kit_and_a_test_tinys() -> None:
    assert kits.get("ao") is AO_EMAIL_KIT and kits.get("tiny") is TINY_KIT
    assert {"ao", "tiny"} <= set(kits.ids()) and list(kits.ids()) == sorted(kits.ids())
    kits.register(AO_EMAIL_KIT)  # the same kit again: nothing happens
    assert kits.get("ao") is AO_EMAIL_KIT


def test_another_kit_for_a_ruleset_that_has_one_is_refused() -> None:
    with pytest.raises(kits.KitError, match=r"^an email kit for the ruleset 'tiny' is registered"):
        kits.register(TinyKit())
    assert kits.get("tiny") is TINY_KIT


@pytest.mark.parametrize("rid", ["chess", "nokit", "x\nERROR: forged"])
def test_a_ruleset_without_a_kit_is_one_line(rid: str) -> None:
    with pytest.raises(kits.KitError) as raised:
        kits.get(rid)
    text = str(raised.value)
    assert isinstance(raised.value, PbemError) and "\n" not in text
    assert text.startswith("this program cannot play the ruleset ")
    assert text.endswith(f"by email (it plays: {', '.join(kits.ids())})")


def test_a_service_refuses_a_game_of_a_ruleset_without_a_kit(tmp_path: Path) -> None:
    """``Service.invite`` of a ruleset the engine has not, or has no email kit for: one line,
    nothing stored."""
    service = Service(Store(tmp_path))
    me = PlayerKey("rosa")
    with pytest.raises(PbemError, match=r"^this program has no ruleset 'chess' \(it has: ao, "):
        service.invite(me, scenario=1, side="red", mode="open", ruleset="chess")
    with pytest.raises(PbemError, match=r"^the side is blue or red, not 'german'$"):
        service.invite(me, scenario=1, side="german", mode="open", ruleset="tiny")
    with pytest.raises(PbemError, match=r"^there is no scenario 3$"):
        service.invite(me, scenario=3, side="red", mode="open", ruleset="tiny")
    assert service.store.game_ids() == []


def test_the_aos_kit_speaks_as_pbem_did() -> None:
    """The AO's words moved from pbem to its kit unchanged."""
    k = AO_EMAIL_KIT
    assert (k.phase_words("setup_allied"), k.phase_words("mechanized_movement")) == (
        "set-up",
        "mechanized movement",
    )
    assert k.verdict_text(None) == "game over"
    assert k.default_bot in k.bot_kinds and k.title == "The Ardennes Offensive"
    assert sorted(k.scenarios()) == list(range(1, 11))
    assert k.default_orders("german") is not None and k.score(object()) is None
