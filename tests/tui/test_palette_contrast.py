"""Light and dark backgrounds both read (issue 11): the contrast of every colour of the map's
two palettes (``ardennes_tui/present/render/palette.py``) against a black and a white terminal
background, as WCAG 2 defines contrast, the 16 ANSI colours taken as xterm's defaults and the
256-colour palette as Rich's."""

from __future__ import annotations

import pytest
from rich._palettes import EIGHT_BIT_PALETTE
from rich.color import Color
from rich.style import Style

from ardennes_tui.present.render.palette import STYLES, STYLES_256

XTERM = [
    *("000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5"),
    *("7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"),
]
BLACK, WHITE = (0, 0, 0), (255, 255, 255)
RGB = tuple[int, int, int]


def rgb(colour: Color) -> RGB:
    if colour.number is not None and colour.number < 16:
        h = XTERM[colour.number]
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    if colour.number is not None:
        t = EIGHT_BIT_PALETTE[colour.number]
    else:
        assert colour.triplet is not None
        t = colour.triplet
    return t.red, t.green, t.blue


def contrast(a: RGB, b: RGB) -> float:
    def luminance(c: RGB) -> float:
        def lin(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

        r, g, b_ = map(lin, c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_formula() -> None:
    assert contrast(BLACK, WHITE) == pytest.approx(21.0)
    assert contrast((127, 127, 127), WHITE) == pytest.approx(4.0, abs=0.01)


PALETTES = [("16", STYLES), ("256", STYLES_256)]


@pytest.mark.parametrize(("name", "palette"), PALETTES)
def test_glyph_colours_read_on_black_and_on_white(name: str, palette: dict[str, str]) -> None:
    low: dict[tuple[str, str], float] = {}
    for style_name, spec in palette.items():
        style = Style.parse(spec) if spec else Style.null()
        if style.color is None or style.bgcolor is not None:
            continue
        for background, bg in (("black", BLACK), ("white", WHITE)):
            c = contrast(rgb(style.color), bg)
            if c < 3.0:
                low[(style_name, background)] = round(c, 2)
    # the one exception, documented in palette.py: the 16-colour rough terrain on white
    assert low == ({("rough", "white"): 2.16} if name == "16" else {})


@pytest.mark.parametrize(("name", "palette"), PALETTES)
def test_counters_and_marks_stand_out_on_black_and_on_white(
    name: str, palette: dict[str, str]
) -> None:
    """A style with a background of its own (the counters, bridges, fords, fortifications):
    its text reads on it, and the block stands out from either terminal background."""
    for style_name, spec in palette.items():
        style = Style.parse(spec) if spec else Style.null()
        if style.bgcolor is None:
            continue
        bg = rgb(style.bgcolor)
        assert style.color is not None, style_name
        assert contrast(rgb(style.color), bg) >= 4.0, style_name
        assert min(contrast(bg, BLACK), contrast(bg, WHITE)) >= 1.6, style_name
