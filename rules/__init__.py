"""The rules engine of The Ardennes Offensive: a pure function of (scenario, commands, dice).

No I/O beyond reading its own data, no clock, no global randomness, no UI (import-linter
contracts in ``pyproject.toml`` enforce it).
"""
