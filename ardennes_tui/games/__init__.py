"""The games the app plays, without Textual: new games and game records (:mod:`.saves`),
hot-seat games in the store (:mod:`.hotseat`), games against the computer (:mod:`.versus`)
and games by email (:mod:`.email_session`). The screens drive them; what the app shows of them
is :mod:`ardennes_tui.present`'s (a ``lint-imports`` contract keeps Textual out).
"""
