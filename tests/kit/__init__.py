"""Helpers shared by test modules (a test module never imports another test module): committed
game records (:mod:`tests.kit.records`), self-play checks, app drivers, email players, tmux
(:mod:`tests.kit.tmux`), hand-drawn boards and positions (:mod:`tests.kit.engine`,
:mod:`tests.kit.maps`), the compiled map when present (:mod:`tests.kit.realmap`), a terminal
emulator (:mod:`tests.kit.vt`), Tiny, the smallest ruleset (:mod:`tests.kit.tiny`)."""
