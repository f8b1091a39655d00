"""``ardennes verify`` and ``ardennes audit`` (``pbem.sources``, ``pbem.audit``,
``ardennes_tui.cli.audit``): bot games by email written to files of armoured packets, to a
game record and to a store, checked whole; rolls recomputed by hand from the packets."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
from functools import cache
from pathlib import Path

import msgspec
import pytest

import rules.ao
import scenarios
from ardennes_tui.cli import audit as audit_cli
from ardennes_tui.errors import UserError
from pbem import audit, sources
from pbem.aoplay import ao_other
from pbem.core import armor, authoring, chain, packets, protocol
from pbem.core.packets import DiceMode, Packet
from pbem.exchange import armor_headers, armor_packets
from pbem.store import GameMeta, Store
from tests.kit import records
from tests.kit.dicecheck import CHECKER, dice_check, needs_system_python
from tests.kit.players import GAME_ID, PlayerKey, play
from tests.kit.realmap import needs_real_map

# one worker: the module's tests share what it builds once
pytestmark = [needs_real_map, pytest.mark.xdist_group("audit")]

TURNS = {"sealed": 6, "open": 2}
"""Sealed: up to Game-Turn 7, so the CRT switch (AO-10.3a, from GT6) rolls twice."""


@cache
def game(mode: DiceMode) -> tuple[protocol.EmailGame, tuple[Packet, ...]]:
    g, sent = play(mode, turns=TURNS[mode])
    return g, tuple(sent)


headers = armor_headers


def armored(sent: tuple[Packet, ...] | list[Packet]) -> str:
    return armor_packets(sent)


def write(tmp_path: Path, text: str, name: str = "game.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli(command: str, *argv: str, root: Path | None = None) -> tuple[int, str]:
    """Run ``ardennes verify|audit ARGV`` through the subcommand's own parser."""
    parser = argparse.ArgumentParser()
    audit_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args([command, *argv])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = args.func(args, root)
    return code, out.getvalue()


def audited(mode: DiceMode) -> audit.Audit:
    _, sent = game(mode)
    v = audit.verify(sources.Source("packets", "memory", packets=sent))
    assert v.ok, v.line
    return audit.audit(v)


def die_rolls(g: protocol.EmailGame) -> list[rules.DieRoll]:
    assert g.game is not None
    return [e for s in g.game.history for e in s.events if isinstance(e, rules.DieRoll)]


# -- verify ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_verify_a_whole_game_from_a_file_of_armoured_packets(
    mode: DiceMode, tmp_path: Path
) -> None:
    g, sent = game(mode)
    assert g.game is not None
    path = write(tmp_path, "Here are our turns so far.\n\n" + armored(sent) + "\n-- \nHans\n")
    code, out = cli("verify", str(path))
    assert code == 0, out
    assert out.count("\n") == 1 and out.startswith("OK: ")
    cmds = sum(len(p.body.commands) for p in sent)
    for part in (
        f"game {GAME_ID}",
        "scenario 1",
        f"{mode} dice",
        f"{len(sent)} packets",
        f"{cmds} commands",
        f"Game-Turn {TURNS[mode] + 1}, ",
        f"German key {PlayerKey('hans').fingerprint}",
        f"Allied key {PlayerKey('joe').fingerprint}",
        f"final state {g.game.state_hash()}",
    ):
        assert part in out, (part, out)


def test_verify_reads_quoted_shuffled_and_repeated_packets(tmp_path: Path) -> None:
    _, sent = game("open")
    shuffled = list(sent)
    random.Random(7).shuffle(shuffled)
    quoted = "".join(f"> {line}\n" for line in armored(shuffled).splitlines())
    path = write(tmp_path, quoted + "\n" + armored(sent[:3]))
    src = sources.load_source(str(path))
    assert [p.body.seq for p in src.packets] == list(range(len(sent)))
    assert audit.verify(src).ok


