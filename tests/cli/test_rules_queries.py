"""``ardennes rules options|supply|interdiction|odds``: the engine's answers as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import rules.ao
from ardennes_tui import cli
from rules.ao import position
from rules.ao.combat import defender_supply, preview_attack
from rules.ao.interdiction import interdiction_for
from rules.ao.state import GameState, UnitState, state_hash
from rules.ao.supply import supply_judgment
from scenarios import load_board
from tests.kit.engine import ended, place_due, scenario_start, without_gt1_obligations
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


@pytest.fixture(scope="module")
def gt1() -> tuple[rules.ao.Board, GameState]:
    """Scenario 1 at the German Combat Phase of Game-Turn 1, its AO-4.2h* obligations set."""
    b, s = scenario_start(1)
    while not (s.side == "german" and s.phase == "combat"):
        s = ended(b, place_due(b, s))
    assert s.combat.obliged
    return b, s


def write(tmp_path: Path, state: GameState) -> str:
    path = tmp_path / "pos.json"
    path.write_text(position.dumps(state))
    return str(path)


def test_options_is_the_game_s_options(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board, state = gt1
    code, out, _ = run(["rules", "options", "--position", write(tmp_path, state)], capsys)
    assert code == 0
    o = rules.ao.Game(board, state).options()
    assert out == json.loads(msgspec.json.encode(o))
    assert (out["mode"], out["acting"], out["hash"]) == ("combat", "german", state_hash(state))
    assert out["targets"] and out["attackers"]


def _adjacent_attack(board: rules.ao.Board, state: GameState) -> tuple[list[str], str]:
    """A legal GT1 attack: an American hex and every German unit next to it."""
    m = board.game_map
    for target in rules.ao.Game(board, state).options().targets:
        near = sorted(
            u.id
            for n in m.neighbours(target)
            for u in state.at(n)
            if board.defs[u.id].side == "german"
        )
        attack = rules.ao.DeclareAttack(attackers=tuple(near), defenders=(target,))
        if not isinstance(rules.ao.combat.check_attack(board, state, attack), rules.Rejection):
            return near, target
    raise AssertionError("no legal attack on the GT1 start line")


@pytest.mark.rule("AO-4.2d")
@pytest.mark.rule("AO-4.2e")
def test_odds_break_the_attack_down_and_agree_with_the_engine(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board, state = gt1
    attackers, target = _adjacent_attack(board, state)
    pos = write(tmp_path, state)
    names = ",".join(attackers)
    argv = ["rules", "odds", "--position", pos, "--attackers", names, "--defenders", target]
    code, out, err = run(argv, capsys)
    preview = preview_attack(board, state, attackers, [target])
    assert not isinstance(preview, rules.Rejection)
    assert code == 0 and err == ""
    assert (out["attack"], out["defence"], out["column"], out["table"]) == (
        preview.attack,
        preview.defence,
        preview.column,
        preview.table,
    )
    # GT1: the German attack is tripled (AO-4.2d), the American defence is not multiplied
    terms = out["attackers"]
    assert [t["hex"] for t in terms] == sorted({state.unit(a).hex or "" for a in attackers})
    assert all(t["factor"] == 3 and t["value"] == t["total"] * 3 for t in terms)
    assert sum(t["value"] for t in terms) == out["attack"]
    printed = sum(board.defs[a].strength for a in attackers)
    assert sum(c["printed"] for t in terms for c in t["classes"]) == printed
    assert all(t["factor"] == 1 for t in out["defenders"])
    printed_d = sum(board.defs[u.id].strength for u in state.at(target))
    assert sum(c["printed"] for t in out["defenders"] for c in t["classes"]) == printed_d
    assert "refusal" not in out


@pytest.mark.rule("AO-4.2e")
@pytest.mark.rule("AO-9.3J")
@pytest.mark.rule("AO-11.h")
def test_odds_gt1_allied_attack_on_the_west_wall_is_against_nine_times(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Scenario 1, Allied Combat Phase of Game-Turn 1, no German attack made: us-109-i (5)
    # next to de-15-pt (4) in the West Wall hex 3531. German defence: 4, West Wall x3
    # (AO-11.h) times GT1 x3 (AO-4.2e) = 36; 5 against 36 is read on the 1-2 column.
    board, state = gt1
    s = without_gt1_obligations(state)
    while not (s.side == "allied" and s.phase == "combat"):
        s = ended(board, place_due(board, s))
    assert board.game_map.hex("3531").fortification == "westwall"
    assert [u.id for u in s.at("3531")] == ["de-15-pt"]
    pos = write(tmp_path, s)
    argv = ["rules", "odds", "--position", pos, "--attackers", "us-109-i", "--defenders", "3531"]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    assert [(t["hex"], t["total"], t["factor"], t["value"]) for t in out["defenders"]] == [
        ("3531", 4, 9, 36)
    ]
    assert (out["attack"], out["defence"], out["column"]) == (5, 36, "1-2")
    preview = preview_attack(board, s, ["us-109-i"], ["3531"])
    assert not isinstance(preview, rules.Rejection)
    assert (preview.attack, preview.defence, preview.column) == (5, 36, "1-2")


def test_a_refused_attack_says_its_rule_and_exits_1(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board, state = gt1
    attackers, target = _adjacent_attack(board, state)
    attacker = attackers[0]
    far = next(
        h
        for h in sorted(board.game_map)
        if rules.hexgrid.distance(h, state.unit(attacker).hex or h) > 3
        and any(board.defs[e.id].side == "allied" for e in state.at(h))
    )
    pos = write(tmp_path, state)
    argv = ["rules", "odds", "--position", pos, "--attackers", attacker, "--defenders", far]
    code, out, err = run(argv, capsys)
    assert code == 1 and out["refusal"]["case"] == "AO-9.1A"
    assert err.startswith("ardennes: the attack would be refused: AO-9.1A")
    bad = ["rules", "odds", "--position", pos, "--attackers", "nobody", "--defenders", target]
    code, _, err = run(bad, capsys)
    assert code == 2 and "'nobody' is not a unit on the map" in err


@pytest.mark.rule("AO-12.0")
@pytest.mark.rule("AO-12.4K")
def test_supply_gives_marker_judgment_and_defence_with_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = load_board(1)
    state = rules.ao.new_game(board)
    # a German unit far behind the American line, its marker still "supplied": judged now, cut
    deep = next(
        u for u in state.units if u.status == "on_map" and board.defs[u.id].side == "german"
    )
    moved = UnitState(id=deep.id, hex="0510")
    state = state.replace_units([moved])
    state = msgspec.structs.replace(state, turn=3, side="allied", phase="combat")
    code, out, _ = run(["rules", "supply", "--position", write(tmp_path, state)], capsys)
    assert code == 0 and out["state_hash"] == state_hash(state)
    german, allied = out["sides"]
    assert (german["side"], allied["side"]) == ("german", "allied")
    judged = supply_judgment(
        board, state, "german", interdicted=interdiction_for(board, state, "german", 3)
    )
    defending = defender_supply(board, state, "german")
    rows = {r["unit"]: r for r in german["units"]}
    assert set(rows) == set(judged)
    for uid, row in rows.items():
        assert row["judged"] == judged[uid] and row["defending"] == defending[uid]
        assert row["marker"] == state.unit(uid).supply
        # GT3: a defender is supplied exactly when it has a path (AO-12.1A)
        assert ("path" in row) == (row["defending"] == "supplied")
    cut = rows[deep.id]
    assert cut["marker"] == "supplied" and cut["judged"] != "supplied" and "path" not in cut
    code, one, _ = run(
        ["rules", "supply", "--position", write(tmp_path, state), "--side", "allied"], capsys
    )
    assert [s["side"] for s in one["sides"]] == ["allied"]


@pytest.mark.rule("AO-13.1A")
def test_interdiction_stored_and_now(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board, state = gt1
    code, out, _ = run(["rules", "interdiction", "--position", write(tmp_path, state)], capsys)
    assert code == 0
    for side in ("german", "allied"):
        now = [list(b) for b in interdiction_for(board, state, side, state.turn)]
        assert out["now"][side] == now
        assert out["stored"][side] == [list(b) for b in getattr(state.interdicted, side)]


def _hand(units: str, vp: str = "") -> str:
    return (
        '{"format": "ardennes-position/1", "scenario": 1, "turn": 2, "side": "allied", '
        f'"phase": "reinforcement", "units": [{units}]{vp}}}'
    )


def test_units_a_position_leaves_out_are_not_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand-written position names only the units it is about; the others are
    ``not_in_play``: not due as reinforcements, worth no VP, never placed."""
    board = load_board(1)
    path = tmp_path / "hand.json"
    path.write_text(_hand('{"id": "us-109-i", "hex": "3432"}, {"id": "de-1128-i", "hex": "3325"}'))
    code, out, err = run(["rules", "options", "--position", str(path)], capsys)
    assert code == 0, err
    # GT2 Allied Reinforcement Phase: nothing is due, though scenario 1 schedules units now
    due_now = [
        u
        for u, (turn, _sec) in rules.ao.reinforcements.schedule(board).items()
        if turn == 2 and board.defs[u].side == "allied"
    ]
    assert due_now and out["mode"] == "reinforcement" and "reinforcements" not in out
    state = position.fill(board, position.loads(path.read_text()))
    named = ("us-109-i", "de-1128-i")
    assert {u.status for u in state.units if u.id not in named} == {"not_in_play"}
    assert position.check(board, state) == []
    assert rules.ao.Game(board, state).options().reinforcements == ()
    refused = rules.ao.apply(board, state, rules.ao.Place(due_now[0], "0101"))
    assert isinstance(refused, rules.Rejection)
    # and the full position round-trips with them
    assert position.loads(position.dumps(state)) == state


