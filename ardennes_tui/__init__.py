"""The terminal front end: the Textual app and the ``ardennes`` command."""
