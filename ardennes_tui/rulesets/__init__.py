"""The composition root: the rulesets this program plays, plugged in (issue 23,
``docs/engine.md``, "Plug it into the program").

The libraries find no ruleset themselves: :mod:`rules` knows none but those registered in
:mod:`rules.registry`, :mod:`pbem` none but the email kits registered in :mod:`pbem.kits`, the
app's shell none but the UI kits registered in :mod:`ardennes_tui.kits`. Importing this
package registers each ruleset's plug-ins: its engine (importing ``rules.ao`` registers the
AO), its email kit (:mod:`ardennes_tui.rulesets.ao.email`) and its UI kit
(:mod:`ardennes_tui.rulesets.ao.kit`); *Breakthrough in the Ardennes* (``rules.breakthrough``) its
email kit (:mod:`ardennes_tui.rulesets.breakthrough.email`; its UI kit comes with issue 25's
app). The libraries never import it: the entry points
(``ardennes_tui/__main__.py``, the command line's ``main``) and the tests
(``tests/conftest.py``) do. Each ruleset's plug-ins live beside it:
``ardennes_tui/rulesets/<id>/``. Importing it twice registers nothing twice.
"""

from __future__ import annotations

import rules.ao  # registers the AO's engine (rules.registry)
import rules.breakthrough  # noqa: F401 - registers Breakthrough's engine
from ardennes_tui import kits
from ardennes_tui.rulesets.ao.email import AO_EMAIL_KIT
from ardennes_tui.rulesets.ao.kit import AO_KIT
from ardennes_tui.rulesets.breakthrough.email import BITA_EMAIL_KIT
from pbem import kits as email_kits

email_kits.register(AO_EMAIL_KIT)
email_kits.register(BITA_EMAIL_KIT)
kits.register(AO_KIT)
