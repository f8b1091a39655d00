"""The AO's key bindings as data (the shell's :class:`ardennes_tui.present.keymap.KeyBinding`).

The AO's screens build their Textual ``BINDINGS`` from :data:`KEYMAP` (the shell's map keys,
then the AO's own, :data:`AO_KEYS`) with :func:`ardennes_tui.widgets.bindings.bindings`, so
every binding has an id; a user keymap (``{binding id: "key,key"}``) can later be applied with
``App.set_keymap``.
Movement follows our pointy-topped grid (``docs/hex-grid.md``): ``y u`` =
north-west/north-east, ``h l`` = west/east, ``b n`` = south-west/south-east, and ``k j`` go
straight up/down the column (alternating NW/NE and SW/SE, which keeps ``CC``). The numeric
keypad works the same way: ``7 9 4 6 1 3`` and ``8 2``.

The ``app`` scope works on every map screen (go to ``g``, centre ``C``, panel, help, the
command palette, quit). The ``play`` scope holds the orders of the play screen (select, move,
road mode, undo, end phase, attack, resolve, standing orders, save) and its jumps (next unit
that may act ``.`` ``,``; next lit hex ``]`` ``[``); ``u`` is north-east, so undo is ``backspace``
or ``U``. The ``decide`` scope answers a pending combat decision: its bindings have priority
over the map's cursor keys (``y n`` and the digits), but only while a decision is pending
(otherwise the action raises ``SkipAction`` and the key moves the cursor as usual).
"""

from __future__ import annotations

from typing import Final

from ardennes_tui.present import keymap as shell
from ardennes_tui.present.keymap import KeyBinding, Scope, key_label

