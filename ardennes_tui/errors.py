"""The error the app raises for a problem with the user's input (a bad scenario number, a game
file that cannot be read or replayed).

It lives on the app side so that the app never imports the command line
(:mod:`ardennes_tui.cli` imports the app, never the reverse); the command line reports it as
one line on stderr and exits with its ``code``.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input: reported as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code
