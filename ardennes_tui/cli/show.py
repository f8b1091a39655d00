"""``ardennes show GAME [--json]``: where a game by email stands, from the store.

The text: the game, the Game-Turn, phase and VP, whose move and what to do, what is pending
(a sealed batch and its attacks with their odds, the drop's hex, the CRT switch die, a draw
offer), what ``ardennes orders`` or the app keeps for the next packet, an excerpt of the map
around the action (the declared attacks, the drop, else the player's units in contact with the
enemy) with the row and column numbers, and the units on the map by side. ``--json`` prints
:func:`pbem.show.show`'s data (``docs/pbem.md``: a stable shape). A kept draft is played on
the next packet when the key is at hand (``--key``, ``--passphrase-file``; asked on a
terminal only with ``--key``), so that its position is shown too.

A game of another ruleset than the AO (``ardennes invite --ruleset``) is shown without the
map: the same lines, its position as its email kit gives it (:func:`pbem.show.show`'s
``position``, one JSON line); a *Breakthrough* game's position in lines (the weather, the
plots or ground attacks of a waiting batch, each side's units with strength, efficiency and
the manual's ``x,y``: :mod:`ardennes_tui.rulesets.breakthrough.show`).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

import rules.ao
from ardennes_tui.cli.email import key_options, player_identity
from ardennes_tui.errors import UserError
from ardennes_tui.present.render.picture import crop_line
from ardennes_tui.rulesets.ao.present import game_view
from ardennes_tui.rulesets.ao.render import detail
from pbem.core.errors import PbemError
from pbem.core.protocol import Identity
from pbem.games import Service
from pbem.show import show
from pbem.store import Store

__all__ = ["excerpt", "register", "run"]

WIDTH = 80
BREAKTHROUGH = "breakthrough"
EXCERPT_ROWS = 7
"""Hex rows in the map excerpt (three lines each, under the column numbers)."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "show",
        help="print where a game by email stands: position, whose move, what is pending",
        description="Print the current position of GAME (an id or its start) from the store: "
        "whose move, what is pending, a map excerpt around the action and the units; --json "
        "prints it as data (its shape: docs/pbem.md).",
    )
    parser.add_argument("game", metavar="GAME")
    parser.add_argument("--json", action="store_true", help="print it as JSON (a stable shape)")
    key_options(parser)
    parser.set_defaults(func=run)


def _focus(game: rules.ao.Game, data: dict[str, Any]) -> rules.HexId | None:
    """The hex the excerpt centres on: the first declared attack's target, the drop's hex,
    else the first (by id) of our units next to an enemy unit, else our first unit."""
    for item in data["pending"]:
        if item.get("hex"):
            return str(item["hex"])
        for a in item.get("attacks", []):
            return str(a["defenders"][0])
    s = game.state
    ours = data["our_side"]
    where = {u.hex: game.board.defs[u.id].side for u in s.units if u.hex and u.status == "on_map"}
    mine = sorted((u.id, u.hex) for u in s.units if u.hex and where.get(u.hex) == ours)
    for _, h in mine:
        near = (n for n in rules.hexgrid.neighbours(h) if n is not None)
        if any(where.get(n) not in (None, ours) for n in near):
            return h
    return mine[0][1] if mine else None


