"""``ardennes invite``, ``accept``, ``import``, ``export``, ``orders`` and ``status``: a game by
email from the command line (``docs/pbem-protocol.md``; the work is :class:`pbem.games.Service`'s).

The armoured text to send goes to standard output, or to ``-o FILE``, or by mail with
``--mailto ADDR`` (SMTP when the config file has an ``[smtp]`` table, else ``sendmail``; one
plain address, kept as the opponent's of the game when it has none yet, where the app's send
screen mails, :mod:`pbem.addresses`); what
the program says about it goes to standard error, so ``ardennes export GAME > turn.txt`` holds
only the packets. ``--key NAME|PATH`` names the player's key (a key of the store or an OpenSSH
key file; by default the store's key pinned in the game, or its only key), its passphrase read
from ``--passphrase-file`` or asked on the terminal. Every problem is one line on standard
error: exit status 1 for a refusal by the protocol or the store (a missing game, a wrong key,
not our move, a refused packet), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import email.utils
import getpass
import sys
from pathlib import Path
from typing import Any, NoReturn

import rules.ao
from ardennes_tui.cli.inputs import read_input
from ardennes_tui.cli.keys import read_passphrase_file
from ardennes_tui.errors import UserError
from pbem import addresses, agent, config, invitations, keys, mail
from pbem.core import dicemodes, sshsig
from pbem.core.errors import PbemError
from pbem.core.identity import KeyIdentity
from pbem.core.protocol import Identity
from pbem.cover import mail_cover
from pbem.exchange import ImportReport
from pbem.games import Service
from pbem.sources import SourceError, load_source
from pbem.store import Store

MAX_INPUT = 64 << 20
"""Bytes read from a file or standard input (a large mbox is read by path, not here)."""


# -- arguments ------------------------------------------------------------------------------


def key_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key",
        metavar="K",
        help="your key: a name in the key store, an OpenSSH ed25519 key file, or agent (the "
        "ssh-agent's key pinned in the game, or its only ed25519 key; agent:SHA256:... names "
        "one) (default: the store's key pinned in the game, or its only key)",
    )
    parser.add_argument(
        "--passphrase-file", type=Path, metavar="F", help="read the key's passphrase from F"
    )


def _address(text: str) -> str:
    """``--mailto``'s value: one plain address (a usage error otherwise)."""
    try:
        return addresses.check_address(text)
    except addresses.AddressError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def send_options(parser: argparse.ArgumentParser, *, to_alias: bool = False) -> None:
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the armoured text to FILE"
    )
    names = ["--mailto", "--to"] if to_alias else ["--mailto"]
    parser.add_argument(
        *names,
        dest="mailto",
        type=_address,
        metavar="ADDR",
        help="mail it to ADDR (SMTP as the config file's [smtp] says, else sendmail); kept as "
        "your opponent's address when the game has none",
    )


