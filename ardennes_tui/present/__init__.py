"""What the app's shell shows, without Textual: plain functions of the games and the keys.

The audit (:mod:`.audit_view`), the games of the store (:mod:`.game_list`), the import's report
(:mod:`.import_view`), the keys as data (:mod:`.keymap`), wrapping (:mod:`.wrap`) and the
character picture a ruleset draws its map into (:mod:`.render`). Each is tested as plain text,
without an app; Rich styles the text, Textual never appears (a ``lint-imports`` contract in
``pyproject.toml``), and no ruleset either: a ruleset's own texts (the AO's game, combat,
playback and help) live with its UI, under :mod:`ardennes_tui.rulesets`.
"""
