"""The pure parts of getting around and of help: the jumps' order, the go-to places, the
decisions' consequences and the help's sections (:mod:`ardennes_tui.present.navigation`,
:mod:`ardennes_tui.present.help_text`), without an app."""

from __future__ import annotations

import pytest
from rich.text import Text

import rules.ao
from ardennes_tui.present import keymap
from ardennes_tui.present.help_text import (
    SAMPLE_UNITS,
    SECTIONS,
    WIDTH,
    HelpContext,
    crt_tables,
    sample_map,
    section_text,
    sequence_of_play,
    terrain_rows,
)
from ardennes_tui.present.navigation import Place, cycle_hex, cycle_unit, go_to, places
from ardennes_tui.present.render.counters import counter_short
from rules.ao import crt
from tests.kit.engine import make_map
from tests.kit.realmap import needs_real_map


def test_lit_hexes_go_in_reading_order_and_the_nearest_comes_first() -> None:
    lit = ["0503", "0201", "0302", "0102"]  # reading order: 0201, 0102, 0302, 0503
    assert cycle_hex(lit, "0201") == "0102"
    assert cycle_hex(lit, "0102") == "0302"
    assert cycle_hex(lit, "0503") == "0201"  # round
    assert cycle_hex(lit, "0201", -1) == "0503"
    assert cycle_hex(lit, "0603") == "0503"  # not lit: the nearest lit hex
    assert cycle_hex(lit, "0603", -1) == "0503"
    assert cycle_hex(lit, "0403") == "0302"  # two at one hex: the first in reading order
    assert cycle_hex([], "0101") is None


def test_units_go_in_the_reading_order_of_their_hexes() -> None:
    units = [("c", "0302"), ("a", "0201"), ("b", "0201"), ("d", "0102")]
    assert cycle_unit(units, "a", "0101") == ("b", "0201")
    assert cycle_unit(units, "b", "0101") == ("d", "0102")
    assert cycle_unit(units, "c", "0101") == ("a", "0201")  # round
    assert cycle_unit(units, "a", "0101", -1) == ("c", "0302")
    # none of them selected: the first at or after the cursor, the last before it
    assert cycle_unit(units, None, "0102") == ("d", "0102")
    assert cycle_unit(units, "x", "0202") == ("c", "0302")
    assert cycle_unit(units, None, "0102", -1) == ("b", "0201")
    assert cycle_unit(units, None, "0401") == ("d", "0102")
    assert cycle_unit([], None, "0101") is None


def test_go_to_a_hex_or_a_town_whatever_its_accents_and_dots() -> None:
    m = make_map(
        ". . . .\n. . . .",
        towns={"St. Vith": "0101", "Büllingen": "0201", "Bastogne": "0301", "Stavelot": "0102"},
    )
    assert places(m, "0302") == [Place("0302", "0302 clear")]
    assert places(m, " bas ") == [Place("0301", "Bastogne (0301)")]
    assert places(m, "BULL") == [Place("0201", "Büllingen (0201)")]
    assert places(m, "st vith") == [Place("0101", "St. Vith (0101)")]
    assert places(m, "StVit") == [Place("0101", "St. Vith (0101)")]  # the map's abbreviation
    # starts first (by name), then contains
    assert [p.hex for p in places(m, "st")] == ["0102", "0101", "0301"]  # stavelot, stvith
    assert [p.hex for p in places(m, "b")] == ["0301", "0201"]
    assert go_to(m, "sta") == Place("0102", "Stavelot (0102)")
    assert go_to(m, "9999") == "No hex 9999 on this map (0101-0402)"
    assert go_to(m, "zz") == "No hex or town 'zz': a hex is CCRR, e.g. 3412"
    assert go_to(m, "") == "Type a hex (CCRR, e.g. 3412) or the start of a town's name"


@needs_real_map
def test_the_real_towns_by_a_few_letters() -> None:
    from scenarios import load_map

    m = load_map()
    assert go_to(m, "bas") == Place("2328", "Bastogne (2328)")
    assert go_to(m, "stv") == Place("3217", "St. Vith (3217)")
    assert go_to(m, "bull") == Place("3512", "Büllingen (3512)")


def test_every_section_fits_the_80_column_help() -> None:
    ctx = HelpContext(phase="combat", side="german", turn=3, table="initial", column="3-1")
    for sid, _, _ in SECTIONS:
        text = section_text(sid, ctx).plain
        assert text and max(len(line) for line in text.splitlines()) <= WIDTH, sid


