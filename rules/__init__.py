"""The rules engine of The Ardennes Offensive: a pure function of (board, commands, dice).

No I/O at all (the scenario data is read by :mod:`scenarios`, which builds the
:class:`rules.state.Board`), no clock, no global randomness, no UI (import-linter contracts in
``pyproject.toml`` enforce it).
"""