def _tampered(sent: tuple[Packet, ...], seq: int) -> str:
    """The packets, armoured, ``seq``'s body with a comment added under its old signature."""
    blocks = [(packets.encode(p), headers(p)) for p in sent]
    p = sent[seq]
    body = p.signed.replace(b'"kind":"', b'"comment":"I never said that","kind":"')
    blocks[seq] = (body + b"\n" + p.signature, headers(p))
    return armor.armor_all(blocks)


def test_a_tampered_packet_fails_naming_it(tmp_path: Path) -> None:
    _, sent = game("sealed")
    path = write(tmp_path, _tampered(sent, 7))
    code, out = cli("verify", str(path))
    assert code == 1
    assert out.count("\n") == 1
    assert out.startswith(f"FAILED: game {GAME_ID[:8]}: block 8 (Seq 7): bad signature (bad ")


def test_a_packet_re_signed_by_another_key_fails_naming_both_keys(tmp_path: Path) -> None:
    _, sent = game("sealed")
    forged = list(sent)
    p = sent[9]
    forged[9] = packets.sign(p.body, PlayerKey("mallory").sign)
    code, out = cli("verify", str(write(tmp_path, armored(forged))))
    assert code == 1
    assert f"packet 9: signed by {PlayerKey('mallory').fingerprint}" in out
    assert f"key is {PlayerKey('hans').fingerprint}" in out


def test_damage_in_transit_fails(tmp_path: Path) -> None:
    _, sent = game("open")
    text = armored(sent)
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if len(x) == armor.LINE_WIDTH and k > 40)
    ch = "A" if lines[i][10] != "A" else "B"
    lines[i] = lines[i][:10] + ch + lines[i][11:]
    code, out = cli("verify", str(write(tmp_path, "\n".join(lines))))
    assert code == 1
    assert out.startswith("FAILED: ") and "checksum mismatch: damaged in transit" in out


def test_an_altered_header_line_fails(tmp_path: Path) -> None:
    _, sent = game("open")
    blocks = [(packets.encode(p), headers(p)) for p in sent]
    payload, h = blocks[4]
    blocks[4] = (payload, {**h, "Side": "allied" if h["Side"] == "german" else "german"})
    code, out = cli("verify", str(write(tmp_path, armor.armor_all(blocks))))
    assert code == 1
    assert "block 5: the header line says Side:" in out and "altered headers" in out


def test_a_missing_packet_and_a_missing_invitation_fail(tmp_path: Path) -> None:
    _, sent = game("sealed")
    code, out = cli("verify", str(write(tmp_path, armored(sent[:6] + sent[7:]))))
    assert code == 1 and "packet 7 is out of order: packet 6 comes next" in out
    code, out = cli("verify", str(write(tmp_path, armored(sent[1:]))))
    assert code == 1 and "starts at packet 1" in out and "the invitation" in out


def test_an_undecodable_packet_fails_naming_its_block(tmp_path: Path) -> None:
    _, sent = game("open")
    blocks = [(packets.encode(p), headers(p)) for p in sent[:4]]
    blocks.append((b'{"body": 1}', headers(sent[4])))
    code, out = cli("verify", str(write(tmp_path, armor.armor_all(blocks))))
    assert code == 1 and "block 5 (Seq 4): not a packet" in out


def test_unreadable_input_is_exit_2(tmp_path: Path) -> None:
    for arg, message in (
        (str(tmp_path / "nowhere.txt"), "no such file, and not a game id"),
        (str(write(tmp_path, "just a letter\n")), "holds no armoured packets"),
        (str(tmp_path), "is a directory"),
        ("0f0f", "no game in the store"),
    ):
        with pytest.raises(UserError) as exc:
            cli("verify", arg, root=tmp_path / "store")
        assert exc.value.code == 2 and message in str(exc.value), (arg, exc.value)


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with path.open("wb") as fh:
        fh.truncate(sources.MAX_SOURCE_BYTES + 1)
    with pytest.raises(sources.SourceError, match="over the 16 MiB limit"):
        sources.load_source(str(path))


