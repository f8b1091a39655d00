"""``ardennes keygen`` and ``ardennes keys``: make and list the players' keys
(``docs/pbem-protocol.md``, section 1).

``keygen [NAME]`` writes an Ed25519 key to the key store (``<home>/keys/NAME``, mode 0600, and
``NAME.pub``; ``<home>`` is ``platformdirs.user_data_dir("ardennes")`` or ``$ARDENNES_HOME``),
encrypted with a passphrase read from ``--passphrase-file``, or asked twice on the terminal,
or none with ``--no-passphrase``; it prints the fingerprint to compare out of band and the
public key file to send. ``keys`` lists the store with fingerprints. A problem is one line on
stderr and a non-zero exit (:class:`UserError`).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from ardennes_tui.errors import UserError
from pbem import keys
from pbem.core.errors import PbemError

DEFAULT_NAME = "default"
"""The key name when ``keygen`` is given none."""

MAX_PASSPHRASE_FILE = 4096


def register(subparsers: Any) -> None:
    keygen: argparse.ArgumentParser = subparsers.add_parser(
        "keygen",
        help="make a new player key (ed25519)",
        description="Make a new Ed25519 player key in the key store (OpenSSH format, mode "
        "0600, optionally encrypted) and print its fingerprint, to compare with your "
        "opponent out of band.",
    )
    keygen.add_argument(
        "name",
        nargs="?",
        default=DEFAULT_NAME,
        metavar="NAME",
        help=f"the key's name in the store (default {DEFAULT_NAME!r})",
    )
    secret = keygen.add_mutually_exclusive_group()
    secret.add_argument(
        "--passphrase-file",
        type=Path,
        metavar="F",
        help="read the passphrase from the first line of F",
    )
    secret.add_argument(
        "--no-passphrase",
        action="store_true",
        help="store the key unencrypted (anyone who reads the file can sign as you)",
    )
    keygen.set_defaults(func=run_keygen)

    listing: argparse.ArgumentParser = subparsers.add_parser(
        "keys",
        help="list your player keys with their fingerprints",
        description="List the keys of the key store with their OpenSSH fingerprints; with "
        "--allowed-signers, print the keys pinned in a game as an OpenSSH allowed_signers "
        "file instead.",
    )
    listing.add_argument(
        "--allowed-signers",
        metavar="FILE|GAME",
        help="print the keys pinned in GAME (a game of the store, or a file of its packets) "
        "as an allowed_signers file, principals german and allied, for ssh-keygen -Y verify",
    )
    listing.set_defaults(func=run_keys)


def read_passphrase_file(path: Path) -> bytes:
    """The passphrase in ``path``: its first line, without the line end; never empty."""
    try:
        data = path.expanduser().read_bytes()[: MAX_PASSPHRASE_FILE + 1]
    except OSError as exc:
        raise UserError(f"cannot read the passphrase file {path}: {exc.strerror}") from None
    if len(data) > MAX_PASSPHRASE_FILE:
        raise UserError(f"passphrase file {path} is too long (at most {MAX_PASSPHRASE_FILE} bytes)")
    line = data.split(b"\n", 1)[0].removesuffix(b"\r")
    if not line:
        raise UserError(f"passphrase file {path} is empty (use --no-passphrase for no passphrase)")
    return line


def ask_passphrase() -> bytes | None:
    """A new passphrase asked twice on the terminal; ``None`` if left empty."""
    first = getpass.getpass("Passphrase for the new key (empty for none): ")
    if not first:
        return None
    if getpass.getpass("The same passphrase again: ") != first:
        raise UserError("the two passphrases differ: nothing written")
    return first.encode("utf-8")


def choose_passphrase(args: argparse.Namespace) -> bytes | None:
    """The passphrase that ``keygen``'s options ask for (``None``: unencrypted)."""
    if args.no_passphrase:
        return None
    if args.passphrase_file is not None:
        return read_passphrase_file(args.passphrase_file)
    if sys.stdin.isatty():
        return ask_passphrase()
    raise UserError("no terminal to ask a passphrase: give --passphrase-file F or --no-passphrase")


def run_keygen(args: argparse.Namespace) -> int:
    try:
        keys.check_free(args.name)  # before asking a passphrase
        passphrase = choose_passphrase(args)
        stored = keys.save(keys.generate(), args.name, passphrase=passphrase)
    except PbemError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write the key: {exc.strerror} ({exc.filename})") from None
    state = "encrypted with your passphrase" if stored.encrypted else "NOT encrypted"
    print(f"key {stored.name!r}: {stored.fingerprint}")
    print(f"private key: {stored.path} (mode 0600, {state})")
    print(f"public key:  {stored.public_path}")
    print("Send the public key to your opponent and compare fingerprints out of band.")
    return 0


def allowed_signers(arg: str) -> str:
    """The ``allowed_signers`` file of the keys pinned by the invitation and the acceptance
    of the game ``arg`` (a game of the store or a file of packets), each checked as the
    protocol checks it (signed by the key it carries)."""
    from pbem.core import sshsig
    from pbem.sources import SourceError, load_source
    from pbem.store import Store

    try:
        source = load_source(arg, Store())
    except SourceError as exc:
        raise UserError(str(exc), 2) from None
    first_two = [p for p in source.packets if p.body.seq in (0, 1)]
    pinned = [(p.body.author, p.body.key) for p in first_two if p.body.key == p.signer]
    if len(pinned) != len(first_two) or not pinned or first_two[0].body.seq != 0:
        raise UserError(f"{source.name}: no invitation signed by the key it carries", 1)
    return sshsig.allowed_signers((side, key) for side, key in pinned if key is not None)


def run_keys(args: argparse.Namespace) -> int:
    if args.allowed_signers is not None:
        print(allowed_signers(args.allowed_signers), end="")
        return 0
    found = keys.list_keys()
    if not found:
        print(f"no keys in {keys.key_dir()} (make one with: ardennes keygen NAME)")
        return 0
    width = max(len(key.name) for key in found)
    for key in found:
        if key.fingerprint is None:
            print(f"{key.name:<{width}}  unreadable: {key.problem}")
        else:
            state = "encrypted" if key.encrypted else "not encrypted"
            print(f"{key.name:<{width}}  {key.fingerprint}  ({state})")
    print(f"({keys.key_dir()})")
    return 0
