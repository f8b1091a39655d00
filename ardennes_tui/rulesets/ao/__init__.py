"""The Ardennes Offensive in the app: its UI kit (:mod:`.kit`), screens, modes, panels, help
pages and map drawing; and its email kit (``email.py``). The shell finds them only through the
kits (:mod:`ardennes_tui.kits`), registered by :mod:`ardennes_tui.rulesets`."""