def test_standard_input() -> None:
    _, sent = game("open")
    src = sources.load_source("-", stdin=io.BytesIO(armored(sent).encode()))
    assert src.name == "-" and audit.verify(src).ok


# -- a game record, a game in the store ---------------------------------------------------------


def record_of(g: protocol.EmailGame) -> rules.Record:
    """The email game as a record that replays on its own: its dice listed in the header."""
    assert g.game is not None
    values = "".join(str(d.value) for d in die_rolls(g))
    rec = g.game.record()
    dice = rules.DiceSpec(kind="listed", detail={"values": values})
    return msgspec.structs.replace(rec, header=msgspec.structs.replace(rec.header, dice=dice))


def test_a_game_record_verifies_and_audits(tmp_path: Path) -> None:
    g, _ = game("sealed")
    assert g.game is not None
    path = tmp_path / "game.jsonl"
    path.write_bytes(rules.record.encode(record_of(g)))
    code, out = cli("verify", str(path))
    assert code == 0, out
    assert out.startswith(f"OK: record {path}, scenario 1, listed dice, {len(g.game.history)} ")
    assert f"final state {g.game.state_hash()}" in out
    v = audit.verify(sources.load_source(str(path)))
    rec_rolls = audit.rolls(v.game) if v.game is not None else []
    mail_rolls = audited("sealed").rolls
    assert [(r.value, r.purpose, r.turn, r.effect) for r in rec_rolls] == [
        (r.value, r.purpose, r.turn, r.effect) for r in mail_rolls
    ]
    assert all(r.packet is None and r.derivation == "record" for r in rec_rolls)
    code, out = cli("audit", str(path))
    assert code == 0 and "record: its header lists the dice" in out


def test_a_record_with_a_changed_die_fails_naming_the_command(tmp_path: Path) -> None:
    g, _ = game("sealed")
    rec = record_of(g)
    values = rec.header.dice.detail["values"]
    changed = "".join(str(int(v) % 6 + 1) for v in values)  # every die one pip more
    dice = rules.DiceSpec(kind="listed", detail={"values": changed})
    rec = msgspec.structs.replace(rec, header=msgspec.structs.replace(rec.header, dice=dice))
    path = tmp_path / "game.jsonl"
    path.write_bytes(rules.record.encode(rec))
    code, out = cli("verify", str(path))
    assert code == 1 and out.startswith(f"FAILED: {path}: command ") and "diverges" in out


def test_a_game_in_the_store_verifies_by_its_id_or_prefix(tmp_path: Path) -> None:
    g, sent = game("sealed")
    assert g.game is not None
    store = Store(tmp_path)
    store.create_game(GAME_ID, GameMeta(scenario=1, our_side="german", dice_mode="sealed"))
    for p in sent:
        assert store.append(GAME_ID, p.body.seq, packets.encode(p))
    for arg in (GAME_ID, GAME_ID[:8]):
        code, out = cli("verify", arg, root=tmp_path)
        assert code == 0, out
        assert f"game {GAME_ID}" in out and f"final state {g.game.state_hash()}" in out
    src = sources.load_source("0f0f", store)
    assert src.kind == "store" and src.name == f"game {GAME_ID}"
    assert len(src.packets) == len(sent)


# -- audit: every roll, worked out by hand ------------------------------------------------------


def _published_before(sent: tuple[Packet, ...], side: str, seq: int) -> bytes:
    """The last link ``side`` made public before packet ``seq`` (his commitment at first)."""
    last = b""
    for p in sent[:seq]:
        b = p.body
        if b.author != side:
            continue
        for value in (b.commitment, b.reveal):
            if value is not None:
                last = bytes.fromhex(value)
    return last


