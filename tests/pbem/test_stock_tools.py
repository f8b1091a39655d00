"""A game checked with stock tools (issue 20): the pipeline of ``docs/pbem-protocol.md``
section 2, run as written with the real ``ssh-keygen -Y verify`` over every packet, its keys
from ``ardennes keys --allowed-signers`` and each packet's signed bytes and SSHSIG from
``ardennes export --packet``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.exchange import armor_packets
from tests.kit.players import PlayerKey, played
from tests.kit.realmap import needs_real_map
from tests.pbem import needs_ssh_keygen

pytestmark = [needs_real_map, needs_ssh_keygen]

DOC = Path(__file__).parents[2] / "docs" / "pbem-protocol.md"


def pipeline() -> str:
    """The shell block of section 2 that checks every packet with ssh-keygen."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.S)
    [block] = [b for b in blocks if "ssh-keygen -Y verify" in b and "--allowed-signers" in b]
    return block


def run(folder: Path, game: str, script: str | None = None) -> subprocess.CompletedProcess[str]:
    text = (script or pipeline()).replace("GAME=game.txt", f"GAME={game}")
    bin_dir = str(Path(sys.executable).parent)
    return subprocess.run(
        ["bash", "-c", text],
        cwd=folder,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "ARDENNES_HOME": str(folder / "home")},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_the_documented_pipeline_verifies_every_packet(mode: str, tmp_path: Path) -> None:
    sent = played(mode)
    (tmp_path / "game.txt").write_text("Our game so far:\n\n" + armor_packets(sent))
    r = run(tmp_path, "game.txt")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"{len(sent)} packets verified"
    good = [x for x in (r.stdout + r.stderr).splitlines() if x.startswith("Good ")]
    assert good == [
        f'Good "ardennes" signature for {p.body.author} with ED25519 key '
        f"{PlayerKey('hans' if p.body.author == 'german' else 'joe').fingerprint}"
        for p in sent
    ]
    signers = (tmp_path / "allowed_signers").read_text().splitlines()
    assert signers == [
        f'german namespaces="ardennes" {PlayerKey("hans").public_line}',
        f'allied namespaces="ardennes" {PlayerKey("joe").public_line}',
    ]


def test_the_pipeline_fails_on_a_packet_signed_by_the_other_key(tmp_path: Path) -> None:
    """ssh-keygen, not this program, refuses here: the allowed signers swapped, packet 0 (the
    German invitation) is no longer the German key's."""
    sent = played("sealed")
    (tmp_path / "game.txt").write_text(armor_packets(sent))
    swapped = pipeline().replace(
        "> allowed_signers\n", "| sed 's/^german /x /; s/^allied /german /' > allowed_signers\n"
    )
    assert swapped != pipeline()
    r = run(tmp_path, "game.txt", swapped)
    assert r.returncode == 1
    assert r.stdout == "Could not verify signature.\n"  # and no "packets verified"


def test_export_of_one_packet_says_what_is_wrong_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ardennes_tui.cli import main

    sent = played("open")
    game = tmp_path / "game.txt"
    game.write_text(armor_packets(sent))
    m, s = str(tmp_path / "m.bin"), str(tmp_path / "m.sig")
    assert main(["export", str(game), "--packet", "1", "--message", m]) == 2
    assert main(["export", str(game), "--packet", "99", "--message", m, "--signature", s]) == 1
    assert main(["export", str(game), "--message", m]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "ardennes: --packet N writes to --message FILE and --signature FILE",
        f"ardennes: no packet 99: {game} holds packets 0-{len(sent) - 1}",
        "ardennes: --message and --signature go with --packet N",
    ]
    assert main(["export", str(game), "--packet", "1", "--message", m, "--signature", s]) == 0
    assert Path(m).read_bytes() == sent[1].signed
    assert Path(s).read_text().startswith("-----BEGIN SSH SIGNATURE-----\n")
    assert main(["keys", "--allowed-signers", str(tmp_path / "none.txt")]) == 2
    assert "no such file, and not a game id" in capsys.readouterr().err


def test_the_dice_checker_hands_every_packet_to_ssh_keygen(tmp_path: Path) -> None:
    """Without this program at all: ``contrib/ardennes-dice-check --ssh DIR`` writes each
    packet's signed bytes and signature and the keys of the first two packets, and the stock
    ``ssh-keygen`` verifies them."""
    from tests.kit.dicecheck import SYSTEM_PYTHON, dice_check
    from tests.pbem import ssh_keygen

    if SYSTEM_PYTHON is None:
        pytest.skip("no system python3")
    sent = played("sealed")
    game = tmp_path / "game.txt"
    game.write_text(armor_packets(sent))
    folder = tmp_path / "ssh"
    assert dice_check(game, "--ssh", str(folder)).returncode == 0
    signers = str(folder / "allowed_signers")
    for p in sent:
        sig = str(folder / f"{p.body.seq:06d}.sig")
        message = (folder / f"{p.body.seq:06d}.bin").read_bytes()
        assert message == p.signed
        r = ssh_keygen("-Y", "verify", "-f", signers, "-I", p.body.author, "-n", "ardennes",
                       "-s", sig, stdin=message)  # fmt: skip
        assert r.returncode == 0, (p.body.seq, r.stderr)
