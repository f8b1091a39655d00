"""Widgets of the terminal UI; they hold view state only (cursor, zoom), never game state."""
