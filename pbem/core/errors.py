"""The errors of :mod:`pbem`: every refusal is a :class:`PbemError` with a one-line message.

The message says what failed (and, where it helps, what to do), so the command line can print
it as is (``docs/pbem-protocol.md``, section 5: "the error says what failed and where").
"""

from __future__ import annotations

__all__ = ["PbemError", "one_line"]


class PbemError(ValueError):
    """A refusal by the play-by-email layer: a bad key, signature, packet or chain.

    Its message is one line; subclasses name the kind of failure (see :mod:`pbem.keys` and
    :mod:`pbem.core.sshsig`).
    """


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one printable line of at most ``limit`` characters: what hostile input
    puts in a message (a field name with a newline, a control character) shown as ``?``."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text[: limit + 1])
    return clean if len(clean) <= limit else clean[: limit - 3] + "..."