@pytest.mark.rule("AO-16.A")
def test_a_position_s_vp_are_checked_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "vp.json"
    one = '{"id": "us-109-i", "hex": "3432"}'
    path.write_text(_hand(one, ', "vp": {"german": 0, "allied": 3}'))
    code, _, err = run(["rules", "options", "--position", str(path)], capsys)
    assert code == 2
    assert "vp: 3 Allied VP, but 0 German units are eliminated (AO-16.A: one VP each)" in err
    path.write_text(_hand(one, ', "vp": {"german": 999, "allied": 0}'))
    code, _, err = run(["rules", "options", "--position", str(path)], capsys)
    assert code == 2 and "vp: 999 German VP, but 0 Allied units are eliminated" in err
    # German VP between the kills and the kills plus every exit: kept as written
    killed = one + ', {"id": "us-110-i", "status": "eliminated"}'
    path.write_text(_hand(killed, ', "vp": {"german": 11, "allied": 0}'))
    code, _, err = run(["rules", "options", "--position", str(path)], capsys)
    assert code == 0, err
    state = position.fill(load_board(1), position.loads(path.read_text()))
    assert state.vp == rules.ao.VictoryPoints(german=11, allied=0)


@pytest.mark.rule("AO-4.2h*")
def test_a_gt1_combat_position_without_obligations_gets_them_derived(
    gt1: tuple[rules.ao.Board, GameState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The engine fixes the AO-4.2h* obligations when the phase begins; a position written
    inside the phase without them gets them from its units, the same as the real game's."""
    board, state = gt1
    bare = without_gt1_obligations(state)
    code, out, _ = run(["rules", "options", "--position", write(tmp_path, bare)], capsys)
    assert code == 0
    real = rules.ao.Game(board, state).options()
    assert out["must_be_attacked"] == list(real.must_be_attacked) != []
    assert out["must_attack"] == list(real.must_attack) != []
    assert position.fill(board, bare).combat.obliged == state.combat.obliged
