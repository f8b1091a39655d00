"""*Breakthrough in the Ardennes* by email between two stores through the real ``ardennes``
command line (issue 24): Hans (the German, his own home) invites with ``invite --ruleset
breakthrough``, the computer (``ardennes bot``, the American, its own key and store) accepts
and answers every packet, Hans plays his packets with ``orders --commands`` (the commands his
side's heuristic bot gives, through Breakthrough's email kit) and imports each answer. Only
armoured text passes between them, with sealed dice. The mail of 16 December then
verifies (``ardennes verify``), audits with the d100 statistics (``ardennes audit``),
``contrib/ardennes-dice-check`` agrees with ``audit --json`` roll for roll, and the real
``ssh-keygen -Y verify`` accepts every packet's signature (``docs/pbem-protocol.md``, section
2). Email self-play (``ardennes selfplay --ruleset breakthrough --dice``) verifies too; a
whole game of it is ``@pytest.mark.slow``.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ardennes_tui.rulesets.breakthrough.email import BITA_EMAIL_KIT
from pbem import games, keys, kits
from pbem.games import Service
from pbem.selfplay import bot_fill
from pbem.store import Store
from tests.kit.dicecheck import dice_check, needs_system_python
from tests.kit.email_players import Player
from tests.pbem import needs_ssh_keygen, ssh_keygen

GAME_ID = "b7" * 16
SHORT = GAME_ID[:8]
UNTIL_TURN = 2
"""The game stops at Hans's first packet of 17 December: 16 December whole, with its combats,
and the American's dawn of the 17th."""


def _key(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())


def _hans_commands(hans: Player, bot: Any) -> list[Any]:
    """The commands of Hans's next packets: his side's bot on a draft thrown away."""
    d = Service(Store(hans.home)).draft(GAME_ID, hans.me)
    n = len(d.scratch.history)
    bot_fill(d, bot)
    return [step.command for step in d.scratch.history[n:]]


