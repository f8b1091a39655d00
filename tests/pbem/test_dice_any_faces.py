"""Dice of any faces by email (issue 23/24): the ``dice`` field of version 4
(:mod:`pbem.core.dicelist`), the version rule, the receiver's check of faces and values, the
audit's statistics per kind of die, and a whole game of *Tiny percent* (``tinyd100``: a d100 to
hit, then a d6 on a hit, TINY-P1 in ``tests/kit/tiny_percent.py``) by email: invite, accept, orders,
replies and resolutions, read back from the mail, verified, audited, every signature checked by
the real ``ssh-keygen -Y verify`` and every die redrawn by ``contrib/ardennes-dice-check``.

The game (sealed dice, game id ``d2d2...``; the dice follow from the players' chains, section
4): Red morale 2, Blue 3; Red's strikes hit on a d100 of 20 or less (``20 x (2 + 2 - 3)``),
Blue's on 60 or less (``20 x (2 + 3 - 2)``). Turn 2: Red rolls d100 9, a hit, then d6 3
(3 + 2 < 4 + 3: blue-1 holds); Blue rolls 91, a miss. Turn 3: Red 16, a hit, d6 2 (holds);
Blue 20, a hit, d6 6 (6 + 3 >= 4 + 2): red-1 is eliminated, Blue wins.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from pbem import audit, sources
from pbem.core import armor, authoring, dicelist, packets, stats, zdict
from pbem.core.dicelist import DiceListError
from pbem.core.headers import armor_headers
from pbem.core.packets import Body, DiceMode, Packet, PacketError
from pbem.core.protocol import EmailGame, Refused
from rules.dice import DieRoll, uniform_from_seed
from tests.kit import tiny, tiny_email, tiny_percent
from tests.kit.dicecheck import dice_check, needs_system_python
from tests.pbem import needs_ssh_keygen, ssh_keygen

GAME_ID = "d2" * 16
KEYS = tiny_email.KEYS
board_for = tiny_email.board_for


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, EmailGame], list[Packet]]:
    return tiny_email.play(GAME_ID, "tinyd100")


# -- the events and the field ------------------------------------------------------------------


def test_a_die_records_its_faces_and_a_d6_is_spelled_as_before() -> None:
    """The AO's events (and so its games) are the bytes they were: a d6 leaves its faces out."""
    enc = msgspec.json.encode
    assert enc(DieRoll(index=0, value=3, purpose="combat:3411")) == (
        b'{"type":"die_rolled","index":0,"value":3,"purpose":"combat:3411"}'
    )
    assert enc(DieRoll(index=4, value=37, purpose="strike:0301", faces=100)) == (
        b'{"type":"die_rolled","index":4,"value":37,"purpose":"strike:0301","faces":100}'
    )


def test_the_spellings_worked_by_hand() -> None:
    d6 = [(6, 3), (6, 4), (6, 1)]
    assert dicelist.spell(d6, 3) == "341" and dicelist.parse("341", 3) == tuple(d6)
    assert dicelist.spell(d6, 4) == "d6:3,4,1" and dicelist.parse("d6:3,4,1", 4) == tuple(d6)
    mixed = [(100, 37), (100, 5), (6, 4), (100, 100), (256, 256), (1, 1)]
    text = "d100:37,5 d6:4 d100:100 d256:256 d1:1"
    assert dicelist.spell(mixed, 4) == text and dicelist.parse(text, 4) == tuple(mixed)
    assert dicelist.spell([], 4) == "" == dicelist.spell([], 3) and dicelist.parse("", 4) == ()
    with pytest.raises(DiceListError, match="are not all d6: version 3 lists only d6"):
        dicelist.spell([(100, 5)], 3)


