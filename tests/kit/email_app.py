"""Playing by email in the app: two players with their own stores and keys (a sealed game of
scenario 1 at the German's move), and ``ardennes --email`` run as one of them with Pilot."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules.ao
from ardennes_tui.app import ArdennesApp
from ardennes_tui.games.email_session import EmailSession
from ardennes_tui.screens.email_play import EmailPlayScreen
from pbem import keys
from pbem.core.identity import KeyIdentity
from pbem.games import Service
from pbem.store import Store
from rules.ao.bots import BotRng, bots_for
from tests.kit.app import AppBody


@dataclass
class Player:
    home: Path
    key: KeyIdentity
    service: Service


@dataclass
class Match:
    game_id: str
    german: Player
    allied: Player


def player(home: Path, name: str) -> Player:
    keys.save(keys.generate(), name, home=home)
    return Player(home, KeyIdentity(keys.load_key(name, home=home)), Service(Store(home)))


def allied_set_up(tmp_path: Path) -> tuple[Match, str]:
    """A sealed game of scenario 1 invited by the German and accepted by the Allied, and the
    Allied set-up (packet 2) as sealed, not yet imported by the German."""
    german = player(tmp_path / "german", "hans")
    allied = player(tmp_path / "allied", "joe")
    inv = german.service.invite(german.key, scenario=1, side="german", mode="sealed")
    acc = allied.service.accept(allied.key, inv.text)
    assert german.service.import_text(acc.text).ok
    draft = allied.service.draft(inv.game_id, allied.key)
    assert not isinstance(draft.push(rules.ao.EndPhase()), str)
    return Match(inv.game_id, german, allied), allied.service.seal(inv.game_id, draft).text


def new_match(tmp_path: Path) -> Match:
    """:func:`allied_set_up` with the set-up imported by the German: the German's move."""
    match, setup = allied_set_up(tmp_path)
    assert match.german.service.import_text(setup).ok
    return match


def run_as(monkeypatch: pytest.MonkeyPatch, home: Path, body: AppBody) -> list[str]:
    """``ardennes --email`` as the player of ``home`` (its store and keys), the app driven by
    ``body`` at 80x24; what ``main`` printed on failure is not here (capsys)."""
    monkeypatch.setenv("ARDENNES_HOME", str(home))
    monkeypatch.setenv("ARDENNES_CONFIG", str(home / "config.toml"))
    ran: list[str] = []

    def run(app: ArdennesApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await body(app, pilot)
                ran.append("ok")

        asyncio.run(go())

    monkeypatch.setattr(ArdennesApp, "run", run)
    return ran


def play_screen(app: ArdennesApp) -> EmailPlayScreen:
    screen = app.screen
    assert isinstance(screen, EmailPlayScreen), screen
    return screen


def german_orders(match: Match) -> tuple[str, int]:
    """The German's first orders packet, sealed by bots: its text and how many commands."""
    g = match.german
    session = EmailSession(g.service, match.game_id, g.key)
    bots = bots_for(BotRng(b"email-playback"))
    assert session.draft is not None
    session.push(rules.ao.StandingOrders(side="german", advance="strongest"))
    while not session.ended():
        cmd = bots["german"].choose(session.game)
        if isinstance(cmd, rules.ao.ResolveAttacks) and session.complete():
            break
        assert not isinstance(session.push(cmd), str)
    assert session.draft is not None
    n = len(session.draft.steps)
    _, sent = session.seal()
    return sent.text, n
