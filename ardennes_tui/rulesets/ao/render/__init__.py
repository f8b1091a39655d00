"""Pure text rendering of the map: no Textual here, only Rich styles.

- :func:`draw_detail`: pointy-topped ASCII hexes with hexsides drawn (``ardennes map`` and the
  viewer's detailed zoom).
- :func:`draw_overview`: one text line per hex row, two cells per hex.
- :func:`legend_lines`, :func:`describe_hex`: legend and side-panel text.

Both drawers return a :class:`Picture` of styled runs; :mod:`.palette` turns style names into
16-colour ANSI styles, and :meth:`Picture.plain_lines` gives plain ASCII.
"""

from ardennes_tui.present.render.picture import Picture
from ardennes_tui.rulesets.ao.render.counters import UnitsByHex
from ardennes_tui.rulesets.ao.render.describe import describe_hex
from ardennes_tui.rulesets.ao.render.detail import draw_detail
from ardennes_tui.rulesets.ao.render.legend import legend_lines
from ardennes_tui.rulesets.ao.render.overview import draw_overview

__all__ = [
    "Picture",
    "UnitsByHex",
    "describe_hex",
    "draw_detail",
    "draw_overview",
    "legend_lines",
]
