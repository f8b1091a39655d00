"""What the app shows of an AO game, as plain functions and Rich text (no Textual)."""
