"""The games the app plays, without Textual: new games and game records of any ruleset
(:mod:`.saves`), hot-seat games in the store (:mod:`.hotseat`), games by email
(:mod:`.email_session`) and the player's settings (:mod:`.settings`); the AO's games against
the computer are its own (:mod:`ardennes_tui.rulesets.ao.games.versus`). The screens drive
them; a ``lint-imports`` contract keeps Textual and Rich out.
"""
