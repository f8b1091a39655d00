"""``python -m ardennes_tui`` runs the ``ardennes`` command."""

from ardennes_tui.cli import main

raise SystemExit(main())
