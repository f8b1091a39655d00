"""Text cut off by a widget edge, found on a running app (issue 21, item 14).

:func:`cuts` walks the widgets of the screen on top and returns one line per text that the
player cannot read whole at the terminal's size:

- a text widget (``Static``, ``Label``) whose words, rendered at its width, are not its own
  words (a word folded across two lines - a hex id split -, a line cropped by ``nowrap``), or
  that has more lines than its height;
- a widget whose region sticks out of its container where that container does not scroll
  (a line under the bottom border of a dialog);
- a table wider than its box (a column out of sight), an option of a list folded or cropped;
- the status area's position line shortened (``rou...``), the side panel's lines folded.

A word broken after a hyphen (``3432-3332-`` / ``3333``: a path of hex ids wrapped between two
ids) is whole. Used by ``tests/tui/test_cuts.py`` on every screen and dialog at 80x24.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.app import App
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList, Static, TextArea

from ardennes_tui.rulesets.ao.widgets.side_panel import SidePanel
from ardennes_tui.rulesets.ao.widgets.status_line import StatusLine
from ardennes_tui.widgets.text_box import TextBox


def words(text: str) -> list[str]:
    """The words of ``text``; a word broken after a hyphen joined again."""
    return re.sub(r"-\s+(?=\S)", "-", text).split()


def _plain(visual: object) -> str | None:
    if isinstance(visual, str):
        return visual
    if isinstance(visual, Text | Content):
        return visual.plain
    return None


def _scrolls(widget: Widget) -> bool:
    return isinstance(widget, ScrollableContainer | ScrollView) or widget.styles.overflow_y in (
        "auto",
        "scroll",
    )


def _shown(widget: Widget) -> bool:
    node: Widget | None = widget
    while isinstance(node, Widget):
        if not node.display or not node.visible:
            return False
        parent = node.parent
        node = parent if isinstance(parent, Widget) else None
    return widget.region.area > 0 or widget.size.area > 0


def _text_cut(widget: Static) -> str | None:
    """What is cut of a text widget's own text, or None."""
    plain = _plain(widget.visual)
    if plain is None or not plain.strip():
        return None
    width, height = widget.size
    if width <= 0:
        return None
    strips = Visual.to_strips(widget, widget.visual, width, None, widget.visual_style)
    shown = " ".join(strip.text for strip in strips)
    if words(shown) != words(plain):
        got = " ".join(words(shown))
        return f"folded or cropped at width {width}: {got[:160]!r}"
    if len([s for s in strips]) > height and not _scrolls(widget):
        cut = " ".join(s.text.strip() for s in strips[height:])
        return f"{len(strips)} lines in a height of {height}: {cut[:120]!r} hidden"
    return None


def _outside(widget: Widget) -> str | None:
    """Whether ``widget`` sticks out of a container that does not scroll to it."""
    region = widget.region
    if region.area == 0:
        return None
    node = widget.parent
    while isinstance(node, Widget):
        if _scrolls(node):
            return None  # a scroll bar shows the rest
        box: Region = node.content_region
        if box.area and not box.contains_region(region):
            return f"sticks out of {node!r} ({region} not in {box})"
        node = node.parent
    return None


def _table_cut(table: DataTable[object]) -> str | None:
    inner = table.scrollable_content_region.width
    if table.virtual_size.width > inner:
        return f"{table.virtual_size.width} columns wide in {inner}"
    return None


def _options_cut(ol: OptionList) -> str | None:
    width = ol.scrollable_content_region.width
    for option in ol.options:
        prompt = option.prompt
        plain = _plain(prompt)
        if plain is None:
            continue
        content = prompt if isinstance(prompt, Content) else Content(plain)
        strips = Visual.to_strips(ol, content, width, None, ol.visual_style)
        if words(" ".join(s.text for s in strips)) != words(plain):
            return f"option {plain!r} folded or cropped at width {width}"
    return None


def _status_cut(status: StatusLine) -> str | None:
    if not status.summary:
        return None
    first = status.lines()[0].plain
    if first.rstrip().endswith("..."):
        return f"position line shortened: {first.strip()!r}"
    return None


def _box_cut(box: Widget) -> str | None:
    lines = box.lines()  # type: ignore[attr-defined]
    shown = " ".join(line.plain for line in lines)
    if words(shown) != words(box.source):  # type: ignore[attr-defined]
        return f"folded: {shown[:160]!r}"
    return None


def _panel_cut(panel: SidePanel) -> str | None:
    if words(panel.text) != words(panel.source):
        return f"side panel folded: {panel.text[:160]!r}"
    return None


def cuts(app: App[Any]) -> list[str]:
    """Every text cut off by a widget edge on the screen on top (empty: none)."""
    out: list[str] = []
    screen = app.screen
    for widget in screen.walk_children(with_self=False):
        if not isinstance(widget, Widget) or not _shown(widget):
            continue
        name = f"{type(widget).__name__}#{widget.id or '-'}"
        found: str | None = None
        if isinstance(widget, Static):
            found = _text_cut(widget)
        elif isinstance(widget, DataTable):
            found = _table_cut(widget)
        elif isinstance(widget, OptionList):
            found = _options_cut(widget)
        elif isinstance(widget, StatusLine):
            found = _status_cut(widget)
        elif isinstance(widget, SidePanel):
            found = _panel_cut(widget)
        elif isinstance(widget, TextBox):
            found = _box_cut(widget)
        if found is None and not isinstance(widget, Input | TextArea):
            found = _outside(widget)
        if found is not None:
            out.append(f"{name}: {found}")
    return out
