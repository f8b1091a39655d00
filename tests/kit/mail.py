"""A real SMTP server on loopback for the tests: an ``aiosmtpd`` handler that keeps what it
receives (:class:`Inbox`) and a free port for its ``Controller``."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Inbox:
    """An aiosmtpd handler that keeps what it receives."""

    messages: list[tuple[str, list[str], bytes]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