def test_the_counter_key_is_drawn_by_the_map_renderer() -> None:
    text = section_text("counters", HelpContext()).plain
    for stack in SAMPLE_UNITS.values():
        label = counter_short(stack[0])
        assert f". {label} in " in text  # each sample counter explained
    assert "+2" in text and "+1" in text  # the stack sizes, as the map draws them
    assert "Legend" in text and "river" in text and "type letters:" in text


def test_the_sequence_of_play_marks_the_phase_now() -> None:
    marked = [
        line
        for line in sequence_of_play(HelpContext("combat", "allied", 4)).plain.splitlines()
        if line.startswith(">")
    ]
    assert len(marked) == 1 and "4 Combat" in marked[0]
    lines = sequence_of_play(HelpContext("combat", "allied", 4)).plain.splitlines()
    assert lines.index(marked[0]) > lines.index("  Allied player-turn")
    assert "now GT4 (19 Dec)" in lines[3]
    setup = sequence_of_play(HelpContext("setup_german", "german", 1)).plain.splitlines()
    assert [x for x in setup if x.startswith(">")] == ["> German set-up"]
    assert not [x for x in sequence_of_play(HelpContext()).plain.splitlines() if x[0] == ">"]


def _lit_cells(text: Text) -> list[str]:
    return [text.plain[s.start : s.end].strip() for s in text.spans if s.style == "reverse"]


@pytest.mark.rule("AO-10.0a")
def test_both_crts_as_printed_with_the_attacks_column_lit() -> None:
    ctx = HelpContext("combat", "german", 3, german_crt="initial", table="initial", column="3-1")
    text = crt_tables(ctx)
    plain = text.plain
    assert "German Initial CRT (in use now: German player-turn)" in plain
    assert "Standard CRT\n" in plain
    col = crt.ODDS_COLUMNS.index("3-1")
    expected = ["3-1", *(str(crt.TABLES["initial"][die][col]) for die in range(6))]
    assert _lit_cells(text) == expected  # the column of the Initial CRT only
    for die, row in enumerate(crt.TABLES["standard"], 1):
        assert f"  {die}  " + " ".join(f"{c!s:>4}" for c in row) in plain
    allied = crt_tables(HelpContext("combat", "allied", 3, table="standard", column="1-1"))
    assert "Standard CRT (in use now: Allied player-turn)" in allied.plain
    assert _lit_cells(allied)[0] == "1-1"


def test_the_terrain_chart_uses_the_engines_combat_factors() -> None:
    rows = {name: (mp, combat) for name, mp, combat, _ in terrain_rows()}
    m = sample_map()
    ww = rules.ao.defence_factor(m, "0401", "german", 2)
    assert rows["West Wall"][1].startswith(f"German x{ww} defending, x2 attacking out")
    assert rows["fortified"][1].startswith("German x2 defending")


def test_the_terrain_chart_movement_costs_are_the_engines() -> None:
    """The chart's MP against the engine's own step costs on the sample map (a test may read
    the engine's internal tables; the app may not, see the report)."""
    from rules.ao.movement.tables import Tables

    links = {(a, b): costs for a, out in Tables(sample_map()).links.items() for b, costs, *_ in out}
    rows = {name: mp for name, mp, _, _ in terrain_rows()}
    # class index: 2 * allied + mechanized
    assert links[("0201", "0101")][1] == links[("0201", "0101")][0] == 1  # road
    rough = links[("0201", "0301")]
    assert rows["rough"] == f"{rough[1]} / {rough[0]}"
    clear = links[("0401", "0501")]  # clear hex (fortified +0) across a river
    assert rows["river hexside"] == f"+{clear[1] - 1} / +{clear[0] - 1}"
    westwall = links[("0301", "0401")]  # a bridge into a West Wall hex
    assert westwall[3] - westwall[1] == 2 and rows["West Wall"] == "Allied +2"


def test_the_keys_section_lists_every_binding() -> None:
    text = section_text("keys", HelpContext()).plain
    for kb in keymap.KEYMAP:
        if not kb.id.startswith("decide.pick"):
            assert kb.description.split()[0] in text, kb.id
    for key in (".", ",", "]", "[", "g", "C", "Ctrl+P"):
        assert f"\n  {key} " in text, key


def test_the_keys_section_lists_the_keys_of_a_game_against_the_computer() -> None:
    text = section_text("keys", HelpContext()).plain
    part = text[text.index("Against the computer") :]
    assert "\n  Space Escape " in part and "skip to its end" in part
    assert "\n  R " in part and "play back the computer's last turn" in part