def test_the_first_combat_roll_recomputed_from_the_packets() -> None:
    _, sent = game("sealed")
    i = next(k for k, p in enumerate(sent) if p.body.kind == "resolution")
    res, reply = sent[i], sent[i - 1]
    mover = bytes.fromhex(res.body.reveal or "")
    opponent = bytes.fromhex(reply.body.reveal or "")
    reply_hash = bytes.fromhex(packets.packet_hash(reply))
    seed = chain.batch_seed(bytes.fromhex(GAME_ID), 1, mover, opponent, reply_hash)
    value = rules.SeededDice(seed).d6(0)  # nothing rolled before the first battle
    row = audited("sealed").rolls[0]
    assert (row.packet, row.author, row.packet_kind) == (i, "german", "resolution")
    assert (row.turn, row.side, row.phase, row.of) == (1, "german", "combat", "german")
    assert (row.derivation, row.batch, row.index, row.value) == ("batch", 1, 0, value)
    assert row.author_link == res.body.reveal[:12]  # type: ignore[index]
    assert row.other_link == reply.body.reveal[:12]  # type: ignore[index]
    assert row.reply == packets.packet_hash(reply)[:12]
    assert row.seed == seed.hex()
    assert (row.author_from, row.all_from) == (i - 1, i)
    assert row.known == f"nobody before packet {i - 1}; the German from it, both from packet {i}"
    # the effect: the result of that attack, as the rules resolved it
    declared = [s.command for s in sent[i - 2].body.commands]
    attack = next(c for c in declared if isinstance(c, rules.ao.DeclareAttack))
    assert row.purpose.startswith("combat:")
    assert isinstance(row.event, rules.ao.CombatResolved) and row.event.die == value
    assert set(row.event.attackers) == set(attack.attackers)
    assert row.effect == f"{row.event.column} on the {row.event.table} CRT: {row.event.result}"


def test_the_paradrop_and_the_crt_switch_are_sealed_and_recomputed_by_hand() -> None:
    """Neither die can be known to the German before the decisions it could influence are
    signed (protocol section 4): the drop is a batch (hex in his orders, die after the Allied
    reply), the CRT switch opens the German's orders with a link he reveals there and the hash
    of the Allied packet before it."""
    _, sent = game("sealed")
    rows = [r for r in audited("sealed").rolls if r.kind in ("paradrop", "crt_switch")]
    # (the game stops at the start of GT7, before the German's GT7 orders and their roll)
    assert [r.kind for r in rows] == ["paradrop", "crt_switch"]
    drop, *switches = rows
    # the drop: its hex named in the German's orders packet, the die in his resolution
    assert drop.packet is not None
    res, reply, orders = sent[drop.packet], sent[drop.packet - 1], sent[drop.packet - 2]
    assert (orders.body.kind, reply.body.kind, res.body.kind) == ("orders", "reply", "resolution")
    assert isinstance(orders.body.commands[-1].command, rules.ao.Drop)  # the orders end there
    assert isinstance(res.body.commands[0].command, rules.ao.Roll)  # the resolution opens with it
    seed = chain.batch_seed(
        bytes.fromhex(GAME_ID),
        drop.batch,
        bytes.fromhex(res.body.reveal or ""),
        bytes.fromhex(reply.body.reveal or ""),
        bytes.fromhex(packets.packet_hash(reply)),
    )
    assert drop.derivation == "batch" and drop.seed == seed.hex()
    assert drop.value == rules.SeededDice(seed).d6(drop.index)
    assert (drop.author_from, drop.all_from) == (drop.packet - 1, drop.packet)
    assert (drop.turn, drop.phase, drop.author) == (2, "initial_movement", "german")
    assert drop.effect.startswith("de-vdh ")
    hexes = [s.command.hex for s in orders.body.commands if isinstance(s.command, rules.ao.Drop)]
    assert len(hexes) == 1 and drop.effect.endswith(
        (f"lands in {hexes[0]}", f"eliminated in {hexes[0]}")
    )
    assert ("lands" in drop.effect) == (drop.value in (1, 2))  # AO-15.b
    # the CRT switch: the first command of the German's orders, after the Allied packet
    assert [(r.turn, r.phase) for r in switches] == [(6, "reinforcement")]
    for r in switches:
        assert r.packet is not None
        p, prev = sent[r.packet], sent[r.packet - 1]
        assert (r.author, p.body.kind, prev.body.author) == ("german", "orders", "allied")
        assert isinstance(p.body.commands[0].command, rules.ao.Roll)
        them = _published_before(sent, "allied", r.packet)
        seed = chain.switch_seed(
            bytes.fromhex(GAME_ID),
            r.packet,
            bytes.fromhex(p.body.reveal or ""),
            them,
            bytes.fromhex(packets.packet_hash(prev)),
        )
        assert r.derivation == "switch" and r.seed == seed.hex()
        assert r.value == rules.SeededDice(seed).d6(r.index)
        assert r.reply == packets.packet_hash(prev)[:12]
        assert (r.author_from, r.all_from) == (r.packet - 1, r.packet)
        assert r.known == (
            f"nobody before packet {r.packet - 1}; the German from it, both from packet {r.packet}"
        )
        assert isinstance(r.event, rules.ao.CrtSwitchRolled) and r.event.die == r.value
        assert r.effect.endswith(f"the {r.event.crt} CRT")
        assert ("switches" in r.effect) == (r.value == 1)  # AO-10.3a


