"""The AO's help pages in the shell's help frame (:class:`ardennes_tui.screens.help.HelpPages`):
the five sections of :mod:`ardennes_tui.rulesets.ao.present.help_text`, opened at the CRTs
while an attack is being built."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from ardennes_tui.rulesets.ao.present.help_text import SECTIONS, HelpContext, section_text


class AoHelp:
    """The AO's help (:data:`AO_HELP`)."""

    @property
    def sections(self) -> Sequence[tuple[str, str, str]]:
        return SECTIONS

    def text(self, section: str, context: HelpContext | None) -> Text:
        return section_text(section, context or HelpContext())

    def first(self, context: HelpContext | None) -> str | None:
        """At the CRTs while an attack is being built (its odds column lit)."""
        return "crt" if context is not None and context.column is not None else None


AO_HELP: Final = AoHelp()
