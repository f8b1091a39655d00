"""``ardennes`` with no subcommand: a hot-seat game in the app (new, loaded from a record
file, or resumed from the store); every hot-seat game lives in the store
(:mod:`ardennes_tui.games.hotseat`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ardennes_tui import kits
from ardennes_tui.app import play, play_email
from ardennes_tui.cli.email import invitation_input, player_identity
from ardennes_tui.errors import UserError
from ardennes_tui.games import hotseat, saves
from ardennes_tui.games.email_session import EmailSession, Outgoing
from ardennes_tui.rulesets.ao.games.versus import new_game as vs_game
from ardennes_tui.rulesets.ao.present.scenario_view import scenario_or_error
from pbem import config
from pbem.core.errors import PbemError
from pbem.core.protocol import Identity
from pbem.games import Service
from pbem.opponent import BotOpponent
from pbem.store import Store
from rules.record import LEGACY_RULESET


def run_app(
    scenario: int = 1,
    load: Path | None = None,
    *,
    seed: str | None = None,
    resume: str | None = None,
    versus: tuple[str, int, str] | None = None,
    ruleset: str = LEGACY_RULESET,
) -> int:
    """``ardennes [--scenario N] [--load FILE | --resume [NAME]] [--seed X]``: a new game of
    ``scenario`` (dice from ``seed``, default random), the record in ``load`` replayed and
    checked (:func:`ardennes_tui.games.saves.load_game`; its scenario and dice win; the game goes on
    in the store under a new name, the file is never written), or with ``resume`` (a name, a
    unique start of one, or ``""``: the most recent) a hot-seat game of the store
    (:func:`ardennes_tui.games.hotseat.resume`). ``versus`` (your side, the level, the bot's kind):
    a new game against the computer (:func:`ardennes_tui.rulesets.ao.games.versus.new_game`). A bad
    file or name is one line and exit status 1. ``ruleset``: whose new game (the start screen's
    choice, :class:`ardennes_tui.screens.start_dialogs.Launch`; a scenario its UI kit does not
    offer is one line and exit status 2)."""
    if versus is not None:
        side, level, kind = versus
        try:
            game = vs_game(scenario, side, level, seed, kind)  # type: ignore[arg-type]
        except ValueError as exc:
            raise UserError(str(exc), 2) from None
        return play(game)
    if resume is not None:
        checking(f"the game {resume}" if resume else "the last game")
        try:
            game, loaded, stored = hotseat.resume(resume)
        except ValueError as exc:
            raise UserError(str(exc), 1) from None
        return play(game, loaded, stored)
    if load is None and ruleset != LEGACY_RULESET:
        offer = kits.get(ruleset).scenarios()
        if scenario not in offer:
            numbers = ", ".join(str(n) for n in sorted(offer))
            raise UserError(f"no scenario {scenario} of {ruleset}: choose {numbers}", 2)
        return play(saves.new_game(scenario, seed, ruleset))
    if load is None:
        scenario_or_error(scenario)
        return play(saves.new_game(scenario, seed))
    checking(str(load))
    try:
        game, loaded = saves.load_game(load)
    except ValueError as exc:
        raise UserError(str(exc), 1) from None
    return play(game, loaded)


def checking(what: str) -> None:
    """Say on the terminal what is being checked before the app opens: a long record takes
    seconds to replay, and the screen stayed blank meanwhile."""
    if sys.stderr.isatty():
        print(f"ardennes: checking {what}: every order through the rules again...", file=sys.stderr)


NEW_OPTIONS = ("side", "dice", "opponent")
BOT_LABEL = "ardennes bot"
"""The opponent's label of a game by email against ``ardennes bot`` (``--opponent-bot``)."""
"""The top-level options that go with ``--email new`` (and ``--opponent`` with ``accept``)."""


def _usage(args: argparse.Namespace) -> str:
    """What is wrong with the words of ``--email`` and the options given with them ("": all
    is well)."""
    words: list[str] = args.email
    given = [f"--{name}" for name in NEW_OPTIONS if getattr(args, name) is not None]
    if words[0] == "new":
        if len(words) != 1:
            return "--email new takes no other word (--scenario N --side S --dice D)"
        if args.side is None or args.dice is None:
            return "--email new needs --side german|allied and --dice sealed|open|local"
        if getattr(args, "opponent_bot", False) and (args.dice == "local" or args.opponent):
            return "--opponent-bot plays sealed or open dice, and is your opponent (no --opponent)"
        return ""
    if words[0] == "accept":
        if len(words) != 2:
            return "--email accept takes one FILE (the invitation)"
        extra = [g for g in given if g != "--opponent"]
        return f"{extra[0]} goes with --email new" if extra else ""
    if len(words) != 1:
        return "--email takes one GAME, or new, or accept FILE"
    return f"{given[0]} goes with --email new" if given else ""


def _one_line(exc: PbemError) -> UserError:
    return UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1)