def test_open_rolls_recomputed_by_hand() -> None:
    _, sent = game("open")
    a = audited("open")
    assert a.rolls
    for r in a.rolls:
        assert r.packet is not None and r.author is not None
        p = sent[r.packet]
        mine = bytes.fromhex(p.body.reveal or "")
        them = _published_before(sent, ao_other(r.author), r.packet)
        seed = chain.open_seed(bytes.fromhex(GAME_ID), r.packet, mine, them)
        assert r.derivation == "open" and r.value == rules.SeededDice(seed).d6(r.index)
        assert r.all_from == r.packet and r.author_from is not None
        assert r.author_from < r.packet
        assert r.known == (
            f"the {r.author.capitalize()} from packet {r.author_from}, both from packet {r.packet}"
        )


@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_every_die_is_listed_once_in_order(mode: DiceMode) -> None:
    g, _ = game(mode)
    assert g.game is not None
    a = audited(mode)
    assert [r.index for r in a.rolls] == list(range(g.game.state.dice_drawn))
    assert [(r.index, r.value, r.purpose) for r in a.rolls] == [
        (d.index, d.value, d.purpose) for d in die_rolls(g)
    ]


@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_statistics(mode: DiceMode) -> None:
    a = audited(mode)
    board = scenarios.load_board(1)
    for r in a.rolls:  # combat: the attacker's roll
        if isinstance(r.event, rules.ao.CombatResolved):
            assert {board.defs[u].side for u in r.event.attackers} == {r.of}
    by = {s.who: s for s in a.stats}
    assert list(by) == ["german", "allied", "all"]
    assert by["all"].n == len(a.rolls) == sum(by["all"].counts)
    for who in ("german", "allied"):
        values = [r.value for r in a.rolls if r.of == who]
        assert by[who].n == len(values) == sum(by[who].counts)
        assert by[who].counts == tuple(values.count(f) for f in range(1, 7))
    assert by["german"].n + by["allied"].n == by["all"].n
    n = by["all"].n
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in by["all"].counts)
    assert by["all"].chi2 == pytest.approx(chi2)
    assert 0.0 < by["all"].p <= 1.0


def test_audit_text_fits_100_columns_and_shows_every_roll(tmp_path: Path) -> None:
    _, sent = game("sealed")
    code, out = cli("audit", str(write(tmp_path, armored(sent))))
    assert code == 0
    lines = out.splitlines()
    assert max(map(len, lines)) <= audit.WIDTH
    a = audited("sealed")
    assert f"{len(a.rolls)} dice rolled" in out
    first = a.rolls[0]
    assert any(
        line.split()[:7]
        == [str(first.packet), "1", "German", "combat", first.purpose, "0", str(first.value)]
        for line in lines
    )
    assert f"German key:  {PlayerKey('hans').fingerprint}" in out
    assert "known: nobody before packet" in out
    assert "ROLLS OF" in out and any(line.startswith("All ") for line in lines)


