"""The registry of the app's UI kits (:mod:`ardennes_tui.kits`) and the contract that keeps the
app's shell free of any ruleset (``pyproject.toml``: "The app's shell imports no ruleset")."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

import pytest

import ardennes_tui
from ardennes_tui import kits
from ardennes_tui.errors import UserError
from ardennes_tui.rulesets.ao.kit import AO_KIT, AoKit
from tests.kit.tiny_ui import TINY_KIT

ROOT = Path(__file__).resolve().parents[2]


def test_the_composition_root_registers_the_aos_kit() -> None:
    assert kits.get("ao") is AO_KIT
    assert "ao" in kits.ids() and list(kits.ids()) == sorted(kits.ids())


def test_an_unknown_ruleset_is_one_line_for_the_user() -> None:
    with pytest.raises(UserError) as caught:
        kits.get("nope")
    message = str(caught.value)
    assert message.startswith("the app cannot show a game of ruleset 'nope' (it has: ao")
    assert "\n" not in message


def test_the_same_kit_again_is_nothing_another_under_its_id_is_refused() -> None:
    kits.register(AO_KIT)
    assert kits.get("ao") is AO_KIT
    with pytest.raises(ValueError, match="a UI kit for the ruleset 'ao' is registered already"):
        kits.register(AoKit())
    assert kits.get("ao") is AO_KIT


def test_the_shell_contract_lists_every_module_of_the_app_but_the_plug_ins() -> None:
    """Every child of ``ardennes_tui`` is in the contract's sources, but the rulesets' plug-ins
    and the command line (and ``__main__``, which only runs the command line): a new module of
    the shell is checked from the start."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"].startswith("The app's shell imports no ruleset")
    )
    children = {f"ardennes_tui.{m.name}" for m in pkgutil.iter_modules(ardennes_tui.__path__)}
    plug_ins = {"ardennes_tui.rulesets", "ardennes_tui.cli", "ardennes_tui.__main__"}
    assert set(contract["source_modules"]) == children - plug_ins
    assert contract["forbidden_modules"] == ["rules.ao", "rules.breakthrough", "scenarios"]


def test_the_shells_keys_are_the_maps_the_aos_screens_add_their_own() -> None:
    """The shell's key table holds the map widget's keys only; the AO's screens' table is the
    shell's, then the AO's own (ids unique, so a user keymap names each once)."""
    from ardennes_tui.present import keymap as shell
    from ardennes_tui.rulesets.ao.present import keymap as ao

    assert {kb.scope for kb in shell.KEYMAP} == {"map"} and len(shell.KEYMAP) == 10
    assert ao.KEYMAP[: len(shell.KEYMAP)] == shell.KEYMAP
    assert {kb.scope for kb in ao.AO_KEYS} == {"app", "play", "decide", "email", "versus"}
    ids = [kb.id for kb in ao.KEYMAP]
    assert len(ids) == len(set(ids))


def test_a_stored_game_of_a_ruleset_without_a_kit_is_listed_not_read() -> None:
    """One bad item never blocks the others: a hot-seat record naming a ruleset this program
    has no UI kit for is listed with ``?`` where it stands, beside a readable game."""
    import msgspec

    from ardennes_tui.games import saves
    from ardennes_tui.present import game_list
    from pbem.store import Store
    from rules import record

    store = Store()
    good = saves.new_game(1, "listed")
    store.save_local("good", record.encode(good.record()))
    data = record.encode(good.record()).replace(b'"rules":"', b'"ruleset":"zzz","rules":"', 1)
    assert msgspec.json.decode(data.splitlines()[0], type=record.Header).ruleset == "zzz"
    store.save_local("odd", data)
    rows = {r["id"]: r for r in game_list.rows(store)}
    assert rows["odd"]["to_move"] == "?" and rows["odd"]["opponent"] == ""
    assert rows["good"]["to_move"] == "GT1 Set-up"


def test_a_kit_registered_for_a_block_is_unregistered_after_it_one_there_before_stays() -> None:
    assert "tiny" not in kits.ids()
    with kits.registered(TINY_KIT):
        assert kits.get("tiny") is TINY_KIT
    assert "tiny" not in kits.ids()
    with kits.registered(AO_KIT):  # the composition root's kit: still there after the block
        pass
    assert kits.get("ao") is AO_KIT
    kits.unregister("nope")  # nothing to forget: nothing happens
    assert kits.ids() == ("ao",)