def register(subparsers: Any) -> None:
    invite: argparse.ArgumentParser = subparsers.add_parser(
        "invite",
        help="start a game by email: write the invitation",
        description="Start a game by email: the invitation (your side, the scenario, the dice "
        "mode and your public key), signed, to send to your opponent. Dice: sealed (three "
        f"mailings per player-turn with combat; {dicemodes.ALLOWS['sealed']}), open (one "
        f"mailing per player-turn; {dicemodes.ALLOWS['open']}), local (hot-seat: both sides "
        f"are yours; {dicemodes.ALLOWS['local']}).",
    )
    invite.add_argument("--scenario", type=int, required=True, metavar="N")
    invite.add_argument("--side", choices=("german", "allied"), required=True)
    invite.add_argument("--dice", choices=("sealed", "open", "local"), required=True)
    invite.add_argument("--opponent", default="", metavar="LABEL", help="your opponent's name")
    invite.add_argument("--comment", default="", metavar="TEXT", help="a note to your opponent")
    key_options(invite)
    send_options(invite, to_alias=True)
    invite.set_defaults(func=run_invite)

    accept: argparse.ArgumentParser = subparsers.add_parser(
        "accept",
        help="accept an invitation: write the acceptance",
        description="Accept the invitation in FILE (a text, a saved mail; - for standard "
        "input), or one an import kept in the store (GAME: its id or a start of it, as "
        "'ardennes games' lists it): the game is created in the store and the acceptance "
        "written, to send back.",
    )
    accept.add_argument("source", metavar="FILE|GAME|-")
    accept.add_argument("--opponent", default="", metavar="LABEL", help="your opponent's name")
    accept.add_argument("--comment", default="", metavar="TEXT", help="a note to your opponent")
    key_options(accept)
    send_options(accept)
    accept.set_defaults(func=run_accept)

    imp: argparse.ArgumentParser = subparsers.add_parser(
        "import",
        help="read your opponent's packets (a file, a mail, a mailbox)",
        description="Check and store every packet found in FILE (text, .eml, mbox or Maildir; "
        "- for standard input; none: the config file's [mailbox]); one line per packet.",
    )
    imp.add_argument("source", nargs="?", metavar="FILE|-")
    imp.set_defaults(func=run_import)

    export: argparse.ArgumentParser = subparsers.add_parser(
        "export",
        help="write the packets your opponent has not seen (or the game record)",
        description="Write the armoured packets of GAME (an id or its start) that your "
        "opponent has not seen; --record writes the whole game as a game record instead "
        "(replay it with: ardennes selfplay --replay FILE).",
    )
    export.add_argument("game", metavar="GAME")
    export.add_argument("--record", action="store_true", help="the game record (JSONL)")
    export.add_argument(
        "--packet",
        type=int,
        metavar="N",
        help="one packet, for ssh-keygen -Y verify: its signed bytes to --message FILE and "
        "its SSHSIG to --signature FILE (GAME may be a file of packets too)",
    )
    export.add_argument("--message", type=Path, metavar="FILE", help="with --packet")
    export.add_argument("--signature", type=Path, metavar="FILE", help="with --packet")
    send_options(export)
    export.set_defaults(func=run_export)

    status: argparse.ArgumentParser = subparsers.add_parser(
        "status",
        help="where a game by email stands: whose move, since when",
        description="Where GAME stands: scenario, dice, the pinned keys, whose move and since "
        "when, the verdict once over.",
    )
    status.add_argument("game", metavar="GAME")
    status.set_defaults(func=run_status)


# -- helpers --------------------------------------------------------------------------------


def fail(exc: Exception) -> NoReturn:
    raise UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1) from None


def say(text: str) -> None:
    print(text, file=sys.stderr)


def read_packet_input(source: str) -> bytes:
    return read_input(source, MAX_INPUT, stdin=True)


def _key_path(spec: str | None, pinned: str | None) -> Path:
    """The private key file: ``spec``, else the store's key pinned in the game, else the
    store's only key (or its ``default``)."""
    if spec is not None:
        return keys.resolve_key(spec)
    found = [k for k in keys.list_keys() if k.public_key is not None]
    if pinned is not None:
        for k in found:
            assert k.public_key is not None
            if keys.public_line(k.public_key) == pinned:
                return k.path
    if len(found) == 1:
        return found[0].path
    named = [k for k in found if k.name == "default"]
    if named:
        return named[0].path
    if not found:
        raise UserError(f"no key in {keys.key_dir()}: make one with: ardennes keygen NAME", 1)
    names = ", ".join(k.name for k in found)
    raise UserError(f"which key? give --key NAME (your keys: {names})", 2)


def _agent_identity(spec: str, pinned: str | None) -> Identity:
    """``--key agent`` (the agent's key pinned in the game, or its only ed25519 key) or
    ``--key agent:SHA256:...`` (that key)."""
    wanted = spec.split(":", 1)[1] if ":" in spec else None
    if wanted is None and pinned is not None:
        wanted = keys.fingerprint(keys.parse_public_line(pinned)[0])
    return agent.find(wanted)


