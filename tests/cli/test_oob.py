"""``ardennes oob``: every unit of a scenario, as text and as JSON with a fixed schema."""

from __future__ import annotations

import json

import pytest

from ardennes_tui import cli
from tests.kit.realmap import needs_real_map

KEYS = [
    "id", "side", "designation", "nationality", "type", "size", "mechanized", "strength",
    "movement", "setup_hex", "entry_turn", "entry_section",
]  # fmt: skip


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.rule("AO-18.a")
@pytest.mark.rule("AO-17.d")
@needs_real_map
def test_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["oob", "--scenario", "2", "--json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["scenario", "units"]
    assert data["scenario"] == 2
    units = data["units"]
    assert [u["id"] for u in units] == sorted(u["id"] for u in units)
    assert len(units) == 25 + 94 + 39 + 36
    for u in units:
        assert list(u) == KEYS
        assert u["side"] in ("allied", "german")
        assert isinstance(u["mechanized"], bool)
        assert isinstance(u["strength"], int) and isinstance(u["movement"], int)
        on_map = u["setup_hex"] is not None
        assert on_map == (u["entry_turn"] is None) == (u["entry_section"] is None)
    by_id = {u["id"]: u for u in units}
    assert by_id["de-vdh"]["entry_turn"] == 2 and by_id["de-vdh"]["entry_section"] == "drop"
    assert by_id["de-2ss-a"]["entry_turn"] == 2  # accelerated (AO-18.a*)
    assert by_id["us-cca7"]["entry_section"] == "NE"
    assert by_id["de-326-i"]["size"] == "XX" and by_id["de-326-i"]["setup_hex"]


@needs_real_map
def test_side_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["oob", "--scenario", "4", "--json", "--side", "allied"], capsys)
    assert code == 0
    units = json.loads(out)["units"]
    assert {u["side"] for u in units} == {"allied"}
    assert len(units) == 25 + 88  # slowed (AO-18.a: scenario 4)


@needs_real_map
def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["oob", "--scenario", "1"], capsys)
    assert code == 0
    assert out.startswith("Scenario 1: The historical battle")
    assert "German: 69 units" in out and "Allied: 119 units" in out
    assert "GT2 drop" in out  # von der Heydte
    lines = [ln for ln in out.splitlines() if ln.startswith("  ")]
    assert len(lines) == 69 + 119


@pytest.mark.parametrize("bad", ["0", "11", "-3"])
def test_bad_scenario_number(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["oob", "--scenario", bad], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and f"no scenario {bad}" in err
