"""What the app shows, without Textual: plain functions of the games, the map and the keys.

The map drawn as text (:mod:`.render`), a game's state, combat and playback in words
(:mod:`.game_view`, :mod:`.combat_text`, :mod:`.playback_text`), the audit (:mod:`.audit_view`),
the games of the store (:mod:`.game_list`), a scenario's set-up (:mod:`.scenario_view`),
getting around the map (:mod:`.navigation`), the help (:mod:`.help_text`) and the keys as data
(:mod:`.keymap`). Each is tested as plain text, without an app; Rich styles the text (the
map's colours, the help), Textual never appears (a ``lint-imports`` contract in
``pyproject.toml``). The screens, modes and widgets above turn it into the UI.
"""