def player_identity(
    args: argparse.Namespace, service: Service | None = None, game_id: str | None = None
) -> Identity:
    """The player's key, checked against the game's pinned key before any passphrase: a key
    file, or (``--key agent``) a key held by ``ssh-agent``."""
    pinned = service.pinned(game_id) if service is not None and game_id is not None else None
    if args.key is not None and (args.key == "agent" or args.key.startswith("agent:")):
        me = _agent_identity(args.key, pinned)
        if service is not None and game_id is not None:
            service.check_key(game_id, me.public_line)
        return me
    path = _key_path(args.key, pinned)
    if service is not None and game_id is not None:
        service.check_key(game_id, keys.public_line(keys.read_public_key(path)))
    passphrase: bytes | None = None
    if keys.is_encrypted(path):
        if args.passphrase_file is not None:
            passphrase = read_passphrase_file(args.passphrase_file)
        elif sys.stdin.isatty():
            passphrase = getpass.getpass(f"Passphrase for {path}: ").encode("utf-8")
        else:
            raise UserError(f"{path} is encrypted: give --passphrase-file F", 2)
    return KeyIdentity(keys.load_key(path, passphrase))


def send_text(
    sent_text: str, args: argparse.Namespace, subject: str, game_id: str, store: Store
) -> None:
    """Write ``sent_text`` to ``-o``, mail it to ``--mailto``, or print it. What is stored
    stays stored when the mail fails: the error says how to send it again. ``--mailto`` is
    kept as the opponent's address of the game when it has none (never replacing one). A
    mail's subject and first line say who sent what and what to do (:mod:`pbem.cover`;
    ``subject`` when the store cannot say)."""
    if args.mailto:
        try:
            if addresses.remember(store, game_id, args.mailto):
                say(f"game {game_id[:8]}: {args.mailto} kept as your opponent's address")
        except PbemError as exc:
            say(f"game {game_id[:8]}: the address is not kept: {exc}")
    if not sent_text:
        say("nothing to send")
        return
    out: Path | None = args.output
    if out is not None:
        try:
            out.write_text(sent_text, encoding="ascii")
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror}", 2) from None
        say(f"written to {out}")
    if args.mailto:
        try:
            cfg = config.load_config()
            name = email.utils.parseaddr(cfg.smtp.from_addr)[0] if cfg.smtp is not None else ""
            try:
                subject, note = mail_cover(Service(store), game_id, name)
            except PbemError:
                note = ""
            if cfg.smtp is not None:
                mail.send_smtp(cfg.smtp, args.mailto, subject, sent_text, note=note)
            else:
                mail.send_sendmail(args.mailto, subject, sent_text, note=note)
        except PbemError as exc:
            raise UserError(
                f"{exc} (the game is stored: send it again with: ardennes export "
                f"{game_id[:8]} --mailto {args.mailto})",
                1,
            ) from None
        say(f"sent to {args.mailto}")
    if out is None and not args.mailto:
        sys.stdout.write(sent_text)


def game_id_of(store: Store, text: str) -> str:
    return store.find_game(text.lower())


def status_lines(service: Service, game_id: str) -> None:
    st = service.status(game_id)
    say(f"game {game_id[:8]}: {st.next}")
    if st.warning:
        say(st.warning)


# -- the commands ---------------------------------------------------------------------------


def run_invite(args: argparse.Namespace) -> int:
    try:
        service = Service(Store())
        me = player_identity(args)
        sent = service.invite(
            me,
            scenario=args.scenario,
            side=args.side,
            mode=args.dice,
            opponent=args.opponent or (args.mailto or ""),
            comment=args.comment,
        )
        st = service.status(sent.game_id)
        if args.dice == "local":
            say(
                f"local game {sent.game_id}: scenario {args.scenario}, both sides yours; "
                f"play it with: ardennes orders {sent.game_id[:8]} --commands FILE"
            )
        else:
            say(
                f"game {sent.game_id}: invitation to scenario {args.scenario}, you play the "
                f"{args.side.capitalize()}, {args.dice} dice; your key {me.fingerprint}"
            )
        if st.warning:
            say(st.warning)
        if args.dice != "local":
            subject = f"Ardennes: invitation to scenario {args.scenario}"
            send_text(sent.text, args, subject, sent.game_id, service.store)
    except PbemError as exc:
        fail(exc)
    return 0


def invitation_input(source: str) -> bytes:
    """The invitation to accept: the file ``source`` (``-``: standard input), else the
    invitation an import kept in the store whose game id starts with ``source``
    (:mod:`pbem.invitations`)."""
    if source != "-" and not Path(source).exists():
        try:
            kept = invitations.find(Store(), source)
        except PbemError as exc:
            fail(exc)
        if kept is not None:
            return kept.text.encode("ascii")
    return read_input(source, MAX_INPUT, "the invitation", stdin=True)