def _start(args: argparse.Namespace, service: Service) -> tuple[str, Identity, Outgoing | None]:
    """``--email new`` or ``--email accept FILE``: the game created in the store (invited
    or accepted, as ``ardennes invite``/``accept`` do), its id, the player's key and the text
    to send (None for a local game: both sides are the player's, nothing goes out)."""
    if args.email[0] == "new":
        me = player_identity(args)
        bot = getattr(args, "opponent_bot", False)
        sent = service.invite(
            me,
            scenario=args.scenario,
            side=args.side,
            mode=args.dice,
            opponent=BOT_LABEL if bot else args.opponent or "",
        )
        if args.dice == "local":
            return sent.game_id, me, None
        if bot:
            answer = BotOpponent().answer(sent.text)
            service.import_text(answer.text)
            return sent.game_id, me, None
        title = (
            f"Invitation to game {sent.game_id[:8]} (scenario {args.scenario}, you play the "
            f"{args.side.capitalize()}, {args.dice} dice) stored: send it to your opponent"
        )
        return sent.game_id, me, Outgoing(0, sent.text, title)
    data = invitation_input(args.email[1])
    service.invitation(data)  # refused before a passphrase is asked
    me = player_identity(args)
    sent = service.accept(me, data, opponent=args.opponent or "")
    st = service.status(sent.game_id)
    other = st.keys[st.other_side]
    title = (
        f"Game {sent.game_id[:8]} accepted (scenario {st.scenario}, you play the "
        f"{st.our_side.capitalize()}, {st.mode} dice; opponent's key {other}: compare it out "
        "of band): send the acceptance"
    )
    return sent.game_id, me, Outgoing(1, sent.text, title)


def run_email(args: argparse.Namespace) -> int:
    """``ardennes --email GAME [--key K] [--passphrase-file F]``: game GAME of the store
    played by email in the app. The key is resolved as the email commands do (a key that is
    not the one pinned for our side is refused before any passphrase is asked), all before
    the app starts; every problem is one line and exit status 1 (2 for a usage error).

    ``--email new --scenario N --side S --dice sealed|open|local [--opponent ADDR]`` first
    invites (:meth:`pbem.games.Service.invite`; with ``--opponent-bot`` the computer,
    :class:`pbem.opponent.BotOpponent`, accepts at once and its answer is imported) and
    ``--email accept FILE [--opponent ADDR]`` first accepts the invitation in FILE
    (:meth:`pbem.games.Service.accept`), before the app starts; the app then opens on the
    send screen with the invitation or the acceptance (with ``--opponent-bot``: on the game).
    A local game (``--dice local``: hot-seat, dice from ``os.urandom`` recorded in the signed
    invitation, the second side signed with a key derived from the player's,
    :func:`pbem.games.local_partner`) is accepted at once and opens on its first packet: the
    session writes the packets of both sides, its draft following whose packet is next."""
    why = _usage(args)
    if why:
        raise UserError(why, 2)
    outgoing: Outgoing | None = None
    try:
        store = Store()
        service = Service(store)
        if args.email[0] in ("new", "accept"):
            game_id, me, outgoing = _start(args, service)
        else:
            game_id = store.find_game(args.email[0].lower())
            me = player_identity(args, service, game_id)
        session = EmailSession(service, game_id, me)
        if args.email[0] == "new" and getattr(args, "opponent_bot", False):
            session.notice = (
                f"Game {game_id[:8]} against the computer by email, accepted by "
                f"{BOT_LABEL}: save each packet you seal (f), give it to "
                "ardennes bot FILE -o ANSWER in a shell, and import the answer (i)."
            )
        if args.email[0] == "new" and args.dice == "local":
            session.notice = (
                f"Local game {game_id[:8]}: both sides yours, the dice from this computer "
                "(recorded and signed); nothing to send."
            )
    except PbemError as exc:
        raise _one_line(exc) from None
    try:
        has_smtp = config.load_config().smtp is not None
    except PbemError:
        has_smtp = False
    return play_email(session, has_smtp=has_smtp, outgoing=outgoing)
