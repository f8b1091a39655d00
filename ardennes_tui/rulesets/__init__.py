"""The composition root: the rulesets this program plays, plugged in.

Importing this package registers each ruleset's plug-ins: its engine in :mod:`rules.registry`
(importing :mod:`rules.ao` registers the AO) and its UI kit in :mod:`ardennes_tui.kits`
(:mod:`ardennes_tui.rulesets.ao.kit`). The libraries never import it: the entry points
(``ardennes_tui/__main__.py``, the command line's ``main``) and the tests do. Each ruleset's
plug-ins live beside it: ``ardennes_tui/rulesets/<id>/``.
"""

from __future__ import annotations

import rules.ao  # noqa: F401 - registers the AO's engine (rules.registry)
from ardennes_tui import kits
from ardennes_tui.rulesets.ao.kit import AO_KIT

kits.register(AO_KIT)