def excerpt(game: rules.ao.Game, focus: rules.HexId, width: int = WIDTH) -> list[str]:
    """The detailed map around ``focus``: :data:`EXCERPT_ROWS` hex rows, as many columns as
    fit in ``width``, the map's own row numbers on the left and column numbers on top."""
    pic = detail.draw_detail(
        game.board.game_map, game_view.units_by_hex(game), game_view.road_mode_units(game)
    )
    lines = pic.lines
    col, row = rules.hexgrid.parse(focus)
    x, y = detail.origin(col, row)
    span = width - detail.LEFT
    full = sum(len(t) for t, _ in lines[0]) if lines else 0
    x0 = max(detail.LEFT, min(x + 3 - span // 2, full - span))
    half = EXCERPT_ROWS * detail.ROW_H // 2
    y0 = max(detail.TOP, y - half)
    y1 = min(len(lines), y0 + EXCERPT_ROWS * detail.ROW_H)
    rows = [*lines[: detail.TOP], *lines[y0:y1]]
    out = []
    for ln in rows:
        cut = (*crop_line(ln, 0, detail.LEFT), *crop_line(ln, x0, x0 + span))
        out.append("".join(t for t, _ in cut).rstrip())
    return out


def _units(game: rules.ao.Game, side: rules.ao.Side) -> list[str]:
    s = game.state
    out = []
    for u in sorted(s.units, key=lambda u: u.id):
        if u.hex is None or game.board.defs[u.id].side != side:
            continue
        marks = "".join(
            m
            for m, on in (
                ("r", u.road_mode),
                ("d", u.status == "dormant"),
                ("u", u.supply == "unsupplied"),
                ("i", u.supply == "isolated"),
            )
            if on
        )
        out.append(f"{u.id} {u.hex}{'/' + marks if marks else ''}")
    return out


def _state(email: Any) -> Any:
    if email.game is not None:
        return email.game.state
    return email.ruleset.new_game(email.board_for(email.scenario))


def _head(data: dict[str, Any], summary: str) -> list[str]:
    """The lines before the map: the game, where it stands, whose move, what is pending,
    what is kept."""
    short = data["game"][:8]
    ours = data["our_side"]
    other = next((s for s in data["players"] if s != ours), ours)
    label = data["players"].get(other) or other
    out = [
        f"Game {short}: scenario {data['scenario']}, {data['dice']} dice, you play the "
        f"{ours.capitalize()} against {label}; {data['packets']} packets",
        summary,
        data["next"][:1].upper() + data["next"][1:],
    ]
    for item in data["pending"]:
        if item["kind"] == "batch":
            out.append(
                f"Pending: the {item['side'].capitalize()} {item['what']}, waiting for the "
                f"{item['waits_for']}" + (f" (drop on {item['hex']})" if item.get("hex") else "")
            )
            for a in item.get("attacks", []):
                odds = a["odds"] or "?"
                out.append(f"  {'+'.join(a['defenders'])} {odds} <- {' '.join(a['attackers'])}")
        elif item["kind"] == "crt_switch":
            out.append("Pending: the CRT switch die opens the German's next packet (AO-10.3a)")
        elif item["kind"] == "draw_offer":
            out.append(f"Pending: a draw offered by the {item['by'].capitalize()}")
        else:  # a die of the mover's own, in another ruleset
            out.append(f"Pending: {item['kind'].replace('_', ' ')} ({item.get('side', '')})")
    if data["draft"] is not None:
        d = data["draft"]
        where = "its position below" if d["position"] is not None else "ardennes show --key K"
        out.append(
            f"Kept: your {d['orders']} unsent order(s) of packet {d['packet']} ({where}; "
            "ardennes orders or the app goes on from them)"
        )
    if data["kept"] is not None:
        k = data["kept"]
        out.append(
            f"Kept: {k['commands']} command(s) for packet {k['packet']}, after the reply "
            f"(the next ardennes orders {short} puts them first)"
        )
    return [w for line in out for w in textwrap.wrap(line, WIDTH, subsequent_indent="  ")]


def plain_text(data: dict[str, Any], standing: str) -> str:
    """The text of a game of a ruleset without a map here: :func:`_head` with the ruleset's
    ``standing``, then the position as one JSON line."""
    out = _head(data, standing[:1].upper() + standing[1:])
    position = data["draft"]["position"] if data["draft"] and data["draft"]["position"] else None
    out.append("Position: " + json.dumps(position or data["position"], separators=(",", ":")))
    return "".join(line + "\n" for line in out)


def breakthrough_text(data: dict[str, Any], standing: str) -> str:
    """The text of a *Breakthrough* game: :func:`_head`, then its position in lines
    (:func:`ardennes_tui.rulesets.breakthrough.show.position_lines`)."""
    from ardennes_tui.rulesets.breakthrough.show import position_lines

    out = _head(data, standing[:1].upper() + standing[1:])
    draft = data["draft"]
    if draft and draft["position"]:
        out.append(f"(the position after your {draft['orders']} unsent order(s))")
    out += position_lines((draft and draft["position"]) or data["position"], data["pending"])
    return "".join(line + "\n" for line in out)


def text(data: dict[str, Any], game: rules.ao.Game) -> str:
    """The text form of :func:`pbem.show.show`'s ``data`` (``game`` at its position)."""
    out = _head(data, game_view.summary(game))
    focus = _focus(game, data)
    if focus is not None:
        out.append("")
        out += excerpt(game, focus)
    for side in ("german", "allied"):
        units = _units(game, side)
        head = f"{side.capitalize()} on the map ({len(units)}): "
        out += textwrap.wrap(head + ", ".join(units), WIDTH, subsequent_indent="  ")
    out.append("(r Road Mode, d dormant, u unsupplied, i isolated)")
    return "".join(line + "\n" for line in out)


def run(args: argparse.Namespace) -> int:
    try:
        store = Store()
        service = Service(store)
        game_id = store.find_game(args.game.lower())
        me: Identity | None = None
        if args.key is not None or args.passphrase_file is not None:
            me = player_identity(args, service, game_id)
        data = show(service, game_id, me)
    except PbemError as exc:
        raise UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1) from None
    if args.json:
        print(json.dumps(data, indent=1, sort_keys=False))
        return 0
    email = service.load(game_id)
    standing = email.ruleset.standing(_state(email), email.verdict)
    if email.ruleset.id == BREAKTHROUGH:
        sys.stdout.write(breakthrough_text(data, standing))
        return 0
    if email.ruleset.id != rules.ao.AO.id:
        sys.stdout.write(plain_text(data, standing))
        return 0
    board = email.game.board if email.game is not None else service.board(data["scenario"])
    draft = data["draft"]
    position = draft["position"] if draft and draft["position"] else data["position"]
    state = rules.ao.position.loads(json.dumps(position))
    game = rules.ao.Game(board, state)
    if draft and draft["position"]:
        sys.stdout.write(f"(the position after your {draft['orders']} unsent order(s))\n")
    sys.stdout.write(text(data, game))
    return 0
