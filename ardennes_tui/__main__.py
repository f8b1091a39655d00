"""``python -m ardennes_tui`` runs the ``ardennes`` command."""

import ardennes_tui.rulesets  # noqa: F401 - the composition root: the rulesets plugged in
from ardennes_tui.cli import main

raise SystemExit(main())
