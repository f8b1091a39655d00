"""What every ruleset's map drawing shares: the character :class:`Picture` with its hex spans
(:mod:`.picture`) and the colours of its style names (:mod:`.palette`). Each ruleset draws its
own map into a picture (the AO's: :mod:`ardennes_tui.rulesets.ao.render`), which the map widget
(:mod:`ardennes_tui.widgets.map_view`) shows."""

from ardennes_tui.present.render.picture import Canvas, Picture

__all__ = ["Canvas", "Picture"]