def test_audit_json(tmp_path: Path) -> None:
    _, sent = game("sealed")
    code, out = cli("audit", str(write(tmp_path, armored(sent))), "--json")
    assert code == 0
    data = json.loads(out)
    a = audited("sealed")
    assert data["ok"] is True and data["game"]["id"] == GAME_ID
    assert data["game"]["keys"]["german"] == PlayerKey("hans").fingerprint
    assert len(data["rolls"]) == len(a.rolls)
    first = data["rolls"][0]
    assert first["derivation"]["kind"] == "batch" and first["derivation"]["batch"] == 1
    assert first["event"]["type"] == "combat_resolved"
    assert [s["of"] for s in data["stats"]] == ["german", "allied", "all"]
    assert sum(data["stats"][2]["counts"].values()) == len(a.rolls)


def test_audit_of_a_failing_game_prints_the_failure(tmp_path: Path) -> None:
    _, sent = game("sealed")
    path = write(tmp_path, _tampered(sent, 7))
    code, out = cli("audit", str(path))
    assert code == 1 and out.startswith("FAILED: ") and "(Seq 7)" in out
    code, out = cli("audit", str(path), "--json")
    assert code == 1 and json.loads(out)["ok"] is False


# -- the independent dice checker (contrib/ardennes-dice-check) --------------------------------