def _turn(player: Player) -> int:
    g = Service(Store(player.home)).load(GAME_ID).game
    assert g is not None
    return int(g.state.turn)


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The game through the command line: every mail, both stores, what the commands said."""
    root = tmp_path_factory.mktemp("bita-cli")
    mp = pytest.MonkeyPatch()
    mp.setattr(games, "new_game_id", lambda: GAME_ID)
    capsys = _Capture()
    capsys.start()
    hans = Player("hans", root, mp, capsys, key=_key("hans"))  # type: ignore[arg-type]
    bot_home = root / "bot"  # the bot's key made here, so its dice chain is the same each run
    keys.save(_key("bot"), "bot", home=bot_home, comment="ardennes bot")
    mails: list[str] = []
    said: list[str] = []
    try:
        inv = hans.home / "invitation.txt"
        code, out, err = hans.run(
            "invite", "--ruleset", "breakthrough", "--scenario", 1, "--side", "german",
            "--dice", "sealed", "--opponent", "bot", "-o", inv,
        )  # fmt: skip
        assert code == 0 and out == "", err
        said.append(err)
        mails.append(inv.read_text())
        bots = BITA_EMAIL_KIT.selfplay_bots("hans")
        answer = root / "answer-0.txt"
        code, _, err = hans.run("bot", inv, "--home", bot_home, "-o", answer)
        assert code == 0, err
        while True:
            mails.append(answer.read_text())
            said.append(hans.ok("import", answer))
            if _turn(hans) >= UNTIL_TURN:
                break
            cmds = _hans_commands(hans, bots["german"])
            path = hans.file("".join(msgspec.json.encode(c).decode() + "\n" for c in cmds))
            code, text, err = hans.run("orders", SHORT, "--commands", path)
            assert code == 0, err
            mails.append(text)
            sent = hans.file(text)
            answer = root / f"answer-{len(mails)}.txt"
            code, _, err = hans.run("bot", sent, "--home", bot_home, "-o", answer)
            assert code == 0, err
        file = root / "breakthrough-mail.txt"
        file.write_text("\n".join(mails))
        status = hans.ok("status", SHORT)
        show = json.loads(hans.ok("show", SHORT, "--json"))
        show_text = hans.ok("show", SHORT)
        verify = hans.run("verify", file)
        audit_text = hans.run("audit", file)
        audit_json = hans.run("audit", file, "--json")
    finally:
        capsys.stop()
        mp.undo()
    return {
        "hans": hans,
        "bot": Service(Store(bot_home)),
        "mails": mails,
        "said": said,
        "file": file,
        "status": status,
        "show": show,
        "show_text": show_text,
        "verify": verify,
        "audit": audit_text,
        "audit_json": audit_json,
    }


class _Capture:
    """``capsys`` for a module-scoped fixture: ``sys.stdout`` and ``sys.stderr`` (text and
    bytes) caught from :meth:`start` to :meth:`stop`; ``Player.run`` reads them back."""

    def __init__(self) -> None:
        self._saved = (sys.stdout, sys.stderr)
        self._out = io.TextIOWrapper(io.BytesIO(), write_through=True)
        self._err = io.TextIOWrapper(io.BytesIO(), write_through=True)

    def start(self) -> None:
        sys.stdout, sys.stderr = self._out, self._err

    def stop(self) -> None:
        sys.stdout, sys.stderr = self._saved

    @staticmethod
    def _take(stream: io.TextIOWrapper) -> str:
        stream.flush()
        raw: io.BytesIO = stream.buffer  # type: ignore[assignment]
        text = raw.getvalue().decode()
        raw.seek(0)
        raw.truncate()
        return text

    def readouterr(self) -> tuple[str, str]:
        return self._take(self._out), self._take(self._err)


def test_the_game_went_by_mail_between_two_stores(mail: dict[str, Any]) -> None:
    hans, bot = mail["hans"], mail["bot"]
    mine = Service(Store(hans.home)).load(GAME_ID)
    theirs = bot.load(GAME_ID)
    assert mine.game is not None and theirs.game is not None
    assert mine.game.state_hash() == theirs.game.state_hash()
    assert Store(hans.home).packets(GAME_ID) == bot.store.packets(GAME_ID)
    assert (
        mine.game.state.turn == UNTIL_TURN and kits.for_game(bot.store, GAME_ID) is BITA_EMAIL_KIT
    )
    assert mail["said"][0].startswith(
        f"game {GAME_ID}: invitation to scenario 1, you play the German, sealed "
    )
    assert mail["said"][1].startswith(f"game {SHORT} packet 1 (american acceptance): accepted")
    kinds = [p.body.kind for p in mine.packets]
    assert kinds[:2] == ["invitation", "acceptance"] and {"reply", "resolution"} <= set(kinds)


def test_status_and_show_speak_breakthrough(mail: dict[str, Any]) -> None:
    show = mail["show"]
    assert show["scenario"] == 1 and show["dice"] == "sealed" and show["our_side"] == "german"
    position = show["position"]
    assert position["turn"] == UNTIL_TURN and position["scenario"] == 1
    assert {u["side"] for u in position["units"]} == {"american", "german"}
    # 17 December (turn 2): the American has played his phases of the day; Hans's next
    # packet is due: his orders (or, had the American declared a batch, his reply to it)
    assert show["ours"] is True
    if show["expects"] == "reply":
        [batch] = show["pending"]
        words = {"air missions": "strikes", "plotted attacks": "plots"}
        assert batch["kind"] == "batch" and batch["side"] == "american"
        assert batch["waits_for"] == "german reply" and words[batch["what"]] in batch
        now = f"German reply to the {batch['what']}"
    else:
        assert show["expects"] == "orders" and show["pending"] == []
        assert position["side"] == "german"
        phase = {"air": "Air Phase", "organization": "Unit Organization Phase"}
        operation = {1: "Operation Phase 1", 2: "Operation Phase 2"}
        words_now = phase.get(position["phase"]) or operation[position["stage"]]
        now = f"German {words_now}"
        assert f"GT{UNTIL_TURN} {words_now}, " in mail["status"]
    assert show["next"] == f"your move ({now})"
    assert f"your move ({now})" in mail["status"]


def test_the_mail_verifies_and_audits_with_d100_statistics(mail: dict[str, Any]) -> None:
    code, out, err = mail["verify"]
    n = len(Store(mail["hans"].home).packets(GAME_ID))
    assert code == 0, err
    assert out.startswith(f"OK: game {GAME_ID}, scenario 1, sealed dice, {n} packets, ")
    assert f", {15 + UNTIL_TURN} December (turn {UNTIL_TURN}), " in out
    code, text, err = mail["audit"]
    assert code == 0, err
    assert "Dice statistics, d100 counted in groups of faces" in text
    rows = {
        ln.split()[0]: ln.split()
        for ln in text.splitlines()
        if ln[:6] in ("German", "Americ", "All   ")
    }
    data = json.loads(mail["audit_json"][1])
    rolls = data["rolls"]
    assert int(rows["All"][1]) == len(rolls) > 0
    # every group count sums to the rolls (ten groups of ten faces)
    assert sum(int(x) for x in rows["All"][2:12]) == len(rolls)
    assert all(1 <= r["value"] <= 100 for r in rolls)


@needs_system_python
def test_the_dice_checker_agrees_with_the_audit(mail: dict[str, Any]) -> None:
    r = dice_check(mail["file"], "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = json.loads(r.stdout)
    rolls = json.loads(mail["audit_json"][1])["rolls"]
    assert len(mine) == len(rolls) > 0
    for d, roll in zip(mine, rolls, strict=True):
        how = roll["derivation"]
        assert (d["packet"], d["draw"], d["faces"], d["value"], d["author"]) == (
            roll["packet"],
            roll["draw"],
            100,
            roll["value"],
            roll["author"],
        )
        assert (d["kind"], d.get("batch"), d.get("seed")) == (
            how["kind"],
            how.get("batch"),
            how.get("seed"),
        )


@needs_system_python
@needs_ssh_keygen
def test_ssh_keygen_verifies_every_packet(mail: dict[str, Any], tmp_path: Path) -> None:
    folder = tmp_path / "ssh"
    assert dice_check(mail["file"], "--ssh", str(folder)).returncode == 0
    signers = folder / "allowed_signers"
    packets = Store(mail["hans"].home).packets(GAME_ID)
    assert len(list(folder.glob("*.sig"))) == len(packets)
    authors = [
        Service(Store(mail["hans"].home)).load(GAME_ID).packets[i].body.author
        for i in range(len(packets))
    ]
    for seq, author in enumerate(authors):
        name = f"{seq:06d}"
        r = ssh_keygen(
            "-Y", "verify", "-f", str(signers), "-I", author, "-n", "ardennes",
            "-s", str(folder / f"{name}.sig"), stdin=(folder / f"{name}.bin").read_bytes(),
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
    r = ssh_keygen(
        "-Y", "verify", "-f", str(signers), "-I", "american", "-n", "ardennes",
        "-s", str(folder / "000000.sig"), stdin=(folder / "000000.bin").read_bytes(),
    )  # fmt: skip
    assert r.returncode != 0  # the German's invitation is not the American's


def _selfplay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *more: str
) -> tuple[Player, Path, str]:
    """``ardennes selfplay --ruleset breakthrough --scenario 1 --seed 7 --dice sealed`` (two
    players, their own keys and stores), then ``verify`` of what it wrote."""
    me = Player("auditor", tmp_path, monkeypatch, capsys, key=_key("auditor"))
    out = tmp_path / "selfplay.txt"
    line = me.ok(
        "selfplay", "--ruleset", "breakthrough", "--scenario", 1, "--seed", 7,
        "--dice", "sealed", *more, "-o", out,
    )  # fmt: skip
    return me, out, line


def test_email_selfplay_of_a_day_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    me, out, line = _selfplay(tmp_path, monkeypatch, capsys, "--turns", "1")
    assert line.startswith("scenario 1 seed 7 (sealed dice, game ")
    assert line.rstrip().endswith(f"stopped after GT1, no score, hash {line.split()[-3]} -> {out}")
    packets = int(line.split(" commands in ")[1].split()[0])
    verified = me.ok("verify", out)
    assert (
        verified.startswith("OK: game ")
        and f", scenario 1, sealed dice, {packets} packets," in verified
    )
    assert ", 17 December (turn 2), " in verified


@pytest.mark.slow
def test_a_whole_email_selfplay_game_verifies_and_audits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    me, out, line = _selfplay(tmp_path, monkeypatch, capsys)
    assert " wins " not in line and "(points), score German " in line and ", American 0, " in line
    verified = me.ok("verify", out)
    assert "game over, " in verified and " wins (" in verified
    rolls = json.loads(me.ok("audit", out, "--json"))["rolls"]
    r = dice_check(out, "--json")
    assert r.returncode == 0, r.stderr
    assert [(d["packet"], d["draw"], d["value"]) for d in json.loads(r.stdout)] == [
        (x["packet"], x["draw"], x["value"]) for x in rolls
    ]


def test_show_reads_as_the_position_in_lines(mail: dict[str, Any]) -> None:
    """``ardennes show``'s text: the units of each side with strength, efficiency and the
    manual's x,y (the state's hex ids turned by BA-1.4c's grid), not a JSON line."""
    text = mail["show_text"]
    position = mail["show"]["position"]
    lines = text.splitlines()
    packets = len(Store(mail["hans"].home).packets(GAME_ID))
    assert lines[0] == (
        f"Game {SHORT}: scenario 1, sealed dice, you play the German against bot; {packets}"
    )
    assert not any(line.startswith("Position: {") for line in lines)
    flat = " ".join(line.strip() for line in lines)
    for side in ("german", "american"):
        mine = [u for u in position["units"] if u["side"] == side]
        assert f"{side.capitalize()} on the map ({len(mine)}): " in flat
    [u] = [u for u in position["units"] if u["id"] == "de-272"]
    col, row = int(u["hex"][:2]), int(u["hex"][2:])
    assert f"de-272 {u['strength']} {u['efficiency']}% {31 - row},{col - 1}" in flat
    assert lines[-1] == "(t travel mode, f<n> fort level, u unsupplied, i isolated, d disrupted)"