def test_the_version_is_the_lowest_that_lists_the_dice_never_going_back() -> None:
    assert dicelist.version_for([], 3) == 3 and dicelist.version_for([(6, 6)], 3) == 3
    assert dicelist.version_for([(6, 6), (100, 1)], 3) == 4
    assert dicelist.version_for([], 4) == 4 and dicelist.version_for([(6, 2)], 4) == 4
    assert dicelist.version_for([], 2) == 3  # a version 2 game goes on in version 3


ORDERS: dict[str, Any] = {
    "format": packets.FORMAT,
    "rules": tiny_percent.VERSION,
    "game": GAME_ID,
    "seq": 8,
    "prev": "ab" * 32,
    "author": "red",
    "kind": "resolution",
    "turn": 2,
    "phase": "play",
    "reveal": "cd" * 32,
    "commands": (packets.Step(command=tiny.Roll(), hash="0" * 32),),
}


def _signed(dice: str, version: int = 4) -> bytes:
    """A resolution listing ``dice``, signed by Red's key as it is, whatever it holds: the
    receiver's decoding must refuse it after the signature checks out."""
    body: Body[Any] = Body(version=version, dice=dice, **ORDERS)
    raw = packets.canonical_bytes(body)
    return raw + b"\n" + KEYS["red"].sign(raw)


@pytest.mark.parametrize(
    ("dice", "version", "why"),
    [
        ("d100:0", 4, "run 1: '0' is not a value 1 to 100"),
        ("d100:101", 4, "run 1: a d100 shows 1 to 100, not 101"),
        ("d6:7", 4, "run 1: a d6 shows 1 to 6, not 7"),
        ("d100:37 d6:4,9", 4, "run 2: a d6 shows 1 to 6, not 9"),
        ("d0:1", 4, "run 1 'd0:1' does not begin d<faces>:"),
        ("d257:1", 4, "run 1: a die has 1 to 256 faces, not 257"),
        ("d1000:1", 4, "run 1 'd1000:1' does not begin d<faces>:"),
        ("d06:1", 4, "run 1 'd06:1' does not begin d<faces>:"),
        ("D100:37", 4, "does not begin d<faces>:"),
        ("d100", 4, "run 1 'd100' does not begin d<faces>:"),
        ("d100:037", 4, "run 1: '037' is not a value 1 to 100"),
        ("d100:+5", 4, "'+5' is not a value"),
        ("d100:5.0", 4, "'5.0' is not a value"),
        ("d100:\u0663", 4, "is not a value"),  # an Arabic-Indic 3: int() would read it
        ("d100:", 4, "run 1: '' is not a value 1 to 100"),
        ("d100:37,,5", 4, "run 1: '' is not a value"),
        ("d100:37 d100:5", 4, "are not in their one spelling"),
        ("d100:37  d6:4", 4, "run 2 '' does not begin"),
        (" d100:37", 4, "run 1 '' does not begin"),
        ("d100:37 ", 4, "run 2 '' does not begin"),
        ("d100:37,d6:4", 4, "'d6:4' is not a value 1 to 100"),
        ("341", 4, "run 1 '341' does not begin d<faces>:"),
        ("d6:3", 3, "are not digits 1 to 6"),
        ("0", 3, "are not digits 1 to 6"),
        ("d6:" + ",".join("1" * 2001), 4, "are over 2000"),
        ("d100:1 d6:1 " * 1000 + "d100:1", 4, "are over 2000"),
        ("1" * 2001, 3, "are over 2000"),
        ("d100:" + "1," * 10_000 + "1", 4, "are over 20000 characters"),
    ],
)
def test_a_misspelled_dice_field_is_refused_in_one_line(dice: str, version: int, why: str) -> None:
    """Each refused by the reader after the signature checks out, naming the packet."""
    with pytest.raises(PacketError) as exc:
        packets.decode(_signed(dice, version))
    line = str(exc.value)
    assert line.startswith("packet 8: the dice ") and why in line, line
    assert "\n" not in line and line.isprintable() and len(line) < 200


