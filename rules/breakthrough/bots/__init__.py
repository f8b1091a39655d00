"""*Breakthrough*'s computer players: :mod:`.heuristic` (one bot a side) and :mod:`.selfplay`
(a whole game between them, as a record). Pure and deterministic; they import the generic
core and this ruleset only."""
