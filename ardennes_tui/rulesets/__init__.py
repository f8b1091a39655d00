"""The composition root: the rulesets this program plays, plugged in (issue 23,
``docs/engine.md``, "Plug it into the program").

The libraries find no ruleset themselves: :mod:`rules` knows none but those registered in
:mod:`rules.registry`, :mod:`pbem` none but the email kits registered in :mod:`pbem.kits`.
Importing this package registers each ruleset's plug-ins: its engine (importing ``rules.ao``
registers :data:`rules.ao.AO`) and its email kit (:mod:`ardennes_tui.rulesets.ao.email`).
Only the entry points (``ardennes_tui/__main__.py``, :func:`ardennes_tui.cli.main`) and the
tests (``tests/conftest.py``) import it. Importing it twice registers nothing twice.
"""

from __future__ import annotations

import rules.ao  # registers the AO's engine in rules.registry
from ardennes_tui.rulesets.ao.email import AO_KIT
from pbem import kits

__all__ = ["RULESETS"]

kits.register(AO_KIT)

RULESETS: tuple[str, ...] = (rules.ao.AO.id,)
"""The rulesets plugged in here, in the order the command line lists them."""