def test_the_largest_dice_field_fits_in_a_packet() -> None:
    """2,000 d100 of 100 each: the most dice a packet lists, read back."""
    text = "d100:" + ",".join(["100"] * 2000)
    assert packets.decode(_signed(text)).body.dice == text


# -- the receiver ------------------------------------------------------------------------------


def _resigned(p: Packet, **changes: Any) -> Packet:
    """``p`` changed and signed again by its author's own key (so only the protocol can refuse
    it), as the wire brings it."""
    body = msgspec.structs.replace(p.body, **changes)
    raw = packets.canonical_bytes(body)
    return packets.decode(raw + b"\n" + KEYS[body.author].sign(raw))


def test_faces_the_rules_did_not_draw_are_refused_though_the_seed_gives_the_value(
    game: Any,
) -> None:
    """The auditor's redraw trusts the faces a packet lists; the receiver's replay does not:
    packet 8 relisted as a d50 and a d6 whose values its seed does give is refused."""
    games, sent = game
    red = games["red"]
    seed = next(d.seed for d in red.derivations if d.seq == 8)
    forged = f"d50:{uniform_from_seed(seed, 0, 50)} d6:3"
    assert uniform_from_seed(seed, 0, 100) == 9 and uniform_from_seed(seed, 1, 6) == 3
    blue = EmailGame.replay(sent[:8], board_for)
    with pytest.raises(Refused) as exc:
        blue.receive(_resigned(sent[8], dice=forged))
    assert str(exc.value) == (
        f"packet 8: it lists the dice {forged}, its commands drew d100:9 d6:3"
    )
    assert blue.seq == 8  # nothing changed
    blue.receive(sent[8])  # the genuine packet still goes in


def test_a_version_3_packet_cannot_carry_a_d100(game: Any) -> None:
    sent = game[1]
    blue = EmailGame.replay(sent[:8], board_for)
    with pytest.raises(Refused, match=r"^packet 8: its commands drew a d100, which a version 3 "):
        blue.receive(_resigned(sent[8], version=3, dice=""))


def test_no_packet_goes_back_to_version_3(game: Any) -> None:
    sent = game[1]
    assert sent[9].body.version == 4 and not sent[9].body.dice
    red = EmailGame.replay(sent[:9], board_for)
    with pytest.raises(Refused, match=r"^packet 9 is version 3, after a version 4 packet$"):
        red.receive(_resigned(sent[9], version=3))


def test_version_4_begins_with_the_first_die_not_a_d6(game: Any) -> None:
    """A packet listing only d6 (or none) before it is version 3: one version per packet."""
    sent = game[1]
    blue = EmailGame.replay(sent[:2], board_for)
    with pytest.raises(Refused, match=r"^packet 2 is version 4, but lists only d6: version 3 "):
        blue.receive(_resigned(sent[2], version=4))
    inv = _resigned(sent[0], version=4)
    with pytest.raises(Refused, match=r"^packet 0: an invitation is version 3 \(version 4 "):
        EmailGame.start(inv, board_for)


def test_a_resignation_after_the_first_d100_is_version_4(game: Any) -> None:
    """Every packet from the first d100 on is version 4, whatever it lists: a resignation too."""
    sent = game[1]
    red, blue = (EmailGame.replay(sent[:10], board_for) for _ in range(2))
    out = authoring.ending(red, KEYS["red"], "red", "resign")
    assert out.version == 4 and b'"version":4' in out.signed and not out.body.dice
    blue.receive(packets.decode(out.wire))
    assert blue.verdict is not None and blue.verdict.winner == "blue"
    early = EmailGame.replay(sent[:8], board_for)  # before it: version 3
    assert authoring.ending(early, KEYS["red"], "red", "draw_offer").version == 3


# -- a whole game of percentage dice -----------------------------------------------------------


