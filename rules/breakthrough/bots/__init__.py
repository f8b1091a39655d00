"""*Breakthrough*'s computer players: :mod:`.planned` (version 2: the German plan on the
axes of :mod:`.plan`, the American's threatened sectors), :mod:`.heuristic` (version 1),
:mod:`.selfplay` (a whole game between them, as a record) and :mod:`.balance` (the balance
table). Pure and deterministic; they import the generic core and this ruleset only."""