def run_accept(args: argparse.Namespace) -> int:
    data = invitation_input(args.source)
    try:
        service = Service(Store())
        service.invitation(data)  # before a passphrase is asked
        me = player_identity(args)
        sent = service.accept(me, data, args.comment, opponent=args.opponent)
        st = service.status(sent.game_id)
        say(
            f"game {sent.game_id}: accepted, scenario {st.scenario}, you play the "
            f"{st.our_side.capitalize()}, {st.mode} dice; opponent's key "
            f"{st.keys[rules.ao.other_side(st.our_side)]}: compare it out of band"
        )
        if st.warning:
            say(st.warning)
        subject = f"Ardennes {sent.game_id[:8]}: acceptance"
        send_text(sent.text, args, subject, sent.game_id, service.store)
    except PbemError as exc:
        fail(exc)
    return 0


def _print_report(report: ImportReport, source: object) -> int:
    if not report.items:
        raise UserError(f"no armoured packet found in {source}", 1)
    for line in report.lines():
        print(line)
    return 0 if not report.refused else 1


def run_import(args: argparse.Namespace) -> int:
    try:
        service = Service(Store())
        source = args.source
        if source == "-":
            report = service.import_text(read_packet_input("-"))
        else:
            if source is None:
                cfg = config.load_config()
                if cfg.mailbox is None:
                    raise UserError(
                        f"no FILE, and no [mailbox] path in the config file {cfg.path}", 2
                    )
                source = cfg.mailbox.path
            report = service.import_source(source)
    except PbemError as exc:
        fail(exc)
    return _print_report(report, "standard input" if source == "-" else source)


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}", 2) from None


def _export_packet(args: argparse.Namespace) -> int:
    """``export GAME --packet N --message FILE --signature FILE``: one packet's signed bytes
    and its armoured SSHSIG, as ``ssh-keygen -Y verify`` takes them (protocol section 2)."""
    if args.message is None or args.signature is None:
        raise UserError("--packet N writes to --message FILE and --signature FILE", 2)
    if args.record or args.mailto or args.output is not None:
        raise UserError("--packet goes with --message and --signature only", 2)
    try:
        source = load_source(args.game, Store())
    except SourceError as exc:
        raise UserError(str(exc), 2) from None
    found = [p for p in source.packets if p.body.seq == args.packet]
    if not found:
        where = source.problem or f"{source.name} holds packets 0-{len(source.packets) - 1}"
        raise UserError(f"no packet {args.packet}: {where}", 1)
    p = found[0]
    _write(args.message, p.signed)
    _write(args.signature, sshsig.armor(p.signature).encode("ascii"))
    say(
        f"packet {p.body.seq} ({p.body.author} {p.body.kind}, version {p.version}): "
        f"{len(p.signed)} signed bytes to {args.message}, its signature to {args.signature}"
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    if args.packet is not None:
        return _export_packet(args)
    if args.message is not None or args.signature is not None:
        raise UserError("--message and --signature go with --packet N", 2)
    try:
        store = Store()
        service = Service(store)
        game_id = game_id_of(store, args.game)
        if args.record:
            if args.mailto:
                raise UserError("--record is not mailed: write it with -o FILE", 2)
            data = service.export_record(game_id)
            if args.output is not None:
                try:
                    args.output.write_bytes(data)
                except OSError as exc:
                    raise UserError(f"cannot write {args.output}: {exc.strerror}", 2) from None
                say(f"game {game_id[:8]}: record written to {args.output}")
            else:
                sys.stdout.buffer.write(data)
            return 0
        unseen = service.unseen(game_id)
        seqs = f"{unseen[0].body.seq}-{unseen[-1].body.seq}" if unseen else ""
        subject = f"Ardennes {game_id[:8]}: packets {seqs}"
        send_text(service.export(game_id), args, subject, game_id, store)
    except PbemError as exc:
        fail(exc)
    return 0


def run_status(args: argparse.Namespace) -> int:
    try:
        store = Store()
        service = Service(store)
        for line in service.status(game_id_of(store, args.game)).lines():
            print(line)
    except PbemError as exc:
        fail(exc)
    return 0