AO_KEYS: Final[tuple[KeyBinding, ...]] = (
    KeyBinding(
        "app.goto",
        ("g",),
        "goto",
        "go to a hex (g 3412 Enter) or a town (g bas Enter; Up/Down pick among the matches)",
        "app",
        show=True,
    ),
    KeyBinding(
        "app.center",
        ("C",),
        "center",
        "centre the view on the selection (the selected unit, the attack, the decision)",
        "app",
    ),
    KeyBinding(
        "play.next_unit",
        ("full_stop",),
        "next_unit(1)",
        "next unit that may act now: moves, arrives (its entry hex), attacks; selects it",
        "play",
    ),
    KeyBinding(
        "play.prev_unit", ("comma",), "next_unit(-1)", "previous unit that may act now", "play"
    ),
    KeyBinding(
        "play.next_lit",
        ("right_square_bracket",),
        "lit(1)",
        "next lit hex: entry, drop, reach, target, attacker, retreat path (nearest first)",
        "play",
    ),
    KeyBinding("play.prev_lit", ("left_square_bracket",), "lit(-1)", "previous lit hex", "play"),
    KeyBinding(
        "play.select",
        ("enter",),
        "select",
        "select your unit / move it here; combat: add/drop the stack, declare on the target",
        "play",
        show=True,
    ),
    KeyBinding(
        "play.toggle",
        ("space",),
        "toggle_one",
        "as Enter; combat: add/drop only the unit marked > (Tab moves the mark)",
        "play",
    ),
    KeyBinding("play.cycle", ("tab",), "cycle", "next unit of the stack", "play"),
    KeyBinding("play.road", ("r",), "road_mode", "selected unit enters / leaves Road Mode", "play"),
    KeyBinding(
        "play.resolve", ("r",), "resolve", "combat: resolve the declared attacks (dice)", "play"
    ),
    KeyBinding(
        "play.attack",
        ("a",),
        "attack",
        "combat: attack the enemy hex here / add or drop it as a further defender",
        "play",
        show=True,
    ),
    KeyBinding(
        "play.odds_down", ("minus",), "odds(-1)", "combat: lower the odds (AO-9.4L)", "play"
    ),
    KeyBinding(
        "play.odds_up", ("plus", "equals_sign"), "odds(1)", "combat: raise the odds again", "play"
    ),
    KeyBinding(
        "play.waive_attackers",
        ("w",),
        "waive_attackers",
        "combat: the attackers waive their Ar immunity (AO-11.f*)",
        "play",
    ),
    KeyBinding("play.log", ("c",), "combat_log", "the combat log", "play"),
    KeyBinding(
        "play.undo", ("backspace", "U"), "undo", "undo the last order of this phase", "play"
    ),
    KeyBinding(
        "play.end", ("e",), "end_phase", "end the phase / accept set-up (e again)", "play", True
    ),
    KeyBinding(
        "play.orders",
        ("O",),
        "standing_orders",
        "standing orders: what the engine decides for your side in enemy attacks",
        "play",
    ),
    KeyBinding(
        "play.save",
        ("s",),
        "save",
        "where the game is saved (the store); s again exports a copy (JSONL)",
        "play",
    ),
    KeyBinding(
        "play.zoc",
        ("Z",),
        "zoc",
        "ZOC overlay: the enemy's zones of control lit, then your own, then off",
        "play",
    ),
    KeyBinding(
        "play.turns",
        ("T",),
        "turn_track",
        "the turn record track and the reinforcement schedule",
        "play",
    ),
    KeyBinding(
        "play.vp",
        ("V",),
        "victory_points",
        "the victory points and where they came from",
        "play",
    ),
    KeyBinding(
        "play.skip_empty",
        ("S",),
        "skip_empty",
        "phases with nothing to decide (empty Reinforcement, Supply Judgment) pass: on / off",
        "play",
    ),
    KeyBinding(
        "play.deselect", ("escape",), "deselect", "deselect the unit / cancel the attack", "play"
    ),
    KeyBinding(
        "decide.yes", ("y",), "waive(True)", "decision: waive the immunity", "decide", priority=True
    ),
    KeyBinding(
        "decide.no", ("n",), "waive(False)", "decision: keep the immunity", "decide", priority=True
    ),
    *(
        KeyBinding(
            f"decide.pick{i}",
            (str(i),),
            f"pick({i})",
            "decision: pick choice 1-9 (path, unit; toggle a loss)",
            "decide",
            priority=True,
        )
        for i in range(1, 10)
    ),
    KeyBinding(
        "decide.decline", ("0",), "pick(0)", "decision: do not advance", "decide", priority=True
    ),
    KeyBinding(
        "decide.confirm",
        ("enter",),
        "confirm",
        "decision: confirm the losses",
        "decide",
        priority=True,
    ),
    KeyBinding(
        "email.send",
        ("x",),
        "send",
        "by email: seal the complete packet (x again) and send it; a reply: standing orders",
        "email",
        show=True,
    ),
    KeyBinding(
        "email.import",
        ("i",),
        "import",
        "by email: import your opponent's packets (paste them or give a file)",
        "email",
        show=True,
    ),
    KeyBinding(
        "email.playback",
        ("R",),
        "playback",
        "by email: play back the game (from before the last import) step by step",
        "email",
    ),
    KeyBinding(
        "email.comment",
        ("m",),
        "comment",
        "by email: a comment to your opponent in the packet being written (a dialog)",
        "email",
    ),
    KeyBinding(
        "email.audit",
        ("A",),
        "audit",
        "by email: the audit: every roll, the dice statistics, the signatures",
        "email",
    ),
    KeyBinding("app.panel", ("p",), "toggle_panel", "show / hide the side panel", "app"),
    KeyBinding("app.panel_up", ("left_parenthesis",), "scroll_panel(-1)", "side panel up", "app"),
    KeyBinding(
        "app.panel_down", ("right_parenthesis",), "scroll_panel(1)", "side panel down", "app"
    ),
    KeyBinding(
        "app.message_up", ("left_curly_bracket",), "scroll_message(-1)", "message up a line", "app"
    ),
    KeyBinding(
        "app.message_down",
        ("right_curly_bracket",),
        "scroll_message(1)",
        "message down a line",
        "app",
    ),
    KeyBinding(
        "app.help",
        ("question_mark",),
        "help",
        "help: counters, sequence of play, CRTs, terrain, keys (1-5 jump)",
        "app",
        show=True,
    ),
    KeyBinding(
        "versus.skip",
        ("space", "escape"),
        "skip",
        "the computer's turn playing out: skip to its end",
        "versus",
    ),
    KeyBinding(
        "versus.replay",
        ("R",),
        "replay",
        "play back the computer's last turn (its orders, dice and decisions)",
        "versus",
    ),
    KeyBinding(
        "versus.faster",
        ("greater_than_sign",),
        "pace(1)",
        "the computer's orders play out faster (slow, normal, fast, instant; kept)",
        "versus",
    ),
    KeyBinding(
        "versus.slower",
        ("less_than_sign",),
        "pace(-1)",
        "the computer's orders play out slower",
        "versus",
    ),
    KeyBinding(
        "app.palette",
        ("ctrl+p",),
        "app.command_palette",
        "the command palette: the commands valid now, typed by name",
        "app",
    ),
    KeyBinding("app.quit", ("q",), "app.quit", "quit", "app", show=True),
)
"""The AO's screens' keys (scopes ``app``, ``play``, ``decide``, ``email``, ``versus``)."""

KEYMAP: Final[tuple[KeyBinding, ...]] = shell.KEYMAP + AO_KEYS
"""Every key of the AO's screens: the shell's map keys, then its own."""


def help_rows() -> list[tuple[str, str]]:
    """``(keys, description)`` for the help screen (the nine ``decide.pick`` keys as one)."""
    rows: list[tuple[str, str]] = []
    for kb in KEYMAP:
        if kb.id.startswith("decide.pick"):
            if kb.id == "decide.pick1":
                rows.append(("1-9", kb.description))
            continue
        rows.append((" ".join(key_label(k) for k in kb.keys), kb.description))
    return rows


SCOPE_TITLES: Final[dict[Scope, str]] = {
    "map": "The cursor and the view",
    "app": "Everywhere",
    "play": "Orders and jumps (play screen)",
    "decide": "Decisions (only while one is pending)",
    "email": "By email",
    "versus": "Against the computer",
}
"""The help's heading for each scope, in the help's order."""


def help_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every binding for the help screen, one group a scope: ``(heading, [(keys, what)])``."""
    grouped: dict[Scope, list[tuple[str, str]]] = {s: [] for s in SCOPE_TITLES}
    for kb in KEYMAP:
        if kb.id.startswith("decide.pick"):
            if kb.id == "decide.pick1":
                grouped[kb.scope].append(("1-9", kb.description))
            continue
        grouped[kb.scope].append((" ".join(key_label(k) for k in kb.keys), kb.description))
    return [(SCOPE_TITLES[s], grouped[s]) for s in SCOPE_TITLES if grouped[s]]
