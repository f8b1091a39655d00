"""Self-play by email (``pbem.selfplay``, ``ardennes selfplay --dice``): two players with
their own keys and stores exchange armoured text only; the file of every packet verifies and
audits like a real game; the same seed gives the same bytes."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from ardennes_tui.cli import main
from pbem import audit, selfplay
from pbem.core import armor
from pbem.core.errors import PbemError
from pbem.games import Service
from pbem.sources import load_source
from pbem.store import Store
from tests.kit.realmap import needs_real_map

pytestmark = needs_real_map


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_two_runs_of_a_sealed_game_give_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [tmp_path / "a.txt", tmp_path / "b.txt"]
    lines = []
    for f in files:
        argv = ["selfplay", "--scenario", "1", "--seed", "7", "--turns", "2", "--dice", "sealed"]
        code, out, err = run([*argv, "-o", str(f)], capsys)
        assert code == 0 and err == "", err
        lines.append(out)
    assert files[0].read_bytes() == files[1].read_bytes()
    assert lines[0].replace("a.txt", "b.txt") == lines[1]
    gid = selfplay.selfplay_game_id(1, "sealed", "7")
    assert lines[0].startswith(f"scenario 1 seed 7 (sealed dice, game {gid[:8]}): ")
    assert "stopped after GT2" in lines[0] and lines[0].endswith(f" -> {files[0]}\n")
    blocks = armor.dearmor_all(files[0].read_text())
    assert [int(b.headers["Seq"]) for b in blocks] == list(range(len(blocks)))
    # another seed: other keys, another game
    code, _, _ = run([*argv[:4], "8", *argv[5:], "-o", str(tmp_path / "c.txt")], capsys)
    assert code == 0 and (tmp_path / "c.txt").read_bytes() != files[0].read_bytes()
    # the file checks like a real game, and its rolls are listed
    code, out, _ = run(["verify", str(files[0])], capsys)
    assert code == 0 and out.startswith(f"OK: game {gid}, scenario 1, sealed dice, ")
    for key in (selfplay.player_key(s, "7").fingerprint for s in ("german", "allied")):
        assert key in out
    code, out, _ = run(["audit", str(files[0])], capsys)
    assert code == 0 and "dice rolled" in out and "German resolution, batch 1" in out
    assert "Dice statistics" in out
    # never over an existing file without --force
    code, out, err = run([*argv, "-o", str(files[0])], capsys)
    assert code == 2 and "--force" in err and out == ""


@pytest.mark.parametrize("mode", ["open", "local"])
def test_open_and_local_games_verify(mode: str, tmp_path: Path) -> None:
    game = selfplay.play(1, "3", mode, turns=1, root=tmp_path)  # type: ignore[arg-type]
    assert game.turn == 2 and game.verdict is None
    f = tmp_path / "game.txt"
    f.write_text(game.text())
    v = audit.verify(load_source(str(f), Store(tmp_path / "none")))
    assert v.ok, v.line
    assert f"{mode} dice" in v.line and v.line.endswith(game.final_hash)
    assert audit.audit(v).rolls
    if mode == "local":  # one player, one store, one key
        assert [p.name for p in tmp_path.iterdir() if p.is_dir()] == ["local"]
        assert Store(tmp_path / "local").count(game.game_id) == len(game.packets)
    else:  # both stores hold every packet, and every packet went by mail
        for side in ("german", "allied"):
            store = Store(tmp_path / side)
            assert store.packets(game.game_id) == [
                armor.dearmor_all(game.text())[i].payload for i in range(len(game.packets))
            ]
        assert {s for m in game.mailings for s in m.seqs} == set(range(len(game.packets)))
        authors = [m.author for m in game.mailings]
        assert authors[:3] == ["german", "allied", "allied"]  # the acceptance, the set-up
        assert all(a != b for a, b in itertools.pairwise(authors[2:]))


@pytest.mark.parametrize(
    "argv",
    [
        ["--dice", "dice"],
        ["--dice", "sealed", "--replay", "x"],
        ["--dice", "sealed", "--summary", "--seeds", "1-2"],
    ],
)
def test_bad_dice_arguments(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["selfplay", "--scenario", "1", "--seed", "1", "-o", str(tmp_path / "x")]
    if "--replay" in argv:
        base = ["selfplay"]
    try:
        code, _, err = run([*base, *argv], capsys)
    except SystemExit as exc:  # argparse usage errors
        code, err = int(exc.code or 0), capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()


def test_invite_with_a_given_game_id_and_seed(tmp_path: Path) -> None:
    svc = Service(Store(tmp_path))
    me = selfplay.player_key("german", "x")
    gid = "ab" * 16
    seed = b"s" * 32
    sent = svc.invite(me, scenario=1, side="german", mode="local", game_id=gid, local_seed=seed)
    assert sent.game_id == gid and svc.load(gid).local_seed == seed
    with pytest.raises(PbemError, match="already in the store"):
        svc.invite(me, scenario=1, side="german", mode="sealed", game_id=gid)
    with pytest.raises(PbemError, match="is not a game id"):
        svc.invite(me, scenario=1, side="german", mode="sealed", game_id="AB" * 16)
    with pytest.raises(PbemError, match="only to a local game"):
        svc.invite(me, scenario=1, side="german", mode="sealed", local_seed=seed)
    assert svc.store.game_ids() == [gid]