def agree_with_audit(path: Path) -> list[dict[str, object]]:
    """The checker's dice of the game in ``path``, once checked equal to ``ardennes audit``'s,
    roll for roll."""
    r = dice_check(path, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    mine = json.loads(r.stdout)
    code, out = cli("audit", str(path), "--json")
    assert code == 0
    theirs = json.loads(out)["rolls"]
    assert len(mine) == len(theirs) > 0
    for d, a in zip(mine, theirs, strict=True):
        assert (d["packet"], d["draw"], d["value"]) == (a["packet"], a["draw"], a["value"])
        assert (d["kind"], d["seed"], d["batch"]) == (
            a["derivation"]["kind"],
            a["derivation"]["seed"],
            a["derivation"]["batch"],
        )
        for name in ("author_link", "other_link", "reply"):
            short = a["derivation"][name]
            assert (d[name] or "")[: len(short or "")] == (short or ""), name
    return mine


@needs_system_python
@pytest.mark.parametrize("mode", ["sealed", "open", "local"])
def test_the_dice_checker_agrees_with_audit_roll_for_roll(mode: DiceMode, tmp_path: Path) -> None:
    """Sealed: combat batches, the paradrop and the CRT switch; open and local too."""
    sent = game(mode)[1] if mode != "local" else tuple(play("local", turns=1)[1])
    text = armored(sent)
    assert "Encoding: deflate+dict2" in text
    path = write(tmp_path, "> " + text.replace("\n", "\n> "))
    mine = agree_with_audit(path)
    if mode == "sealed":
        assert {d["kind"] for d in mine} == {"batch", "switch"}
    lines = dice_check(path).stdout.splitlines()
    assert lines[-1] == f"OK: {len(sent)} packets, {len(mine)} dice, each as its packet lists it"
    assert len(lines) == len(mine) + 1


@needs_system_python
@pytest.mark.parametrize("mode", ["sealed", "open"])
def test_the_dice_checker_reads_games_armoured_with_the_older_dictionary(
    mode: DiceMode, tmp_path: Path
) -> None:
    """A game armoured with ``deflate+dict1``, as the first format 3 games were (the committed
    games, ``tests/data/records/email-s1-MODE.txt``): the checker reads it too, and agrees
    with ``audit``."""
    sent = records.email_packets(mode)
    blocks = [armor.armor(p.wire, headers(p), encoding="deflate+dict1") for p in sent]
    assert all("Encoding: deflate+dict1\n" in b for b in blocks)
    assert len(agree_with_audit(write(tmp_path, "\n".join(blocks)))) > 20


@needs_system_python
def test_the_dice_checker_names_a_die_its_seed_does_not_give(tmp_path: Path) -> None:
    _, sent = game("sealed")
    i = next(k for k, p in enumerate(sent) if p.body.dice)
    p = sent[i]
    wrong = str(int(p.body.dice[0]) % 6 + 1)
    body = p.signed.replace(
        f'"dice":"{p.body.dice}"'.encode(), f'"dice":"{wrong}{p.body.dice[1:]}"'.encode()
    )
    blocks = [(packets.encode(q), headers(q)) for q in sent]
    blocks[i] = (body + b"\n" + p.signature, headers(p))  # its signature no longer fits: ssh-keygen
    r = dice_check(write(tmp_path, armor.armor_all(blocks)))
    first = sum(len(q.body.dice) for q in sent[:i])
    assert (r.returncode, r.stdout) == (
        1,
        f"DISAGREE: packet {i}: draw {first} is listed as {wrong} (d6), not its seed's\n",
    )


@needs_system_python
def test_the_dice_checker_is_short_and_needs_only_the_standard_library(tmp_path: Path) -> None:
    import ast
    import sys

    tree = ast.parse(CHECKER.read_text())
    names = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    names |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert names and names <= set(sys.stdlib_module_names), names - set(sys.stdlib_module_names)
    assert len(CHECKER.read_text().splitlines()) <= 255
    r = dice_check(tmp_path / "none.txt")
    assert r.returncode == 2 and r.stderr.startswith("ardennes-dice-check: ")
    docs = CHECKER.parents[1] / "docs"
    for n in (1, 2):  # a dictionary that is not the published one is refused, by its hash
        (tmp_path / f"pbem-zdict{n}.bin").write_bytes((docs / f"pbem-zdict{n}.bin").read_bytes())
    (tmp_path / "pbem-zdict2.bin").write_bytes(b"x" + (docs / "pbem-zdict2.bin").read_bytes())
    r = dice_check(records.email_path("open"), "--zdict", str(tmp_path))
    assert (r.returncode, r.stderr) == (
        2,
        f"ardennes-dice-check: {tmp_path / 'pbem-zdict2.bin'} is not deflate+dict2's\n",
    )


@needs_system_python
def test_the_dice_checker_skips_draw_and_resign_packets(tmp_path: Path) -> None:
    """A draw offered and declined between the reply and the resolution, then a resignation:
    the checker's dice are still audit's."""
    from tests.kit.players import PlayerKey, board, played

    sent = played("sealed")
    i = next(k for k, p in enumerate(sent) if p.body.kind == "resolution")
    mover = sent[i].body.author
    other = ao_other(mover)
    keys = {"german": PlayerKey("hans"), "allied": PlayerKey("joe")}
    g = protocol.EmailGame.replay(sent[:i], board)
    authoring.ending(g, keys[mover], mover, "draw_offer")
    authoring.ending(g, keys[other], other, "draw_answer", accept=False)
    d = authoring.draft(g, keys[mover], mover)
    for step in sent[i].body.commands:
        assert not isinstance(d.push(step.command), str)
    d.seal()
    authoring.ending(g, keys[other], other, "resign")
    path = write(tmp_path, armored(g.packets))
    r = dice_check(path, "--json")
    assert r.returncode == 0, r.stdout
    code, out = cli("audit", str(path), "--json")
    assert code == 0
    theirs = [
        (a["packet"], a["draw"], a["value"], a["derivation"]["seed"])
        for a in json.loads(out)["rolls"]
    ]
    mine = [(d["packet"], d["draw"], d["value"], d["seed"]) for d in json.loads(r.stdout)]
    assert mine == theirs and mine and {m[0] for m in mine} == {i + 2}
