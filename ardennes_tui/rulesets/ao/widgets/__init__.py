"""The AO's widgets: the side panel and the status line of its map screens."""
