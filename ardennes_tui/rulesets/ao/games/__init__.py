"""The AO's games the app plays: against the computer (its bots and levels)."""
