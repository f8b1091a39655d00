"""The SSH wire format's ``uint32`` and ``string`` (RFC 4251 section 5), for key blobs
(:mod:`pbem.keys`) and the SSHSIG framing (:mod:`pbem.core.sshsig`)."""

from __future__ import annotations

from pbem.core.errors import PbemError


def ssh_uint32(value: int) -> bytes:
    """``uint32``: four bytes, big-endian."""
    return value.to_bytes(4, "big")


def ssh_string(data: bytes) -> bytes:
    """``string``: a ``uint32`` length, then the bytes."""
    return ssh_uint32(len(data)) + data


class SshReader:
    """Reads ``uint32`` and ``string`` fields from a byte string, checking every length.

    Every failure raises ``error(message)`` (a :class:`PbemError` subclass chosen by the caller)
    with ``what`` (e.g. "SSH signature") in the message; :meth:`end` refuses trailing bytes.
    """

    def __init__(self, data: bytes, what: str, error: type[PbemError]) -> None:
        self._data = data
        self._pos = 0
        self._what = what
        self._error = error

    def fail(self, message: str) -> PbemError:
        """The error to raise for ``message`` about this structure."""
        return self._error(f"{self._what}: {message}")

    def raw(self, length: int, field: str) -> bytes:
        """The next ``length`` bytes (``field`` names them in the error)."""
        if length > len(self._data) - self._pos:
            raise self.fail(
                f"truncated {field} ({length} bytes needed, {len(self._data) - self._pos} left)"
            )
        out = self._data[self._pos : self._pos + length]
        self._pos += length
        return out

    def uint32(self, field: str) -> int:
        """The next ``uint32``."""
        return int.from_bytes(self.raw(4, field), "big")

    def string(self, field: str) -> bytes:
        """The next ``string``: its length is checked against what is left."""
        return self.raw(self.uint32(f"{field} length"), field)

    def end(self) -> None:
        """Refuse trailing bytes."""
        if self._pos != len(self._data):
            raise self.fail(f"{len(self._data) - self._pos} trailing bytes")