def test_the_percent_game_by_email(game: Any) -> None:
    games, sent = game
    red, blue = games["red"], games["blue"]
    assert red.hashes == blue.hashes and red.game.state_hash() == blue.game.state_hash()
    assert sent[0].body.ruleset == "tinyd100" and sent[0].body.rules == "tinyd100/1"
    assert [p.body.version for p in sent] == [3] * 8 + [4] * 10
    listed = {p.body.seq: p.body.dice for p in sent if p.body.dice}
    assert listed == {8: "d100:9 d6:3", 11: "d100:91", 14: "d100:16 d6:2", 17: "d100:20 d6:6"}
    kinds = [p.body.kind for p in sent[6:]]
    assert kinds == ["orders", "reply", "resolution"] * 4
    want = tiny.Verdict("blue", "elimination", "red-1 eliminated (TINY-4, TINY-5)")
    assert red.verdict == blue.verdict == want and red.expects() is None
    rolls = [
        (e.faces, e.value, e.purpose)
        for step in red.game.history
        for e in step.events
        if isinstance(e, DieRoll)
    ]
    assert rolls == [
        (100, 9, "strike:0301"),
        (6, 3, "kill:0301"),
        (100, 91, "strike:0201"),
        (100, 16, "strike:0301"),
        (6, 2, "kill:0301"),
        (100, 20, "strike:0201"),
        (6, 6, "kill:0201"),
    ]


def _audited(sent: list[Packet], tmp_path: Path) -> tuple[Path, audit.Audit]:
    path = tiny_email.mail_file(sent, tmp_path, "tinyd100")
    v = audit.verify(sources.load_source(str(path)), board_for)
    assert v.ok, v.line
    return path, audit.audit(v)


def test_the_percent_game_verifies_and_audits_from_the_mail(game: Any, tmp_path: Path) -> None:
    _, a = _audited(game[1], tmp_path)
    assert a.verified.line.startswith(f"OK: game {GAME_ID}, scenario 1, sealed dice, 18 packets")
    assert [(r.packet, r.index, r.faces, r.value, r.of) for r in a.rolls] == [
        (8, 0, 100, 9, "red"),
        (8, 1, 6, 3, "red"),
        (11, 2, 100, 91, "blue"),
        (14, 3, 100, 16, "red"),
        (14, 4, 6, 2, "red"),
        (17, 5, 100, 20, "blue"),
        (17, 6, 6, 6, "blue"),
    ]
    assert [r.effect for r in a.rolls] == [
        "a hit", "blue-1 holds", "red-1 holds", "a hit", "blue-1 holds", "a hit",
        "red-1 eliminated",
    ]  # fmt: skip
    assert a.rolls[1].described == "the elimination on 0301"
    by = {(s.faces, s.who): s for s in a.stats}
    assert [(s.faces, s.who) for s in a.stats] == [
        (6, "blue"), (6, "red"), (6, "all"), (100, "blue"), (100, "red"), (100, "all"),
    ]  # fmt: skip
    assert by[6, "red"].counts == (0, 1, 1, 0, 0, 0) and by[6, "all"].counts == (0, 1, 1, 0, 0, 1)
    assert by[100, "blue"].counts == (0, 1, 0, 0, 0, 0, 0, 0, 0, 1)  # 20 in 11-20, 91 in 91-100
    assert by[100, "red"].counts == (1, 1, 0, 0, 0, 0, 0, 0, 0, 0)  # 9 and 16
    d100 = by[100, "all"]
    # 4 rolls, 0.4 expected a decile: (0.6^2 + 1.6^2 + 7 x 0.4^2 + 0.6^2) / 0.4 = 11
    assert (d100.n, d100.df) == (4, 9) and d100.chi2 == pytest.approx(11.0)
    assert d100.p == pytest.approx(stats.p_value(11.0, 9)) and d100.rough
    assert d100.labels[0] == "1-10" and d100.labels[-1] == "91-100"
    text = audit.format_audit(a)
    assert "Dice statistics, d100 counted in groups of faces: each player's rolls against" in text
    assert "Pearson's chi-square, 9 degrees of freedom." in text
    deciles = "".join(f"{c:>7}" for c in (1, 2, 0, 0, 0, 0, 0, 0, 0, 1))  # each 6 wide
    assert f"\nAll          4{deciles}  11.00 0.2757 *\n" in text
    assert "* under 50 rolls (5 expected per group): the p-value is only a guide" in text
    assert max(len(line) for line in text.splitlines()) <= audit.WIDTH
    data = audit.audit_json(a)
    assert data["stats"][5]["counts"]["11-20"] == 2 and data["stats"][5]["faces"] == 100
    assert [r["faces"] for r in data["rolls"]] == [100, 6, 100, 100, 6, 100, 6]


