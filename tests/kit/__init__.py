"""Helpers shared by test modules (a test module never imports another test module): committed
game records (:mod:`tests.kit.records`), self-play checks, app drivers, email players, tmux.
The older kits beside ``tests/`` (``enginekit``, ``realmap``, ``fixtures_maps``, ``tmuxkit``)
are of the same kind."""
