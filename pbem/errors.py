"""The errors of :mod:`pbem`: every refusal is a :class:`PbemError` with a one-line message.

The message says what failed (and, where it helps, what to do), so the command line can print
it as is (``docs/pbem-protocol.md``, section 5: "the error says what failed and where").
"""

from __future__ import annotations

__all__ = ["PbemError"]


class PbemError(ValueError):
    """A refusal by the play-by-email layer: a bad key, signature, packet or chain.

    Its message is one line; subclasses name the kind of failure (see :mod:`pbem.keys` and
    :mod:`pbem.sshsig`).
    """