@needs_system_python
@pytest.mark.parametrize("mode", ["sealed", "open", "local"])
def test_the_dice_checker_agrees_with_audit_json_roll_for_roll(
    game: Any, tmp_path: Path, mode: DiceMode
) -> None:
    """Every die redrawn from the packets alone, faces from the packet, as ``ardennes audit
    --json`` lists it."""
    sent = game[1] if mode == "sealed" else tiny_email.play("e3" * 16, "tinyd100", mode)[1]
    path, a = _audited(sent, tmp_path)
    r = dice_check(path, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = json.loads(r.stdout)
    theirs = audit.audit_json(a)["rolls"]
    assert len(mine) == len(theirs) >= 2 and {d["faces"] for d in mine} == {6, 100}
    for d, roll in zip(mine, theirs, strict=True):
        want = roll["derivation"]
        assert (d["packet"], d["draw"], d["faces"], d["value"], d["kind"]) == (
            roll["packet"],
            roll["draw"],
            roll["faces"],
            roll["value"],
            want["kind"],
        )
        assert (d["seed"], d["author"], d["batch"]) == (want["seed"], roll["author"], want["batch"])
    lines = dice_check(path).stdout.splitlines()
    assert lines[-1] == f"OK: {len(sent)} packets, {len(mine)} dice, each as its packet lists it"
    if mode == "sealed":
        assert lines[0].startswith("packet    8 draw    0 value   9 d100 batch 1: red link ")


@needs_system_python
def test_the_dice_checker_refuses_a_die_its_seed_does_not_give_and_a_misspelled_run(
    game: Any, tmp_path: Path
) -> None:
    """Packet 11's d100 changed in its signed bytes (its signature no longer fits: the checker
    does not check signatures, ssh-keygen does)."""
    for dice, said in [
        ("d100:92", "packet 11: draw 2 is listed as 92 (d100), not its seed's"),
        ("d100:091", "packet 11: the dice run 'd100:091' is not d<faces>:<values>"),
        ("d100:91 d100:5", "packet 11: two runs of d100 side by side"),
        ("d100:91 d6:7", "packet 11: a d6 shows 7"),
    ]:
        r = dice_check(_changed(game[1], 11, '"dice":"d100:91"', f'"dice":"{dice}"', tmp_path))
        assert (r.returncode, r.stdout) == (1, f"DISAGREE: {said}\n")


def _changed(sent: list[Packet], i: int, old: str, new: str, tmp_path: Path) -> Path:
    """The packets armoured in a file, packet ``i``'s signed bytes changed."""
    p = sent[i]
    assert old.encode() in p.signed
    blocks = [(q.wire, armor_headers(q)) for q in sent]
    blocks[i] = (p.signed.replace(old.encode(), new.encode()) + b"\n" + p.signature, blocks[i][1])
    path = tmp_path / "changed.txt"
    path.write_text(armor.armor_all(blocks, encoding=zdict.written_for("tinyd100")))
    return path


@needs_system_python
@needs_ssh_keygen
def test_ssh_keygen_verifies_every_packet_of_the_percent_game(game: Any, tmp_path: Path) -> None:
    """Section 2's check of every packet, version 3 and 4 alike, by the real ssh-keygen."""
    sent = game[1]
    folder = tmp_path / "ssh"
    path = tiny_email.mail_file(sent, tmp_path, "tinyd100")
    assert dice_check(path, "--ssh", str(folder)).returncode == 0
    signers = folder / "allowed_signers"
    for p in sent:
        name = f"{p.body.seq:06d}"
        r = ssh_keygen(
            "-Y", "verify", "-f", str(signers), "-I", p.body.author, "-n", "ardennes",
            "-s", str(folder / f"{name}.sig"), stdin=(folder / f"{name}.bin").read_bytes(),
        )  # fmt: skip
        assert r.returncode == 0, (p.body.seq, r.stderr)
    assert (folder / "000017.bin").read_bytes() == sent[17].signed
    assert b'"version":4' in sent[17].signed and b'"dice":"d100:20 d6:6"' in sent[17].signed


# -- statistics --------------------------------------------------------------------------------


def test_the_groups_of_faces() -> None:
    assert stats.groups(6) == tuple((f, f) for f in range(1, 7))
    assert stats.groups(10) == tuple((f, f) for f in range(1, 11))
    assert stats.groups(100) == tuple((10 * i + 1, 10 * i + 10) for i in range(10))
    assert stats.labels(12) == ("1", "2", "3", "4", "5-6", "7", "8", "9", "10", "11-12")
    assert stats.counts([1, 10, 11, 100, 55, 56], 100) == (2, 1, 0, 0, 0, 2, 0, 0, 0, 1)
    with pytest.raises(ValueError, match="a d100 gave 101"):
        stats.counts([101], 100)
    with pytest.raises(ValueError, match="a d100 gave 0"):
        stats.counts([0], 100)


def test_the_chi_square_of_unequal_groups_by_hand() -> None:
    """A d12 in ten groups (5-6 and 11-12 twice as likely): 12 rolls all 5 or 6 expect
    1 a single face and 2 a pair: 8 x 1 + (12 - 2)^2 / 2 + (0 - 2)^2 / 2 = 60."""
    c = stats.counts([5, 6] * 6, 12)
    sizes = [b - a + 1 for a, b in stats.groups(12)]
    assert c == (0, 0, 0, 0, 12, 0, 0, 0, 0, 0)
    assert stats.chi_square(c, sizes) == pytest.approx(60.0)
    assert stats.chi_square([1, 1, 1, 1, 2, 1, 1, 1, 1, 2], sizes) == 0.0


@pytest.mark.parametrize(
    ("chi2", "df", "p"),
    [  # the chi-square table's critical values
        (3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (11.070, 5, 0.05),
        (16.919, 9, 0.05), (21.666, 9, 0.01), (27.877, 9, 0.001), (18.307, 10, 0.05),
        (8.343, 9, 0.5), (124.342, 100, 0.05), (293.248, 255, 0.05),
    ],
)  # fmt: skip
def test_p_values_against_the_table(chi2: float, df: int, p: float) -> None:
    assert stats.p_value(chi2, df) == pytest.approx(p, rel=2e-3)


def test_twenty_thousand_derived_d100_pass_in_deciles_and_a_biased_one_fails() -> None:
    """The seeded d100 (rejection of bytes 200 and up) is fair in deciles; ``b % 100`` over all
    256 byte values (1-56 three times as likely as 57-100) fails at once."""
    seed = b"\x07" * 32
    values = [uniform_from_seed(seed, i, 100) for i in range(20_000)]
    c = stats.counts(values, 100)
    assert stats.p_value(stats.chi_square(c), 9) > 0.001, c
    biased = [b % 100 + 1 for b in range(256)] * 40
    assert stats.p_value(stats.chi_square(stats.counts(biased, 100)), 9) < 1e-6
